// The position editor: pieces put, stacked and removed by clicks, the side to act chosen. What
// it makes is a position string (protocol.md 7: each point's stack bottom to top, '-' empty, in
// the order of the state's `cells`, groups as in the string it started from), which the engine
// checks with `setposition`: a position it refuses is said, and the editor stays open.
"use strict";

const editor = { words: null, groups: null, tokens: null, sent: null };

function startEditing() {
  const st = ui.state;
  if (!st || !st.cells || !st.cells.length) return say("This game has no position editor", true);
  const words = st.position.split(" ");
  const groups = words[3].split("/").map((group) => group.split(","));
  Object.assign(editor, { words, groups: groups.map((g) => g.length), tokens: groups.flat(), sent: null });
  const palette = $("editor-pieces");
  palette.textContent = "";
  for (const [letter, style] of Object.entries((st.look && st.look.pieces) || {})) {
    const label = document.createElement("label");
    const radio = document.createElement("input");
    Object.assign(radio, { type: "radio", name: "editor-piece", value: letter });
    label.append(radio, ` ${[style.colour, style.kind].filter(Boolean).join(" ") || letter}`);
    palette.appendChild(label);
  }
  const first = palette.querySelector("input");
  if (first) first.checked = true;
  $("editor-side").value = words[1];
  $("editor-phase").value = words[2];
  ui.editing = true;
  $("editor").hidden = false;
  cancelTurn();
}

function stopEditing() {
  ui.editing = false;
  $("editor").hidden = true;
  render();
}

// The position string of the board being edited.
function editedPosition() {
  const parts = [];
  let start = 0;
  for (const length of editor.groups) {
    parts.push(editor.tokens.slice(start, start + length).join(","));
    start += length;
  }
  return [editor.words[0], $("editor-side").value, $("editor-phase").value.trim(), parts.join("/")].join(" ");
}

function editPoint(name) {
  const index = ui.state.cells.indexOf(name);
  const choice = document.querySelector('input[name="editor-piece"]:checked');
  if (index < 0 || !choice) return say(index < 0 ? `${name} is not a point` : "Choose a piece first", true);
  const token = editor.tokens[index];
  if (choice.value === "-") editor.tokens[index] = token.length > 1 ? token.slice(0, -1) : "-";
  else editor.tokens[index] = token === "-" ? choice.value : token + choice.value;
  say("");
  render();
}

// The state's board with the edited stacks (a red piece below the top is marked, as showboard does).
function editedBoard() {
  const st = ui.state;
  const tokenOf = new Map(st.cells.map((name, i) => [name, editor.tokens[i]]));
  const points = st.board.points.map((p) => {
    const token = tokenOf.get(p.name);
    if (token === undefined) return p;
    if (token === "-") return { ...p, top: null, height: 0, marked: false };
    const below = [...token.slice(0, -1)];
    return { ...p, top: token.slice(-1), height: token.length,
      marked: below.some((letter) => GipfBoard.colourOf(st.status.game, letter) === "red") };
  });
  return { ...st.board, points };
}

function useEdited() {
  editor.sent = editedPosition();
  send({ type: "setposition", position: editor.sent });
}

// A state of the position sent: the engine took it.
function editorStateArrived(st) {
  if (ui.editing && editor.sent && st.position === editor.sent) {
    ui.editing = false;
    $("editor").hidden = true;
    say("Position set: " + st.position);
  }
}

function wireEditor() {
  $("edit").addEventListener("click", startEditing);
  $("editor-cancel").addEventListener("click", stopEditing);
  $("editor-use").addEventListener("click", useEdited);
  $("editor-clear").addEventListener("click", () => {
    editor.tokens = editor.tokens.map(() => "-");
    render();
  });
}
