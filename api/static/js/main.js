// mjscore web page: upload a photo, correct the recognised tiles, score the table.
// Plain JS in native modules (this one, loaded by index.html, imports the others), no build step.
// Talks to /api/v1/recognize, /api/v1/score and /api/v1/game.  Here: the page's wiring.

import { $, setStatus } from "./dom.js";
import { cameraShown, model, setCameraShown } from "./state.js";
import { winByChanged, winnerChanged } from "./extras.js";
import { tapNearest } from "./overlay.js";
import { changed, restoreTable } from "./table.js";
import { arrowTo } from "./keyboard.js";
import { FORM_FIELDS } from "./saved-table.js";
import { picking, setupPicker } from "./picker.js";
import { OFFLINE, gatewayError } from "./server-errors.js";
import { recognizeFile } from "./upload.js";
import { scoreTable } from "./scoring.js";
import { bonusChanged, cameraChanged, showFlags, showRuleFields } from "./form.js";
import {
  endGame, gameChangedElsewhere, restoreGame, saveGameFile, settingsChanged, startGame, undoGame
} from "./game.js";

function setup() {
  setupPicker();
  for (const input of ["#photo", "#camera"]) {
    $(input).addEventListener("change", (e) => {
      const file = e.target.files[0];
      e.target.value = "";  // so choosing the same photo again reads it again
      recognizeFile(file);
    });
  }
  $("#example").addEventListener("click", async () => {
    let blob;
    try {
      const response = await fetch("static/example.jpg");
      if (!response.ok) {
        setStatus(`The example photo could not be fetched: ${gatewayError(response.status)}`, true);
        return;
      }
      blob = await response.blob();
    } catch (e) {
      setStatus(OFFLINE, true);
      return;
    }
    recognizeFile(new File([blob], "example.jpg", { type: blob.type || "image/jpeg" }));
  });
  const drop = $("#drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    if (e.dataTransfer.files.length) recognizeFile(e.dataTransfer.files[0]);
  });
  $("#score").addEventListener("click", scoreTable);
  $("#overlay").addEventListener("click", tapNearest);
  $("#table .skip").addEventListener("click", (e) => { e.preventDefault(); $("#score").focus(); });
  $("#hands").addEventListener("keydown", (e) => arrowTo(e, [...$("#hands").querySelectorAll("button.tile")],
    (b) => [...b.closest("article").querySelectorAll("button.tile")]));
  for (const grid of ["#picker-kinds", "#picker-likely-kinds"]) {
    $(grid).addEventListener("keydown", (e) => {
      const all = [...$(grid).querySelectorAll("button.tile")];
      arrowTo(e, all, () => all);
    });
  }
  $("#camera_seat").addEventListener("change", () => { if (model) cameraChanged(cameraShown); else setCameraShown($("#camera_seat").value); });
  $("#winner").addEventListener("change", () => {
    if (model) winnerChanged();
    showFlags();
  });
  $("#win_by").addEventListener("change", winByChanged);
  $("#mj_bonus").addEventListener("change", bonusChanged);
  $("#ruleset").addEventListener("change", () => showRuleFields(true));
  for (const f of FORM_FIELDS) $(`#${f}`).addEventListener("change", () => changed(false));
  $("#limit").addEventListener("input", () => changed(false));
  for (const box of document.querySelectorAll("input[name=flag]")) box.addEventListener("change", () => changed(false));
  $("#game-start").addEventListener("submit", startGame);
  $("#game-undo").addEventListener("click", undoGame);
  $("#game-save").addEventListener("click", saveGameFile);
  $("#game-end").addEventListener("click", endGame);
  for (const f of ["#ruleset", "#limit", "#mj_bonus"]) $(f).addEventListener("change", settingsChanged);
  window.addEventListener("storage", gameChangedElsewhere);
  if (!restoreTable()) {
    showRuleFields(true);
    document.body.dataset.state = "ready";
  }
  restoreGame();
}

// what the browser tests read of the page's state (tests/test_browser.py), in one place
window.mjscore = Object.freeze({ get picking() { return picking; } });

document.addEventListener("DOMContentLoaded", setup);
