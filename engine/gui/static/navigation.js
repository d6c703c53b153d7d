// Stepping through the game: a click on a move of the list, ←/→, Home/End and the buttons under
// the board ask the server for the position after that move (`view`); the game is kept, and the
// live analysis follows the position shown. A move made from an earlier position first asks
// whether to cut the game there.
"use strict";

// The ply shown: the moves played up to the position on the board.
function shownPly(st) {
  return st.view === null || st.view === undefined ? st.history.length : st.view;
}

function viewing(st) {
  return Boolean(st) && st.view !== null && st.view !== undefined;
}

// The ply asked for and not shown yet: keys pressed quickly step on from it.
let navTarget = null;

function goTo(ply) {
  const st = ui.state;
  if (!st) return;
  const target = Math.max(0, Math.min(st.history.length, ply));
  if (target === (navTarget ?? shownPly(st))) return;
  navTarget = target;
  cancelTurn();
  send({ type: "view", ply: target });
}

function step(delta) {
  if (ui.state) goTo((navTarget ?? shownPly(ui.state)) + delta);
}

// A state arrived (or a request was refused): the ply asked for is reached, or given up.
function navSettled(st) {
  if (!st || navTarget === shownPly(st)) navTarget = null;
}

function renderNav(st) {
  const ply = shownPly(st), n = st.history.length;
  $("nav-first").disabled = $("nav-back").disabled = ply === 0;
  $("nav-next").disabled = $("nav-last").disabled = ply === n;
  $("nav-where").textContent = n === 0 ? "no moves yet" :
    (ply === n ? `move ${n} of ${n}` : `move ${ply} of ${n}: an earlier position`);
  $("nav-where").dataset.ply = String(ply);
}

// A move (or the engine's move) from an earlier position: the page asks before cutting.
function askCut(then) {
  const st = ui.state;
  const later = st.history.length - shownPly(st);
  $("cut-text").textContent = `Playing here cuts the game after move ${shownPly(st)}: ` +
    `its ${later} later move${later === 1 ? "" : "s"} will be dropped.`;
  $("cut-dialog").hidden = false;
  ui.afterCut = then;
}

function answerCut(yes) {
  $("cut-dialog").hidden = true;
  const then = ui.afterCut;
  ui.afterCut = null;
  if (!yes || !then) return cancelTurn();
  send({ type: "cut" });
  then();
}

function wireNavigation() {
  $("nav-first").addEventListener("click", () => goTo(0));
  $("nav-back").addEventListener("click", () => step(-1));
  $("nav-next").addEventListener("click", () => step(1));
  $("nav-last").addEventListener("click", () => goTo(Infinity));
  $("cut-yes").addEventListener("click", () => answerCut(true));
  $("cut-no").addEventListener("click", () => answerCut(false));
  document.addEventListener("keydown", (event) => {
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    const keys = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => goTo(0),
      End: () => goTo(Infinity) };
    if (keys[event.key]) {
      event.preventDefault();
      keys[event.key]();
    }
  });
}
