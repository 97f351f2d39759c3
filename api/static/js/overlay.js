// The recognised tiles outlined on the photo: each box opens its tile in the picker, as does a tap
// that lands between boxes

import { $ } from "./dom.js";
import { tileName, tileShort } from "./tiles.js";
import { WIND_NAMES, windAt } from "./winds.js";
import { model } from "./state.js";
import { leftOutNear, locate, unsure } from "./model.js";
import { openPicker } from "./picker.js";

export { renderOverlay, tapNearest, highlight };

function renderOverlay() {
  const svg = $("#overlay");
  svg.setAttribute("viewBox", `0 0 ${model.width} ${model.height}`);
  svg.replaceChildren();
  const ns = "http://www.w3.org/2000/svg";
  const stroke = Math.max(2, Math.round(Math.max(model.width, model.height) / 400));
  for (const tile of model.tiles.values()) {
    if (!tile.box) continue;
    const where = locate(tile.id);
    const near = leftOutNear(tile.id);
    const [x1, y1, x2, y2] = tile.box;
    const fontSize = Math.max(9, Math.round(Math.min(x2 - x1, y2 - y1) * 0.6));
    const g = document.createElementNS(ns, "g");
    g.setAttribute("class", `box pos-${where && where.pos !== null ? where.pos : "none"}${near === null ? "" : " left-out"}${unsure(tile) ? " unsure" : ""}${(model.shown || []).includes(tile.id) ? " named" : ""}`);
    g.setAttribute("data-id", tile.id);
    const rect = document.createElementNS(ns, "rect");
    for (const [k, v] of Object.entries({ x: x1, y: y1, width: x2 - x1, height: y2 - y1, "stroke-width": stroke })) rect.setAttribute(k, v);
    const text = document.createElementNS(ns, "text");
    // inside its own box (above it, a column's label fell in the box of the tile above)
    text.setAttribute("x", x1 + stroke);
    text.setAttribute("y", y1 + stroke + fontSize * 0.85);
    text.setAttribute("font-size", fontSize);
    text.textContent = tileShort(tile.code);
    g.append(rect, text);
    if (near !== null) {
      // left out of the hand it was found beside: struck through, and said so under the pointer
      const strike = document.createElementNS(ns, "line");
      for (const [k, v] of Object.entries({ x1, y1, x2, y2, "stroke-width": stroke })) strike.setAttribute(k, v);
      const title = document.createElementNS(ns, "title");
      title.textContent = `${tileName(tile.code)}: left out of ${WIND_NAMES[windAt(near)]}'s hand, not scored`;
      g.append(strike, title);
    }
    g.addEventListener("click", () => openPicker(tile.id, null, true));
    svg.append(g);
  }
}

// a tap on the photo that lands between boxes opens the nearest tile within a tile's length of it:
// on a phone the boxes are a few pixels wide, narrower than a finger
function tapNearest(event) {
  if (!model || event.target.closest("g.box")) return;
  const svg = $("#overlay");
  const rect = svg.getBoundingClientRect();
  const x = (event.clientX - rect.left) * (model.width / rect.width);
  const y = (event.clientY - rect.top) * (model.height / rect.height);
  let best = null;
  for (const tile of model.tiles.values()) {
    if (!tile.box) continue;
    const [x1, y1, x2, y2] = tile.box;
    const dx = Math.max(x1 - x, 0, x - x2), dy = Math.max(y1 - y, 0, y - y2);
    const d = Math.hypot(dx, dy);
    if (d <= Math.max(x2 - x1, y2 - y1) && (!best || d < best.d)) best = { d, id: tile.id };
  }
  if (best) openPicker(best.id, null, true);
}

function highlight(id, on) {
  const g = document.querySelector(`#overlay g[data-id="${id}"]`);
  if (g) g.classList.toggle("focus", on);
}
