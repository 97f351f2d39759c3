// A photo sent to be read (api/v1/recognize) and its answer made the table to correct

import { $, setStatus } from "./dom.js";
import { model, setCameraShown, setCorrecting, setModel, setScored } from "./state.js";
import { buildModel, leftOutNear, unsure } from "./model.js";
import { winnerChanged } from "./extras.js";
import { renderWarnings } from "./warnings.js";
import { renderAll } from "./table.js";
import { SAVED_PHOTO, savePhoto } from "./saved-table.js";
import { OFFLINE, apiError } from "./server-errors.js";
import { cameraChanged, showFlags } from "./form.js";
import { followGame } from "./game.js";

export { recognizeFile };

let photoUrl = null;

let reading = 0;    // the latest photo sent to be read: an earlier answer arriving late is dropped

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

const MAX_UPLOAD = 20 * 1024 * 1024;

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
