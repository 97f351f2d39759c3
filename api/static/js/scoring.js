// The corrected table built as a case for the rules engine (buildCase), checked for what it still
// needs, and scored (api/v1/score)

import { $, SCROLL, el, setStatus } from "./dom.js";
import { WINDS, WIND_NAMES, posOfWind, windAt } from "./winds.js";
import { correcting, game, model, setScored } from "./state.js";
import { meldKind } from "./model.js";
import { saveTable } from "./saved-table.js";
import { OFFLINE, apiError } from "./server-errors.js";
import { renderResult, summary } from "./results.js";
import { clearFieldErrors, houseParams, showFieldError } from "./form.js";
import { gameHandOf } from "./game-ledger.js";
import { renderPlayers } from "./game.js";

export { scoreTable };

function buildCase() {
  const ruleset = $("#ruleset").value;
  const winner = $("#winner").value;
  const flags = [...document.querySelectorAll("input[name=flag]:checked")].map((i) => i.value);
  const hands = [];
  let winningCode = null;
  model.seats.forEach((seat, pos) => {
    const codes = (ids) => ids.map((id) => model.tiles.get(id).code);
    const total = seat.concealed.length + seat.bonus.length + seat.melds.length;
    const seatWind = windAt(pos);
    if (!total && seatWind !== winner) return;
    const melds = seat.melds.map((meld) => {
      let tiles = codes(meld.ids);
      const faces = tiles.filter((c) => c !== "back");
      if (faces.length && faces.length < tiles.length && faces.every((c) => c === faces[0])) tiles = tiles.map(() => faces[0]);
      return { kind: meldKind(meld), tiles, exposed: meld.exposed };
    });
    const hand = { seat: seatWind, winner: seatWind === winner, concealed: codes(seat.concealed), melds,
      bonus_tiles: codes(seat.bonus), winning_tile: null, win_by: null, flags: [] };
    if (seatWind === winner) {
      const winId = model.winning && seat.concealed.includes(model.winning) ? model.winning : null;
      const winBy = $("#win_by").value;
      winningCode = winId ? model.tiles.get(winId).code : null;
      hand.winning_tile = winBy === "original-hand" ? null : winningCode;
      hand.win_by = winBy;
      hand.flags = flags;
    }
    hands.push(hand);
  });
  const table = { ruleset, seat_wind: winner, round_wind: ruleset === "pung-chow" ? null : $("#round_wind").value, hands };
  const params = houseParams(ruleset);
  if (params) table.params = params;
  // in a classical game, East's wins in a row before this hand, as the game counts them (limit
  // hand J is East's thirteenth): the count before the hand it is, the next one or one in the game
  const hand = game && game.answer && game.ruleset === ruleset ? gameHandOf(table) : null;
  if (hand && hand !== game.answer.next && table.round_wind !== null) {
    // a hand of the game, scored again or corrected, is one of its own round, whatever the form
    // has moved on to
    table.round_wind = hand.round_wind;
    $("#round_wind").value = hand.round_wind;
  }
  if (hand && ruleset === "classical" && Number.isInteger(hand.east_wins)) {
    table.params.east_consecutive_wins = hand.east_wins + 1;
  }
  return table;
}

// what the page needs before a table can be scored, in words a player acts on (null: ready):
// {message, field} for a field of section 2 (the keyboard is taken there), {message, seat} for a
// seat's tiles (a button beside the message goes there)
function notReady() {
  const winner = $("#winner").value;
  if (!winner) return { message: "Choose who won.", field: "winner" };
  const pos = posOfWind(winner, $("#camera_seat").value);
  if ($("#win_by").value !== "original-hand" && !model.seats[pos].concealed.includes(model.winning)) {
    return { message: `Mark the tile that won ${WIND_NAMES[winner]} the hand: click it among ${WIND_NAMES[winner]}'s `
      + "concealed tiles and tick \u201cwinning tile\u201d.", seat: winner };
  }
  const limit = $("#limit").value.trim();
  if (!$("#limit-label").hidden) {
    const bad = $("#limit").validity.badInput || (limit && !(Number.isInteger(Number(limit)) && Number(limit) >= 1));
    if (bad || (!limit && $("#ruleset").value === "classical")) {
      return { message: $("#ruleset").value === "classical" ? "The limit must be a whole number of points (1000 is usual)."
        : "The limit must be a whole number of points, or empty for the book's game with no limit.", field: "limit" };
    }
  }
  return null;
}

// the first seat a message names ("West (winner) holds 13 tiles"), for a button that goes there
// ("East Wind" is a tile, not a seat)
function seatNamed(message) {
  const m = /\b(East|South|West|North)\b(?! Wind)/.exec(String(message));
  return m ? WINDS.find((w) => WIND_NAMES[w] === m[1]) : null;
}

// a button that takes the keyboard to a seat's first tile (its "+" when it has none)
function goToSeat(wind) {
  return el("button", { type: "button", class: "go-to-seat", onclick: () => {
    const card = `#hands article[data-seat="${wind}"]`;
    const node = document.querySelector(`${card} button.tile:not(.add)`) || document.querySelector(`${card} button.add`);
    if (node) { node.scrollIntoView({ block: "center", behavior: SCROLL }); node.focus({ preventScroll: true }); }
  } }, `go to ${WIND_NAMES[wind]}'s tiles`);
}

// the score button's line: a message, and a button to the seat it is about
function scoreStatus(message, seat) {
  $("#score-status").replaceChildren(message, ...(seat ? [" ", goToSeat(seat)] : []));
}

async function scoreTable() {
  const body = $("#result-body");
  const missing = notReady();
  $("#score-status").textContent = "";
  clearFieldErrors();
  if (missing) {
    $("#results").hidden = true;
    if (missing.field) showFieldError(missing.field, missing.message);
    else scoreStatus(missing.message, missing.seat);  // beside the button, announced once
    document.body.dataset.state = "score-error";
    return;
  }
  // until the answer comes the results shown are the last table's, not this one's
  document.body.dataset.state = "scoring";
  const table = buildCase();
  setStatus("Scoring…");
  let response;
  try {
    response = await fetch("api/v1/score", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify(table) });
  } catch (e) {
    setStatus("");
    scoreStatus(OFFLINE);
    document.body.dataset.state = "score-error";
    return;
  }
  $("#results").hidden = false;
  if (!response.ok) {
    const message = await apiError(response);
    const seat = seatNamed(message);
    body.replaceChildren(el("p", { class: "error", role: "alert" }, `This table cannot be scored: ${message}`,
      ...(seat ? [" ", goToSeat(seat)] : [])));
    // the engine's refusal (a 4xx of its own) needs a correction; a server's fault or the front
    // server's answer does not
    const refused = response.status < 500 && (response.headers.get("content-type") || "").includes("json");
    setStatus(refused ? "The table needs a correction." : `The table could not be scored: ${message}`, true);
    $("#results").scrollIntoView({ behavior: SCROLL, block: "start" });
    document.body.dataset.state = "score-error";
    return;
  }
  const result = await response.json();
  setScored({ table, replaces: game && correcting === game.hands.length ? correcting : null });
  renderPlayers();
  renderResult(result, table);
  model.edited = false;
  saveTable();
  setStatus(`Scored: ${summary(result)}.`);
  document.body.dataset.state = "scored";
  $("#results").scrollIntoView({ behavior: SCROLL, block: "start" });
  $("#results-title").focus({ preventScroll: true });  // the keyboard, and a screen reader, at the scores
}
