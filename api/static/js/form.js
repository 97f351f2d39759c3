// The form's fields (what the photo cannot show): the fields each rule set takes, the flags that can
// apply, the house settings, the wind at the photo's bottom, and a field that stops the scoring

import { $, SCROLL } from "./dom.js";
import { posOfWind, windAt } from "./winds.js";
import { setCameraShown } from "./state.js";

export { houseParams, showFieldError, clearFieldErrors, showRuleFields, showFlags, bonusChanged, cameraChanged };

// the house settings the form gives a table of these rules (none for Part I)
function houseParams(ruleset) {
  const limit = $("#limit").value.trim();
  if (ruleset === "pung-chow-limit") return { mj_bonus: Number($("#mj_bonus").value), limit: limit ? Number(limit) : null };
  if (ruleset === "classical") return { limit: limit ? Number(limit) : RULE_LIMITS.classical };
  return null;
}

// a field of section 2 that stops the scoring: marked, its message under the form, the keyboard
// (and the view) taken to it; the score button's own line stays empty, so it is said once
function showFieldError(field, message) {
  const input = $(`#${field}`);
  input.setAttribute("aria-invalid", "true");
  input.setAttribute("aria-describedby", "context-error");
  input.closest("label").after($("#context-error"));  // right after the field (a row of its own)
  $("#context-error").textContent = message;
  $("#context-error").hidden = false;
  input.scrollIntoView({ block: "center", behavior: SCROLL });
  input.focus({ preventScroll: true });
}

function clearFieldErrors() {
  for (const input of document.querySelectorAll("#context-form [aria-invalid]")) {
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
  }
  $("#context-error").textContent = "";
  $("#context-error").hidden = true;
}

// the house settings each rule set takes: Part II a limit (300 with a Mah-Jongg bonus of 10;
// empty for the book's uncapped game) and that bonus, the classical rules a limit (1000) and
// East's thirteenth win in a row (limit hand J)
const RULE_LIMITS = { "pung-chow-limit": 300, classical: 1000 };

function showRuleFields(setDefaults) {
  const ruleset = $("#ruleset").value;
  $("#round_wind").disabled = ruleset === "pung-chow";
  $("#round-wind-note").hidden = ruleset !== "pung-chow";
  $("#limit-label").hidden = !(ruleset in RULE_LIMITS);
  $("#mj-bonus-label").hidden = ruleset !== "pung-chow-limit";
  showFlags();
  $("#limit-label").firstChild.textContent = ruleset === "pung-chow-limit"
    ? "Limit (points a hand scores at most; empty: no limit) " : "Limit (points a hand scores at most) ";
  if (setDefaults && ruleset in RULE_LIMITS) $("#limit").value = String(RULE_LIMITS[ruleset]);
}

// the flags of how a hand was won each rule set scores (scoring.case.RULESET_WIN_FLAGS; the
// server refuses another's): Part I none, Part II the last tile and East's first discard
const RULE_FLAGS = {
  "pung-chow": [],
  "pung-chow-limit": ["last-tile", "east-first-discard"],
  classical: ["last-tile", "standing-hand", "east-first-discard", "east-13th-consecutive"],
};

// a box that cannot apply is not offered (and not left ticked): a flag the rule set does not
// score; East's thirteenth win in a row (classical limit J) is East's alone; East's first
// discard is won by anyone but East
function showFlags() {
  const winner = $("#winner").value;
  const scored = RULE_FLAGS[$("#ruleset").value] || [];
  let offered = 0;
  for (const box of document.querySelectorAll("input[name=flag]")) {
    const applies = scored.includes(box.value)
      && !(box.value === "east-13th-consecutive" && winner !== "E")
      && !(box.value === "east-first-discard" && winner === "E");
    box.closest("label").hidden = !applies;
    if (!applies) box.checked = false;
    offered += applies;
  }
  $("fieldset.flags").hidden = offered === 0;
}

// the usual limit follows the Mah-Jongg bonus (300 with 10, 400 with 20) while it is the usual one
function bonusChanged() {
  const usual = { 10: "300", 20: "400" };
  const other = $("#mj_bonus").value === "20" ? usual[10] : usual[20];
  if ($("#limit").value === other) $("#limit").value = usual[$("#mj_bonus").value];
}

// the wind at the photo's bottom edge changed (`from`: the wind the hands were drawn for): the
// same player won, so the winner keeps their place, under their new wind (East now, maybe: East's
// flags follow)
function cameraChanged(from) {
  const winner = $("#winner").value;
  if (winner) $("#winner").value = windAt(posOfWind(winner, from));
  setCameraShown($("#camera_seat").value);
  showFlags();
}
