// The page: talks to the server over one WebSocket, builds moves from the engine's legal_moves by
// clicks, shows the move list, the analysis and the messages. Knows no rules: a move is what
// legal_moves lists, an action one word of it (a point, two points, or pass).
"use strict";

const $ = (id) => document.getElementById(id);
const ui = {
  state: null,          // the last `state` message
  prefix: [],           // actions chosen so far of the move being built
  source: null,         // a chosen source point of the next action
  view: null,           // the drawn board (for PV hover)
  pv: new Map(),        // multipv k -> info
  pvPosition: null,     // the position the analysis lines are about
  socket: null,
  pending: [],          // requests made before the socket opened
  report: null,         // the last review (engine.review's JSON report)
  thinking: false,
  away: null,           // why live analysis waits: "hidden", "idle" or null
};
const IDLE_MS = 60000;  // live analysis waits after a minute without input
const TIME_MS = [10, 86400000];

function send(request) {
  if (ui.socket && ui.socket.readyState === WebSocket.OPEN) ui.socket.send(JSON.stringify(request));
  else ui.pending.push(request);  // the first paint's board is playable before the socket opens
}

function say(text, isError) {
  const m = $("message");
  m.textContent = text || "";
  m.className = isError ? "error" : "";
}

// --- building a move from clicks ---------------------------------------------------------
const actionsOf = (move) => move.split(" ");

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

// Why a click on a point does nothing: said in a few words, never silently ignored.
function refusal(name) {
  const st = ui.state;
  if (!st) return "Wait for the board";
  if (st.status.over === "yes" || st.resigned) return "The game is over: start a new game or undo";
  if (ui.thinking || st.players[st.status.to_act] !== "human") return "Wait: it is the engine's turn" +
    (st.paused ? " (press Engine move)" : "");
  const next = nextActions();
  if (!next.length) return "Nothing to choose now";
  if (next.every((a) => a === "pass")) return "No move here: press Pass";
  const point = st.board.points.find((p) => p.name === name);
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
  say("");
  if (ui.source) {
    const action = next.find((a) => { const p = GipfBoard.pointsOf(a); return p.length === 2 && p[0] === ui.source && p[1] === name; });
    if (action) return choose(action);
    if (name === ui.source) { ui.source = null; return render(); }  // a second click puts it back
    const from = ui.source;
    ui.source = null;
    if (!next.some((a) => { const p = GipfBoard.pointsOf(a); return p.length === 2 && p[0] === name; })) {
      say(`${name}: ${from} cannot go there`, true);
      return render();
    }
  }
  const single = next.find((a) => { const p = GipfBoard.pointsOf(a); return p.length === 1 && p[0] === name; });
  if (single) return choose(single);
  if (next.some((a) => { const p = GipfBoard.pointsOf(a); return p.length === 2 && p[0] === name; })) ui.source = name;
  else say(refusal(name), true);
  render();
}

function choose(action) {
  ui.prefix.push(action);
  ui.source = null;
  const left = candidates();
  const whole = left.find((m) => actionsOf(m).length === ui.prefix.length);
  if (whole && left.length === 1) {
    ui.prefix = [];
    send({ type: "play", move: whole });
    ui.state.legal = [];  // until the engine's next state
  }
  render();
}

// --- drawing ---------------------------------------------------------------------------------
// A result in words: "Black wins by 18", "White wins", "Draw", "White resigned: Black wins".
function resultWords(st) {
  const name = { w: "White", b: "Black" };
  if (st.resigned) return `${name[st.resigned]} resigned: ${name[st.resigned === "w" ? "b" : "w"]} wins`;
  const result = st.status.result || "";
  const won = /^([WB])\+(\d*)$/.exec(result);
  const reason = (st.status.reason || "-").replace(/_/g, " ").replace(/^-$/, "");
  const words = won ? `${won[1] === "W" ? "White" : "Black"} wins${won[2] ? " by " + won[2] : ""}` :
    (result === "0" ? "Draw" : result);
  return reason ? `${words} (${reason})` : words;
}

function formatScore(s) {
  if (typeof s !== "number") return "";
  if (s >= 999000) return "wins";
  if (s <= -999000) return "loses";
  return (s > 0 ? "+" : "") + s;
}

// The game selector: the registry's games, a game with seeded layouts as two choices.
function fillGames(games) {
  const select = $("game");
  const key = JSON.stringify(games || []);
  if (!games || select.dataset.games === key) return;
  const kept = select.value;
  select.textContent = "";
  for (const g of games) {
    const choices = g.openings ? [[`${g.name}-fixed`, `${g.title}, fixed layout`],
      [`${g.name}-random`, `${g.title}, random layout`]] : [[g.name, g.title]];
    for (const [value, label] of choices) {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = label;
      select.appendChild(option);
    }
  }
  if ([...select.options].some((o) => o.value === kept)) select.value = kept;
  select.dataset.games = key;
  $("seed-label").hidden = !select.value.endsWith("-random");
}

function render() {
  const st = ui.state;
  if (!st) return;
  $("review-view").hidden = true;  // the game itself is shown again
  GipfReview.select(null);
  const game = st.status.game;
  GipfBoard.setLook(game, st.look);
  fillGames(st.games);
  const last = st.history.length ? actionsOf(st.history[st.history.length - 1][1]) : [];
  const { targets, sources } = highlights();
  const focused = document.activeElement && document.activeElement.dataset &&
    document.activeElement.dataset.point;
  ui.view = GipfBoard.drawBoard($("board"), st.board, game, {
    targets, sources, selected: ui.source, last: ui.prefix.length ? ui.prefix : last, onClick: clickPoint,
  });
  if (focused) {  // the board is drawn anew: keyboard play keeps its place
    const again = $("board").querySelector(`[data-point="${focused}"]`);
    if (again) again.focus();
  }
  const next = nextActions();
  $("pass").hidden = !next.includes("pass");
  $("cancel").hidden = !(ui.prefix.length || ui.source);
  $("chosen").textContent = ui.prefix.length ? "turn so far: " + ui.prefix.join(" ") : "";
  $("hint").textContent = ui.source ? `${ui.source} chosen: now a green point` :
    (targets.size ? "Your move: click a green point (or Tab to it, Enter)" :
      (sources.size ? "Your move: click a blue-ringed stack (or Tab to it, Enter)" : ""));
  const over = st.status.over === "yes" || Boolean(st.resigned);
  const side = { w: "White", b: "Black" }[st.status.to_act] || "";
  const who = st.players[st.status.to_act];
  $("to-act").textContent = over ? `${game.toUpperCase()} · game over:` :
    `${game.toUpperCase()} · ${side} to act (${who}) · ${st.status.phase}` + (st.paused ? " · paused: press Engine move" : "");
  $("result").textContent = over ? resultWords(st) : "";
  $("score").textContent = "Count: " + st.score;
  $("go").disabled = ui.thinking;  // after the end it says why there is nothing to play
  const list = $("moves");
  list.textContent = "";
  st.history.forEach(([mover, move], i) => {
    const li = document.createElement("div");
    li.className = "move";
    li.textContent = `${i + 1}. ${mover[0]} ${move}`;
    if (i === st.history.length - 1) li.className = "move last";
    list.appendChild(li);
  });
  list.scrollTop = list.scrollHeight;
  if (document.activeElement !== $("position")) $("position").value = st.position;
  const legend = $("legend");
  if (legend.dataset.game !== game) {
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
}

function renderPv() {
  const body = document.querySelector("#pv-table tbody");
  body.textContent = "";
  for (const k of [...ui.pv.keys()].sort((a, b) => a - b)) {
    const info = ui.pv.get(k);
    const tr = document.createElement("tr");
    tr.className = "pv-line";
    for (const text of [k, formatScore(info.score), info.depth ?? "", info.nodes ?? ""]) {
      const td = document.createElement("td");
      td.textContent = String(text);
      tr.appendChild(td);
    }
    const td = document.createElement("td");
    (info.pv || []).forEach((action, i) => {
      const span = document.createElement("span");
      span.className = "pv-move";
      span.textContent = action;
      const upTo = (info.pv || []).slice(0, i + 1).filter((a) => a !== "pass");
      span.addEventListener("mouseenter", () => ui.view && ui.view.showPv(upTo));
      span.addEventListener("mouseleave", () => ui.view && ui.view.showPv(null));
      td.append(span, " ");
    });
    tr.appendChild(td);
    body.appendChild(tr);
  }
}

function syncControls(st) {
  $("player-w").value = st.players.w;
  $("player-b").value = st.players.b;
  if (document.activeElement !== $("time-ms")) $("time-ms").value = st.time.ms;
  $("time-mode").value = st.time.mode;
  $("analysis-on").checked = st.analysis.on;
  $("multipv").value = String(st.analysis.multipv);
  const level = st.level;  // only an engine that lists `level` in its options has levels
  $("level-row").hidden = !level;
  if (level) {
    const select = $("level");
    if (select.options.length !== level.high - level.low + 1) {
      select.textContent = "";
      for (let n = level.low; n <= level.high; n++) select.add(new Option(String(n), String(n)));
    }
    select.value = String(level.value);
    const middle = Math.floor((level.low + level.high) / 2);
    $("level-note").textContent = `${level.low} weakest, ${level.high} full strength` +
      (level.value === middle ? "; a middle level to start with" : "");
  }
}

// Live analysis waits while the tab is hidden or after a minute without input.
function attention(away) {
  if (ui.away === away) return;
  ui.away = away;
  send({ type: "attention", present: !away });
  showAnalysisState();
}

function showAnalysisState() {
  const state = $("analysis-state");
  if (ui.away && ui.state && ui.state.analysis.on) {
    state.textContent = ui.away === "hidden" ? "paused while the tab is hidden" :
      "paused after a minute without input: move the mouse or press a key";
    state.dataset.state = "away";
  } else if (state.dataset.state === "away") {
    state.textContent = "";
    state.dataset.state = "";
  }
}

function watchAttention() {
  let timer = null;
  const idleMs = () => Number(document.body.dataset.idleMs) || IDLE_MS;  // tests shorten it
  const active = () => {
    if (document.hidden) return;
    if (ui.away === "idle") attention(null);
    clearTimeout(timer);
    timer = setTimeout(() => attention("idle"), idleMs());
  };
  for (const kind of ["pointermove", "pointerdown", "keydown", "wheel", "touchstart"]) {
    document.addEventListener(kind, active, { passive: true });
  }
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) attention("hidden");
    else { attention(null); active(); }
  });
  active();
}

function clearAnalysis(position) {
  ui.pv.clear();
  ui.pvPosition = position;
  renderPv();
  const state = $("analysis-state");
  if (state.dataset.state !== "away") { state.textContent = ""; state.dataset.state = ""; }
}

function showThinking(text) {
  ui.thinking = Boolean(text);
  $("thinking").hidden = !text;
  $("thinking").textContent = text || "";
  $("stop").disabled = !text;
  $("go").disabled = ui.thinking;
}

// --- the review ------------------------------------------------------------------------------
function pickReviewed(ply) {
  send({ type: "review_show", ply });
}

function reviewRunning(on) {
  $("review-start").disabled = on;
  $("review-cancel").disabled = !on;
  $("review-progress").hidden = !on;
}

// A reviewed position on the board: looked at, not played (no targets, clicks do nothing).
function showReviewed(m) {
  if (!ui.state || !ui.report) return;
  const move = m.ply > 0 ? ui.report.moves[m.ply - 1] : null;
  ui.view = GipfBoard.drawBoard($("board"), m.board, ui.report.game, {
    targets: new Set(), sources: new Set(), selected: null,
    last: move ? actionsOf(move.move) : [], onClick: () => {},
  });
  $("review-view").hidden = false;
  $("review-view-text").textContent = move ?
    `Review: the position after ${move.number}. ${move.move} (${move.played.text})` : "Review: the start position";
  GipfReview.select(m.ply);
}

// --- messages from the server ---------------------------------------------------------------
const handlers = {
  state(m) {
    document.body.dataset.states = String((parseInt(document.body.dataset.states, 10) || 0) + 1);
    ui.state = m;
    showThinking(null);  // a state comes only when the engine is not thinking
    if (m.position !== ui.pvPosition) clearAnalysis(m.position);  // no lines of another position
    ui.prefix = [];
    ui.source = null;
    syncControls(m);
    render();
  },
  thinking(m) {
    showThinking(`engine thinking for ${m.side === "w" ? "White" : "Black"}…`);
  },
  engine_move(m) {
    showThinking(null);
    say(`Engine played ${m.move}`);
  },
  analysis_start(m) {
    clearAnalysis(m.position);
    $("analysis-state").textContent = "analysing…";
    $("analysis-state").dataset.state = "running";
  },
  info(m) {
    ui.pv.set(m.info.multipv || 1, m.info);
    renderPv();
  },
  analysis_end(m) {
    const state = $("analysis-state");
    state.dataset.ended = String((parseInt(state.dataset.ended, 10) || 0) + 1);
    if (ui.away) return showAnalysisState();
    state.textContent = `stopped; best ${m.bestmove}`;
    state.dataset.state = "stopped";
  },
  analysis_error(m) {
    $("analysis-state").textContent = "analysis unavailable: " + m.message;
    $("analysis-state").dataset.state = "error";
  },
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
  review_start(m) {
    reviewRunning(true);
    $("review-progress").value = 0;
    $("review-state").textContent = `reviewing ${m.moves} moves…`;
  },
  review_progress(m) {
    $("review-progress").max = Math.max(m.total, 1);
    $("review-progress").value = m.done;
    $("review-state").textContent = `reviewing: ${m.done} of ${m.total} positions`;
  },
  review_result(m) {
    reviewRunning(false);
    ui.report = m.report;
    const limit = m.report.limits.depth ? `depth ${m.report.limits.depth}` : `${m.report.limits.movetime} ms`;
    const plural = (k, v) => v === 1 ? k : (k === "inaccuracy" ? "inaccuracies" : k + "s");
    const count = (side) => Object.entries(m.report.summary[side]).map(([k, v]) => `${v} ${plural(k, v)}`).join(", ");
    $("review-state").textContent = `${m.report.moves.length} moves at ${limit} · White: ${count("white")} · Black: ${count("black")}`;
    $("review-graph").hidden = false;
    GipfReview.drawGraph($("review-graph"), m.report, pickReviewed);
    GipfReview.drawMoves($("review-moves"), m.report, pickReviewed);
  },
  review_error(m) {
    reviewRunning(false);
    $("review-state").textContent = m.message;
  },
  review_board(m) { showReviewed(m); },
  notice(m) { say(m.message); },
  error(m) { say(m.message, true); },
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

// --- controls ---------------------------------------------------------------------------------
function wire() {
  $("game").addEventListener("change", () => { $("seed-label").hidden = !$("game").value.endsWith("-random"); });
  $("newgame").addEventListener("click", () => {
    const [game, opening] = $("game").value.split("-");
    const request = { type: "newgame", game };
    if (opening) request.opening = opening;  // TZAAR's layout
    if (opening === "random") request.seed = Math.max(0, parseInt($("seed").value, 10) || 0);
    send(request);
  });
  const players = () => send({ type: "players", w: $("player-w").value, b: $("player-b").value });
  $("player-w").addEventListener("change", players);
  $("player-b").addEventListener("change", players);
  const time = () => {
    const text = $("time-ms").value.trim();
    const ms = Number(text);
    if (!/^\d+$/.test(text) || ms < TIME_MS[0] || ms > TIME_MS[1]) {
      say(`Engine time: a whole number of milliseconds from ${TIME_MS[0]} to ${TIME_MS[1]}` +
        (text ? `, not ${text.slice(0, 20)}` : ""), true);
      return;
    }
    say("");
    send({ type: "time", mode: $("time-mode").value, ms });
  };
  $("time-ms").addEventListener("change", time);
  $("time-mode").addEventListener("change", time);
  const analysis = () => send({ type: "analysis", on: $("analysis-on").checked, multipv: parseInt($("multipv").value, 10) });
  $("analysis-on").addEventListener("change", analysis);
  $("multipv").addEventListener("change", analysis);
  $("level").addEventListener("change", () => send({ type: "level", level: parseInt($("level").value, 10) }));
  $("undo").addEventListener("click", () => send({ type: "undo" }));
  $("go").addEventListener("click", () => send({ type: "go" }));
  document.addEventListener("keydown", (event) => {
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    if (event.key === "Escape" && (ui.prefix.length || ui.source)) { ui.prefix = []; ui.source = null; render(); }
    else if ((event.key === "p" || event.key === "P") && nextActions().includes("pass")) choose("pass");
  });
  $("stop").addEventListener("click", () => send({ type: "stop" }));
  $("pass").addEventListener("click", () => choose("pass"));
  $("cancel").addEventListener("click", () => { ui.prefix = []; ui.source = null; render(); });
  $("copy").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText($("position").value); say("Position copied"); }
    catch (e) { $("position").select(); say("Select and copy the position string"); }
  });
  $("setposition").addEventListener("click", () => send({ type: "setposition", position: $("position").value.trim() }));
  $("download").addEventListener("click", () => send({ type: "record" }));
  $("review-limit").addEventListener("change", () => {
    $("review-amount").value = $("review-limit").value === "depth" ? 4 : 200;
  });
  $("review-start").addEventListener("click", () => {
    const text = $("review-amount").value.trim();
    const [low, high, what] = $("review-limit").value === "depth" ? [1, 8, "Review depth"] :
      [10, 5000, "Review time per position (ms)"];
    const amount = Number(text);
    if (!/^\d+$/.test(text) || amount < low || amount > high) {
      return say(`${what}: a whole number from ${low} to ${high}`, true);
    }
    send({ type: "review", [$("review-limit").value]: amount });
  });
  $("review-cancel").addEventListener("click", () => send({ type: "review_cancel" }));
  $("review-back").addEventListener("click", () => render());
  $("record-file").addEventListener("change", () => {
    const file = $("record-file").files[0];
    if (!file) return;
    $("record-file").value = "";
    if (file.size > MAX_RECORD_BYTES) {  // the server would refuse it: not sent at all
      say(`${file.name} is too large for a game record (${file.size} bytes; at most ${MAX_RECORD_BYTES})`, true);
      return;
    }
    file.text().then((content) => send({ type: "loadrecord", content }));
  });
}
const MAX_RECORD_BYTES = 4 << 20;  // messages.py: the engine's own limit on a record file

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

wire();
firstState();
watchAttention();
connect();
