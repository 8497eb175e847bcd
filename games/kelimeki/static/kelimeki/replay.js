// Kelimeki — the replay of a finished game: one step per move, every rack shown (the
// game is over).  Data: /lobby/matches/<id>/replay/1/ (lobby.history.replay_hand through
// GAME.replay_snapshot).  Every word comes from #wr-config (the page's strings).

import { clearBest, connect, markBest, openingStep, stepOf } from "../js/replay-steps.js";
import { appliedSteps, placedLetters } from "./replay-best.js";

const root = document.getElementById("wr");
const cfg = JSON.parse(document.getElementById("wr-config").textContent);
const T = cfg.strings;
const R = T.rp;
const SIZE = 15;
const $ = (sel, el = root) => el.querySelector(sel);
const S = { i: 0, data: null, applied: [] };
const W = document.getElementById("wr-best-words").dataset; // the better play's words (issue 31)

function fmt(text, vars) {
  return String(text).replace(/\{(\w+)\}/g, (m, key) => (key in vars ? vars[key] : m));
}

function esc(value) {
  return String(value).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function describe(a, s) {
  const d = S.data;
  const name = a.seat !== undefined && a.seat !== null ? d.seats[a.seat] : "";
  let text;
  if (a.type === "deal") text = fmt(R.deal, { name: d.seats[s.turn] || "" });
  else if (a.type === "play") text = fmt(R.play, { name, words: (a.words || []).join(", "), n: a.points || 0 });
  else if (a.type === "exchange") text = fmt(R.exchange, { name, n: a.count || 0 });
  else if (R[a.type]) text = fmt(R[a.type], { name });
  else text = `${name}: ${a.type}`;
  if (a.actor === "bot") text += ` ${R.bot}`;
  if (s.over) text += ` ${R.over}`;
  return text;
}

function render() {
  const d = S.data;
  const step = d.steps[S.i];
  const s = step.s;
  const a = step.a;
  clearBest(root);
  const fresh = new Set(a.type === "play" ? a.cells || [] : []);
  const homes = {};
  s.homes.forEach(([r, c], seat) => (homes[r * SIZE + c] = seat));
  let html = "";
  for (let i = 0; i < SIZE * SIZE; i++) {
    const r = Math.floor(i / SIZE);
    const c = i % SIZE;
    const ch = s.board[r][c];
    const kind = s.layout[r][c];
    const z = s.zones[r][c];
    const cls = ["wr-cell"];
    if (kind === "2") cls.push("x2");
    if (kind === "3") cls.push("x3");
    if (z !== ".") cls.push(`z${z}`);
    if (fresh.has(i)) cls.push("new");
    let inner = "";
    if (ch !== ".") {
      const joker = ch.toLocaleUpperCase("tr") !== ch;
      inner = joker ? `<span class="joker">${esc(ch.toLocaleUpperCase("tr"))}</span>` : esc(ch);
    } else if (i in homes) inner = `<span aria-hidden="true">⌂</span>`;
    html += `<div class="${cls.join(" ")}" data-cell="${i}">${inner}</div>`;
  }
  $(".wr-board").innerHTML = html;
  $(".wr-seats").innerHTML = s.scores
    .map((score, seat) => {
      const turn = s.turn === seat ? ` · ${esc(R.turn)}` : "";
      const gone = s.forfeited[seat] ? ` · ${esc(T.forfeited)}` : "";
      const rack = (s.racks[seat] || []).map((t) => (t === "*" ? "★" : t)).join("");
      return `<section class="wr-seat${s.turn === seat ? " wr-turn" : ""}" data-seat="${seat}"><strong>${esc(T.seat_marks[seat])} ${esc(d.seats[seat])}</strong> — <span class="wr-score">${score}</span>${turn}${gone}<div class="wr-rack">${esc(rack)}</div></section>`;
    })
    .join("");
  $(".wr-bag").textContent = fmt(R.bag, { n: s.bag_count });
  $(".wr-action").textContent = describe(a, s);
  $(".wr-step").textContent = fmt(R.step, { n: S.i + 1, total: d.steps.length });
  root.dataset.step = String(S.i);
  stepShown(S.applied[S.i]);
}

// --- the analysis's better play (issue 31): ghost letters on the board -----------------

function drawBest(decision) {
  const best = decision.best;
  if (!S.data || best.type !== "play") return;
  for (const p of best.placements || []) {
    const cell = root.querySelector(`.wr-board [data-cell="${p.row * SIZE + p.col}"]`);
    if (!cell) continue;
    const ghost = document.createElement("span");
    ghost.className = `wr-ghost analysis-best-drawn${p.joker ? " joker" : ""}`;
    ghost.textContent = p.letter;
    ghost.setAttribute("aria-hidden", "true");
    cell.append(markBest(ghost, ""));
  }
  const note = document.createElement("p");
  note.className = "wr-best-note analysis-best-drawn";
  note.textContent = fmt(W.play, { name: S.data.seats[decision.seat], letters: placedLetters(best) });
  $(".wr-action").after(markBest(note, "★"));
}

const stepShown = connect({
  goto: (applied) => {
    if (!S.data) return false;
    const i = stepOf(S.applied, applied);
    if (i >= 0) {
      S.i = i;
      render();
    }
    return true;
  },
  draw: drawBest,
  clear: () => clearBest(root),
});

function go(where) {
  if (!S.data) return;
  const last = S.data.steps.length - 1;
  S.i = where === "first" ? 0 : where === "last" ? last : where === "prev" ? Math.max(0, S.i - 1) : Math.min(last, S.i + 1);
  render();
}

root.addEventListener("click", (event) => {
  const b = event.target.closest("[data-go]");
  if (b) go(b.dataset.go);
});
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select")) return;
  const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  if (keys[event.key]) {
    event.preventDefault();
    go(keys[event.key]);
  }
});

$(".wr-action").textContent = R.loading;
fetch(cfg.hands[0].url, { headers: { Accept: "application/json" } })
  .then((r) => (r.ok ? r.json() : Promise.reject(r.status)))
  .then((data) => {
    S.data = data;
    S.applied = appliedSteps(data.steps);
    S.i = openingStep(S.applied, stepShown, 0);
    render();
  })
  .catch(() => {
    $(".wr-action").textContent = R.load_failed;
  });
