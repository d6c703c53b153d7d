// The review view: the evaluation graph (inline SVG) and the move list with marks, drawn from
// engine.review's JSON report. Picking a move calls back with its ply (moves played so far).
"use strict";

(() => {
  const SVG = "http://www.w3.org/2000/svg";
  const WIDTH = 400, HEIGHT = 110, PAD = 8;
  const PROVEN = 999000;
  const SCALE = 300;  // a score of ±300 is drawn halfway to the edge (DVONN: 3 points of height)
  const LIMITED = " (depth-limited)";  // engine/review/report.py

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    parent.appendChild(e);
    return e;
  }

  // White's view squashed into (-1, 1): big leads stay on the graph, proven results at its edge.
  function squash(score) {
    if (Math.abs(score) >= PROVEN) return Math.sign(score);
    return score / (Math.abs(score) + SCALE);
  }

  // One point per move, at the evaluation of the position after it (White up, Black down); a
  // click on a point, or anywhere on the graph, picks the move nearest to it.
  function drawGraph(svg, report, onPick) {
    svg.textContent = "";
    const scores = report.white_scores;
    const n = report.moves.length;
    const x = (ply) => PAD + (ply / Math.max(n, 1)) * (WIDTH - 2 * PAD);
    const y = (score) => HEIGHT / 2 - squash(score) * (HEIGHT / 2 - PAD);
    el("rect", { class: "graph-white", x: 0, y: 0, width: WIDTH, height: HEIGHT / 2 }, svg);
    el("line", { class: "graph-axis", x1: PAD, x2: WIDTH - PAD, y1: HEIGHT / 2, y2: HEIGHT / 2 }, svg);
    const points = scores.slice(0, n + 1).map((s, ply) => `${x(ply).toFixed(1)},${y(s).toFixed(1)}`);
    el("polyline", { class: "graph-line", points: points.join(" ") }, svg);
    report.moves.forEach((move, i) => {
      const ply = i + 1;
      const dot = el("circle", { class: "review-point " + (move.mark || ""), cx: x(ply).toFixed(1),
        cy: y(scores[ply]).toFixed(1), r: move.mark ? 3.5 : 2.2, "data-ply": ply }, svg);
      el("title", {}, dot).textContent = `${move.number}. ${move.move}: ${move.played.text}` +
        (move.mark ? ` (${move.mark})` : "");
    });
    svg.onclick = (event) => {
      const box = svg.getBoundingClientRect();
      const at = (event.clientX - box.left) / box.width * WIDTH;
      onPick(Math.max(0, Math.min(n, Math.round((at - PAD) / (WIDTH - 2 * PAD) * n))));
    };
  }

  // The report's columns, one meaning each as gipf-review prints them (engine/review/report.py);
  // the number, side and move share one cell ("12. w D3-E3"). A row shows the position after it.
  function drawMoves(table, report, onPick) {
    const head = table.tHead.rows[0], body = table.tBodies[0];
    head.textContent = "";
    body.textContent = "";
    const columns = [{ name: "move", meaning: "the move played" }].concat(report.columns.slice(3));
    for (const column of columns) {
      const th = document.createElement("th");
      th.textContent = column.name;
      th.title = column.meaning;
      head.appendChild(th);
    }
    for (const move of report.moves) {
      const row = document.createElement("tr");
      row.className = "review-move " + (move.mark || "");
      row.dataset.ply = String(move.number);
      const [number, , moveText, ...rest] = move.cells;
      [`${number}. ${move.side} ${moveText}`, ...rest].forEach((text, i) => {
        const td = document.createElement("td");
        td.className = ["move", "score", "best", "score", "loss", "mark"][i];
        // "(depth-limited)" as a mark with its words on hover, so that the column stays narrow
        const limited = i === 2 && move.depth_limited && text.endsWith(LIMITED);
        td.textContent = limited ? text.slice(0, -LIMITED.length) : text;
        if (i === 5 && move.mark) {  // the mark's symbol, its word on hover: a narrow column
          td.textContent = text.split(" ").pop();
          td.title = move.mark;
        }
        if (limited) {
          const note = document.createElement("abbr");
          note.className = "limited";
          note.title = report.columns[4].meaning;
          note.textContent = "*";
          td.appendChild(note);
        }
        row.appendChild(td);
      });
      row.addEventListener("click", () => onPick(move.number));
      body.appendChild(row);
    }
  }

  function select(ply) {
    for (const e of document.querySelectorAll(".review-point, .review-move")) {
      e.classList.toggle("selected", Number(e.dataset.ply) === ply);
    }
  }

  window.GipfReview = { drawGraph, drawMoves, select, squash };
})();
