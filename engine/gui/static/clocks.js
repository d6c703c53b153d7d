// The clocks of a game with time per game: the server's time left for each side (the state's
// `clock`), the running one counted down here between states. A flag fall comes back from the
// server as the end of the game.
"use strict";

const clockState = { base: null, at: 0, timer: null };

function clockText(ms) {
  const tenths = Math.floor(Math.max(0, ms) / 100);
  const minutes = Math.floor(tenths / 600), seconds = Math.floor(tenths / 10) % 60;
  return `${minutes}:${String(seconds).padStart(2, "0")}.${tenths % 10}`;
}

function drawClocks() {
  const base = clockState.base;
  if (!base) return;
  const spent = performance.now() - clockState.at;
  for (const side of ["w", "b"]) {
    const left = base[side] - (base.running === side ? spent : 0);
    const node = $(`clock-${side}`);
    node.textContent = `${SIDE_NAMES[side]} ${clockText(left)}`;
    node.dataset.ms = String(Math.max(0, Math.round(left)));
    node.classList.toggle("running", base.running === side);
    node.classList.toggle("low", left < 10000);
  }
}

// Each state: the clocks as the server has them (null: time per move, no clocks).
function syncClocks(clock) {
  clockState.base = clock;
  clockState.at = performance.now();
  $("clocks").hidden = !clock;
  clearInterval(clockState.timer);
  clockState.timer = clock && clock.running ? setInterval(drawClocks, 100) : null;
  drawClocks();
}
