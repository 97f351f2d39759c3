// The page's model of the table: the recognition JSON read into four seats of tile ids (buildModel),
// where a tile sits, which tiles are doubtful, what kind of set a set is

import { CLASSES, parseTiles } from "./tiles.js";
import { WINDS, posOfWind } from "./winds.js";
import { model, newTileId } from "./state.js";

export { unsure, buildModel, locate, leftOutNear, dropEmptyMelds, meldKind };

// tiles read with less confidence than this are marked for checking until someone picks their
// kind (the recogniser's own "low confidence" warning uses the same bound: vision/hands.py)
const UNSURE = 0.6;
const unsure = (tile) => tile.confidence != null && tile.confidence < UNSURE && !tile.checked;

function newSeat() { return { concealed: [], melds: [], bonus: [] }; }

// recognition JSON -> editable model: four positions (bottom, right, top, left), each with
// concealed tile ids, melds [{exposed, ids}] and bonus ids; plus tiles by id with their boxes.
// the recogniser's likeliest readings of a tile, [[code, probability], ...] best first (older
// answers and hand-added tiles have none)
function likeliest(t) {
  return (Array.isArray(t.candidates) ? t.candidates : [])
    .filter((c) => Array.isArray(c) && CLASSES.includes(c[0]) && typeof c[1] === "number").slice(0, 3);
}

function buildModel(rec, cameraWind) {
  const tiles = new Map();
  const seats = [newSeat(), newSeat(), newSeat(), newSeat()];
  const unplaced = [];
  const pool = (rec.tiles || []).map((t, i) => ({ ...t, index: i, used: false }));
  let winning = null;
  let winnerWind = null;

  // the recogniser's tile for a tile of the hand: of its seat and kind (or face down, for a
  // concealed set's ends), looked for in `groups` in turn: a copy of its kind in another group is
  // another tile (a chow's 4s is not the 4s of the concealed run the hand also holds), whatever
  // the order the recogniser lists them in
  const make = (code, seatWind, groups, preferBack) => {
    const id = newTileId();
    const free = pool.filter((t) => !t.used && t.seat === seatWind);
    let match = null;
    for (const inGroup of groups) {
      match = free.find((t) => inGroup(t) && t.code === code)
        || (preferBack ? free.find((t) => inGroup(t) && (t.face_down || t.code === "back")) : null);
      if (match) break;
    }
    if (match) match.used = true;
    // `sideways`: read lying sideways (a winning tile laid out as one)
    tiles.set(id, { id, code, box: match ? match.box : null, quad: match ? match.quad : null,
      confidence: match ? match.confidence : null, candidates: match ? likeliest(match) : [],
      read: match && match.code !== code ? match.code : null, index: match ? match.index : null,
      apart: Boolean(match && match.group === "apart"), sideways: Boolean(match && match.sideways) });
    return id;
  };

  // where each part of a hand was read (vision/hands.py): the concealed tiles in the run, then
  // among the tiles laid apart that make no set (counted with them); the hand's k-th set in group
  // "meld-k", else another set; flowers and seasons in "bonus"; else in any group of the seat (an
  // answer naming its groups otherwise), a tile laid apart last, so a copy of its kind elsewhere
  // is not taken for it
  const group = (name) => (t) => t.group === name;
  const inSet = (t) => String(t.group || "").startsWith("meld-");
  const fallback = [(t) => t.group !== "apart", () => true];
  const CONCEALED = [group("concealed"), group("apart"), ...fallback];
  const BONUS = [group("bonus"), ...fallback];

  for (const [seatWind, hand] of Object.entries(rec.seats || {})) {
    if (!WINDS.includes(seatWind) || !hand) continue;
    const seat = seats[posOfWind(seatWind, cameraWind)];
    for (const code of parseTiles(hand.concealed)) seat.concealed.push(make(code, seatWind, CONCEALED, false));
    (hand.melds || []).forEach((meld, k) => {
      const groups = [group(`meld-${k + 1}`), inSet, ...fallback];
      const ids = parseTiles(meld.tiles).map((code) => make(code, seatWind, groups, meld.exposed === false));
      seat.melds.push({ exposed: meld.exposed !== false, ids });
    });
    for (const code of parseTiles(hand.bonus_tiles)) seat.bonus.push(make(code, seatWind, BONUS, false));
    if (hand.winning_tile) {
      // of the run's copies of its kind, the one read lying sideways
      const copies = [...seat.concealed].reverse().filter((i) => tiles.get(i).code === hand.winning_tile);
      const id = copies.find((i) => tiles.get(i).sideways) || copies[0];
      if (id) { winning = id; winnerWind = seatWind; }
    }
    if (hand.winner) winnerWind = seatWind;
  }
  // a recognised tile no hand holds is in none here either: the recogniser left it out on purpose
  // (vision/hands.py: a face-down tile of the concealed run, or of a group laid apart that makes no
  // set), so it waits with the tiles not placed, not scored, marked with the place of the seat it
  // was found beside (`near`), until a person moves it into a hand
  for (const t of pool) {
    if (t.used) continue;
    const id = newTileId();
    tiles.set(id, { id, code: t.code, box: t.box, quad: t.quad, confidence: t.confidence, candidates: likeliest(t),
      index: t.index, apart: t.group === "apart", ...(WINDS.includes(t.seat) ? { near: posOfWind(t.seat, cameraWind) } : {}) });
    unplaced.push(id);
  }
  // each warning's tiles (indices into rec.tiles) as the ids they became here
  const byIndex = new Map([...tiles.values()].filter((t) => t.index != null).map((t) => [t.index, t.id]));
  const warningTiles = (rec.warnings || []).map((_, i) => ((rec.warning_tiles || [])[i] || [])
    .map((k) => byIndex.get(k)).filter((id) => id !== undefined));
  // each warning's kind ("apart", "count", "bonus-apart": vision/hands.py; "" for any other), what
  // tells renderWarnings the ones the winner makes untrue (an older answer has none: none is hidden)
  const warningKinds = (rec.warnings || []).map((_, i) => {
    const kind = (rec.warning_kinds || [])[i];
    return typeof kind === "string" ? kind : "";
  });
  // the warnings name seats by wind as seen from the photo's bottom it was read for
  return { width: rec.width, height: rec.height, tiles, seats, unplaced, winning, winnerWind,
    warnings: rec.warnings || [], warningTiles, warningKinds, warningsCamera: cameraWind, shown: [] };
}

// where a tile id sits: {list, index, pos, kind, meld}
function locate(id) {
  for (let pos = 0; pos < 4; pos++) {
    const seat = model.seats[pos];
    let i = seat.concealed.indexOf(id);
    if (i >= 0) return { list: seat.concealed, index: i, pos, kind: "concealed" };
    for (let m = 0; m < seat.melds.length; m++) {
      i = seat.melds[m].ids.indexOf(id);
      if (i >= 0) return { list: seat.melds[m].ids, index: i, pos, kind: "meld", meld: m };
    }
    i = seat.bonus.indexOf(id);
    if (i >= 0) return { list: seat.bonus, index: i, pos, kind: "bonus" };
  }
  const i = model.unplaced.indexOf(id);
  if (i >= 0) return { list: model.unplaced, index: i, pos: null, kind: "unplaced" };
  return null;
}

// the place (0-3) of the hand a tile was found beside when the recogniser (buildModel), or the page
// once the winner was known (leaveOutExtras), left it out of that hand and it still waits with the
// tiles not placed; null for any other tile
function leftOutNear(id) {
  const tile = model.tiles.get(id);
  return tile && Number.isInteger(tile.near) && model.unplaced.includes(id) ? tile.near : null;
}

function dropEmptyMelds() {
  for (const seat of model.seats) seat.melds = seat.melds.filter((m) => m.ids.length);
}

function meldKind(meld) {
  const codes = meld.ids.map((id) => model.tiles.get(id).code);
  const faces = codes.filter((c) => c !== "back");
  if (faces.length && faces.every((c) => c === faces[0])) return codes.length >= 4 ? "kong" : "pung";
  return "chow";
}
