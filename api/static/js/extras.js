// The rules of `mjscore photo` the page repeats for the tiles a person corrects, once the winner is
// known (vision/case.py build_case, in its order, and vision/extras.py): the winning tile lying
// sideways, taken back from the flowers, or laid apart; a lone tile apart left out of a hand full
// without it; all undone when the winner changes or a person marks another winning tile or
// takes a mark off

import { $ } from "./dom.js";
import { BONUS_NAMES } from "./tiles.js";
import { posOfWind, windAt } from "./winds.js";
import { model } from "./state.js";
import { leftOutNear, locate, meldKind } from "./model.js";

export { wonFromBonus, heldCount, winningTileMarked, winningTileUnmarked, winnerChanged, winByChanged };

// a winner holding 13 tiles, with one tile among its flowers and seasons that the recogniser read
// as a suit or honour tile (its likeliest reading) and took for a flower or season only because it
// lies by itself apart from the sets, where they lie (as its warning of kind "bonus-apart" says),
// laid its winning tile so: as `mjscore photo` takes it (vision/extras.py
// winning_tile_read_as_bonus), that tile, the only such one, not lying sideways, and neither moved
// nor read by a person, goes into the winner's concealed tiles with its likeliest reading (what the
// recogniser answered kept as `read`).  With no winning tile marked (`named` null) it is marked as
// the winning tile; with one a person marked, only a tile whose likeliest reading is the marked
// tile's kind (`named`) is taken, as `mjscore photo` takes one for the winning tile named, and the
// mark stays where the person put it (the kind it names is the same).  `wonFromBonus` keeps where
// it was and what it was, to put it back when the winner changes (winnerChanged) or a person marks
// a winning tile of another kind (winningTileMarked)
function takeTileReadAsBonus(wind, named = null) {
  const pos = posOfWind(wind, $("#camera_seat").value);
  const seat = model.seats[pos];
  const taken = seat.bonus.filter((id) => {
    const tile = model.tiles.get(id);
    const first = (tile.candidates || [])[0];
    return Boolean(BONUS_NAMES[tile.code] && first && !BONUS_NAMES[first[0]] && first[0] !== "back"
      && !tile.sideways && !tile.moved && !tile.checked && (named === null || first[0] === named));
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
  if (named === null) model.winning = id;
}

// a person's mark on a tile of the winner's hand (`wind`'s), kept or just made, names the
// winning tile's kind as the winning tile named to `mjscore photo` does (vision/case.py
// build_case): unless the hand was won as dealt (no winning tile), the winner laid one sideways
// (build_case then takes none from the flowers), or a tile is already taken out of them, a tile
// among the flowers read as that kind is taken into the hand (takeTileReadAsBonus), the mark left
// on the person's tile
function takeNamedTileReadAsBonus(wind, code) {
  const seat = model.seats[posOfWind(wind, $("#camera_seat").value)];
  if (model.dealtComplete || seat.concealed.some((i) => model.tiles.get(i).sideways || wonFromBonus(i))) return;
  takeTileReadAsBonus(wind, code);
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
  // (a hand won as dealt has no winning tile: a mark keeps no tile in it, as build_case names none)
  const winsAlone = !model.dealtComplete && seat.concealed.includes(model.winning)
    && model.tiles.get(model.winning).code === tile.code && copies.length === 1;
  const pungs = seat.melds.filter((m) => meldKind(m) === "pung")
    .map((m) => m.ids.map((i) => model.tiles.get(i).code).find((c) => c !== "back"));
  if (tile.sideways || tile.moved || winsAlone || pungs.includes(tile.code)) return;
  const at = seat.concealed.indexOf(id);
  seat.concealed.splice(at, 1);
  model.unplaced.push(id);
  // the winning tile is a kind: its mark goes to the copy that stays.  With none (only a hand won
  // as dealt, which has no winning tile, leaves out its one copy) the mark is taken off, kept with
  // the tile (`marked`) to go back on it with it (winnerChanged) if the hand was won otherwise
  const copy = copies.find((i) => i !== id);
  const marked = model.winning === id && copy === undefined;
  Object.assign(tile, { near: pos, leftOut: { at, full, ...(marked ? { marked } : {}) } });
  if (model.winning === id) model.winning = copy === undefined ? null : copy;
}

// a person marked a tile of the winner's hand as its winning tile (the picker's "winning tile"):
// the page does what `mjscore photo` does with that tile's kind named as the winning tile
// (vision/case.py build_case).  A tile the page took out of the flowers as the winning tile goes
// back among them (putBackTileReadAsBonus) unless the tile marked is of its kind
// (winning_tile_read_as_bonus takes it then too); a tile among the flowers read as the kind marked
// is taken into the hand (takeNamedTileReadAsBonus); and the hand's lone tile laid apart, kept in it
// only as the winning tile's one copy (whether or not its mark was taken off it since), is left
// out of a hand full without it (leaveOutExtra, which checks all that itself)
function winningTileMarked(id) {
  const code = model.tiles.get(id).code;
  for (const tile of model.tiles.values()) {
    if (tile.wonFromBonus && tile.id !== id && tile.code !== code) putBackTileReadAsBonus(tile);
  }
  const where = locate(id);
  if (!where || where.pos === null) return;
  takeNamedTileReadAsBonus(windAt(where.pos), code);
  leaveOutExtra(where.pos, $("#winner").value);
}

// a person took the mark off a tile (the picker's "winning tile" unticked): what the mark did is
// undone and the page does what `mjscore photo` does with no winning tile named (winnerChanged),
// except that a rule taking that tile as the winning tile takes none (a tile taken out of the
// flowers goes back among them)
function winningTileUnmarked(id) {
  winnerChanged(id);
}

// who won changed: each tile the page left out for the winner before (leaveOutExtras) that still
// waits, unmoved, goes back where it was in its hand (with the winning tile's mark it had, when no
// other tile is marked), and a tile it took out of the flowers as the winning tile
// (takeTileReadAsBonus) that no person has touched goes back among them as the flower or season it
// was read as; then, as `mjscore photo` takes the table (vision/case.py
// build_case), the winner's winning tile (a person's mark on a tile of the winner's hand kept, with
// a tile among the flowers read as its kind taken into the hand; else one lying sideways, else one
// taken for a flower, else one laid apart; none taken from the flowers or laid apart for a hand won
// as dealt; none if the one taken is `notWon`, a tile a person has just unmarked), then the tiles a
// full hand leaves out
function winnerChanged(notWon = null) {
  const winner = $("#winner").value;
  for (const tile of model.tiles.values()) {
    if (!tile.leftOut || leftOutNear(tile.id) === null) continue;
    const concealed = model.seats[tile.near].concealed;
    model.unplaced.splice(model.unplaced.indexOf(tile.id), 1);
    concealed.splice(Math.min(tile.leftOut.at, concealed.length), 0, tile.id);
    if (tile.leftOut.marked && !model.winning) model.winning = tile.id;
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
  // a mark a person put on a tile of this winner's hand stays, and names its kind (one lying
  // sideways, marked again just now, takes none: build_case takes none then)
  if (model.winning) takeNamedTileReadAsBonus(winner, model.tiles.get(model.winning).code);
  if (!model.winning && !model.dealtComplete) takeTileReadAsBonus(winner);
  if (!model.winning && !model.dealtComplete) markTileLaidApart(winner);
  if (notWon !== null && model.winning === notWon) {
    putBackTileReadAsBonus(model.tiles.get(notWon));
    model.winning = null;
  }
  leaveOutExtras(winner);
}

// how the hand was won changed: to or from a hand won as dealt, what follows from who won is done
// again (winnerChanged); any other change moves no tile
function winByChanged() {
  if (model && ($("#win_by").value === "original-hand") !== Boolean(model.dealtComplete)) winnerChanged();
}
