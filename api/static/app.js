// mjscore web page: upload a photo, correct the recognised tiles, score the table.
// Plain JS, no build step.  Talks to /api/v1/recognize and /api/v1/score.
"use strict";

const WINDS = ["E", "S", "W", "N"];
const WIND_NAMES = { E: "East", S: "South", W: "West", N: "North" };
const POSITIONS = ["bottom", "right", "top", "left"];
const SUIT_NAMES = { m: "Character", p: "Dot", s: "Bamboo" };
const HONOURS = { "1z": "East Wind", "2z": "South Wind", "3z": "West Wind", "4z": "North Wind",
  "5z": "White Dragon", "6z": "Green Dragon", "7z": "Red Dragon" };
const HONOUR_SHORT = { "1z": "E", "2z": "S", "3z": "W", "4z": "N", "5z": "Wh", "6z": "Gr", "7z": "Rd" };
const BONUS_NAMES = { f1: "Plum", f2: "Orchid", f3: "Chrysanthemum", f4: "Bamboo flower",
  f5: "Spring", f6: "Summer", f7: "Autumn", f8: "Winter" };
const KINDS = [];
for (const s of "mps") for (let n = 1; n <= 9; n++) KINDS.push(`${n}${s}`);
for (let n = 1; n <= 7; n++) KINDS.push(`${n}z`);
const CLASSES = KINDS.concat(["back", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8"]);

const $ = (sel) => document.querySelector(sel);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
};

function tileName(code) {
  if (code === "back") return "face-down tile";
  if (HONOURS[code]) return HONOURS[code];
  if (BONUS_NAMES[code]) return BONUS_NAMES[code];
  if (SUIT_NAMES[code[1]]) return `${code[0]} ${SUIT_NAMES[code[1]]}`;
  return code;
}

function tileShort(code) {
  if (code === "back") return "▮";
  if (HONOUR_SHORT[code]) return HONOUR_SHORT[code];
  if (code[0] === "f") return Number(code[1]) <= 4 ? `F${code[1]}` : `S${Number(code[1]) - 4}`;
  return code;
}

// a tile button's name: what it shows, then what that means ("3m, 3 Character"), so a person
// using voice control can say what they see
function tileLabel(code) {
  return code === "back" ? tileName(code) : `${tileShort(code)}, ${tileName(code)}`;
}

function tileClass(code) {
  if (code === "back") return "t-back";
  if (code[0] === "f") return "t-bonus";
  return `t-${code[1]}`;
}

// "123m55z" or ["1m", ...] -> ["1m", "2m", "3m", "5z", "5z"]
function parseTiles(text) {
  if (Array.isArray(text)) return text.slice();
  const out = [];
  const re = /\s*(?:(back)|f([1-8])|([0-9]+)([mpsz]))/gy;
  let m;
  while ((m = re.exec(text || "")) !== null) {
    if (m[1]) out.push("back");
    else if (m[2]) out.push(`f${m[2]}`);
    else for (const d of m[3]) out.push(`${d}${m[4]}`);
  }
  return out;
}

// ------------------------------------------------------------------ state

// tiles read with less confidence than this are marked for checking until someone picks their
// kind (the recogniser's own "low confidence" warning uses the same bound: vision/hands.py)
const UNSURE = 0.6;
const unsure = (tile) => tile.confidence != null && tile.confidence < UNSURE && !tile.checked;

// the state the page's parts share (the table being corrected, the game, the table last scored):
// each part reads it, and changes it only through the setters below
let model = null;   // see buildModel
let nextId = 1;
let cameraShown = "E"; // the wind at the photo's bottom edge the hands are drawn for
let game = null;     // the game so far, kept in this browser (see saveGame)
let scored = null;   // the table last scored: { table, replaces: the game's hand it corrects, or null }
let correcting = null; // the game's hand (its number) the table now being corrected was added as

function setModel(table) { model = table; }
// a new tile's id; setNextId keeps the ids of a table brought back clear of new ones
function newTileId() { return nextId++; }
function setNextId(id) { nextId = id; }
function setCameraShown(wind) { cameraShown = wind; }
function setGame(kept) { game = kept; }
function setScored(table) { scored = table; }
function setCorrecting(hand) { correcting = hand; }

let photoUrl = null;
let picking = null; // {id} of the tile open in the picker, or {add: setRef}
let focusAfter = null; // the tile id to focus once the picker closes (the hands are drawn anew)
let focusElse = null;  // what to focus then when that tile is gone (a selector)
let reading = 0;    // the latest photo sent to be read: an earlier answer arriving late is dropped
let gameBusy = false;  // a game request is on its way: the game's buttons wait for it

function windAt(pos) {
  const cam = WINDS.indexOf($("#camera_seat").value);
  return WINDS[(cam + pos) % 4];
}

function posOfWind(wind, cameraWind) {
  return (WINDS.indexOf(wind) - WINDS.indexOf(cameraWind) + 4) % 4;
}

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

// ------------------------------------------------------------------ rendering

function tileButton(id) {
  const tile = model.tiles.get(id);
  const isWinning = model.winning === id;
  const doubt = unsure(tile) ? `, read with ${Math.round(tile.confidence * 100)}% confidence: check it` : "";
  const near = leftOutNear(id);
  const out = near === null ? "" : `, left out of ${WIND_NAMES[windAt(near)]}'s hand: not scored`;
  const label = `${tileLabel(tile.code)}${isWinning ? ", winning tile" : ""}${tile.box ? "" : ", added by hand"}${out}${doubt}`;
  return el("button", {
    type: "button", class: `tile ${tileClass(tile.code)}${isWinning ? " winning" : ""}${doubt ? " unsure" : ""}${(model.shown || []).includes(id) ? " named" : ""}`,
    "data-id": id, "data-code": tile.code, "aria-label": label, title: label,
    onclick: () => openPicker(id),
    onfocus: () => highlight(id, true), onblur: () => highlight(id, false),
  }, tileShort(tile.code));
}

function addButton(target) {
  const where = `${WIND_NAMES[windAt(target.pos)]}'s ${target.kind === "bonus" ? "flowers and seasons" : "concealed tiles"}`;
  return el("button", { type: "button", class: "tile add", "aria-label": `add a tile to ${where}`,
    title: `add a tile to ${where}`, onclick: () => openPicker(null, target) }, "+");
}

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

function renderHands() {
  const box = $("#hands");
  box.replaceChildren();
  model.seats.forEach((seat, pos) => {
    const wind = windAt(pos);
    const count = seat.concealed.length + seat.bonus.length + seat.melds.reduce((n, m) => n + m.ids.length, 0);
    const card = el("article", { class: `seat seat-${pos}`, "data-seat": wind, "aria-label": `${WIND_NAMES[wind]}'s tiles` },
      el("h3", {}, `${WIND_NAMES[wind]} `, el("small", {}, `(${POSITIONS[pos]} of the photo, ${count} tiles)`)));
    const concealed = el("div", { class: "set concealed", "data-set": "concealed", role: "group", "aria-label": `${WIND_NAMES[wind]}'s concealed tiles` },
      el("span", { class: "set-label" }, "Concealed"), seat.concealed.map(tileButton), addButton({ pos, kind: "concealed" }));
    card.append(concealed);
    seat.melds.forEach((meld, m) => {
      const state = meld.exposed ? "exposed" : "concealed";
      const toggle = el("button", {
        type: "button", class: `toggle ${state}`, "data-exposed": String(meld.exposed),
        "aria-label": `set ${m + 1}: ${state}`, title: `switch set ${m + 1} to ${meld.exposed ? "concealed" : "exposed"}`,
        onclick: () => {
          meld.exposed = !meld.exposed;
          changed();
          focusOn(`article[data-seat="${wind}"] [data-set="meld-${m}"] button.toggle`);
        },
      }, state);
      card.append(el("div", { class: "set meld", "data-set": `meld-${m}`, role: "group", "aria-label": `${WIND_NAMES[wind]}'s set ${m + 1} (${meldKind(meld)})` },
        el("span", { class: "set-label" }, `Set ${m + 1} (${meldKind(meld)})`), meld.ids.map(tileButton), toggle));
    });
    card.append(el("div", { class: "set bonus", "data-set": "bonus", role: "group", "aria-label": `${WIND_NAMES[wind]}'s flowers and seasons` },
      el("span", { class: "set-label" }, "Flowers / seasons"), seat.bonus.map(tileButton), addButton({ pos, kind: "bonus" })));
    box.append(card);
  });
  renderPlayers();
  if (model.unplaced.length) {
    // the tiles the recogniser found beside a hand and left out of it, by that hand (they are not
    // scored until moved into one), then those found beside no hand
    const sets = [];
    for (let pos = 0; pos < 4; pos++) {
      const ids = model.unplaced.filter((id) => leftOutNear(id) === pos);
      if (!ids.length) continue;
      const name = WIND_NAMES[windAt(pos)];
      sets.push(el("div", { class: "set left-out", "data-set": "left-out", "data-near": windAt(pos), role: "group",
        "aria-label": `found beside ${name}'s hand and left out of it: not scored` },
      el("span", { class: "set-label" }, `Beside ${name}'s hand (${POSITIONS[pos]} of the photo), left out of it: not scored`),
      ids.map(tileButton)));
    }
    const others = model.unplaced.filter((id) => leftOutNear(id) === null);
    if (others.length) {
      sets.push(el("div", { class: "set", "data-set": "unplaced" },
        sets.length ? el("span", { class: "set-label" }, "Beside no hand") : [], others.map(tileButton)));
    }
    box.append(el("article", { class: "seat unplaced", "aria-label": "tiles not placed in any hand" },
      el("h3", {}, "Not placed (move each to a hand)"), sets));
  }
}

function renderOverlay() {
  const svg = $("#overlay");
  svg.setAttribute("viewBox", `0 0 ${model.width} ${model.height}`);
  svg.replaceChildren();
  const ns = "http://www.w3.org/2000/svg";
  const stroke = Math.max(2, Math.round(Math.max(model.width, model.height) / 400));
  for (const tile of model.tiles.values()) {
    if (!tile.box) continue;
    const where = locate(tile.id);
    const near = leftOutNear(tile.id);
    const [x1, y1, x2, y2] = tile.box;
    const fontSize = Math.max(9, Math.round(Math.min(x2 - x1, y2 - y1) * 0.6));
    const g = document.createElementNS(ns, "g");
    g.setAttribute("class", `box pos-${where && where.pos !== null ? where.pos : "none"}${near === null ? "" : " left-out"}${unsure(tile) ? " unsure" : ""}${(model.shown || []).includes(tile.id) ? " named" : ""}`);
    g.setAttribute("data-id", tile.id);
    const rect = document.createElementNS(ns, "rect");
    for (const [k, v] of Object.entries({ x: x1, y: y1, width: x2 - x1, height: y2 - y1, "stroke-width": stroke })) rect.setAttribute(k, v);
    const text = document.createElementNS(ns, "text");
    // inside its own box (above it, a column's label fell in the box of the tile above)
    text.setAttribute("x", x1 + stroke);
    text.setAttribute("y", y1 + stroke + fontSize * 0.85);
    text.setAttribute("font-size", fontSize);
    text.textContent = tileShort(tile.code);
    g.append(rect, text);
    if (near !== null) {
      // left out of the hand it was found beside: struck through, and said so under the pointer
      const strike = document.createElementNS(ns, "line");
      for (const [k, v] of Object.entries({ x1, y1, x2, y2, "stroke-width": stroke })) strike.setAttribute(k, v);
      const title = document.createElementNS(ns, "title");
      title.textContent = `${tileName(tile.code)}: left out of ${WIND_NAMES[windAt(near)]}'s hand, not scored`;
      g.append(strike, title);
    }
    g.addEventListener("click", () => openPicker(tile.id, null, true));
    svg.append(g);
  }
}

// a tap on the photo that lands between boxes opens the nearest tile within a tile's length of it:
// on a phone the boxes are a few pixels wide, narrower than a finger
function tapNearest(event) {
  if (!model || event.target.closest("g.box")) return;
  const svg = $("#overlay");
  const rect = svg.getBoundingClientRect();
  const x = (event.clientX - rect.left) * (model.width / rect.width);
  const y = (event.clientY - rect.top) * (model.height / rect.height);
  let best = null;
  for (const tile of model.tiles.values()) {
    if (!tile.box) continue;
    const [x1, y1, x2, y2] = tile.box;
    const dx = Math.max(x1 - x, 0, x - x2), dy = Math.max(y1 - y, 0, y - y2);
    const d = Math.hypot(dx, dy);
    if (d <= Math.max(x2 - x1, y2 - y1) && (!best || d < best.d)) best = { d, id: tile.id };
  }
  if (best) openPicker(best.id, null, true);
}

function highlight(id, on) {
  const g = document.querySelector(`#overlay g[data-id="${id}"]`);
  if (g) g.classList.toggle("focus", on);
}

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
    // game's last hand may replace it once scored again
    if (scored) {
      setCorrecting(game && game.hands.length && sameHand(game.hands[game.hands.length - 1], scored.table)
        ? game.hands.length : null);
      saveTable();
    }
    setScored(null);
    renderPlayers();
    setStatus("The table changed: score it again.");
    document.body.dataset.state = "recognized";
  }
}

// the arrow keys among tile buttons: left and right along `row(button)`'s buttons, Home and End to
// its ends, up and down to the nearest button of the line above or below among all `buttons`
const ARROWS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];
function arrowTo(event, buttons, row) {
  const from = event.target.closest("button.tile");
  if (!from || !ARROWS.includes(event.key) || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  let to = null;
  if (event.key === "ArrowUp" || event.key === "ArrowDown") {
    const here = from.getBoundingClientRect();
    const down = event.key === "ArrowDown";
    let best = Infinity;
    for (const b of buttons) {
      const r = b.getBoundingClientRect();
      const dy = down ? r.top - here.bottom : here.top - r.bottom;
      if (dy < -here.height / 2 || b === from) continue;  // not on a line below (above)
      const cost = dy * 4 + Math.abs(r.left + r.width / 2 - here.left - here.width / 2);
      if (cost < best) { best = cost; to = b; }
    }
  } else {
    const mates = row(from);
    const i = mates.indexOf(from);
    to = { ArrowLeft: mates[i - 1], ArrowRight: mates[i + 1], Home: mates[0], End: mates[mates.length - 1] }[event.key];
  }
  if (to) {
    event.preventDefault();
    if (from.tabIndex === 0 && to.tabIndex === -1) {  // a grid with one Tab stop: it moves along
      from.tabIndex = -1;
      to.tabIndex = 0;
    }
    to.focus();
  }
}

function focusOn(selector, preventScroll = false) {
  const node = document.querySelector(selector);
  if (node) node.focus({ preventScroll });
}

// the keyboard back on a tile; without scrolling to its hand when the picker was opened from
// the photo (a player correcting tile after tile on the photo stays at the photo)
function focusTile(id, preventScroll = false) {
  if (id) focusOn(`#hands button.tile[data-id="${id}"]`, preventScroll);
}

// ------------------------------------------------------------------ keeping the work

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

function meldKind(meld) {
  const codes = meld.ids.map((id) => model.tiles.get(id).code);
  const faces = codes.filter((c) => c !== "back");
  if (faces.length && faces.every((c) => c === faces[0])) return codes.length >= 4 ? "kong" : "pung";
  return "chow";
}

// ------------------------------------------------------------------ picker

function buildPickerKinds() {
  const box = $("#picker-kinds");
  for (const code of CLASSES) {
    box.append(el("button", { type: "button", class: `tile ${tileClass(code)}`, "data-code": code,
      "aria-label": tileLabel(code), title: tileName(code), onclick: () => pick(code) }, tileShort(code)));
  }
}

function setChoices() {
  const options = [el("option", { value: "" }, "(stay here)")];
  for (let pos = 0; pos < 4; pos++) {
    const name = WIND_NAMES[windAt(pos)];
    options.push(el("option", { value: `${pos}:concealed` }, `${name}: concealed`));
    model.seats[pos].melds.forEach((_, m) => options.push(el("option", { value: `${pos}:meld:${m}` }, `${name}: set ${m + 1}`)));
    options.push(el("option", { value: `${pos}:new` }, `${name}: new set`));
    options.push(el("option", { value: `${pos}:bonus` }, `${name}: flowers / seasons`));
  }
  return options;
}

// the tile as the photo shows it, turned upright (its quad's first edge is its top as its player
// sees it) with a little of its neighbours: what a person picks its kind from
const CROP_HEIGHT = 120;
function drawTileCrop(tile) {
  const canvas = $("#picker-crop");
  const img = $("#photo-img");
  const quad = tile && Array.isArray(tile.quad) && tile.quad.length === 4 ? tile.quad : null;
  canvas.hidden = !(quad && img.complete && img.naturalWidth && model.width);
  if (canvas.hidden) return;
  const [p0, p1, , p3] = quad;
  const width = Math.hypot(p1[0] - p0[0], p1[1] - p0[1]);
  const height = Math.hypot(p3[0] - p0[0], p3[1] - p0[1]);
  const cx = quad.reduce((sum, p) => sum + p[0], 0) / 4;
  const cy = quad.reduce((sum, p) => sum + p[1], 0) / 4;
  const margin = 1.25;
  const k = CROP_HEIGHT / (height * margin);
  canvas.height = CROP_HEIGHT;
  canvas.width = Math.max(1, Math.round(width * margin * k));
  const ctx = canvas.getContext("2d");
  ctx.translate(canvas.width / 2, canvas.height / 2);
  ctx.scale(k, k);
  ctx.rotate(-Math.atan2(p1[1] - p0[1], p1[0] - p0[0]));
  ctx.translate(-cx, -cy);
  ctx.drawImage(img, 0, 0, model.width, model.height);  // the shown photo may be smaller than the original
}

function openPicker(id, addTarget, fromPhoto = false) {
  picking = id ? { id, fromPhoto } : { add: addTarget };
  const tile = id ? model.tiles.get(id) : null;
  $("#picker-title").textContent = tile ? `Tile: ${tileName(tile.code)}` : "Add a tile";
  // a face-down end of a kong counts as the kong's kind, but was read as a face-down tile
  const readAs = tile ? tileName(tile.read || tile.code) : "";
  $("#picker-current").textContent = tile
    ? (tile.confidence != null ? `Read as ${readAs} (${Math.round(tile.confidence * 100)}% sure)${tile.read ? `, counted as ${tileName(tile.code)}` : ""}. Pick the right tile:` : "Pick the right tile:")
    : "Pick the tile to add:";
  // a tile the recogniser, or the page (a hand full without it), left out of the hand it was found
  // beside: said so, and how to count it
  const near = tile ? leftOutNear(id) : null;
  const nearName = near === null ? "" : WIND_NAMES[windAt(near)];
  const by = near !== null && tile.leftOut ? `as the hand has its ${tile.leftOut.full} tiles without it` : "by the recogniser";
  $("#picker-where").hidden = near === null;
  $("#picker-where").textContent = near === null ? ""
    : `Found beside ${nearName}'s hand and left out of it ${by}: it is not scored. To count it, `
      + `move it into a hand (\u201c${nearName}: concealed\u201d, say) below; if it is no tile, remove it.`;
  const move = $("#picker-move");
  move.replaceChildren(...setChoices());
  move.disabled = !tile;
  $("#picker-move-go").disabled = !tile;
  const where = tile ? locate(id) : null;
  const canWin = where && where.kind === "concealed";
  $("#picker-winning-label").hidden = !canWin;
  $("#picker-winning").checked = model.winning === id;
  $("#picker-delete").hidden = !tile;
  for (const b of document.querySelectorAll("#picker-kinds button")) b.setAttribute("aria-pressed", tile && b.dataset.code === tile.code ? "true" : "false");
  // one Tab stop for the grid (the arrow keys go within it): the current kind, or the first
  const stop = (tile && document.querySelector(`#picker-kinds button[data-code="${tile.code}"]`)) || document.querySelector("#picker-kinds button");
  for (const b of document.querySelectorAll("#picker-kinds button")) b.tabIndex = b === stop ? 0 : -1;
  // the recogniser's likeliest readings, one click each (a misread tile's right kind is mostly
  // among them); shown when it weighed more than one at 1% or more
  const likely = tile ? (tile.candidates || []).filter(([, p]) => p >= 0.01) : [];
  $("#picker-likely").hidden = likely.length < 2;
  $("#picker-likely-kinds").replaceChildren(...likely.map(([code, p]) => el("button", {
    type: "button", class: `tile ${tileClass(code)}`, "data-code": code, "aria-pressed": code === tile.code ? "true" : "false",
    "aria-label": `${tileLabel(code)}, ${Math.round(p * 100)}%`, title: `${tileName(code)}, ${Math.round(p * 100)}%`,
    onclick: () => pick(code),
  }, tileShort(code), el("small", {}, `${Math.round(p * 100)}%`))));
  drawTileCrop(tile);
  $("#picker").showModal();
  const current = tile && document.querySelector(`#picker-kinds button[data-code="${tile.code}"]`);
  (current || document.querySelector("#picker-kinds button")).focus();
}

function pick(code) {
  if (picking.id) {
    const tile = model.tiles.get(picking.id);
    tile.code = code;
    tile.read = null;
    tile.checked = true;  // a person has looked at it
    focusAfter = picking.id;
  } else {
    const id = newTileId();
    model.tiles.set(id, { id, code, box: null, confidence: null });
    const seat = model.seats[picking.add.pos];
    seat[picking.add.kind].push(id);
    focusAfter = id;
  }
  changed();
  $("#picker").close();
}

function moveTile(id, target) {
  const where = locate(id);
  if (!where || !target) return;
  where.list.splice(where.index, 1);
  // put where a person wants it: the page never moves it (leaveOutExtras, takeTileReadAsBonus)
  model.tiles.get(id).moved = true;
  const [posText, kind, m] = target.split(":");
  const seat = model.seats[Number(posText)];
  if (kind === "concealed") seat.concealed.push(id);
  else if (kind === "bonus") seat.bonus.push(id);
  else if (kind === "new") seat.melds.push({ exposed: true, ids: [id] });
  else if (kind === "meld") seat.melds[Number(m)].ids.push(id);
  if (model.winning === id && kind !== "concealed") model.winning = null;
}

// the winner named by marking their winning tile: the list's change event is sent, so what
// follows from who won (East's flags offered or taken away) follows as when chosen in the list
function chooseWinner(wind) {
  if ($("#winner").value === wind) return;
  $("#winner").value = wind;
  $("#winner").dispatchEvent(new Event("change"));
}

function setupPicker() {
  buildPickerKinds();
  // the list only chooses (arrow keys browse it); the button moves
  $("#picker-move-go").addEventListener("click", () => {
    const target = $("#picker-move").value;
    if (!picking || !picking.id || !target) return;
    moveTile(picking.id, target);
    focusAfter = picking.id;
    changed();
    $("#picker").close();
  });
  $("#picker-winning").addEventListener("change", (e) => {
    if (!picking || !picking.id) return;
    const before = model.winning;
    model.winning = e.target.checked ? picking.id : (model.winning === picking.id ? null : model.winning);
    if (e.target.checked) {
      const where = locate(picking.id);
      // another winner: winnerChanged undoes what the page did for the last and does it anew
      if (where && where.pos !== null && windAt(where.pos) !== $("#winner").value) chooseWinner(windAt(where.pos));
      else winningTileMarked(picking.id, before);
    }
    changed();
  });
  $("#picker-delete").addEventListener("click", () => {
    const where = picking && picking.id && locate(picking.id);
    if (where) {
      where.list.splice(where.index, 1);
      focusAfter = where.list[Math.min(where.index, where.list.length - 1)] || null;
      // the last tile of its set gone: the keyboard goes to that seat's "+", not the page's top
      const seat = where.pos === null ? null : `article[data-seat="${windAt(where.pos)}"]`;
      focusElse = !seat ? "#score" : `${seat} [data-set="${where.kind === "bonus" ? "bonus" : "concealed"}"] button.add`;
    }
    model.tiles.delete(picking.id);
    if (model.winning === picking.id) model.winning = null;
    changed();
    $("#picker").close();
  });
  // Done with a place chosen in "Move to" moves the tile there, as the Move button does
  $("#picker-close").addEventListener("click", () => {
    if (picking && picking.id && $("#picker-move").value) $("#picker-move-go").click();
  });
  $("#picker").addEventListener("close", () => {
    const back = focusAfter || (picking && picking.id);
    const fromPhoto = Boolean(picking && picking.fromPhoto);
    const otherwise = focusElse;
    picking = null;
    focusAfter = null;
    focusElse = null;
    // the hands were drawn anew: focus goes back to the tile, not the page
    if (model && model.tiles.has(back)) focusTile(back, fromPhoto);
    else if (otherwise) focusOn(otherwise, fromPhoto);
  });
}

// ------------------------------------------------------------------ API calls

function setStatus(text, isError, where = "#status") {
  const status = $(where);
  status.textContent = text;
  status.classList.toggle("error", Boolean(isError));
}

// what a player can do about a refused photo, by the API's error code
// (the server's own message names the formats it reads, with or without HEIC)
const PHOTO_REMEDIES = {
  "image-too-small": "Send the photo at the camera's full size.",
  "corrupt-image": "The file is damaged or was cut short: take or choose the photo again.",
  "empty-upload": "The file is empty: take or choose the photo again.",
  "image-too-large": "Use your camera's normal photo size, or a smaller copy of the picture.",
  "payload-too-large": "Use your camera's normal photo size, or a smaller copy of the picture.",
  busy: "The server is reading other photos: try again in a moment.",
};

// the server's message (its code kept for the console, not shown: a player acts on words)
async function apiError(response, remedies = {}) {
  let body = null;
  try { body = await response.json(); } catch (e) { body = null; }
  if (!body || !body.message) return gatewayError(response.status);
  console.info("mjscore API error", response.status, body.code);
  const remedy = remedies[body.code];
  return `${body.message}${/[.!?]$/.test(body.message) ? "" : "."}${remedy ? ` ${remedy}` : ""}`;
}

// an answer that is not mjscore's own (no JSON message): the web server in front of it (nginx,
// Caddy, a club's host) answered instead, and says which of its settings is in the way
function gatewayError(status) {
  if (status === 413) {
    return "the web server in front of mjscore refused the upload as too large (HTTP 413). Whoever runs it can "
      + "raise its upload limit to mjscore's own, 20 MB and the form round it (nginx: client_max_body_size 20736k); "
      + "a smaller copy of the picture may get through.";
  }
  if (status === 502 || status === 503) {
    return `mjscore is not answering behind its web server (HTTP ${status}): try again in a moment, or tell whoever runs it.`;
  }
  if (status === 504) {
    return "the web server in front of mjscore stopped waiting for the answer (HTTP 504): try again, or ask whoever "
      + "runs it to let it wait longer (nginx: proxy_read_timeout).";
  }
  return `the server refused it (HTTP ${status}).`;
}

const MAX_UPLOAD = 20 * 1024 * 1024;

// smooth scrolling, unless the reader asked for less motion
const SCROLL = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";

const OFFLINE = "Could not reach the server: check the connection and try again.";

// corrections made since the table was last scored would be lost to a new photo: ask first
function mayStartAfresh() {
  if (!model || !model.edited || document.body.dataset.state === "scored") return true;
  return window.confirm("Read the new photo? The corrections made to this table since it was last scored will be lost.");
}

async function recognizeFile(file) {
  if (!file) return;
  if (file.size > MAX_UPLOAD) {
    setStatus(`The photo is ${(file.size / 1048576).toFixed(1)} MB; the limit is 20 MB. ${PHOTO_REMEDIES["payload-too-large"]}`, true);
    return;
  }
  if (!mayStartAfresh()) return;
  const token = ++reading;
  setStatus("Reading the tiles…");
  const camera = $("#camera_seat").value;
  const form = new FormData();
  form.append("image", file, file.name || "photo.jpg");
  form.append("camera_seat", camera);
  form.append("annotate", "false");
  // a photo this browser cannot show (an iPhone's HEIC, outside Safari) comes back from the server
  const shown = !/^image\/hei[cf]/i.test(file.type || "") && !/\.hei[cf]$/i.test(file.name || "");
  if (!shown) form.append("photo", "true");
  let response;
  try {
    response = await fetch("api/v1/recognize", { method: "POST", body: form });
  } catch (e) {
    // a web server in front that refuses a big upload early may cut the connection instead of
    // answering 413: the browser then sees no answer at all
    const big = file.size > 1024 * 1024
      ? " If the connection is fine, the photo may be larger than a web server in front of mjscore takes: a smaller copy may get through." : "";
    if (token === reading) setStatus(OFFLINE + big, true);
    return;
  }
  if (token !== reading) return;  // another photo was chosen meanwhile: its answer is the one wanted
  if (!response.ok) {
    setStatus(`The photo could not be read: ${await apiError(response, PHOTO_REMEDIES)}`, true);
    return;
  }
  const rec = await response.json();
  if (token !== reading) return;
  if (!(rec.tiles || []).length) {
    // nothing to check or score: say why, and keep any table there was
    const why = (rec.warnings || [])[0];
    setStatus(why ? `No tiles were found in this photo: ${typeof why === "string" ? why : why.message}`
      : "No tiles were found in this photo. Photograph the table from above with every tile face up and in view.",
    true);
    return;
  }
  if (photoUrl) URL.revokeObjectURL(photoUrl);
  photoUrl = shown ? URL.createObjectURL(file) : null;
  const img = $("#photo-img");
  try { sessionStorage.removeItem(SAVED_PHOTO); } catch (e) { /* nothing kept */ }
  img.addEventListener("load", () => savePhoto(img), { once: true });
  img.src = shown ? photoUrl : rec.photo_image;
  setModel(buildModel(rec, camera));
  setCameraShown(camera);
  setScored(null);
  setCorrecting(null);  // a new photo is a new hand, in the game's next round
  followGame();
  // a new hand: who won and how come from this photo (a sideways tile) or from the player, not
  // from the last table; the rules, the round and the house settings stay
  $("#winner").value = model.winnerWind || "";
  $("#win_by").value = "discard";
  for (const box of document.querySelectorAll("input[name=flag]")) box.checked = false;
  // the wind at the bottom set while the photo was being read: the hands are drawn for it, and
  // the winner read from the photo keeps their place
  if ($("#camera_seat").value !== camera) cameraChanged(camera);
  winnerChanged();  // a winner known from the photo: what follows from who won follows now
  showFlags();
  renderWarnings();
  renderAll();
  $("#table").hidden = false;
  $("#results").hidden = true;
  const doubtful = [...model.tiles.values()].filter(unsure).length;
  const winner = model.winning ? "" : " No winning tile lies sideways: choose the winner and mark the tile that won.";
  const marked = doubtful === 1 ? "1 read with little confidence is marked" : `${doubtful} read with little confidence are marked`;
  const leftOut = model.unplaced.filter((id) => leftOutNear(id) !== null).length;
  const out = !leftOut ? "" : leftOut === 1
    ? " 1 tile found beside a hand was left out of it: it waits under \u201cNot placed\u201d, not scored unless moved into a hand."
    : ` ${leftOut} tiles found beside hands were left out of them: they wait under \u201cNot placed\u201d, not scored unless moved into a hand.`;
  setStatus(`Found ${rec.tiles.length} tiles${doubtful ? `; ${marked} with a dashed outline` : ""}. Check them, then score the table.${winner}${out}`);
  document.body.dataset.state = "recognized";
}

// a winner with no winning tile marked, holding 13 tiles, with one tile among its flowers and
// seasons that the recogniser read as a suit or honour tile (its likeliest reading) and took for a
// flower or season only because it lies by itself apart from the sets, where they lie (as its
// warning of kind "bonus-apart" says), laid its winning tile so: as `mjscore photo` takes it
// (vision/extras.py winning_tile_read_as_bonus), that tile, the only such one, not lying sideways,
// and neither moved nor read by a person, goes into the winner's concealed tiles with its likeliest
// reading (what the recogniser answered kept as `read`), marked as the winning tile.  `wonFromBonus`
// keeps where it was and what it was, to put it back when the winner changes (winnerChanged) or a
// person marks another winning tile (winningTileMarked)
function takeTileReadAsBonus(wind) {
  const pos = posOfWind(wind, $("#camera_seat").value);
  const seat = model.seats[pos];
  const taken = seat.bonus.filter((id) => {
    const tile = model.tiles.get(id);
    const first = (tile.candidates || [])[0];
    return Boolean(BONUS_NAMES[tile.code] && first && !BONUS_NAMES[first[0]] && first[0] !== "back"
      && !tile.sideways && !tile.moved && !tile.checked);
  });
  if (taken.length !== 1 || heldCount(seat) !== 13) return;
  const id = taken[0];
  const tile = model.tiles.get(id);
  const [code, p] = tile.candidates[0];
  tile.wonFromBonus = { pos, at: seat.bonus.indexOf(id), code: tile.code, read: tile.read || null, p };
  seat.bonus.splice(seat.bonus.indexOf(id), 1);
  seat.concealed.push(id);
  // (not marked `apart`, which says where the recogniser found a tile: a tile a person reads here
  // is theirs, and no rule takes it out of the hand for another winner)
  Object.assign(tile, { code, read: tile.read || tile.code });
  model.winning = id;
}

// a tile the page took as the winner's winning tile out of its flowers (takeTileReadAsBonus) that
// is still where the page put it and as it read it: no person has moved it or picked its kind
function wonFromBonus(id) {
  const tile = model.tiles.get(id);
  const was = tile && tile.wonFromBonus;
  return Boolean(was && !tile.moved && !tile.checked && model.seats[was.pos].concealed.includes(id));
}

// a tile the page took out of the winner's flowers as the winning tile (takeTileReadAsBonus) is
// taken no longer: while no person has touched it (wonFromBonus) it goes back among the flowers
// and seasons where it was, as the flower or season it was read as, its mark taken away; a tile a
// person moved or picked stays theirs, where they put it
function putBackTileReadAsBonus(tile) {
  const was = tile.wonFromBonus;
  if (wonFromBonus(tile.id)) {
    const seat = model.seats[was.pos];
    seat.concealed.splice(seat.concealed.indexOf(tile.id), 1);
    seat.bonus.splice(Math.min(was.at, seat.bonus.length), 0, tile.id);
    Object.assign(tile, { code: was.code, read: was.read });
    if (model.winning === tile.id) model.winning = null;
  }
  delete tile.wonFromBonus;
}

// a winner with no winning tile marked whose concealed tiles hold one read lying sideways (the last,
// as vision/hands.py takes a seat's winning tile): it is marked again, as the photo marked it
// (buildModel) before another winner took the mark away, and as `mjscore photo` takes a named
// winner's tile lying sideways for its winning tile
function markTileLaidSideways(wind) {
  const seat = model.seats[posOfWind(wind, $("#camera_seat").value)];
  const id = [...seat.concealed].reverse().find((i) => model.tiles.get(i).sideways);
  if (id !== undefined) model.winning = id;
}

// a winner with no winning tile marked, holding 14 tiles of which one was read lying by itself
// apart from the sets (group "apart"), laid it apart to show it won: it is marked (as
// mjscore photo takes it; the table is drawn again by the field's change), and the person may
// mark another
function markTileLaidApart(wind) {
  const pos = posOfWind(wind, $("#camera_seat").value);
  const id = loneTileApart(pos);
  if (id !== null && heldCount(model.seats[pos]) === 14) model.winning = id;
}

// the tiles a seat's hand holds: 13, the winner 14, each kong counted as three, bonus tiles not
// counted (vision/extras.py held_count)
const heldCount = (seat) => seat.concealed.length + 3 * seat.melds.length;

// the seat's (its place's) only tile laid apart from its sets (group "apart"), among its concealed
// tiles, when no other tile of the seat lies apart, not even a face-down one left out beside it
// (vision/extras.py lone_tile_apart); null otherwise
function loneTileApart(pos) {
  const seat = model.seats[pos];
  const apart = seat.concealed.concat(model.unplaced.filter((id) => leftOutNear(id) === pos))
    .filter((id) => model.tiles.get(id).apart);
  return apart.length === 1 && seat.concealed.includes(apart[0]) ? apart[0] : null;
}

// once the winner is known, a seat holding one tile more than its hand can whose only tile laid
// apart lies by itself has that tile left out of its hand, as `mjscore photo` leaves it out
// (vision/extras.py drop_extra_tiles): a tile rack's corner or a stray piece found as a tile.  It
// waits under "Not placed" beside the hand (`near`; `leftOut`: where it was, and the hand's full
// count, for the warning renderWarnings gives), not scored unless a person moves it back.  Never
// left out: a tile lying sideways, the only copy of the winning tile, a copy of one of the seat's
// pungs (it may be a kong's fourth), a tile a person has moved (theirs)
function leaveOutExtras(winner) {
  model.seats.forEach((_, pos) => leaveOutExtra(pos, winner));
}

// leaveOutExtras for one seat (its place)
function leaveOutExtra(pos, winner) {
  const seat = model.seats[pos];
  const full = windAt(pos) === winner ? 14 : 13;
  const id = loneTileApart(pos);
  if (id === null || heldCount(seat) !== full + 1) return;
  const tile = model.tiles.get(id);
  const copies = seat.concealed.filter((i) => model.tiles.get(i).code === tile.code);
  const winsAlone = seat.concealed.includes(model.winning) && model.tiles.get(model.winning).code === tile.code
    && copies.length === 1;
  const pungs = seat.melds.filter((m) => meldKind(m) === "pung")
    .map((m) => m.ids.map((i) => model.tiles.get(i).code).find((c) => c !== "back"));
  if (tile.sideways || tile.moved || winsAlone || pungs.includes(tile.code)) return;
  const at = seat.concealed.indexOf(id);
  seat.concealed.splice(at, 1);
  model.unplaced.push(id);
  Object.assign(tile, { near: pos, leftOut: { at, full } });
  // the winning tile is a kind: its mark goes to the copy that stays
  if (model.winning === id) model.winning = copies.find((i) => i !== id);
}

// a person marked a tile of the winner's hand as its winning tile in place of another (the
// picker's "winning tile"): what the page did for the tile marked before is undone as
// `mjscore photo` undoes it for a winning tile named (vision/case.py build_case).  A tile the page
// took out of the flowers as the winning tile goes back among them (putBackTileReadAsBonus) unless
// the tile marked is of its kind (winning_tile_read_as_bonus takes it then too); the hand's lone
// tile laid apart, kept in it only as the winning tile's one copy, is left out of a hand full
// without it (leaveOutExtra)
function winningTileMarked(id, before) {
  const code = model.tiles.get(id).code;
  for (const tile of model.tiles.values()) {
    if (tile.wonFromBonus && tile.id !== id && tile.code !== code) putBackTileReadAsBonus(tile);
  }
  const where = locate(id);
  if (before !== null && before !== id && where && where.pos !== null && loneTileApart(where.pos) === before) {
    leaveOutExtra(where.pos, $("#winner").value);
  }
}

// who won changed: each tile the page left out for the winner before (leaveOutExtras) that still
// waits, unmoved, goes back where it was in its hand, and a tile it took out of the flowers as the
// winning tile (takeTileReadAsBonus) that no person has touched goes back among them as the
// flower or season it was read as; then, as `mjscore photo` takes the table (vision/case.py
// build_case), the winner's winning tile (one lying sideways, else one taken for a flower, else
// one laid apart; none of the last two for a hand won as dealt), then the tiles a full hand leaves
// out
function winnerChanged() {
  const winner = $("#winner").value;
  for (const tile of model.tiles.values()) {
    if (!tile.leftOut || leftOutNear(tile.id) === null) continue;
    const concealed = model.seats[tile.near].concealed;
    model.unplaced.splice(model.unplaced.indexOf(tile.id), 1);
    concealed.splice(Math.min(tile.leftOut.at, concealed.length), 0, tile.id);
    delete tile.near;
    delete tile.leftOut;
  }
  for (const tile of model.tiles.values()) if (tile.wonFromBonus) putBackTileReadAsBonus(tile);
  // a hand won as dealt (original hand) has no winning tile: none is taken or marked for it, as
  // build_case takes none; done again when how the hand was won turns to or from that (winByChanged)
  model.dealtComplete = $("#win_by").value === "original-hand";
  if (!winner) return;
  // a winning tile marked in another player's hand is not this winner's ("(choose)" names no
  // other player: the mark stays)
  const where = model.winning && locate(model.winning);
  if (model.winning && (!where || where.pos === null || windAt(where.pos) !== winner)) model.winning = null;
  if (!model.winning) markTileLaidSideways(winner);
  if (!model.winning && !model.dealtComplete) takeTileReadAsBonus(winner);
  if (!model.winning && !model.dealtComplete) markTileLaidApart(winner);
  leaveOutExtras(winner);
}

// how the hand was won changed: to or from a hand won as dealt, what follows from who won is done
// again (winnerChanged); any other change moves no tile
function winByChanged() {
  if (model && ($("#win_by").value === "original-hand") !== Boolean(model.dealtComplete)) winnerChanged();
}

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

// the house settings the form gives a table of these rules (none for Part I)
function houseParams(ruleset) {
  const limit = $("#limit").value.trim();
  if (ruleset === "pung-chow-limit") return { mj_bonus: Number($("#mj_bonus").value), limit: limit ? Number(limit) : null };
  if (ruleset === "classical") return { limit: limit ? Number(limit) : RULE_LIMITS.classical };
  return null;
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

// ------------------------------------------------------------------ the game so far

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

function signed(n) { return n > 0 ? `+${n}` : String(n); }
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

function gameStatus(text, isError) { setStatus(text, isError, "#game-status"); }

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
  setCorrecting(null);
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

// whether a value written to the saved game's key holds no game (removed, or empty as loadGame
// reads it), rather than one that cannot be read
function writtenEmpty(value) {
  try {
    return JSON.parse(value || "null") === null;
  } catch (e) {
    return false;
  }
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

// ------------------------------------------------------------------ wiring

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
