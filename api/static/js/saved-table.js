// The table being corrected, and its photo, kept in this tab's sessionStorage (read back by
// table.js restoreTable)

import { $ } from "./dom.js";
import { correcting, model, nextId } from "./state.js";

export { SAVED, SAVED_PHOTO, FORM_FIELDS, saveTable, savePhoto };

// The table being corrected is kept in this tab's sessionStorage, so a reload (a phone's
// browser drops a tab it has put in the background) does not lose the corrections made.
const SAVED = "mjscore.table";
const SAVED_PHOTO = "mjscore.photo";
const FORM_FIELDS = ["camera_seat", "ruleset", "round_wind", "winner", "win_by", "limit", "mj_bonus"];
const SAVED_PHOTO_SIDE = 1600;

function saveTable() {
  if (!model) return;
  const form = Object.fromEntries(FORM_FIELDS.map((f) => [f, $(`#${f}`).value]));
  form.flags = [...document.querySelectorAll("input[name=flag]:checked")].map((i) => i.value);
  const saved = { ...model, tiles: [...model.tiles.entries()], nextId, form, correcting };
  try {
    sessionStorage.setItem(SAVED, JSON.stringify(saved));
  } catch (e) { /* storage full or off: the page works on without it */ }
}

// the photo shown, as a JPEG data URL at most SAVED_PHOTO_SIDE pixels long (drawn from the
// <img>, which the browser has already turned upright)
function savePhoto(img) {
  try {
    const k = Math.min(1, SAVED_PHOTO_SIDE / Math.max(img.naturalWidth, img.naturalHeight));
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(img.naturalWidth * k);
    canvas.height = Math.round(img.naturalHeight * k);
    canvas.getContext("2d").drawImage(img, 0, 0, canvas.width, canvas.height);
    sessionStorage.setItem(SAVED_PHOTO, canvas.toDataURL("image/jpeg", 0.85));
  } catch (e) {
    try { sessionStorage.removeItem(SAVED_PHOTO); } catch (e2) { /* nothing to keep */ }
  }
}
