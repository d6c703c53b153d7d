// Draws the board the server read from the engine's `showboard`: points with places and contents,
// edge labels. It knows no game: how each game's pieces look comes with the state (setLook).
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const PIECE_R = 0.42;

// How each game's piece letters look and what its legend says: the registry's data
// (engine/games/<game>/gui.py), which the server sends with every state (setLook).
const LOOKS = {};
const MARK_RING = "#c62828";  // the ring of a stack with a marked piece inside (showboard's '*')

function setLook(game, look) {
  if (look && look.pieces) LOOKS[game] = look;
}

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// What a screen reader says of a point (and what the tooltip says).
function pointLabel(game, p) {
  if (!p.top) return `${p.name}: empty`;
  const style = pieceStyle(game, p.top);
  const what = [style.colour, style.kind].filter(Boolean).join(" ") || "piece";
  return `${p.name}: ${what}${p.height > 1 ? `, stack of ${p.height}` : ""}` +
    (p.marked ? ", a red piece inside" : "");
}

function legendNotes(game) {
  const look = LOOKS[game];
  return (look && look.notes) || "orange: last move · blue: pieces you can move · green: where to";
}

function pieceStyle(game, letter) {
  const table = (LOOKS[game] || {}).pieces || {};
  return table[letter] || { fill: "#9e9e9e", ink: "#000", colour: "", kind: letter, symbol: "" };
}

// A piece: its top colour and the symbol of its kind ("ring-dot", "dot" or none: kinds of one colour
// told apart by shape, not colour); a red ring for a marked piece inside. The height is written
// in the middle of a plain piece, else on a badge drawn later, above all pieces.
function drawPiece(g, game, p) {
  const style = pieceStyle(game, p.top);
  el("circle", { cx: p.x, cy: p.y, r: PIECE_R, fill: style.fill, stroke: "#111", "stroke-width": 0.04 }, g);
  const symbol = Boolean(style.symbol);
  if (style.symbol === "ring-dot") {
    el("circle", { cx: p.x, cy: p.y, r: 0.25, fill: "none", stroke: style.ink, "stroke-width": 0.07 }, g);
    el("circle", { cx: p.x, cy: p.y, r: 0.1, fill: style.ink }, g);
  } else if (style.symbol === "dot") {
    el("circle", { cx: p.x, cy: p.y, r: 0.14, fill: style.ink }, g);
  }
  if (p.marked) {
    el("circle", { cx: p.x, cy: p.y, r: 0.31, fill: "none", stroke: MARK_RING, "stroke-width": 0.09, class: "red-inside" }, g);
  }
  if (p.height > 1 && !symbol) {
    el("text", { x: p.x, y: p.y, class: "height", fill: style.ink }, g).textContent = String(p.height);
  }
  el("title", {}, g).textContent = pointLabel(game, p);
  return p.height > 1 && symbol;  // wants a badge
}

function drawBadge(layer, p) {
  const bx = p.x + 0.29, by = p.y - 0.29;
  el("circle", { cx: bx, cy: by, r: 0.18, fill: "#fff", stroke: "#111", "stroke-width": 0.03 }, layer);
  el("text", { x: bx, y: by, class: "height badge", fill: "#111" }, layer).textContent = String(p.height);
}

function pointsOf(action) {
  return action.match(/[A-Z]\d+/g) || [];
}

function arrow(layer, from, to, cls) {
  el("line", { x1: from.x, y1: from.y, x2: to.x, y2: to.y, class: cls, "marker-end": "url(#head-" + cls + ")" }, layer);
}

function markAction(layer, byName, action, ringClass, arrowClass) {
  const pts = pointsOf(action).map((n) => byName[n]).filter(Boolean);
  for (const p of pts) el("circle", { cx: p.x, cy: p.y, r: PIECE_R + 0.08, class: ringClass }, layer);
  if (pts.length === 2) arrow(layer, pts[0], pts[1], arrowClass);
}

// What the player may choose, drawn above the last move's marks and the height badges: a ring
// on a white halo shows on white and black pieces alike, and beside the orange last-move ring.
function drawChoices(layer, points, opts) {
  for (const p of points) {
    const ring = (cls) => {
      el("circle", { cx: p.x, cy: p.y, r: PIECE_R + 0.02, class: "ring-halo" }, layer);
      el("circle", { cx: p.x, cy: p.y, r: PIECE_R + 0.02, class: cls, "data-for": p.name }, layer);
    };
    if (opts.targets.has(p.name)) {
      if (p.top) ring("ring-target");
      else el("circle", { cx: p.x, cy: p.y, r: 0.17, class: "dot-target", "data-for": p.name }, layer);
    }
    if (opts.selected === p.name) ring("ring-selected");
    else if (opts.sources.has(p.name)) ring("ring-source");
  }
}

// opts: targets, sources (Sets of names), selected (name), last (actions), pv (action), onClick(name)
function drawBoard(svg, board, game, opts) {
  svg.textContent = "";
  const all = board.points.concat(board.labels);
  const xs = all.map((p) => p.x), ys = all.map((p) => p.y);
  const pad = 0.6;
  const minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
  const width = Math.max(...xs) + pad - minX, height = Math.max(...ys) + pad - minY;
  svg.setAttribute("viewBox", `${minX} ${minY} ${width} ${height}`);
  svg.style.aspectRatio = `${width} / ${height}`;  // the box has the board's shape (style.css)
  const defs = el("defs", {}, svg);
  for (const [cls, colour] of [["arrow-last", "#ef6c00"], ["arrow-pv", "#6a1b9a"], ["arrow-best", "#00838f"],
    ["arrow-hint", "#2e7d32"]]) {
    const m = el("marker", { id: "head-" + cls, viewBox: "0 0 10 10", refX: 9, refY: 5,
      markerWidth: 3, markerHeight: 3, orient: "auto-start-reverse" }, defs);
    el("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: colour }, m);
  }
  const points = board.points.filter((p) => !p.hole);
  const byName = Object.fromEntries(points.map((p) => [p.name, p]));
  const grid = el("g", {}, svg);
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const a = points[i], b = points[j];
      if (Math.hypot(a.x - b.x, a.y - b.y) < 1.05) {
        el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "grid" }, grid);
      }
    }
  }
  for (const h of board.points.filter((p) => p.hole)) {
    el("circle", { cx: h.x, cy: h.y, r: 0.3, class: "hole" }, grid);
  }
  for (const l of board.labels) {
    el("text", { x: l.x, y: l.y, class: "label" }, svg).textContent = l.text;
  }
  const badged = [];
  for (const p of points) {
    const g = el("g", { class: "point", "data-point": p.name, "data-top": p.top || "",
      "data-height": p.height, tabindex: 0, role: "button", "aria-label": pointLabel(game, p) }, svg);
    el("circle", { cx: p.x, cy: p.y, r: 0.5, fill: "transparent" }, g);
    if (p.top) {
      if (drawPiece(g, game, p)) badged.push(p);
    } else el("circle", { cx: p.x, cy: p.y, r: 0.09, class: "point-dot" }, g);
    if (opts.targets.has(p.name)) g.classList.add("target");
    if (opts.selected === p.name) g.classList.add("selected");
    else if (opts.sources.has(p.name)) g.classList.add("source");
    g.addEventListener("click", () => opts.onClick(p.name));
    g.addEventListener("keydown", (event) => {  // keyboard play: Tab to a point, Enter chooses
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        opts.onClick(p.name);
      }
    });
  }
  const lastLayer = el("g", { "pointer-events": "none" }, svg);
  for (const action of opts.last || []) {
    for (const n of pointsOf(action)) if (byName[n]) svg.querySelector(`[data-point="${n}"]`).classList.add("last");
    markAction(lastLayer, byName, action, "ring-last", "arrow-last");
  }
  const badges = el("g", { "pointer-events": "none" }, svg);
  for (const p of badged) drawBadge(badges, p);
  drawChoices(el("g", { id: "choice-layer", "pointer-events": "none" }, svg), points, opts);
  const bestLayer = el("g", { id: "best-layer", "pointer-events": "none" }, svg);
  const pvLayer = el("g", { id: "pv-layer", "pointer-events": "none" }, svg);
  return {
    // The engine's move on the board: kind "best" (the analysis' best move) or "hint".
    showBest(actions, kind) {
      bestLayer.textContent = "";
      bestLayer.dataset.kind = kind;
      bestLayer.dataset.move = (actions || []).join(" ");
      for (const action of actions || []) markAction(bestLayer, byName, action, "ring-" + kind, "arrow-" + kind);
    },
    // The variation up to the hovered action: each action's points and arrow, numbered; the
    // numbers of actions ending on the same point share one label ("1,3").
    showPv(actions) {
      pvLayer.textContent = "";
      const numbers = new Map();
      (actions || []).forEach((action, i) => {
        markAction(pvLayer, byName, action, "ring-pv", "arrow-pv");
        const pts = pointsOf(action).map((n) => byName[n]).filter(Boolean);
        const at = pts[pts.length - 1];
        if (at) numbers.set(at, (numbers.get(at) || []).concat(i + 1));
      });
      for (const [at, list] of numbers) {
        el("text", { x: at.x - 0.3, y: at.y + 0.32, class: "pv-number", "data-point": at.name },
          pvLayer).textContent = list.join(",");
      }
    },
  };
}

// Small pictures of each piece kind for the legend.
function legendItems(game) {
  const items = [];
  for (const [letter, style] of Object.entries((LOOKS[game] || {}).pieces || {})) {
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("viewBox", "-0.6 -0.6 1.2 1.2");
    svg.setAttribute("width", "22");
    svg.setAttribute("height", "22");
    drawPiece(svg, game, { name: letter, x: 0, y: 0, top: letter, height: 1, marked: false });
    items.push([svg, [style.colour, style.kind].filter(Boolean).join(" ")]);
  }
  return items;
}

// "white", "black" or "red": the colour of a piece letter in the game's drawing.
function colourOf(game, letter) {
  return pieceStyle(game, letter).colour;
}

window.GipfBoard = { colourOf, drawBoard, legendItems, legendNotes, pointsOf, setLook };
