// Tile codes ("3m", "5z", "f2", "back") and the names a player knows them by: what a tile button
// shows, says and is coloured as, and "123m55z" read as codes

export { BONUS_NAMES, CLASSES, tileName, tileShort, tileLabel, tileClass, parseTiles };

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
