// The keyboard among tile buttons (the arrow keys, Home and End), and focus put back on a tile

export { arrowTo, focusOn, focusTile };

// the arrow keys among tile buttons: left and right along `row(button)`'s buttons, Home and End to
// its ends, up and down to the nearest button of the line above or below among all `buttons`
const ARROWS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];
function arrowTo(event, buttons, row) {
  const from = event.target.closest("button.tile");
  if (!from || !ARROWS.includes(event.key) || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  let to = null;
  if (event.key === "ArrowUp" || event.key === "ArrowDown") {
    const here = from.getBoundingClientRect();
    const down = event.key === "ArrowDown";
    let best = Infinity;
    for (const b of buttons) {
      const r = b.getBoundingClientRect();
      const dy = down ? r.top - here.bottom : here.top - r.bottom;
      if (dy < -here.height / 2 || b === from) continue;  // not on a line below (above)
      const cost = dy * 4 + Math.abs(r.left + r.width / 2 - here.left - here.width / 2);
      if (cost < best) { best = cost; to = b; }
    }
  } else {
    const mates = row(from);
    const i = mates.indexOf(from);
    to = { ArrowLeft: mates[i - 1], ArrowRight: mates[i + 1], Home: mates[0], End: mates[mates.length - 1] }[event.key];
  }
  if (to) {
    event.preventDefault();
    if (from.tabIndex === 0 && to.tabIndex === -1) {  // a grid with one Tab stop: it moves along
      from.tabIndex = -1;
      to.tabIndex = 0;
    }
    to.focus();
  }
}

function focusOn(selector, preventScroll = false) {
  const node = document.querySelector(selector);
  if (node) node.focus({ preventScroll });
}

// the keyboard back on a tile; without scrolling to its hand when the picker was opened from
// the photo (a player correcting tile after tile on the photo stays at the photo)
function focusTile(id, preventScroll = false) {
  if (id) focusOn(`#hands button.tile[data-id="${id}"]`, preventScroll);
}
