// The page's shared state, in one place: the other modules read it as imports (live bindings).
// State a single module keeps to itself stays there: the picker's tile in picker.js, the photo
// being read in upload.js, a game request on its way in game.js.

export {
  model, nextId, cameraShown, game, scored, correcting, setModel, newTileId, setNextId, setCameraShown, setGame,
  setScored, setCorrecting
};

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
