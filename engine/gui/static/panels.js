// The side panels fed by the engine: live analysis (its lines, and when it waits for someone to
// look) and the review (the graph, the table of moves, a reviewed position on the board).
// Scores are shown in review's words everywhere ("+1.93 (58 %)", "wins in 7"): the server
// writes them (engine/review/judge.py), the page never converts a score itself.
"use strict";

const IDLE_MS = 60000;  // live analysis waits after a minute without input

// --- live analysis -------------------------------------------------------------------------------
function renderPv() {
  const body = document.querySelector("#pv-table tbody");
  body.textContent = "";
  for (const k of [...ui.pv.keys()].sort((a, b) => a - b)) {
    const info = ui.pv.get(k);
    const tr = document.createElement("tr");
    tr.className = "pv-line";
    for (const text of [k, info.score_text ?? "", info.depth ?? "", info.nodes ?? ""]) {
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

const analysisHandlers = {
  analysis_start(m) {
    if (m.position !== ui.pvPosition) clearAnalysis(m.position);  // a restart keeps its lines
    $("analysis-state").textContent = "analysing…";
    $("analysis-state").dataset.state = "running";
  },
  info(m) {
    if (m.position !== ui.pvPosition) return;  // a line of a position no longer shown
    ui.pv.set(m.info.multipv || 1, m.info);
    renderPv();
    renderEngineView();
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
};

// --- the review ----------------------------------------------------------------------------------
function reviewRunning(on) {
  $("review-start").disabled = on;
  $("review-cancel").disabled = !on;
  $("review-progress").hidden = !on;
}

// A review of another game than the one now played goes (its rows would show other positions).
function clearReview(gameId) {
  if (!ui.report || ui.report.game_id === gameId) return;
  ui.report = null;
  $("review-state").textContent = "";
  $("review-graph").setAttribute("hidden", "");  // an SVG element: no .hidden property
  $("review-table").hidden = true;
  $("review-graph").textContent = "";
  document.querySelector("#review-table tbody").textContent = "";
}

const reviewHandlers = {
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
    if (!ui.state || m.game_id !== ui.state.game_id) {
      $("review-state").textContent = "the game changed while it was reviewed: review it again";
      return;
    }
    ui.report = { ...m.report, game_id: m.game_id };
    const limit = m.report.limits.depth ? `depth ${m.report.limits.depth}` : `${m.report.limits.movetime} ms`;
    const plural = (k, v) => v === 1 ? k : (k === "inaccuracy" ? "inaccuracies" : k + "s");
    const count = (side) => Object.entries(m.report.summary[side]).map(([k, v]) => `${v} ${plural(k, v)}`).join(", ");
    const limited = m.report.moves.filter((move) => move.depth_limited).length;
    $("review-state").textContent = `${m.report.moves.length} moves at ${limit} · White: ${count("white")} · ` +
      `Black: ${count("black")}` + (limited ? ` · * depth-limited: ${limited} (the move played scored ` +
      "higher than the engine's choice at this depth; a deeper review tells them apart)" : "");
    $("review-graph").removeAttribute("hidden");  // an SVG element: no .hidden property
    $("review-table").hidden = false;
    GipfReview.drawGraph($("review-graph"), m.report, goTo);
    GipfReview.drawMoves($("review-table"), m.report, goTo);
    GipfReview.select(shownPly(ui.state));
  },
  review_error(m) {
    reviewRunning(false);
    $("review-state").textContent = m.message;
  },
};
