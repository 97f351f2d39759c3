// The scores, payments and transfers the engine answered, in words

import { $, el } from "./dom.js";
import { tileName } from "./tiles.js";
import { WINDS, WIND_NAMES } from "./winds.js";
import { gameHandOf } from "./game-ledger.js";
import { gameAddButton } from "./game.js";

export { summary, renderResult };

// "West won; West +104, East +156, South -82, North -178" for the status line
function summary(result) {
  const payments = result.payments || {};
  const nets = WINDS.filter((w) => payments[w] !== undefined)
    .map((w) => `${WIND_NAMES[w]} ${payments[w] > 0 ? "+" : ""}${payments[w]}`);
  const who = result.winner ? `${WIND_NAMES[result.winner] || result.winner} won` : "no winner";
  return nets.length ? `${who}; ${nets.join(", ")}` : who;
}

const TILE_CODE = /^([1-9][mpsz]|f[1-8])$/;

// "pung:6z:exposed" -> "exposed pung of Green Dragon"; "dragon-set:5z" -> "dragon set White Dragon"
function humanize(text) {
  const parts = String(text).split(":");
  if ((parts[0] === "pung" || parts[0] === "kong") && parts.length === 3) return `${parts[2]} ${parts[0]} of ${tileName(parts[1])}`;
  return parts.map((p) => (TILE_CODE.test(p) ? tileName(p) : p.replace(/-/g, " "))).join(" ");
}

function label(entry) {
  return `${humanize(entry[0])}: ${entry[1]}`;
}

function renderResult(result, table) {
  const seats = table.hands.map((h) => h.seat);
  const score = (seat) => (result.scores ? result.scores[seat] : (seat === result.winner ? result.score : null));
  const items = (seat) => (Array.isArray(result.items) ? (seat === result.winner ? result.items : []) : (result.items || {})[seat] || []);
  const doubles = (seat) => (Array.isArray(result.doubles) ? (seat === result.winner ? result.doubles : []) : (result.doubles || {})[seat] || []);
  // in a game, who sits where at this hand (the hand not yet added: the game's next)
  const hand = gameHandOf(table);
  const names = hand ? hand.seats : null;
  const rows = WINDS.filter((w) => seats.includes(w) || (result.payments || {})[w] !== undefined).map((seat) => {
    const s = score(seat);
    const details = el("ul", { class: "items" },
      items(seat).map((i) => el("li", {}, label(i))),
      doubles(seat).map((d) => el("li", { class: "double" }, `${humanize(d[0])}: ×${2 ** d[1]}`)));
    if (seat === result.winner && result.limit_hand) details.prepend(el("li", { class: "limit" }, `limit hand: ${humanize(result.limit_hand)}`));
    const net = (result.payments || {})[seat];
    return el("tr", { "data-seat": seat },
      el("th", { scope: "row" }, WIND_NAMES[seat], names ? ` · ${names[seat]}` : "", seat === result.winner ? " (winner)" : ""),
      el("td", { class: "score" }, s === null || s === undefined ? "–" : String(s)),
      el("td", {}, details),
      el("td", { class: "net" }, net === undefined ? "–" : (net > 0 ? `+${net}` : String(net))));
  });
  const transfers = (result.transfers || []).map(([payer, payee, amount]) =>
    el("li", {}, `${WIND_NAMES[payer]} pays ${WIND_NAMES[payee]} ${amount}`));
  const scope = result.payments_scope === "winner-only"
    ? el("p", { class: "hint" }, "Only the winner's hand was scored, so the others settle with the winner only.") : "";
  $("#result-body").replaceChildren(
    el("table", { class: "scores" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Player"), el("th", { scope: "col" }, "Score"),
        el("th", { scope: "col" }, "How"), el("th", { scope: "col" }, "Net"))),
      el("tbody", {}, rows)),
    el("h3", {}, "Who pays whom"), el("ul", { class: "transfers" }, transfers.length ? transfers : el("li", {}, "nobody pays")),
    scope, gameAddButton());
}
