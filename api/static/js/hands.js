// The hands drawn as buttons, one a tile, by seat and set, with the tiles not placed in any hand

import { $, el } from "./dom.js";
import { tileClass, tileLabel, tileShort } from "./tiles.js";
import { POSITIONS, WIND_NAMES, windAt } from "./winds.js";
import { model } from "./state.js";
import { leftOutNear, meldKind, unsure } from "./model.js";
import { highlight } from "./overlay.js";
import { changed } from "./table.js";
import { focusOn } from "./keyboard.js";
import { openPicker } from "./picker.js";
import { renderPlayers } from "./game.js";

export { renderHands };

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
