// The engine's view on the board: an evaluation bar and the best move, both from the first line
// of the live analysis of the position shown, and a hint: the engine's move here, drawn, not
// played. The bar's words are the analysis panel's (review's words: "+1.25", "+1.93 (58 %)").
"use strict";

// The first analysis line of the position on the board, if any.
function bestLine() {
  const st = ui.state;
  if (!st || ui.pvPosition !== st.position) return null;
  return ui.pv.get(1) || null;
}

// The actions of the best move: the first actions of the line, as many as a move has here.
function bestActions(info) {
  const count = (ui.state && ui.state.turn_actions) || 1;
  return (info.pv || []).slice(0, count).filter((a) => a !== "pass");
}

function renderEval() {
  const st = ui.state, info = bestLine(), bar = $("eval");
  if (!st || !info || typeof info.score !== "number") {
    $("eval-white").style.width = "50%";
    $("eval-text").textContent = st && st.analysis.on ? "evaluation: waiting for the analysis" :
      "evaluation: live analysis off";
    bar.dataset.white = "";
    return;
  }
  const white = st.status.to_act === "b" ? -info.score : info.score;
  const share = 50 + 50 * GipfReview.squash(white);
  $("eval-white").style.width = `${share.toFixed(1)}%`;
  const side = SIDE_NAMES[st.status.to_act] || "";
  $("eval-text").textContent = `${info.score_text} for ${side} (to act) · best ${(info.pv || [])
    .slice(0, st.turn_actions || 1).join(" ")}`;
  bar.dataset.white = String(white);
}

// The hint, else the best move of the analysis, on the board; the bar beside it.
function renderEngineView() {
  renderEval();
  if (!ui.view || ui.editing) return;
  const st = ui.state;
  if (ui.hint && st && ui.hint.position === st.position) {
    ui.view.showBest(ui.hint.move.split(" ").filter((a) => a !== "pass"), "hint");
    return;
  }
  const info = bestLine();
  ui.view.showBest(info ? bestActions(info) : [], "best");
}

function askHint() {
  if (!ui.state) return;
  say("Hint: the engine is looking…");
  send({ type: "hint" });
}

const engineViewHandlers = {
  hint(m) {
    if (!ui.state || m.position !== ui.state.position) return;
    ui.hint = m;
    say(`Hint: ${m.move} (${m.score_text})`);
    renderEngineView();
  },
};
