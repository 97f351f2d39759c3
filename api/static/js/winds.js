// The four winds, and which of them sits at each edge of the photo (bottom, right, top, left) as
// the wind at its bottom edge chosen on the form says

import { $ } from "./dom.js";

export { WINDS, WIND_NAMES, POSITIONS, windAt, posOfWind };

const WINDS = ["E", "S", "W", "N"];
const WIND_NAMES = { E: "East", S: "South", W: "West", N: "North" };
const POSITIONS = ["bottom", "right", "top", "left"];

function windAt(pos) {
  const cam = WINDS.indexOf($("#camera_seat").value);
  return WINDS[(cam + pos) % 4];
}

function posOfWind(wind, cameraWind) {
  return (WINDS.indexOf(wind) - WINDS.indexOf(cameraWind) + 4) % 4;
}
