// The table being corrected as a whole: drawn anew and kept after each change (renderAll, changed),
// and brought back from this tab's storage after a reload (restoreTable).  The drawing modules call
// back here from their buttons' handlers only, never as they load, so their imports of each other
// (table.js draws hands, whose buttons call changed) are safe.

import { $, setStatus } from "./dom.js";
import { game, model, nextId, scored, setCameraShown, setCorrecting, setModel, setNextId, setScored } from "./state.js";
import { dropEmptyMelds } from "./model.js";
import { renderWarnings } from "./warnings.js";
import { renderHands } from "./hands.js";
import { renderOverlay } from "./overlay.js";
import { FORM_FIELDS, SAVED, SAVED_PHOTO, saveTable } from "./saved-table.js";
import { clearFieldErrors, showRuleFields } from "./form.js";
import { sameHand } from "./game-ledger.js";
import { renderPlayers } from "./game.js";

export { renderAll, changed, restoreTable };

function renderAll() {
  dropEmptyMelds();
  renderHands();
  renderOverlay();
  renderWarnings();
  saveTable();
}

// a correction of the tiles (`tiles`) or a changed field: the table is redrawn and kept, and
// scores shown for the table as it was are taken away (they would be read as this table's); a
// new photo asks before it throws away corrections of the tiles, not of the fields
function changed(tiles = true) {
  if (model) {
    if (tiles) model.edited = true;
    renderAll();
  } else {
    saveTable();
  }
  $("#score-status").textContent = "";
  clearFieldErrors();
  if (!$("#results").hidden) {
    $("#results").hidden = true;
    $("#result-body").replaceChildren();
    // the scores shown, and the hand that could go to the game, are gone; a correction of the
    // game's last hand (a second one too) may replace it once scored again
    if (scored) {
      const last = game ? game.hands.length : 0;
      setCorrecting(last && (scored.replaces === last || sameHand(game.hands[last - 1], scored.table)) ? last : null);
      saveTable();
    }
    setScored(null);
    renderPlayers();
    setStatus("The table changed: score it again.");
    document.body.dataset.state = "recognized";
  }
}

function restoreTable() {
  let saved = null;
  try {
    saved = JSON.parse(sessionStorage.getItem(SAVED) || "null");
  } catch (e) { saved = null; }
  if (!saved || !Array.isArray(saved.tiles) || !Array.isArray(saved.seats)) return false;
  const { form, nextId: savedNext, correcting: savedCorrecting, ...rest } = saved;
  setCorrecting(Number.isInteger(savedCorrecting) ? savedCorrecting : null);  // checked against the game once it is read
  setModel({ ...rest, tiles: new Map(saved.tiles) });
  setNextId(Math.max(nextId, savedNext || 0));
  for (const f of FORM_FIELDS) if (form && form[f] !== undefined) $(`#${f}`).value = form[f];
  for (const box of document.querySelectorAll("input[name=flag]")) box.checked = Boolean(form && (form.flags || []).includes(box.value));
  showRuleFields(false);
  setCameraShown($("#camera_seat").value);
  let photo = null;
  try { photo = sessionStorage.getItem(SAVED_PHOTO); } catch (e) { photo = null; }
  if (photo) $("#photo-img").src = photo;
  renderWarnings();
  renderAll();
  $("#table").hidden = false;
  $("#results").hidden = true;
  setStatus("Your last table is back as you left it. Choose a photo to start a new one.");
  document.body.dataset.state = "recognized";
  return true;
}
