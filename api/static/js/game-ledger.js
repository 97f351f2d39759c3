// The game's record: its hands as the game keeps them, which hand a table is, whether a table can
// go into it, kept in this browser's localStorage and written out as CSV

import { setStatus } from "./dom.js";
import { WINDS, WIND_NAMES } from "./winds.js";
import { correcting, game } from "./state.js";

export {
  gameHandOf, forGame, SAVED_GAME, RULESET_NAMES, saveGame, sameTable, sameHand, settingsText, notForGame,
  gameStatus, gameCsv, loadGame, writtenEmpty
};

// the hand of the game a table is: the one in the game it repeats, the game's last hand while it
// is being corrected, or else the next ({seats, round_wind, east_wins}); null without a game
function gameHandOf(table) {
  if (!game || !game.answer) return null;
  const already = game.hands.findIndex((h) => sameHand(h, table));
  if (already >= 0) return game.answer.hands[already];
  if (correcting && correcting === game.hands.length) return game.answer.hands[correcting - 1];
  return game.answer.next;
}

// a table as the game keeps it: East's wins in a row are the game's own count, not the table's
function forGame(table) {
  const copy = JSON.parse(JSON.stringify(table));
  if (copy.params) delete copy.params.east_consecutive_wins;
  return copy;
}

// the same hand: the same tiles, winner and settings, whatever wind of the round the form showed
function handKey(table) {
  const { round_wind: _round, ...rest } = forGame(table);
  return JSON.stringify(rest);
}

// the game kept in this browser (localStorage: a game lasts an evening, past closing the tab):
// its rules and house settings, its players at the first hand, the tables of the hands added,
// and the server's last answer (api/v1/game keeps nothing: the whole game goes with each change)
const SAVED_GAME = "mjscore.game";
const RULESET_NAMES = { "pung-chow": "Pung Chow (unlimited)", "pung-chow-limit": "the Pung Chow limit game", classical: "the classical rules" };

function saveGame() {
  try {
    if (game) localStorage.setItem(SAVED_GAME, JSON.stringify(game));
    else localStorage.removeItem(SAVED_GAME);
    return true;
  } catch (e) {
    if (game) gameStatus("This browser will not keep the game (its storage is off or full): it lasts while this page stays open.", true);
    return false;
  }
}

function sameTable(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
function sameHand(a, b) { return handKey(a) === handKey(b); }

// the game's house settings in words: "limit 300, Mah-Jongg bonus 10"
function settingsText(params) {
  if (!params) return "";
  const parts = [];
  if ("limit" in params) parts.push(params.limit === null ? "no limit" : `limit ${params.limit}`);
  if ("mj_bonus" in params) parts.push(`Mah-Jongg bonus ${params.mj_bonus}`);
  if ("east_double" in params) parts.push(params.east_double ? "East paying and receiving double" : "East not doubled");
  return parts.join(", ");
}

// why the table scored last cannot go into the game, in the page's words (null: it can);
// `round`: the wind of the round of the hand it would be
function notForGame(table, round) {
  if (table.ruleset !== game.ruleset) {
    return `this game plays ${RULESET_NAMES[game.ruleset]}, and the hand was scored by ${RULESET_NAMES[table.ruleset]}: `
      + "choose the game's rules above and score it again.";
  }
  if (!sameTable(forGame(table).params || null, game.params || null)) {
    return `this game plays with ${settingsText(game.params)}, and the hand was scored with ${settingsText(table.params)}: `
      + "set the game's house settings above and score it again.";
  }
  if (round && table.round_wind !== null && table.round_wind !== round) {
    return `the hand is one of the ${WIND_NAMES[round]} round, and it was scored in the `
      + `${WIND_NAMES[table.round_wind]} round: set the round wind above and score it again.`;
  }
  return null;
}

function gameStatus(text, isError) { setStatus(text, isError, "#game-status"); }

// the game as a CSV file for the club's records: a row a hand (its number, round, East, winner
// and each player's points), then the totals; a spreadsheet opens it as it is
function gameCsv() {
  const cell = (v) => {
    const text = String(v);
    // a name a spreadsheet would take for a formula or a number is written as text
    const safe = typeof v === "string" && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
    return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  const players = game.players;
  const rows = [["hand", "round", "East", "won by", ...players]];
  for (const h of game.answer.hands) {
    rows.push([h.number, game.ruleset === "pung-chow" ? WINDS.indexOf(h.round_wind) + 1 : WIND_NAMES[h.round_wind],
      h.seats.E, h.winner === null ? "" : h.winner, ...players.map((p) => h.payments[p] || 0)]);
  }
  rows.push(["total", "", "", "", ...players.map((p) => game.answer.totals[p])]);
  return rows.map((r) => r.map(cell).join(",")).join("\r\n") + "\r\n";
}

// a game as this page saved it: its rules, four names, its hands, and an answer for them
// (anything else, from another version of the page or edited by hand, is no game)
function savedGameShape(g) {
  const a = g && g.answer;
  return Boolean(g && g.ruleset in RULESET_NAMES && Array.isArray(g.players) && g.players.length === 4
    && g.players.every((p) => typeof p === "string") && Array.isArray(g.hands) && a && Array.isArray(a.hands)
    && a.hands.length === g.hands.length && a.totals && typeof a.totals === "object"
    && g.hands.every((h) => h && typeof h === "object" && Array.isArray(h.hands))
    && (g.params === undefined || g.params === null || typeof g.params === "object")
    && g.players.every((p) => typeof a.totals[p] === "number")
    && a.hands.every((h) => h && WINDS.includes(h.round_wind) && h.payments && typeof h.payments === "object")
    && (a.next === null ? a.finished === true
      : Boolean(a.next && Number.isInteger(a.next.hand) && WINDS.includes(a.next.round_wind) && a.next.seats
        && WINDS.every((w) => g.players.includes(a.next.seats[w])))));
}

function loadGame() {
  let saved = null;
  try { saved = localStorage.getItem(SAVED_GAME); } catch (e) { saved = null; }
  let read;
  try { read = JSON.parse(saved || "null"); } catch (e) { read = undefined; }
  if (read && Array.isArray(read.players)) read.players = read.players.map((p) => (typeof p === "string" ? p.normalize("NFC") : p));
  if (read !== null && !savedGameShape(read)) {
    gameStatus("A game saved in this browser could not be read: start a new one.", true);
    return null;
  }
  if (read && !("params" in read)) {
    // saved by the page before games kept their house settings: those of its first hand, or
    // the rules' usual ones
    const first = read.hands.length ? forGame(read.hands[0]).params : null;
    read.params = first || { "pung-chow-limit": { mj_bonus: 10, limit: 300 }, classical: { limit: 1000 } }[read.ruleset] || null;
  }
  return read;
}

// whether a value written to the saved game's key holds no game (removed, or empty as loadGame
// reads it), rather than one that cannot be read
function writtenEmpty(value) {
  try {
    return JSON.parse(value || "null") === null;
  } catch (e) {
    return false;
  }
}
