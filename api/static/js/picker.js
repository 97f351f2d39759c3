// The tile picker: a tile's kind picked (its likeliest readings first, its picture from the photo),
// moved to another set, marked as the winning tile, removed; or a tile added

import { $, el } from "./dom.js";
import { CLASSES, tileClass, tileLabel, tileName, tileShort } from "./tiles.js";
import { WIND_NAMES, windAt } from "./winds.js";
import { model, newTileId } from "./state.js";
import { leftOutNear, locate } from "./model.js";
import { winningTileMarked, winningTileUnmarked } from "./extras.js";
import { changed } from "./table.js";
import { focusOn, focusTile } from "./keyboard.js";

export { picking, openPicker, setupPicker };

let picking = null; // {id} of the tile open in the picker, or {add: setRef}
let focusAfter = null; // the tile id to focus once the picker closes (the hands are drawn anew)
let focusElse = null;  // what to focus then when that tile is gone (a selector)

function buildPickerKinds() {
  const box = $("#picker-kinds");
  for (const code of CLASSES) {
    box.append(el("button", { type: "button", class: `tile ${tileClass(code)}`, "data-code": code,
      "aria-label": tileLabel(code), title: tileName(code), onclick: () => pick(code) }, tileShort(code)));
  }
}

function setChoices() {
  const options = [el("option", { value: "" }, "(stay here)")];
  for (let pos = 0; pos < 4; pos++) {
    const name = WIND_NAMES[windAt(pos)];
    options.push(el("option", { value: `${pos}:concealed` }, `${name}: concealed`));
    model.seats[pos].melds.forEach((_, m) => options.push(el("option", { value: `${pos}:meld:${m}` }, `${name}: set ${m + 1}`)));
    options.push(el("option", { value: `${pos}:new` }, `${name}: new set`));
    options.push(el("option", { value: `${pos}:bonus` }, `${name}: flowers / seasons`));
  }
  return options;
}

// the tile as the photo shows it, turned upright (its quad's first edge is its top as its player
// sees it) with a little of its neighbours: what a person picks its kind from
const CROP_HEIGHT = 120;
function drawTileCrop(tile) {
  const canvas = $("#picker-crop");
  const img = $("#photo-img");
  const quad = tile && Array.isArray(tile.quad) && tile.quad.length === 4 ? tile.quad : null;
  canvas.hidden = !(quad && img.complete && img.naturalWidth && model.width);
  if (canvas.hidden) return;
  const [p0, p1, , p3] = quad;
  const width = Math.hypot(p1[0] - p0[0], p1[1] - p0[1]);
  const height = Math.hypot(p3[0] - p0[0], p3[1] - p0[1]);
  const cx = quad.reduce((sum, p) => sum + p[0], 0) / 4;
  const cy = quad.reduce((sum, p) => sum + p[1], 0) / 4;
  const margin = 1.25;
  const k = CROP_HEIGHT / (height * margin);
  canvas.height = CROP_HEIGHT;
  canvas.width = Math.max(1, Math.round(width * margin * k));
  const ctx = canvas.getContext("2d");
  ctx.translate(canvas.width / 2, canvas.height / 2);
  ctx.scale(k, k);
  ctx.rotate(-Math.atan2(p1[1] - p0[1], p1[0] - p0[0]));
  ctx.translate(-cx, -cy);
  ctx.drawImage(img, 0, 0, model.width, model.height);  // the shown photo may be smaller than the original
}

function openPicker(id, addTarget, fromPhoto = false) {
  picking = id ? { id, fromPhoto } : { add: addTarget };
  const tile = id ? model.tiles.get(id) : null;
  $("#picker-title").textContent = tile ? `Tile: ${tileName(tile.code)}` : "Add a tile";
  // a face-down end of a kong counts as the kong's kind, but was read as a face-down tile
  const readAs = tile ? tileName(tile.read || tile.code) : "";
  $("#picker-current").textContent = tile
    ? (tile.confidence != null ? `Read as ${readAs} (${Math.round(tile.confidence * 100)}% sure)${tile.read ? `, counted as ${tileName(tile.code)}` : ""}. Pick the right tile:` : "Pick the right tile:")
    : "Pick the tile to add:";
  // a tile the recogniser, or the page (a hand full without it), left out of the hand it was found
  // beside: said so, and how to count it
  const near = tile ? leftOutNear(id) : null;
  const nearName = near === null ? "" : WIND_NAMES[windAt(near)];
  const by = near !== null && tile.leftOut ? `as the hand has its ${tile.leftOut.full} tiles without it` : "by the recogniser";
  $("#picker-where").hidden = near === null;
  $("#picker-where").textContent = near === null ? ""
    : `Found beside ${nearName}'s hand and left out of it ${by}: it is not scored. To count it, `
      + `move it into a hand (\u201c${nearName}: concealed\u201d, say) below; if it is no tile, remove it.`;
  const move = $("#picker-move");
  move.replaceChildren(...setChoices());
  move.disabled = !tile;
  $("#picker-move-go").disabled = !tile;
  const where = tile ? locate(id) : null;
  const canWin = where && where.kind === "concealed";
  $("#picker-winning-label").hidden = !canWin;
  $("#picker-winning").checked = model.winning === id;
  $("#picker-delete").hidden = !tile;
  for (const b of document.querySelectorAll("#picker-kinds button")) b.setAttribute("aria-pressed", tile && b.dataset.code === tile.code ? "true" : "false");
  // one Tab stop for the grid (the arrow keys go within it): the current kind, or the first
  const stop = (tile && document.querySelector(`#picker-kinds button[data-code="${tile.code}"]`)) || document.querySelector("#picker-kinds button");
  for (const b of document.querySelectorAll("#picker-kinds button")) b.tabIndex = b === stop ? 0 : -1;
  // the recogniser's likeliest readings, one click each (a misread tile's right kind is mostly
  // among them); shown when it weighed more than one at 1% or more
  const likely = tile ? (tile.candidates || []).filter(([, p]) => p >= 0.01) : [];
  $("#picker-likely").hidden = likely.length < 2;
  $("#picker-likely-kinds").replaceChildren(...likely.map(([code, p]) => el("button", {
    type: "button", class: `tile ${tileClass(code)}`, "data-code": code, "aria-pressed": code === tile.code ? "true" : "false",
    "aria-label": `${tileLabel(code)}, ${Math.round(p * 100)}%`, title: `${tileName(code)}, ${Math.round(p * 100)}%`,
    onclick: () => pick(code),
  }, tileShort(code), el("small", {}, `${Math.round(p * 100)}%`))));
  drawTileCrop(tile);
  $("#picker").showModal();
  const current = tile && document.querySelector(`#picker-kinds button[data-code="${tile.code}"]`);
  (current || document.querySelector("#picker-kinds button")).focus();
}

function pick(code) {
  if (picking.id) {
    const tile = model.tiles.get(picking.id);
    tile.code = code;
    tile.read = null;
    tile.checked = true;  // a person has looked at it
    focusAfter = picking.id;
  } else {
    const id = newTileId();
    model.tiles.set(id, { id, code, box: null, confidence: null });
    const seat = model.seats[picking.add.pos];
    seat[picking.add.kind].push(id);
    focusAfter = id;
  }
  changed();
  $("#picker").close();
}

function moveTile(id, target) {
  const where = locate(id);
  if (!where || !target) return;
  where.list.splice(where.index, 1);
  // put where a person wants it: the page never moves it (leaveOutExtras, takeTileReadAsBonus)
  model.tiles.get(id).moved = true;
  const [posText, kind, m] = target.split(":");
  const seat = model.seats[Number(posText)];
  if (kind === "concealed") seat.concealed.push(id);
  else if (kind === "bonus") seat.bonus.push(id);
  else if (kind === "new") seat.melds.push({ exposed: true, ids: [id] });
  else if (kind === "meld") seat.melds[Number(m)].ids.push(id);
  if (model.winning === id && kind !== "concealed") model.winning = null;
}

// the winner named by marking their winning tile: the list's change event is sent, so what
// follows from who won (East's flags offered or taken away) follows as when chosen in the list
function chooseWinner(wind) {
  if ($("#winner").value === wind) return;
  $("#winner").value = wind;
  $("#winner").dispatchEvent(new Event("change"));
}

function setupPicker() {
  buildPickerKinds();
  // the list only chooses (arrow keys browse it); the button moves
  $("#picker-move-go").addEventListener("click", () => {
    const target = $("#picker-move").value;
    if (!picking || !picking.id || !target) return;
    moveTile(picking.id, target);
    focusAfter = picking.id;
    changed();
    $("#picker").close();
  });
  $("#picker-winning").addEventListener("change", (e) => {
    if (!picking || !picking.id) return;
    model.winning = e.target.checked ? picking.id : (model.winning === picking.id ? null : model.winning);
    if (e.target.checked) {
      const where = locate(picking.id);
      // another winner: winnerChanged undoes what the page did for the last and does it anew
      if (where && where.pos !== null && windAt(where.pos) !== $("#winner").value) chooseWinner(windAt(where.pos));
      else winningTileMarked(picking.id);
    } else {
      winningTileUnmarked(picking.id);
    }
    changed();
  });
  $("#picker-delete").addEventListener("click", () => {
    const where = picking && picking.id && locate(picking.id);
    if (where) {
      where.list.splice(where.index, 1);
      focusAfter = where.list[Math.min(where.index, where.list.length - 1)] || null;
      // the last tile of its set gone: the keyboard goes to that seat's "+", not the page's top
      const seat = where.pos === null ? null : `article[data-seat="${windAt(where.pos)}"]`;
      focusElse = !seat ? "#score" : `${seat} [data-set="${where.kind === "bonus" ? "bonus" : "concealed"}"] button.add`;
    }
    model.tiles.delete(picking.id);
    if (model.winning === picking.id) model.winning = null;
    changed();
    $("#picker").close();
  });
  // Done with a place chosen in "Move to" moves the tile there, as the Move button does
  $("#picker-close").addEventListener("click", () => {
    if (picking && picking.id && $("#picker-move").value) $("#picker-move-go").click();
  });
  $("#picker").addEventListener("close", () => {
    const back = focusAfter || (picking && picking.id);
    const fromPhoto = Boolean(picking && picking.fromPhoto);
    const otherwise = focusElse;
    picking = null;
    focusAfter = null;
    focusElse = null;
    // the hands were drawn anew: focus goes back to the tile, not the page
    if (model && model.tiles.has(back)) focusTile(back, fromPhoto);
    else if (otherwise) focusOn(otherwise, fromPhoto);
  });
}
