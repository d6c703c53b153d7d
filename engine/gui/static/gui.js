// The page: talks to the server over one WebSocket and draws what its messages say: the board,
// whose turn it is, the move being built (moves.js), the move list; the side panels are in
// panels.js and controls.js. Knows no rules: every position and move comes from the engine.
"use strict";

const $ = (id) => document.getElementById(id);
const ui = {
  state: null,          // the last `state` message
  prefix: [],           // actions chosen so far of the move being built
  source: null,         // a chosen source point of the next action
  preview: null,        // the engine's drawing of the position after `prefix` (a `preview`)
  view: null,           // the drawn board (for PV hover)
  pv: new Map(),        // multipv k -> info
  pvPosition: null,     // the position the analysis lines are about
  socket: null,
  pending: [],          // requests made before the socket opened
  report: null,         // the last review (engine.review's JSON report)
  thinking: false,
  away: null,           // why live analysis waits: "hidden", "idle" or null
  gameChoice: null,     // the selector's value of the game last started
  passingSide: null,    // a side whose forced passes go on by themselves (it passed one)
  holdPass: false,      // after an undo: a forced pass waits for a click
  passTimer: null,
  hint: null,           // the engine's move shown as a hint (a `hint` message)
  editing: false,       // the position editor is open (editor.js)
  afterCut: null,       // what a confirmed cut goes on with (navigation.js)
};

function send(request) {
  if (ui.socket && ui.socket.readyState === WebSocket.OPEN) ui.socket.send(JSON.stringify(request));
  else ui.pending.push(request);  // the first paint's board is playable before the socket opens
}

function say(text, isError) {
  const m = $("message");
  m.textContent = text || "";
  m.className = isError ? "error" : "";
}

// A result in words: "Black wins by 18", "White wins", "Draw", "White resigned: Black wins",
// "White lost on time: Black wins".
function resultWords(st) {
  const name = { w: "White", b: "Black" };
  const other = (side) => name[side === "w" ? "b" : "w"];
  if (st.resigned) return `${name[st.resigned]} resigned: ${other(st.resigned)} wins`;
  if (st.flagged) return `${name[st.flagged]} lost on time: ${other(st.flagged)} wins`;
  const result = st.status.result || "";
  const won = /^([WB])\+(\d*)$/.exec(result);
  const reason = (st.status.reason || "-").replace(/_/g, " ").replace(/^-$/, "");
  const words = won ? `${won[1] === "W" ? "White" : "Black"} wins${won[2] ? " by " + won[2] : ""}` :
    (result === "0" ? "Draw" : result);
  return reason ? `${words} (${reason})` : words;
}

// `score`'s reply on one line: "white tzaar 6 tzarra 9 … black …" as "White tzaar 6 … · Black …".
function countWords(score) {
  return score.replace(/^white\b/, "White").replace(/\s+black\b/, " · Black");
}

function render() {
  const st = ui.state;
  if (!st) return;
  const ply = shownPly(st);
  GipfReview.select(ply);
  const game = st.status.game;
  GipfBoard.setLook(game, st.look);
  const last = ply ? actionsOf(st.history[ply - 1][1]) : [];
  const { targets, sources } = ui.editing ? { targets: new Set(), sources: new Set() } : highlights();
  const focused = document.activeElement && document.activeElement.dataset &&
    document.activeElement.dataset.point;
  ui.view = GipfBoard.drawBoard($("board"), ui.editing ? editedBoard() : shownBoard(), game, {
    targets, sources, selected: ui.source, last: ui.editing ? [] : (ui.prefix.length ? ui.prefix : last),
    onClick: ui.editing ? editPoint : clickPoint,
  });
  $("board").dataset.after = ui.preview ? ui.preview.actions.join(" ") : "";
  if (focused) {  // the board is drawn anew: keyboard play keeps its place
    const again = $("board").querySelector(`[data-point="${focused}"]`);
    if (again) again.focus();
  }
  renderBuilder(targets, sources);
  renderStatus(st);
  renderMoves(st);
  renderNav(st);
  renderEngineView();
  if (document.activeElement !== $("position")) $("position").value = st.position;
  renderLegend(game);
}

// The line above the board: the turn so far, what to click, Pass and Cancel. One line always.
function renderBuilder(targets, sources) {
  const next = nextActions();
  const forced = forcedPass();
  $("pass").hidden = !next.includes("pass");
  $("cancel").hidden = !(ui.prefix.length || ui.source);
  $("chosen").textContent = ui.prefix.length ? "turn so far: " + ui.prefix.join(" ") : "";
  const hint = $("hint");
  hint.className = forced ? "forced" : "";
  hint.textContent = forced ? passWords() : ui.source ? `${ui.source} chosen: now a green point` :
    (targets.size ? "Your move: click a green point (or Tab to it, Enter)" :
      (sources.size ? "Your move: click a blue-ringed stack (or Tab to it, Enter)" : ""));
  hint.title = hint.textContent;
}

function renderStatus(st) {
  const over = st.status.over === "yes" || Boolean(st.resigned) || Boolean(st.flagged);
  const game = st.status.game;
  const who = st.players[st.status.to_act];
  $("to-act").textContent = over ? `${game.toUpperCase()} · game over:` :
    `${game.toUpperCase()} · ${SIDE_NAMES[st.status.to_act] || ""} to act (${who}) · ${st.status.phase}` +
    (viewing(st) ? ` · move ${st.view} of ${st.history.length} shown` :
      (st.paused ? " · paused: press Engine move" : ""));
  $("result").textContent = over ? resultWords(st) : "";
  const count = countWords(ui.preview ? ui.preview.score : st.score);
  $("score").textContent = "Count: " + count;
  $("score").title = "the count: what the position is worth by the rules' own tally" +
    (ui.preview ? ", after the actions chosen so far" : "");
  $("go").disabled = ui.thinking;  // after the end it says why there is nothing to play
}

// White's moves in the left column, Black's in the right, whatever the order of turns (after
// DVONN's 49 placements White moves twice in a row); a click shows the position after a move.
function renderMoves(st) {
  const list = $("moves");
  list.textContent = "";
  const ply = shownPly(st);
  st.history.forEach(([mover, move], i) => {
    const li = document.createElement("button");
    li.className = "move" + (i === st.history.length - 1 ? " last" : "") + (i + 1 === ply ? " shown" : "");
    li.textContent = `${i + 1}. ${mover[0]} ${move}`;
    li.style.gridColumn = mover[0] === "b" ? "2" : "1";
    li.dataset.ply = String(i + 1);
    li.addEventListener("click", () => goTo(i + 1));
    list.appendChild(li);
  });
  list.dataset.empty = st.history.length ? "" : "no moves yet";
  const shown = list.querySelector(".move.shown");
  if (shown) list.scrollTop = shown.offsetTop - list.offsetTop - list.clientHeight / 2;
}

function renderLegend(game) {
  const legend = $("legend");
  if (legend.dataset.game === game) return;
  legend.textContent = "";
  for (const [icon, text] of GipfBoard.legendItems(game)) {
    const span = document.createElement("span");
    span.append(icon, " " + text);
    legend.appendChild(span);
  }
  const notes = document.createElement("span");
  notes.textContent = GipfBoard.legendNotes(game);
  legend.appendChild(notes);
  legend.dataset.game = game;
}

// Another game (a new one, a record, a set position, a cut or an undo): the words and the
// review about the one before go.
function gameChanged(m) {
  say("");
  ui.hint = null;
  clearReview(m.game_id);
}

function showThinking(text) {
  ui.thinking = Boolean(text);
  $("thinking").hidden = !text;
  $("thinking").textContent = text || "";
  $("stop").disabled = !text;
  $("go").disabled = ui.thinking;
}

// --- messages from the server ---------------------------------------------------------------
const handlers = {
  state(m) {
    document.body.dataset.states = String((parseInt(document.body.dataset.states, 10) || 0) + 1);
    if (ui.state && ui.state.game_id !== m.game_id) gameChanged(m);
    ui.state = m;
    navSettled(m);
    syncClocks(m.clock);
    editorStateArrived(m);
    showThinking(null);  // a state comes only when the engine is not thinking
    if (m.position !== ui.pvPosition) clearAnalysis(m.position);  // no lines of another position
    ui.prefix = [];
    ui.source = null;
    ui.preview = null;
    syncControls(m);
    planPass();
    render();
  },
  preview(m) { previewArrived(m); },
  thinking(m) {
    showThinking(`engine thinking for ${SIDE_NAMES[m.side]}…`);
  },
  engine_move(m) {
    showThinking(null);
    say(m.move === "pass" ? `${SIDE_NAMES[m.side]} could not move: the engine passed` :
      `Engine played ${m.move}`);
  },
  ...analysisHandlers,
  ...reviewHandlers,
  ...engineViewHandlers,
  record(m) {
    const url = URL.createObjectURL(new Blob([m.text + "\n"], { type: "text/plain" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = m.filename;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    say("Record downloaded: " + m.filename);
  },
  notice(m) { say(m.message); },
  error(m) { say(m.message, true); navSettled(null); },
  fatal(m) { say(m.message, true); },
};

function connect() {
  const socket = new WebSocket(`ws://${location.host}/ws`);
  ui.socket = socket;
  socket.onopen = () => {
    $("connection").textContent = "connected";
    $("connection").className = "badge ok";
    for (const request of ui.pending.splice(0)) send(request);
  };
  socket.onclose = () => { $("connection").textContent = "disconnected (reload the page)"; $("connection").className = "badge bad"; };
  socket.onmessage = (event) => {
    const m = JSON.parse(event.data);
    (handlers[m.type] || (() => {}))(m);
  };
}

// The board the server drew into the page: the first paint is a game to play.
function firstState() {
  try {
    const m = JSON.parse($("first-state").textContent);
    if (m && m.type === "state") {
      ui.state = m;
      syncControls(m);
      render();
      document.body.dataset.firstPaint = "board";
    }
  } catch (e) { /* served without one: the session's first state draws the board */ }
}

wireGame();
wirePanels();
wireNavigation();
wireEditor();
firstState();
watchAttention();
connect();
