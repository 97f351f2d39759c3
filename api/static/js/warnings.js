// The warnings over the hands: the recogniser's, in a player's words and winds, with the page's own
// in place of those its rules make untrue (extras.js), and a button showing each warning's tiles

import { $, el } from "./dom.js";
import { tileName } from "./tiles.js";
import { WINDS, WIND_NAMES, posOfWind, windAt } from "./winds.js";
import { model } from "./state.js";
import { leftOutNear } from "./model.js";
import { heldCount, wonFromBonus } from "./extras.js";
import { renderAll } from "./table.js";

export { renderWarnings };

// each warning, with a button that shows the tiles it is about (its tile numbers count along the
// seat's groups in the photo, which a person cannot count on the page)
// a warning's single tile codes as the names a player knows ("read as f2" -> "read as Orchid"),
// but for a code the warning names already ("five 3m (3 Character)")
function namedTiles(text) {
  const words = String(text);
  return words.replace(/\b([1-9][mpsz]|f[1-8])\b/g, (code) => (words.includes(tileName(code)) ? code : tileName(code)));
}

// the server names each player by wind as seen from the wind at the photo's bottom it was read
// for (`from`); set otherwise since, each name becomes the wind that player's hand now shows, all
// at once (South -> East as East -> North, never on to North), a tile's name ("East Wind") kept
function windsShown(text, from) {
  const to = $("#camera_seat").value;
  if (!WINDS.includes(from) || from === to) return text;
  const now = Object.fromEntries(WINDS.map((w) => [WIND_NAMES[w], WIND_NAMES[windAt(posOfWind(w, from))]]));
  return text.replace(/\b(East|South|West|North)\b(?! Wind)/g, (name) => now[name]);
}

// the page's words for a tile it left out of a full hand (leaveOutExtras), `mjscore photo`'s
function leftOutWarning(id) {
  const tile = model.tiles.get(id);
  const name = WIND_NAMES[windAt(tile.near)];
  return { text: namedTiles(`${name}: the ${tile.code} lying by itself apart from the sets is not counted: ${name}'s `
    + `hand has its ${tile.leftOut.full} tiles without it (a tile rack's corner or a stray piece found as a tile?): `
    + "check it"), ids: [id] };
}

// the page's words for a tile it took out of the winner's flowers and seasons as the winning tile
// (takeTileReadAsBonus), `mjscore photo`'s
function wonFromBonusWarning(id) {
  const tile = model.tiles.get(id);
  const { pos, code: was, p } = tile.wonFromBonus;
  return { text: namedTiles(`${WIND_NAMES[windAt(pos)]} won holding 13 tiles without the tile laid apart `
    + `from the sets: read as ${tile.code} (${Math.round(p * 100)}%) and taken for ${was} only because flowers and `
    + `seasons lie apart, it is taken as the winning tile ${tile.code}; if it is ${was}, or another tile won, correct it`),
  ids: [id] };
}

// the page's words for a seat (its place) that did not win but holds 14 tiles, once the winner is
// known, `mjscore photo`'s (vision/extras.py drop_extra_tiles), pointing at that seat's tiles
function didNotWinWarning(pos) {
  const name = WIND_NAMES[windAt(pos)];
  const seat = model.seats[pos];
  return { text: `${name} did not win but holds 14 tiles (a hand that did not win holds 13, each kong counted as `
    + `three): a tile too many was read in ${name}'s hand, or ${name} won: check it`,
  ids: seat.concealed.concat(...seat.melds.map((m) => m.ids), seat.bonus) };
}

// the recogniser's warnings that a tile the page left out of a full hand makes untrue while it
// waits, told by their kinds (vision/hands.py): that it lies apart counted with the concealed
// tiles ("apart": the page's own warning takes its place, as vision/extras.py puts it), the
// seat's count ("count": left out); and the one that took a tile for a flower ("bonus-apart")
// while the page has it in the winner's hand as the winning tile (its own warning in its place);
// then the page's own: the tiles left out, taken back, and each seat that did not win holding 14
function renderWarnings() {
  const leftOut = model.unplaced.filter((id) => model.tiles.get(id).leftOut && leftOutNear(id) !== null);
  const won = [...model.tiles.keys()].filter(wonFromBonus);
  const said = [];
  const shown = [];
  model.warnings.forEach((w, i) => {
    const words = typeof w === "string" ? w : (w.message || JSON.stringify(w));
    const ids = ((model.warningTiles || [])[i] || []).filter((id) => model.tiles.has(id));
    const kind = (model.warningKinds || [])[i] || "";
    const out = leftOut.find((id) => ids.includes(id));
    if (out !== undefined && kind === "count") return;
    if (out !== undefined && ids.length === 1 && kind === "apart") {
      said.push(out);
      shown.push(leftOutWarning(out));
    } else if (ids.length === 1 && won.includes(ids[0]) && kind === "bonus-apart") {
      said.push(ids[0]);
      shown.push(wonFromBonusWarning(ids[0]));
    } else {
      shown.push({ text: namedTiles(windsShown(words, model.warningsCamera)), ids });
    }
  });
  shown.push(...leftOut.filter((id) => !said.includes(id)).map(leftOutWarning));
  shown.push(...won.filter((id) => !said.includes(id)).map(wonFromBonusWarning));
  // once the winner is known, each other seat holding 14 as the table is now (not kept: a hand
  // corrected to 13, or that seat chosen as the winner, has none)
  const winner = $("#winner").value;
  model.seats.forEach((seat, pos) => {
    if (winner && windAt(pos) !== winner && heldCount(seat) === 14) shown.push(didNotWinWarning(pos));
  });
  $("#warnings").replaceChildren(...shown.map(({ text, ids }) => {
    if (!ids.length) return el("li", {}, text);
    return el("li", {}, text, " ", el("button", {
      type: "button", class: "show-tiles", "aria-label": `show the ${ids.length === 1 ? "tile" : `${ids.length} tiles`} this warning is about`,
      onclick: () => showTiles(ids),
    }, ids.length === 1 ? "show the tile" : `show the ${ids.length} tiles`));
  }));
}

function showTiles(ids) {
  model.shown = ids.filter((id) => model.tiles.has(id));
  renderAll();
  const first = document.querySelector(`#hands button.tile[data-id="${model.shown[0]}"]`);
  if (first) {
    first.scrollIntoView({ block: "center" });
    first.focus();
  }
}
