// The page's elements: finding one ($), making one (el), the smooth scrolling a reader may turn
// down, and the status line under a section

export { $, el, setStatus, SCROLL };

const $ = (sel) => document.querySelector(sel);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
};

function setStatus(text, isError, where = "#status") {
  const status = $(where);
  status.textContent = text;
  status.classList.toggle("error", Boolean(isError));
}

// smooth scrolling, unless the reader asked for less motion
const SCROLL = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";
