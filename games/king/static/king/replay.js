// King — the replay of a finished match (issue 19): steps through one hand at a time,
// every hand shown (the match is over).  Data: /lobby/matches/<id>/replay/<hand>/
// (lobby.history.replay_hand through King's replay_snapshot).  Every word comes from
// #kr-config (the page's translated strings); the card look is the table's (king/table.css).

import { clearBest, connect, markBest, openingStep, stepOf } from "../js/replay-steps.js";
import { appliedSteps } from "./replay-best.js";

const root = document.getElementById("kr");
const cfg = JSON.parse(document.getElementById("kr-config").textContent);
const T = cfg.strings;
const R = T.rp;
const SUIT_SYMBOL = { S: "♠", H: "♥", C: "♣", D: "♦" };
const RANK_LABEL = { T: "10" };
const $ = (sel, el = root) => el.querySelector(sel);
const S = { hand: 0, i: 0, data: null, applied: [] };
const W = document.getElementById("kr-best-words").dataset; // the better move's words (issue 31)

function fmt(text, vars) {
  return String(text).replace(/\{(\w+)\}/g, (m, key) => (key in vars ? vars[key] : m));
}

function cardLabel(card) {
  return fmt(T.card, { rank: T.ranks[card[0]] || card[0], suit: T.suits[card[1]] || card[1] });
}

function cardEl(card, fresh = false) {
  const el = document.createElement("span");
  el.className = `kg-card suit-${card[1]}${fresh ? " new" : ""}`;
  el.dataset.card = card;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardLabel(card));
  for (const [cls, text] of [["kg-rank", RANK_LABEL[card[0]] || card[0]], ["kg-suit", SUIT_SYMBOL[card[1]]], ["kg-pip", SUIT_SYMBOL[card[1]]]]) {
    const part = document.createElement("span");
    part.className = cls;
    part.setAttribute("aria-hidden", "true");
    part.textContent = text;
    el.append(part);
  }
  return el;
}

function contractText(s) {
  if (!s.contract) return "";
  const name = T.contracts[s.contract] || s.contract;
  return s.contract === "koz" && s.trump ? `${name} ${SUIT_SYMBOL[s.trump]}` : name;
}

function describe(a, s) {
  const d = S.data;
  const name = a.seat !== undefined && a.seat !== null ? d.seats[a.seat] : "";
  let text;
  if (a.type === "deal") text = fmt(R.deal, { name: d.seats[s.chooser] });
  else if (a.type === "choose") text = fmt(R.choose, { name, contract: contractText(s) });
  else if (a.type === "play") text = fmt(R.play, { name, card: a.card ? cardLabel(a.card) : "" });
  else if (R[a.type]) text = fmt(R[a.type], { name });
  else text = `${name}: ${a.type}`;
  if (a.actor === "bot") text += ` ${R.bot}`;
  if (s.over) text += ` ${R.hand_over}`;
  return text;
}

function render() {
  const d = S.data;
  const step = d.steps[S.i];
  const s = step.s;
  clearBest(root);
  $(".kr-title").textContent = fmt(R.step, { n: S.i + 1, total: d.steps.length });
  $(".kr-step").textContent = fmt(R.step, { n: S.i + 1, total: d.steps.length });
  $(".kr-contract").textContent = contractText(s);
  $(".kr-action").textContent = describe(step.a, s);
  for (let seat = 0; seat < 4; seat++) {
    const panel = root.querySelector(`.kr-seat[data-seat="${seat}"]`);
    panel.classList.toggle("kr-turn", s.turn === seat);
    $(".kr-name", panel).textContent = d.seats[seat];
    const meta = [fmt(R.tricks, { n: s.tricks[seat] }), `${R.score}: ${(s.scores || s.running)[seat]}`, `${R.total}: ${s.totals[seat]}`];
    if (s.turn === seat) meta.push(R.turn);
    $(".kr-meta", panel).textContent = meta.join(" · ");
    $(".kr-cards", panel).replaceChildren(...s.hands[seat].map((c) => cardEl(c)));
  }
  $(".kr-trick").replaceChildren(...s.trick.map((c) => cardEl(c, c === step.a.card)));
  const last = s.last_trick;
  $(".kr-last-label").textContent = last ? fmt(R.last_trick, { name: d.seats[last.winner] }) : "";
  $(".kr-last").replaceChildren(...(last ? last.cards.map((c) => cardEl(c, c === step.a.card)) : []));
  stepShown(S.applied[S.i], S.hand);
}

// --- the analysis's better move (issue 31): the better card raised in the seat's hand,
// or the better contract beside the chosen one ------------------------------------------

function drawBest(decision) {
  const best = decision.best;
  const panel = root.querySelector(`.kr-seat[data-seat="${decision.seat}"]`);
  if (!S.data || !panel) return;
  const note = document.createElement("p");
  note.className = "kr-best-note analysis-best-drawn";
  if (best.type === "play") {
    const el = panel.querySelector(`.kg-card[data-card="${best.card}"]`);
    if (el) markBest(el, "★").classList.add("kr-raised");
    note.textContent = fmt(W.card, { card: cardLabel(best.card) });
  } else if (best.type === "choose") {
    const contract = contractText({ contract: best.contract, trump: best.trump });
    note.textContent = fmt(W.contract, { contract });
  } else return;
  $("h3", panel).after(markBest(note, "★"));
}

const stepShown = connect({
  goto: (applied) => {
    if (!S.data) return false;
    const i = stepOf(S.applied, applied);
    if (i >= 0) go(i);
    return true;
  },
  draw: drawBest,
  clear: () => clearBest(root),
});

function go(i) {
  if (!S.data) return;
  S.i = Math.max(0, Math.min(S.data.steps.length - 1, i));
  render();
}

async function load(n, at = "first") {
  S.hand = n;
  for (const b of root.querySelectorAll("[data-hand]")) b.setAttribute("aria-current", String(Number(b.dataset.hand) === n));
  $(".kr-action").textContent = R.loading;
  try {
    const response = await fetch(cfg.hands[n - 1].url, { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(String(response.status));
    S.data = await response.json();
    S.applied = appliedSteps(S.data.steps);
  } catch {
    S.data = null;
    $(".kr-action").textContent = R.load_failed;
    return;
  }
  go(openingStep(S.applied, stepShown, at === "last" ? S.data.steps.length - 1 : 0));
}

root.addEventListener("click", (e) => {
  const hand = e.target.closest("[data-hand]");
  if (hand) return load(Number(hand.dataset.hand));
  const b = e.target.closest("[data-go]");
  if (!b || !S.data) return;
  const to = { first: 0, prev: S.i - 1, next: S.i + 1, last: S.data.steps.length - 1 }[b.dataset.go];
  go(to);
});

document.addEventListener("keydown", (e) => {
  if (e.target.closest && e.target.closest("input, textarea, select")) return;
  const keys = {
    ArrowLeft: () => go(S.i - 1),
    ArrowRight: () => go(S.i + 1),
    Home: () => go(0),
    End: () => S.data && go(S.data.steps.length - 1),
    PageUp: () => S.hand > 1 && load(S.hand - 1, "last"),
    PageDown: () => S.hand < cfg.hands.length && load(S.hand + 1),
  };
  if (keys[e.key]) {
    e.preventDefault();
    keys[e.key]();
  }
});

load(cfg.first);
