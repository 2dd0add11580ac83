// omega-web's page: draws the state the server sends and turns clicks into requests. The
// server referees everything; this file keeps no game rules beyond what it draws.
"use strict";

const COLOURS = ["white", "black", "red", "blue"];
const FILL = ["var(--c0)", "var(--c1)", "var(--c2)", "var(--c3)"];
const INK = ["#222", "#fff", "#fff", "#fff"]; // text on a stone of each colour
const R = 20; // the hexagons' circumradius in SVG units
const W = Math.sqrt(3) * R;
const SVG = "http://www.w3.org/2000/svg";

let state = null; // the newest state the server sent
let engines = []; // engine names a seat can be given to
let defaultMovetime = 1;
let events = null; // the EventSource of the current game
const $ = (id) => document.getElementById(id);

// ---- talking to the server ----

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let answer;
  try {
    const res = await fetch(path, init);
    answer = res.status === 204 ? {} : await res.json();
    if (!res.ok) throw new Error(answer.error || res.statusText);
  } catch (e) {
    showMessage(e.message);
    return null;
  }
  showMessage("");
  if (answer && answer.version !== undefined) apply(answer);
  return answer;
}

function gamePath(rest) {
  return `/api/games/${state.id}${rest}`;
}

function follow(id) {
  if (events) events.close();
  localStorage.setItem("omega-game", id);
  events = new EventSource(`/api/games/${id}/events`);
  events.addEventListener("state", (e) => apply(JSON.parse(e.data)));
}

// The newest state wins: answers and events may cross.
function apply(s) {
  if (state && s.id === state.id && s.version < state.version) return;
  if (!state || s.id !== state.id) {
    state = s;
    follow(s.id);
  }
  state = s;
  state.receivedAt = performance.now();
  render();
}

function showMessage(text) {
  $("message").textContent = text;
}

// ---- drawing ----

function el(name, attrs, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// Column c and row r (from 0) to the centre of the hexagon: rows go up, and each row above
// shifts half a cell left, so that (c, r+1) is above left and (c+1, r+1) above right.
function centre(col, row) {
  return [(col - row / 2) * W, -row * 1.5 * R];
}

// Corner k of the hexagon centred on (x, y), at 60k + 30 degrees (SVG's y points down).
function corner(x, y, k) {
  const a = (Math.PI / 180) * (60 * k + 30);
  return `${(x + R * Math.cos(a)).toFixed(2)},${(y + R * Math.sin(a)).toFixed(2)}`;
}

function hexPoints(x, y) {
  return [0, 1, 2, 3, 4, 5].map((k) => corner(x, y, k)).join(" ");
}

function columnLetter(c) {
  return "abcdefghjklmnopqrstuvwxyz"[c];
}

function personToMove(s) {
  return s.to_move !== null && s.seats[s.to_move].kind === "person";
}

function drawBoard(s) {
  const svg = $("board");
  svg.replaceChildren();
  const n = s.side;
  const [x0] = centre(0, n - 1);
  const [x1] = centre(2 * n - 2, n - 1);
  const top = centre(0, 2 * n - 2)[1];
  const pad = 1.6 * R;
  svg.setAttribute("viewBox",
    `${(x0 - pad - W / 2).toFixed(1)} ${(top - pad - R).toFixed(1)} ` +
    `${(x1 - x0 + 2 * pad + W).toFixed(1)} ${(-top + 2 * pad + 2 * R).toFixed(1)}`);
  svg.style.setProperty("--hover", s.next_stone !== null ? tint(s.next_stone) : "");

  const playable = personToMove(s) && s.next_stone !== null;
  const pending = new Map(s.pending.map((name, k) => [name, k]));
  const last = new Set(s.history.length ? s.history[s.history.length - 1] : []);
  const marks = new Map(); // cell -> [colour, kind]
  if (s.analysis && s.analysis.colour === s.to_move) {
    s.analysis.best.forEach((name, k) => marks.set(name, [k, "best"]));
  }
  if (s.hint) s.hint.cells.forEach((name, k) => marks.set(name, [k, "hint"]));

  const cells = el("g", {});
  const stones = el("g", {});
  for (const cell of s.cells) {
    const [x, y] = centre(cell.col, cell.row);
    const pend = pending.get(cell.name);
    let cls = "cell";
    if (cell.stone === null && pend === undefined) cls += " empty";
    if (pend !== undefined) cls += " pending";
    if (playable) cls += " playable";
    const hex = el("polygon", { points: hexPoints(x, y), class: cls, id: `cell-${cell.name}`,
      "data-cell": cell.name });
    hex.appendChild(el("title", {}, cell.name));
    hex.addEventListener("click", () => clickCell(cell));
    cells.appendChild(hex);
    if (cell.stone !== null) {
      stones.appendChild(el("circle", { cx: x, cy: y, r: R * 0.78, fill: FILL[cell.stone],
        class: "stone" + (last.has(cell.name) ? " last" : "") }));
      stones.appendChild(el("text", { x, y, class: "glabel", fill: INK[cell.stone] },
        String(cell.group)));
    } else if (pend !== undefined) {
      stones.appendChild(el("circle", { cx: x, cy: y, r: R * 0.78, fill: FILL[pend],
        class: "stone pending" }));
    } else if (marks.has(cell.name)) {
      const [k, kind] = marks.get(cell.name);
      stones.appendChild(el("circle", { cx: x, cy: y, r: R * 0.55, class: `mark ${kind}`,
        stroke: k === 0 ? "#777" : FILL[k] }));
      if (kind === "hint") {
        stones.appendChild(el("text", { x, y, class: "glabel", fill: "#333" }, "?"));
      }
    }
  }
  svg.appendChild(cells);
  svg.appendChild(groupOutlines(s.cells));
  svg.appendChild(stones);

  // Cell names on the edges, as showboard draws them: each column's letter below the bottom
  // edge (a, b, ...) or above the top edge (..., the last letter), where its line of cells
  // ends; each row's number at both ends of the row.
  const labels = el("g", {});
  const label = (col, row, text) => {
    const [x, y] = centre(col, row);
    labels.appendChild(el("text", { x, y, class: "label" }, text));
  };
  for (let c = 0; c < 2 * n - 1; c++) {
    if (c <= n - 1) label(c, -1, columnLetter(c));
    if (c >= n - 1) label(c, 2 * n - 1, columnLetter(c));
  }
  for (let r = 0; r < 2 * n - 1; r++) {
    const low = Math.max(0, r - (n - 1));
    const high = Math.min(2 * n - 2, r + n - 1);
    label(low - 1, r, String(r + 1));
    label(high + 1, r, String(r + 1));
  }
  svg.appendChild(labels);
}

// The neighbour (column, row offsets) across each edge of a hexagon: edge j joins corners
// j - 1 and j, at 60j - 30 and 60j + 30 degrees, so it faces the neighbour at 60j degrees.
const EDGE_NEIGHBOUR = [[1, 0], [0, -1], [-1, -1], [-1, 0], [0, 1], [1, 1]];

// Each group outlined: every edge of a stone whose neighbour across it is not a stone of the
// same colour (or is off the board) is drawn in the colour's outline, so that a group reads as
// one shape. One path per colour, each carrying the number of edges it drew.
function groupOutlines(cellList) {
  const at = new Map(cellList.map((c) => [`${c.col},${c.row}`, c]));
  const paths = new Map(); // colour -> [d, edges]
  for (const cell of cellList) {
    if (cell.stone === null) continue;
    const [x, y] = centre(cell.col, cell.row);
    const entry = paths.get(cell.stone) || ["", 0];
    EDGE_NEIGHBOUR.forEach(([dc, dr], j) => {
      const nb = at.get(`${cell.col + dc},${cell.row + dr}`);
      if (nb && nb.stone === cell.stone) return;
      entry[0] += `M${corner(x, y, (j + 5) % 6)}L${corner(x, y, j)}`;
      entry[1] += 1;
    });
    paths.set(cell.stone, entry);
  }
  const g = el("g", { class: "outlines" });
  for (const [colour, [d, edges]] of paths) {
    g.appendChild(el("path", { d, class: `outline o${colour}`, "data-edges": edges }));
  }
  return g;
}

function tint(colour) {
  return ["#fbf7ee", "#b9b2a4", "#eea39e", "#a5c0ea"][colour];
}

function swatch(colour, big) {
  return `<span class="swatch s${colour}${big ? " big" : ""}"></span>`;
}

function seatName(s, k) {
  const seat = s.seats[k];
  return seat.kind === "person" ? "person" : `${seat.engine} (${seat.movetime} s a turn)`;
}

function clock(ms) {
  const t = Math.max(0, ms) / 1000;
  const m = Math.floor(t / 60);
  const sec = (t - 60 * m).toFixed(1).padStart(4, "0");
  return `${m}:${sec}`;
}

// Milliseconds the seat has used, the running turn included.
function usedMs(s, k) {
  let ms = s.seats[k].used_ms;
  if (s.to_move === k && !s.paused) ms += s.turn_ms + (performance.now() - s.receivedAt);
  return ms;
}

function renderStatus(s) {
  let html;
  if (s.over) {
    const w = s.winner;
    html = `${swatch(w, true)} Game over: <b>${COLOURS[w]}</b> wins`;
  } else {
    const k = s.to_move;
    const who = COLOURS[k][0].toUpperCase() + COLOURS[k].slice(1);
    const seat = s.seats[k];
    html = `Turn ${s.turn + 1} of ${s.total_turns}: ${swatch(k)} <b>${who}</b>`;
    if (seat.fault) {
      html += " waits: its engine failed (see the panel)";
    } else if (seat.kind === "engine") {
      html += s.paused ? ` (${seat.engine}) waits: reviewing`
        : ` (${seat.engine}) <span class="thinking">is thinking…</span>`;
    } else if (s.next_stone !== null) {
      html += ` to play: place the ${swatch(s.next_stone, true)} <b>${COLOURS[s.next_stone]}</b>` +
        ` stone (${s.next_stone + 1} of ${s.players})`;
    } else {
      html += ": all stones placed, play the turn or take one back";
    }
  }
  $("status").innerHTML = html;
}

function renderPlayers(s) {
  const box = $("players");
  box.replaceChildren();
  for (let k = 0; k < s.players; k++) {
    const c = s.colours[k];
    const seat = s.seats[k];
    const div = document.createElement("div");
    div.className = "player" + (s.to_move === k ? " to-move" : "");
    const groups = c.groups.length ? c.groups.join(" × ") : "no stones";
    div.innerHTML =
      `<div class="row">${swatch(k, true)}<span class="name">${COLOURS[k]}</span>` +
      `<span class="who">${seatName(s, k)}</span>` +
      (seat.thinking ? `<span class="thinking">thinking</span>` : "") +
      `<span class="score" id="score-${k}">${c.score}</span></div>` +
      `<div class="row"><span class="groups" id="groups-${k}">groups ${groups}</span>` +
      `<span class="clock" id="clock-${k}">${clock(usedMs(s, k))}</span></div>`;
    if (seat.fault) {
      const f = document.createElement("div");
      f.className = "fault";
      f.textContent = seat.fault;
      div.appendChild(f);
    }
    div.appendChild(seatEditor(s, k));
    box.appendChild(div);
  }
}

// A select to give the seat to a person or an engine, with the engine's time per turn.
function seatEditor(s, k) {
  const seat = s.seats[k];
  const edit = document.createElement("div");
  edit.className = "edit";
  const select = seatSelect(`seat-edit-${k}`, seat.kind === "engine" ? seat.engine : "");
  const time = timeInput(`time-edit-${k}`, seat.movetime || defaultMovetime);
  const button = document.createElement("button");
  button.textContent = seat.fault ? "Restart / give seat" : "Give seat";
  button.id = `seat-apply-${k}`;
  button.addEventListener("click", () =>
    api("POST", gamePath(`/seats/${k}`), seatRequest(select.value, time.value)));
  edit.append(select, time, button);
  return edit;
}

function seatSelect(id, chosen) {
  const select = document.createElement("select");
  select.id = id;
  select.add(new Option("Person", ""));
  for (const name of engines) select.add(new Option(`Engine: ${name}`, name, false, name === chosen));
  if (!chosen) select.value = "";
  return select;
}

function timeInput(id, value) {
  const input = document.createElement("input");
  Object.assign(input, { id, type: "number", min: "0.01", step: "any", value, title: "seconds a turn" });
  return input;
}

function seatRequest(engine, movetime) {
  return engine ? { kind: "engine", engine, movetime: Number(movetime) } : { kind: "person" };
}

function renderAnalysis(s) {
  const box = $("analysis");
  const a = s.over ? null : s.analysis;
  let html = "";
  if (a) {
    const win = a.winrate === null ? null : Math.round(a.winrate * 100);
    html += `<div>${swatch(a.colour)} ${COLOURS[a.colour]}'s engine ` +
      (a.colour === s.to_move ? `thinks of <b>${a.best.join(" ")}</b> (dashed rings)`
        : "played its turn") + "</div>" +
      (win === null ? "" : `<div>win chance <b id="winrate">${win}%</b></div>` +
        `<div class="bar"><div style="width:${win}%"></div></div>`) +
      `<div class="fine">${a.visits ?? "?"} playouts · pv ${a.pv.join(" ")}</div>`;
  }
  if (s.hint_busy) html += "<div>Looking for a hint…</div>";
  else if (s.hint) html += `<div id="hint-text">Hint for ${COLOURS[s.hint.colour]}: <b>${s.hint.cells.join(" ")}</b> (marked ?)</div>`;
  box.hidden = html === "";
  box.innerHTML = html;
}

function renderReview(s) {
  const last = s.turn + s.future;
  $("turn-count").textContent = `${s.turn} / ${last}`;
  $("first").disabled = $("back").disabled = s.turn === 0;
  $("forward").disabled = $("last").disabled = s.future === 0;
  const engineWaits = s.to_move !== null && s.seats[s.to_move].kind === "engine";
  $("resume").hidden = !(s.paused && engineWaits);
  const list = $("moves");
  list.replaceChildren();
  s.history.forEach((turn, t) => {
    const li = document.createElement("li");
    li.textContent = `${COLOURS[t % s.players]} ${turn.join(" ")}`;
    if (t === s.turn - 1) li.className = "current";
    li.addEventListener("click", () => api("POST", gamePath("/goto"), { turn: t + 1 }));
    list.appendChild(li);
  });
  if (s.future) {
    const li = document.createElement("li");
    li.className = "future";
    li.textContent = `… ${s.future} more turn${s.future > 1 ? "s" : ""} ahead`;
    list.appendChild(li);
  }
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

function render() {
  const s = state;
  document.body.dataset.game = s.id;
  document.body.dataset.over = String(s.over);
  document.body.dataset.turn = String(s.turn);
  document.body.dataset.mine = String(personToMove(s) && !s.seats[s.to_move].fault);
  $("board").dataset.pending = String(s.pending.length);
  drawBoard(s);
  renderStatus(s);
  renderPlayers(s);
  renderAnalysis(s);
  renderReview(s);
  const mine = personToMove(s);
  $("take-back").disabled = !mine || s.pending.length === 0;
  $("play-turn").disabled = !mine || s.pending.length !== s.players;
  $("hint").disabled = !mine || s.hint_busy;
  $("undo").disabled = s.turn === 0;
  $("save").href = gamePath("/transcript");
  const result = $("result");
  result.hidden = !s.over;
  if (s.over) {
    const parts = s.colours.map((c, k) => `${COLOURS[k]} ${c.score}`);
    result.innerHTML = `${swatch(s.winner, true)} <span id="winner">${COLOURS[s.winner]}</span> wins · ` +
      `${parts.join(", ")}` + (s.colours.filter((c) => c.score === s.colours[s.winner].score).length > 1
      ? " (a tie goes to the colour last in order)" : "");
  }
  const notices = $("notices");
  notices.replaceChildren(...s.notices.slice(-3).map((text) => {
    const d = document.createElement("div");
    d.textContent = text;
    return d;
  }));
}

// The clocks tick between states.
setInterval(() => {
  if (!state || state.over) return;
  for (let k = 0; k < state.players; k++) {
    const c = $(`clock-${k}`);
    if (c) c.textContent = clock(usedMs(state, k));
  }
}, 200);

// ---- actions ----

function clickCell(cell) {
  const s = state;
  if (!s || s.over) return showMessage("The game is over.");
  if (!personToMove(s)) return showMessage(`It is ${COLOURS[s.to_move]}'s turn: an engine plays it.`);
  api("POST", gamePath("/stone"), { colour: COLOURS[s.to_move], cell: cell.name });
}

function mover() {
  return COLOURS[state.to_move];
}

$("take-back").addEventListener("click", () => api("POST", gamePath("/takeback"), { colour: mover() }));
$("play-turn").addEventListener("click", () => api("POST", gamePath("/turn"), { colour: mover() }));
$("hint").addEventListener("click", () => api("POST", gamePath("/hint"), { colour: mover() }));
$("undo").addEventListener("click", () => api("POST", gamePath("/undo")));
$("first").addEventListener("click", () => api("POST", gamePath("/goto"), { turn: 0 }));
$("back").addEventListener("click", () => api("POST", gamePath("/goto"), { turn: state.turn - 1 }));
$("forward").addEventListener("click", () => api("POST", gamePath("/goto"), { turn: state.turn + 1 }));
$("last").addEventListener("click", () =>
  api("POST", gamePath("/goto"), { turn: state.turn + state.future }));
$("resume").addEventListener("click", () => api("POST", gamePath("/resume")));
document.addEventListener("keydown", (e) => {
  if (!state || $("setup").open || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  if (e.key === "Backspace" && !$("take-back").disabled) $("take-back").click();
  if (e.key === "Enter" && !$("play-turn").disabled) $("play-turn").click();
});

// ---- new game and files ----

function seatRows() {
  const players = Number($("players-count").value);
  const rows = $("seat-rows");
  const old = [...rows.querySelectorAll(".seat-row")].map((r) =>
    [r.querySelector("select").value, r.querySelector("input").value]);
  rows.replaceChildren();
  for (let k = 0; k < players; k++) {
    const row = document.createElement("div");
    row.className = "seat-row";
    // By default a person plays white and the engine every other colour.
    const [engine, time] = old[k] || [k === 0 ? "" : engines[0] || "", defaultMovetime];
    row.innerHTML = `${swatch(k)} <b>${COLOURS[k]}</b>`;
    row.append(seatSelect(`seat-${k}`, engine), timeInput(`time-${k}`, time), " s a turn");
    rows.appendChild(row);
  }
}

async function startGame() {
  const players = Number($("players-count").value);
  const seats = [];
  for (let k = 0; k < players; k++) seats.push(seatRequest($(`seat-${k}`).value, $(`time-${k}`).value));
  const old = state && state.id;
  const answer = await api("POST", "/api/games", { side: Number($("side").value), players, seats });
  if (answer && old) fetch(`/api/games/${old}`, { method: "DELETE" });
}

$("new").addEventListener("click", () => $("setup").showModal());
$("players-count").addEventListener("change", seatRows);
$("setup-form").addEventListener("submit", (e) => {
  if (e.submitter && e.submitter.value === "start") startGame();
});
$("open").addEventListener("click", () => $("open-file").click());
$("open-file").addEventListener("change", async () => {
  const file = $("open-file").files[0];
  if (!file) return;
  const old = state && state.id;
  const answer = await api("POST", "/api/games", { transcript: await file.text() });
  $("open-file").value = "";
  if (answer && old) fetch(`/api/games/${old}`, { method: "DELETE" });
});

async function init() {
  for (let n = 4; n <= 10; n++) $("side").add(new Option(`${n} (${3 * n * (n - 1) + 1} cells)`, n));
  $("side").value = "5";
  try {
    const res = await fetch("/api/engines");
    const info = await res.json();
    engines = info.engines;
    defaultMovetime = info.movetime;
  } catch (e) {
    showMessage("Cannot reach the server.");
  }
  seatRows();
  // Take up the game of the last visit, if the server still has it.
  const id = localStorage.getItem("omega-game");
  if (id) {
    const res = await fetch(`/api/games/${id}`);
    if (res.ok) return apply(await res.json());
  }
  $("setup").showModal();
}

init();
