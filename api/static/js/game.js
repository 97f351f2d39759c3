// The game on the page: started, each scored hand added (or a corrected last hand put in its
// place), taken back, ended, saved as a file; followed by the form and by other tabs

import { $, el } from "./dom.js";
import { WINDS, WIND_NAMES } from "./winds.js";
import { correcting, game, scored, setCorrecting, setGame } from "./state.js";
import { OFFLINE, apiError } from "./server-errors.js";
import { houseParams, showRuleFields } from "./form.js";
import { saveTable } from "./saved-table.js";
import {
  RULESET_NAMES, SAVED_GAME, forGame, gameCsv, gameHandOf, gameStatus, loadGame, notForGame, sameHand, sameTable,
  saveGame, settingsText, writtenEmpty
} from "./game-ledger.js";

export {
  renderPlayers, gameAddButton, followGame, settingsChanged, startGame, undoGame, endGame, saveGameFile, restoreGame,
  gameChangedElsewhere
};

let gameBusy = false;  // a game request is on its way: the game's buttons wait for it

// in a game, each hand's heading names the player sitting there at this hand (a wrong wind at
// the photo's bottom shows at once); put right in place whenever the game or the hand changes,
// so the tiles' buttons, and the keyboard's place among them, stay
function renderPlayers() {
  const seats = seatsInGame();
  for (const h3 of document.querySelectorAll("#hands article.seat[data-seat] h3")) {
    const old = h3.querySelector(".player");
    if (old) old.remove();
    const player = seats ? seats[h3.closest("article").dataset.seat] : null;
    if (player) h3.firstChild.after(el("span", { class: "player" }, `${player} `));
  }
}

// in a game, who sits where at the hand on the page: the game's last hand while it is being
// corrected, the hand of the game the table scored last is, else the next hand (null: no game)
function seatsInGame() {
  if (!game || !game.answer) return null;
  if (correcting && correcting === game.hands.length) return game.answer.hands[correcting - 1].seats;
  const hand = scored ? gameHandOf(scored.table) : game.answer.next;
  return hand ? hand.seats : null;
}

function signed(n) { return n > 0 ? `+${n}` : String(n); }

// under the scores: the button that adds this hand to the game (or puts a corrected last hand
// in its place), or why it cannot go; one paragraph, #game-add-row
function gameAddButton() {
  if (!game || !game.answer || !scored) return "";
  const row = (...children) => el("p", { id: "game-add-row" }, ...children);
  const already = game.hands.findIndex((h) => sameHand(h, scored.table));
  if (already >= 0) {
    return row(el("button", { type: "button", id: "game-add", class: "button", disabled: true }, `In the game as hand ${already + 1}`));
  }
  const replace = scored.replaces && scored.replaces === game.hands.length
    ? el("button", { type: "button", id: "game-replace", class: "button primary", onclick: () => addToGame(true) },
      `Put this corrected hand in place of hand ${scored.replaces}`) : null;
  // a correction of the last hand takes its place (to add it as a new hand instead, take the
  // last hand back first): it was scored as that hand, with its round and players
  const add = game.answer.finished || replace ? null
    : el("button", { type: "button", id: "game-add", class: "button", onclick: () => addToGame(false) },
      `Add this hand to the game (hand ${game.hands.length + 1})`);
  if (!replace && !add) return el("p", { id: "game-add-row", class: "hint" }, "The game is over: this hand is not added to it.");
  return row(replace || "", replace && add ? " " : "", add || "");
}

function showGameAddButton() {
  const old = $("#game-add-row");
  const now = document.body.dataset.state === "scored" ? gameAddButton() : "";
  if (old && now) old.replaceWith(now);
  else if (old) old.remove();
  else if (now) $("#result-body").append(now);
}

function renderGame() {
  $("#game-start").hidden = Boolean(game);
  $("#game-on").hidden = !game;
  if (!game) return;
  const answer = game.answer;
  const players = game.players;
  const next = answer.next;
  // Part I plays no wind of the round: its rounds (the deal gone round once) are counted
  const round = (w) => (game.ruleset === "pung-chow" ? `round ${WINDS.indexOf(w) + 1} of 4` : `${WIND_NAMES[w]} round`);
  $("#game-next").textContent = next
    ? `Hand ${next.hand}, ${round(next.round_wind)}: ${WINDS.map((w) => `${WIND_NAMES[w]} ${next.seats[w]}`).join(", ")}.`
    : "The game is over: four rounds of the wind have been played.";
  const settings = settingsText(game.params);
  $("#game-rules").textContent = `Rules: ${RULESET_NAMES[game.ruleset]}${settings ? ` (${settings})` : ""}.`;
  $("#game-totals").replaceChildren(...players.map((p) => el("li", { "data-player": p },
    el("span", { class: "name" }, p), " ", el("strong", {}, signed(answer.totals[p])))));
  const rows = answer.hands.map((h) => el("tr", {},
    el("th", { scope: "row" }, String(h.number)),
    el("td", {}, game.ruleset === "pung-chow" ? String(WINDS.indexOf(h.round_wind) + 1) : WIND_NAMES[h.round_wind]),
    el("td", {}, h.winner === null ? "no one" : h.winner),
    players.map((p) => el("td", { class: "net" }, signed(h.payments[p] || 0)))));
  $("#game-body").replaceChildren(answer.hands.length ? el("table", { class: "scores game" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Hand"), el("th", { scope: "col" }, "Round"),
      el("th", { scope: "col" }, "Won by"), players.map((p) => el("th", { scope: "col" }, p)))),
    el("tbody", {}, rows),
    el("tfoot", {}, el("tr", {}, el("th", { scope: "row", colspan: "3" }, "Total"),
      players.map((p) => el("td", { class: "net", "data-player": p }, signed(answer.totals[p])))))) : "");
  $("#game-undo").disabled = !game.hands.length;
}

// the game as the server plays it out, or its message (the game itself is left as it was)
async function playGame(hands, of = game) {
  let response;
  try {
    response = await fetch("api/v1/game", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ ruleset: of.ruleset, players: of.players, hands }) });
  } catch (e) {
    return { error: OFFLINE };
  }
  if (!response.ok) return { error: await apiError(response) };
  return { answer: await response.json() };
}

// the form follows the game: its rules, house settings and (`round`) the next hand's wind of the
// round; after a hand is added its scores stay shown, with the round they were scored in, until a
// new photo is read (scored again unchanged, they are the same hand; corrected, they replace it)
function followGame(round = true) {
  if (!game || !game.answer) return;
  if ($("#ruleset").value !== game.ruleset) {
    $("#ruleset").value = game.ruleset;
    showRuleFields(false);
  }
  const params = game.params || {};
  if ("limit" in params) $("#limit").value = params.limit === null ? "" : String(params.limit);
  if ("mj_bonus" in params) $("#mj_bonus").value = String(params.mj_bonus);
  const next = game.answer.next;
  if (round && next && game.ruleset !== "pung-chow") $("#round_wind").value = next.round_wind;
}

// a change of rules or house settings on the form while a game is on: said at once
function settingsChanged() {
  if (!game) return;
  const ruleset = $("#ruleset").value;
  if (ruleset !== game.ruleset || !sameTable(houseParams(ruleset), game.params || null)) {
    const settings = settingsText(game.params);
    gameStatus(`This game plays ${RULESET_NAMES[game.ruleset]}${settings ? ` with ${settings}` : ""}: a hand scored `
      + "with other rules or house settings cannot be added to it.", true);
  } else {
    gameStatus("");
  }
}

function markPlayer(wind, message) {
  for (const w of WINDS) $(`#player-${w}`).removeAttribute("aria-invalid");
  if (!wind) return;
  $(`#player-${wind}`).setAttribute("aria-invalid", "true");
  gameStatus(message, true);
  $(`#player-${wind}`).focus();
}

// the game changed on this page: drawn, the form following it (`round`: to the next hand's
// round), the scores' add button anew, the keyboard on the game's news
function showGame(round) {
  renderGame();
  followGame(round);
  showGameAddButton();
  renderPlayers();
  $("#game-next").focus();
}

async function startGame(event) {
  event.preventDefault();
  const players = WINDS.map((w) => $(`#player-${w}`).value.trim());
  const missing = WINDS.find((w, k) => !players[k]);
  if (missing) {
    markPlayer(missing, `Name the player sitting ${WIND_NAMES[missing]} at the first hand.`);
    return;
  }
  const key = (p) => p.normalize("NFC").toLowerCase();
  const twice = WINDS.find((w, k) => players.slice(0, k).some((p) => key(p) === key(players[k])));
  if (twice) {
    markPlayer(twice, "Give the four players four different names.");
    return;
  }
  markPlayer(null);
  if (gameBusy) return;
  const ruleset = $("#ruleset").value;
  const begun = { ruleset, params: houseParams(ruleset), players, hands: [], answer: null };
  gameBusy = true;
  const { answer, error } = await playGame([], begun).finally(() => { gameBusy = false; });
  if (error) {
    gameStatus(`The game could not start: ${error}`, true);
    return;
  }
  if (game) return;  // another tab began one meanwhile: this tab follows it
  begun.answer = answer;
  begun.players = answer.players;  // the names as the game keeps them (one Unicode spelling)
  setGame(begun);
  setCorrecting(null);
  showGame(true);
  if (saveGame()) gameStatus(`A game of ${RULESET_NAMES[ruleset]} has begun: ${answer.next.seats.E} is East.`);
}

async function addToGame(replace) {
  if (gameBusy || !game || !scored || game.hands.some((h) => sameHand(h, scored.table))) return;
  replace = Boolean(replace && scored.replaces && scored.replaces === game.hands.length);
  const kept = replace ? game.hands.slice(0, -1) : game.hands;
  const round = replace ? game.answer.hands[game.answer.hands.length - 1].round_wind : (game.answer.next || {}).round_wind;
  const why = notForGame(scored.table, round);
  if (why) {
    gameStatus(`This hand cannot be ${replace ? "put in" : "added"}: ${why}`, true);
    return;
  }
  const hands = kept.concat([forGame(scored.table)]);
  const base = game;
  gameBusy = true;
  const { answer, error } = await playGame(hands).finally(() => { gameBusy = false; });
  if (game !== base) {
    gameStatus("The game changed in another tab meanwhile: this hand was not added; add it again if it is still missing.", true);
    showGameAddButton();
    return;
  }
  if (error) {
    gameStatus(`This hand could not be ${replace ? "put in" : "added"}: ${error}`, true);
    return;
  }
  // the table on the page is the game's last hand now: corrected, also after a reload (which
  // keeps no scores) or after a first correction scored, it is put in that hand's place
  setCorrecting(hands.length);
  saveTable();
  game.hands = hands;
  game.answer = answer;
  showGame(false);
  const last = answer.hands[answer.hands.length - 1];
  if (saveGame()) {
    gameStatus(`Hand ${last.number} ${replace ? "corrected" : "added"}${last.winner ? `, won by ${last.winner}` : ""}. `
      + (answer.next ? `Next: ${answer.next.seats.E} is East.` : "The game is over."));
  }
}

async function undoGame() {
  if (gameBusy || !game || !game.hands.length) return;
  const hands = game.hands.slice(0, -1);
  const base = game;
  gameBusy = true;
  const { answer, error } = await playGame(hands).finally(() => { gameBusy = false; });
  if (game !== base) {
    gameStatus("The game changed in another tab meanwhile: nothing was taken back.", true);
    return;
  }
  if (error) {
    gameStatus(`The last hand could not be taken back: ${error}`, true);
    return;
  }
  setCorrecting(null);
  const taken = game.hands.length;
  game.hands = hands;
  game.answer = answer;
  showGame(true);
  if (saveGame()) gameStatus(`Hand ${taken} taken back.`);
}

function endGame() {
  if (!game) return;
  if (gameBusy) {
    gameStatus("The game's last change is still on its way: end it once it has come back.", true);
    return;
  }
  if (game.hands.length && !window.confirm("End this game? Its hands and totals will be forgotten.")) return;
  setGame(null);
  setCorrecting(null);
  saveGame();
  renderGame();
  showGameAddButton();
  renderPlayers();
  $("#player-E").focus();
  gameStatus("The game has ended.");
}

function saveGameFile() {
  if (!game || !game.answer) return;
  // with a byte order mark: a spreadsheet opened by a double click then reads the names as UTF-8
  const url = URL.createObjectURL(new Blob(["\ufeff", gameCsv()], { type: "text/csv;charset=utf-8" }));
  const now = new Date();
  const day = [now.getFullYear(), now.getMonth() + 1, now.getDate()].map((n) => String(n).padStart(2, "0")).join("-");
  const link = el("a", { href: url, download: `mahjong-game-${day}.csv` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function restoreGame() {
  setGame(loadGame());
  if (!game || correcting !== game.hands.length) setCorrecting(null);
  try {
    renderGame();
  } catch (e) {
    setGame(null);
    renderGame();
    gameStatus("A game saved in this browser could not be read: start a new one.", true);
  }
  followGame();
  renderPlayers();
}

// another tab of this page changed the game: this one follows, so neither writes over the other
function gameChangedElsewhere(event) {
  if (event.key !== SAVED_GAME && event.key !== null) return;
  setGame(loadGame());
  setCorrecting(null);
  renderGame();
  followGame(document.body.dataset.state !== "scored");
  showGameAddButton();
  renderPlayers();
  // what was written there and cannot be read is no game ended: loadGame has said so (the
  // event may also reach this tab late, after it reloaded over its own unreadable write)
  if (!game && event.key !== null && !writtenEmpty(event.newValue)) return;
  gameStatus(game ? "The game was changed in another tab of this page: this is it now." : "The game was ended in another tab of this page.");
}
