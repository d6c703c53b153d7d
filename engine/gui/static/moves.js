// Building a move from clicks: the engine's legal_moves filtered by the actions chosen so far.
// Knows no rules: a move is what legal_moves lists, an action one word of it (a point, two
// points, or pass). Between the actions of a turn the board is the engine's drawing of the
// position after them (a `preview`), so the player always acts on the position as it stands.
"use strict";

const actionsOf = (move) => move.split(" ");
const PASS_NOTICE_MS = 1500;  // how long "White cannot move" is read before a pass made by itself
const SIDE_NAMES = { w: "White", b: "Black" };

function candidates() {
  const legal = ui.state ? ui.state.legal : [];
  return legal.filter((m) => {
    const a = actionsOf(m);
    return ui.prefix.every((x, i) => a[i] === x);
  });
}

function nextActions() {
  const next = new Set();
  for (const m of candidates()) {
    const a = actionsOf(m)[ui.prefix.length];
    if (a !== undefined) next.add(a);
  }
  return [...next];
}

function highlights() {
  const targets = new Set(), sources = new Set();
  for (const action of nextActions()) {
    const pts = GipfBoard.pointsOf(action);
    if (pts.length === 1 && !ui.source) targets.add(pts[0]);
    if (pts.length === 2) {
      if (ui.source === pts[0]) targets.add(pts[1]);
      else if (!ui.source) sources.add(pts[0]);
    }
  }
  return { targets, sources };
}

// The board the player acts on: after the actions chosen so far once the engine has drawn it.
function shownBoard() {
  return ui.preview ? ui.preview.board : ui.state.board;
}

// Why a click on a point does nothing: said in a few words, never silently ignored.
function refusal(name) {
  const st = ui.state;
  if (!st) return "Wait for the board";
  if (st.status.over === "yes" || st.resigned || st.flagged) return "The game is over: start a new game or undo";
  if (ui.thinking || st.players[st.status.to_act] !== "human") return "Wait: it is the engine's turn" +
    (st.paused ? " (press Engine move)" : "");
  const next = nextActions();
  if (!next.length) return "Nothing to choose now";
  if (next.every((a) => a === "pass")) return forcedPass() ? passWords() : "No move here: press Pass";
  const point = shownBoard().points.find((p) => p.name === name);
  const { targets, sources } = highlights();
  const where = targets.size ? "a green point" : (sources.size ? "a blue-ringed piece" : "a marked point");
  if (ui.source) return `${name}: ${ui.source} cannot go there; choose ${where}`;
  const mover = { w: "white", b: "black" }[st.status.to_act];
  const colour = point && point.top ? GipfBoard.colourOf(st.status.game, point.top) : null;
  if (colour && colour !== "red" && colour !== mover && sources.size) {
    return `${name} is ${colour === "white" ? "White" : "Black"}'s: move one of your own pieces (blue ring)`;
  }
  const what = point && point.top ? "this piece cannot be chosen now" : "this point cannot be chosen now";
  return `${name}: ${what}; choose ${where}`;
}

function clickPoint(name) {
  const next = nextActions();
  const twoPoint = (a, from, to) => { const p = GipfBoard.pointsOf(a); return p.length === 2 && p[0] === from && (to === undefined || p[1] === to); };
  say("");
  if (ui.source) {
    const action = next.find((a) => twoPoint(a, ui.source, name));
    if (action) return choose(action);
    if (name === ui.source) { ui.source = null; return render(); }  // a second click puts it back
    const from = ui.source;
    ui.source = null;
    if (!next.some((a) => twoPoint(a, name))) {
      say(`${name}: ${from} cannot go there`, true);
      return render();
    }
  }
  const single = next.find((a) => { const p = GipfBoard.pointsOf(a); return p.length === 1 && p[0] === name; });
  if (single) return choose(single);
  if (next.some((a) => twoPoint(a, name))) ui.source = name;
  else say(refusal(name), true);
  render();
}

function choose(action) {
  ui.prefix.push(action);
  ui.source = null;
  ui.preview = null;
  const left = candidates();
  const whole = left.find((m) => actionsOf(m).length === ui.prefix.length);
  if (whole && left.length === 1) {
    if (viewing(ui.state)) return askCut(() => playMove(whole));
    playMove(whole);
  } else {
    send({ type: "preview", actions: ui.prefix.slice() });  // the engine draws the turn so far
  }
  render();
}

function playMove(move) {
  ui.prefix = [];
  send({ type: "play", move });
  ui.state.legal = [];  // until the engine's next state
  render();
}

// The engine's drawing of the turn so far; one for a turn since given up or played is dropped.
function previewArrived(m) {
  if (!ui.state || m.position !== ui.state.position || m.actions.join(" ") !== ui.prefix.join(" ")) return;
  ui.preview = m;
  render();
}

// Cancel: back to the position at the start of the turn.
function cancelTurn() {
  ui.prefix = [];
  ui.source = null;
  ui.preview = null;
  render();
}

// --- passes -------------------------------------------------------------------------------------
// A person to act whose only move is pass.
function forcedPass() {
  const st = ui.state;
  return Boolean(st) && !ui.prefix.length && st.players[st.status.to_act] === "human" &&
    st.status.over !== "yes" && !st.resigned && st.legal.length === 1 && st.legal[0] === "pass";
}

// A forced pass is made by itself, after a short notice, when the player asked for that, or when
// the same side's previous forced pass was passed (several in a row need one click).
function passesByItself() {
  return forcedPass() && !ui.holdPass && !viewing(ui.state) &&
    ($("auto-pass").checked || ui.passingSide === ui.state.status.to_act);
}

function passWords() {
  const side = SIDE_NAMES[ui.state.status.to_act];
  return passesByItself() ? `${side} cannot move: passing in a moment` : `${side} cannot move: pass`;
}

function pass() {
  ui.holdPass = false;
  if (forcedPass()) {
    ui.passingSide = ui.state.status.to_act;
    say(`${SIDE_NAMES[ui.passingSide]} could not move and passed`);
  }
  choose("pass");
}

// After each state: forget a run of forced passes once its side can move again; plan the next one.
function planPass() {
  clearTimeout(ui.passTimer);
  ui.passTimer = null;
  const st = ui.state;
  if (st.status.over === "yes" || (st.status.to_act === ui.passingSide && !forcedPass())) {
    ui.passingSide = null;
  }
  if (!forcedPass()) ui.holdPass = false;
  if (!passesByItself()) return;
  const position = st.position;
  ui.passTimer = setTimeout(() => {
    ui.passTimer = null;
    if (ui.state.position === position && passesByItself()) pass();
  }, Number(document.body.dataset.passMs) || PASS_NOTICE_MS);
}
