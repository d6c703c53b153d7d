// The controls beside the board: the game selector, players, time, level, analysis, undo, the
// position and record, the review buttons, and the keyboard. Each one sends a request; what it
// changed comes back in the next state.
"use strict";

const TIME_MS = [10, 86400000];
const MAX_RECORD_BYTES = 4 << 20;  // messages.py: the engine's own limit on a record file

// The seed field only for a game with random layouts.
function showSeed() {
  $("seed-label").hidden = !$("game").value.endsWith("-random");
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
  if (!ui.gameChoice) ui.gameChoice = select.value;
  showSeed();
}

// A game that came from elsewhere (a position set, a record loaded) shows in the selector too,
// with its layout when the server knows it (a loaded record's start: fixed or random).
function followGame(game, layout) {
  const select = $("game");
  const wanted = layout ? `${game}-${layout.opening}` : null;
  $("seed-note").textContent = layout && layout.seed !== null ? `layout seed ${layout.seed}` : "";
  if (ui.gameChoice && ui.gameChoice.split("-")[0] === game && (!wanted || ui.gameChoice === wanted)) return;
  const choice = [...select.options].find((o) => o.value === wanted) ||
    [...select.options].find((o) => o.value.split("-")[0] === game);
  if (!choice) return;
  select.value = choice.value;
  ui.gameChoice = choice.value;
  $("game-note").textContent = "";
  showSeed();
}

// Everything here depends on the state message only: run once per state, not per drawing.
function syncControls(st) {
  fillGames(st.games);
  followGame(st.status.game, st.layout);
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
  $("limit-note").textContent = level ? level.limit : "";
}

// A new game of the selector's choice (with its seed for a random layout).
function startGame() {
  const [game, opening] = $("game").value.split("-");
  const request = { type: "newgame", game };
  if (opening) request.opening = opening;  // TZAAR's layout
  // a random layout: the seed typed in (that layout again), else a new one the server draws
  const seed = parseInt($("seed").value, 10);
  if (opening === "random" && seed >= 0) request.seed = seed;
  $("seed").value = "";
  ui.gameChoice = $("game").value;
  ui.passingSide = null;
  $("game-note").textContent = "";
  send(request);
}

// A choice in the selector starts that game at once when nothing would be lost (no move played
// yet); otherwise the page says that New game starts it.
function gameChosen() {
  const select = $("game");
  showSeed();
  const st = ui.state;
  if (st && !st.history.length && select.value !== ui.gameChoice) return startGame();
  $("game-note").textContent = select.value === ui.gameChoice ? "" :
    `New game to start ${select.selectedOptions[0].textContent}`;
}

function wireGame() {
  $("game").addEventListener("change", gameChosen);
  $("newgame").addEventListener("click", startGame);
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
  $("level").addEventListener("change", () => send({ type: "level", level: parseInt($("level").value, 10) }));
  $("auto-pass").addEventListener("change", () => { if (ui.state) { planPass(); render(); } });
  $("undo").addEventListener("click", () => {
    ui.passingSide = null;
    ui.holdPass = true;  // the position undone to is looked at, not passed again by itself
    send({ type: "undo" });
  });
  $("go").addEventListener("click", () => {
    if (viewing(ui.state)) askCut(() => send({ type: "go" }));
    else send({ type: "go" });
  });
  $("hint-button").addEventListener("click", askHint);
  $("stop").addEventListener("click", () => send({ type: "stop" }));
  $("pass").addEventListener("click", pass);
  $("cancel").addEventListener("click", cancelTurn);
  document.addEventListener("keydown", (event) => {
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    if (event.key === "Escape" && (ui.prefix.length || ui.source)) cancelTurn();
    else if ((event.key === "p" || event.key === "P") && nextActions().includes("pass")) pass();
  });
}

function wirePanels() {
  const analysis = () => send({ type: "analysis", on: $("analysis-on").checked, multipv: parseInt($("multipv").value, 10) });
  $("analysis-on").addEventListener("change", analysis);
  $("multipv").addEventListener("change", analysis);
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
