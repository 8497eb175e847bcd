// King — the card table (vanilla JS module, no build step; rules: king.md).
//
// The server is the authority: after every change it sends this seat a full "state"
// frame {type, version, layout, match, me, hand} — or what changed, which ../js/frames.js
// turns into that frame (issue 22) — (game/frames.py; `hand` is King's
// view, docs/king-engine.md) and this module renders it.  Moves go back as
// {"type": "action", "action": {...}, "version": v}.  Older frames are ignored; a
// version gap, a reconnect or a silent socket asks for a fresh snapshot ("sync").
// Every word shown comes from #kg-strings (the page's translated strings).

import { openMatchSocket } from "../js/match-socket.js";
import { verifyLink } from "../js/fair.js";
import { toaster } from "../js/toast.js";
import { kingNotes } from "./notes.js";

const root = document.getElementById("kg");
const T = JSON.parse(document.getElementById("kg-strings").textContent);

const POS = ["south", "east", "north", "west"]; // me, me+1 (on my right, G-M1), me+2, me+3
const SUIT_SYMBOL = { S: "♠", H: "♥", C: "♣", D: "♦" };
const RANK_LABEL = { T: "10" };
const COLOURS_KEY = "kut.king.fourColours";

const matchId = Number(root.dataset.match);
const board = root.querySelector(".kg-board");
const $ = (sel, el = root) => el.querySelector(sel);
const $$ = (sel, el = root) => Array.from(el.querySelectorAll(sel));
const toast = toaster(root, "kg");

const S = { version: -1, match: null, hand: null, me: null, offset: 0, lastFrameAt: 0, focus: 0, trickKey: "", replaced: false };
const net = { inflight: null }; // the one move in flight (the socket itself: ../js/match-socket.js)

// --- helpers ---------------------------------------------------------------------------------

function fmt(text, vars) {
  return String(text).replace(/\{(\w+)\}/g, (m, key) => (key in vars ? vars[key] : m));
}

function esc(value) {
  return String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function serverNow() {
  return Date.now() + S.offset;
}

function rel(seat) {
  // Table position of a seat: me at the bottom (a watcher sees seat 0 there).
  const me = S.me === null || S.me === undefined ? 0 : S.me;
  return POS[(seat - me + 4) % 4];
}

function seatName(seat) {
  if (seat === S.me) return T.you;
  const s = S.match && S.match.seats[seat];
  if (s && s.bot && !s.user_id) return fmt(T.bot_name, { n: seat + 1, level: T.levels[s.bot] || s.bot });
  return s ? s.name : "";
}

function cardLabel(card) {
  return fmt(T.card, { rank: T.ranks[card[0]] || card[0], suit: T.suits[card[1]] || card[1] });
}

function contractText(contract, trump) {
  if (!contract) return "";
  const name = T.contracts[contract] || contract;
  return contract === "koz" && trump ? `${name} ${SUIT_SYMBOL[trump]}` : name;
}

// One card face: rank and suit symbol always shown (colour is never the only cue).
function cardHtml(card, extra = "") {
  const rank = RANK_LABEL[card[0]] || card[0];
  const suit = card[1];
  return `<span class="kg-card suit-${suit} ${extra}" data-card="${card}" role="img" aria-label="${esc(cardLabel(card))}">` +
    `<span class="kg-rank" aria-hidden="true">${rank}</span><span class="kg-suit" aria-hidden="true">${SUIT_SYMBOL[suit]}</span>` +
    `<span class="kg-pip" aria-hidden="true">${SUIT_SYMBOL[suit]}</span></span>`;
}

function setStatus(text) {
  $(".kg-status").textContent = text || "";
}

// --- four-colour deck (for colour-blind players; stored on this device) --------------------

function applyColours(on) {
  root.classList.toggle("four-colours", on);
  $("[data-action=colours]").setAttribute("aria-pressed", on ? "true" : "false");
}

function coloursOn() {
  try {
    return localStorage.getItem(COLOURS_KEY) === "1";
  } catch {
    return false;
  }
}

applyColours(coloursOn());

// --- the socket --------------------------------------------------------------------------------
// ../js/match-socket.js owns connecting, back-off, close codes, ping, sync and the change
// frames (issue 22); this table only says what a frame, an error and a close mean here.

const sock = openMatchSocket({
  matchId,
  connectNow: false,
  onFrame: (frame) => onState(frame),
  onError: (msg) => onError(msg),
  onOpen() {
    root.dataset.replaced = "0";
  },
  onClose({ reason }) {
    net.inflight = null; // applied or not: never sent twice
    if (reason === "replaced") {
      // The same seat was opened in another tab: final for this one (reconnecting on its
      // own would knock the other tab off in turn); "Play here" takes the seat back.
      S.replaced = true;
      root.dataset.replaced = "1";
      setStatus(T.replaced);
      notes.note("replaced", T.replaced_note, T.play_here, playHere);
      tick();
      return;
    }
    const texts = { kicked: T.cannot_join, cannot_join: T.cannot_join, reconnecting: T.reconnecting };
    setStatus(texts[reason]);
  },
});
const sendRaw = (message) => sock.send(message);
const requestSync = (minGap) => sock.requestSync(minGap);
const notes = kingNotes({ S, T, $, board, fmt, cardLabel, contractText, matchId });

function playHere() {
  S.replaced = false;
  notes.note("replaced", null);
  setStatus(T.connecting);
  sock.reconnect();
}

function onState(msg) {
  if (typeof msg.version !== "number" || msg.version < S.version) return; // an older frame
  const gap = S.version >= 0 && msg.version > S.version + 1;
  S.version = msg.version;
  S.match = msg.match;
  S.hand = msg.hand;
  S.me = msg.me;
  S.lastFrameAt = Date.now();
  if (msg.match && typeof msg.match.server_time === "number") S.offset = msg.match.server_time - Date.now();
  if (net.inflight && msg.version > net.inflight.at) net.inflight = null;
  if (gap) requestSync();
  // The hook for the page's other scripts (templates/game/_extras.html: trial hints,
  // rematch, free seats): every state frame this table accepts, read-only.
  document.dispatchEvent(new CustomEvent("kut:frame", { detail: msg }));
  render();
}

function onError(msg) {
  net.inflight = null;
  root.dataset.errors = String(Number(root.dataset.errors || 0) + 1);
  root.dataset.lastError = msg.code || "";
  if (msg.code === "stale_version") {
    requestSync(0);
    return;
  }
  toast((T.errors && T.errors[msg.code]) || msg.message || msg.code, "error");
}

function act(action) {
  if (S.me === null || S.me === undefined || net.inflight || !sock.isOpen()) return;
  net.inflight = { at: S.version };
  setTimeout(() => {
    if (net.inflight && net.inflight.at === S.version) net.inflight = null;
  }, 5000);
  sendRaw({ type: "action", action, version: S.version });
}

// --- rendering --------------------------------------------------------------------------------

function running() {
  return S.match && (S.match.status === "playing" || S.match.status === "between");
}

function myTurn() {
  const h = S.hand;
  return Boolean(h && S.match && S.match.status === "playing" && h.turn !== null && h.turn === S.me);
}

function render() {
  const m = S.match;
  const h = S.hand;
  if (!m) return;
  board.setAttribute("aria-busy", "false");
  root.dataset.version = String(S.version);
  root.dataset.status = m.status;
  root.dataset.phase = h ? h.phase : "";
  root.dataset.hand = h ? String(h.hand_no) : "";
  root.dataset.myTurn = myTurn() ? "1" : "0";
  root.dataset.choosing = h && h.choice && myTurn() ? "1" : "0";
  renderBar();
  renderSeats();
  renderTrick();
  renderChoice();
  renderHand();
  renderOverlay();
  notes.showTimeouts();
  if ($(".kg-scores-dialog").open) renderScores();
  if ($(".kg-last-dialog").open) renderLast();
  $("[data-action=last]").disabled = !(h && h.last_trick);
  tick(); // the timer follows the frame at once
}

function renderBar() {
  const m = S.match;
  const h = S.hand;
  if (!h) return;
  $(".kg-hand-no").textContent = fmt(T.hand_of, { n: h.hand_no, total: h.length });
  const contract = $(".kg-contract");
  contract.innerHTML = h.contract
    ? `<strong>${esc(T.contracts[h.contract] || h.contract)}</strong>` +
      (h.trump ? ` <span class="kg-trump suit-${h.trump}" title="${esc(fmt(T.trump_is, { suit: T.suits[h.trump] }))}">${SUIT_SYMBOL[h.trump]}<span class="kg-sr">${esc(fmt(T.trump_is, { suit: T.suits[h.trump] }))}</span></span>` : "")
    : "";
  let status = "";
  if (m.status === "playing" && h.phase === "choose") status = h.chooser === S.me ? T.choose_title : fmt(T.choosing, { name: seatName(h.chooser) });
  else if (m.status === "playing" && h.phase === "play") status = h.turn === S.me ? T.your_turn : fmt(T.their_turn, { name: seatName(h.turn) });
  else if (m.status === "finished") status = T.match_over;
  else if (m.status === "abandoned" || m.status === "aborted") status = T.closed;
  if (S.me === null || S.me === undefined) status = `${T.watching} ${status}`;
  setStatus(status);
}

function renderSeats() {
  const m = S.match;
  const h = S.hand;
  if (!h) return;
  for (let seat = 0; seat < 4; seat += 1) {
    const pos = rel(seat);
    const el = pos === "south" ? $(".kg-seat-me") : $(`.kg-seat[data-pos=${pos}]`, board);
    const info = m.seats[seat] || {};
    const tags = [];
    if (seat === h.chooser) tags.push(`<span class="kg-tag kg-tag-chooser">${esc(T.chooser)}</span>`);
    if (info.bot) tags.push(`<span class="kg-tag">${esc(T.bot)}</span>`);
    if ((h.away && h.away[seat]) || info.away) tags.push(`<span class="kg-tag kg-tag-away">${esc(T.away)}</span>`);
    if (info.user_id && info.connected === false) tags.push(`<span class="kg-tag kg-tag-away">${esc(T.offline)}</span>`);
    const penalty = (h.penalty_taken && h.penalty_taken[seat]) || [];
    const backs = pos === "south" ? "" : `<span class="kg-backs" aria-label="${esc(fmt(T.cards_left, { n: h.counts[seat] }))}">${"<i></i>".repeat(Math.min(13, h.counts[seat]))}</span>`;
    el.innerHTML =
      `<p class="kg-seat-name">${esc(seatName(seat))} ${tags.join(" ")}</p>` +
      `<p class="kg-seat-facts"><span>${esc(fmt(T.tricks, { n: h.tricks_taken[seat] }))}</span> · ` +
      `<span>${esc(fmt(T.hand_score, { n: h.hand_scores[seat] }))}</span> · <strong>${esc(fmt(T.total, { n: h.totals[seat] }))}</strong></p>` +
      backs +
      (penalty.length ? `<p class="kg-penalty">${penalty.map((c) => cardHtml(c, "kg-mini")).join("")}</p>` : "");
    if (pos === "south" && S.me !== null && info.away && running()) {
      // G-T3: a bot plays this seat after two timeouts, until the player is back.
      const back = document.createElement("button");
      back.type = "button";
      back.className = "button kg-back";
      back.textContent = T.back;
      back.addEventListener("click", () => sendRaw({ type: "action", action: { type: "back" }, version: null }));
      el.append(back);
    }
    el.classList.toggle("is-turn", m.status === "playing" && h.turn === seat);
    el.dataset.seat = String(seat);
  }
}

function renderTrick() {
  const h = S.hand;
  for (const slot of $$(".kg-slot")) slot.innerHTML = "";
  if (!h || !h.trick) return;
  const key = `${h.hand_no}:${h.tricks_played}`;
  for (const { seat, card } of h.trick.cards) {
    const slot = $(`.kg-slot[data-pos=${rel(seat)}]`);
    slot.innerHTML = cardHtml(card, key === S.trickKey ? "" : "kg-in");
    slot.title = seatName(seat);
  }
  S.trickKey = key;
}

function renderChoice() {
  const h = S.hand;
  const panel = $(".kg-choice");
  const waiting = $(".kg-waiting");
  const choosing = h && S.match.status === "playing" && h.phase === "choose";
  waiting.hidden = !(choosing && !h.choice);
  if (choosing && !h.choice) waiting.textContent = fmt(T.choosing, { name: seatName(h.chooser) });
  if (!choosing || !h.choice) {
    panel.hidden = true;
    return;
  }
  const c = h.choice;
  panel.hidden = false;
  $(".kg-choice-title").textContent = T.choose_title;
  $(".kg-quota").textContent = fmt(T.quota, { ceza: c.ceza_left, koz: c.koz_left });
  const box = $(".kg-contracts");
  box.innerHTML = "";
  let koz = null;
  for (const o of c.options) {
    if (o.kind === "koz") {
      koz = o;
      continue;
    }
    const b = document.createElement("button");
    b.type = "button";
    b.className = "kg-contract-btn";
    b.dataset.contract = o.contract;
    b.disabled = !o.allowed;
    b.innerHTML = `<span>${esc(T.contracts[o.contract])} (${o.plays_left})</span>` +
      (o.allowed ? "" : `<small class="kg-reason">${esc(T.reasons[o.reason] || o.reason)}</small>`);
    b.addEventListener("click", () => act({ type: "choose", contract: o.contract }));
    box.append(b);
  }
  $(".kg-koz-title").textContent = T.trump_title;
  const trumps = $(".kg-trumps");
  trumps.innerHTML = "";
  for (const suit of c.trumps) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = `kg-trump-btn suit-${suit}`;
    b.dataset.trump = suit;
    b.disabled = !koz || !koz.allowed;
    b.innerHTML = `${SUIT_SYMBOL[suit]}<span class="kg-sr">${esc(fmt(T.trump_is, { suit: T.suits[suit] }))}</span>`;
    b.title = fmt(T.trump_is, { suit: T.suits[suit] });
    b.addEventListener("click", () => act({ type: "choose", contract: "koz", trump: suit }));
    trumps.append(b);
  }
  $(".kg-koz-reason").textContent = koz && !koz.allowed ? T.reasons[koz.reason] || koz.reason : "";
}

function renderHand() {
  const h = S.hand;
  const box = $(".kg-hand");
  const cards = h ? h.hand : [];
  const playable = new Set(h ? h.playable : []);
  const turn = myTurn() && h.phase === "play";
  const active = document.activeElement && box.contains(document.activeElement);
  box.innerHTML = "";
  box.classList.toggle("is-turn", turn);
  const n = cards.length;
  S.focus = Math.max(0, Math.min(S.focus, n - 1));
  if (turn && !playable.has(cards[S.focus])) {
    const first = cards.findIndex((c) => playable.has(c));
    if (first >= 0) S.focus = first;
  }
  cards.forEach((card, i) => {
    const b = document.createElement("button");
    b.type = "button";
    const ok = turn && playable.has(card);
    b.className = `kg-hand-card${ok ? " is-playable" : ""}${turn && !ok ? " is-blocked" : ""}`;
    b.dataset.card = card;
    b.dataset.i = String(i);
    b.style.setProperty("--i", String(i - (n - 1) / 2)); // the fan (CSS rotates by it)
    b.setAttribute("aria-disabled", ok ? "false" : "true");
    b.tabIndex = i === S.focus ? 0 : -1;
    b.innerHTML = cardHtml(card);
    b.setAttribute("aria-label", cardLabel(card));
    b.addEventListener("click", () => playCard(card));
    box.append(b);
  });
  if (active && n) box.children[S.focus].focus();
}

function playCard(card) {
  const h = S.hand;
  if (!myTurn() || !h || h.phase !== "play") return;
  if (!h.playable.includes(card)) return; // greyed out (G-V5): the server would refuse it
  act({ type: "play", card });
}

$(".kg-hand").addEventListener("keydown", (event) => {
  const buttons = $$(".kg-hand-card");
  if (!buttons.length) return;
  let i = S.focus;
  if (event.key === "ArrowRight" || event.key === "ArrowDown") i = Math.min(buttons.length - 1, i + 1);
  else if (event.key === "ArrowLeft" || event.key === "ArrowUp") i = Math.max(0, i - 1);
  else if (event.key === "Home") i = 0;
  else if (event.key === "End") i = buttons.length - 1;
  else return;
  event.preventDefault();
  buttons[S.focus].tabIndex = -1;
  S.focus = i;
  buttons[i].tabIndex = 0;
  buttons[i].focus();
});

function placesOf(totals) {
  // G-M5: the highest total wins; equal totals share a place.
  return totals.map((t) => 1 + totals.filter((u) => u > t).length);
}

function renderOverlay() {
  const m = S.match;
  const h = S.hand;
  const overlay = $(".kg-overlay");
  const final = m.status === "finished" || m.status === "abandoned";
  const between = h && h.summary && !final;
  if (!between && !final) {
    overlay.hidden = true;
    overlay.dataset.kind = "";
    return;
  }
  overlay.hidden = false;
  overlay.dataset.kind = final ? "final" : "hand";
  const totals = h ? h.totals : m.totals;
  if (final) {
    $("#kg-overlay-title").textContent = T.match_over;
    const winners = (m.winners || []).map(seatName);
    $(".kg-overlay-sub").textContent = winners.length ? fmt(winners.length > 1 ? T.winners : T.winner, { names: winners.join(", ") }) : "";
    const places = placesOf(totals);
    const order = [0, 1, 2, 3].sort((a, b) => places[a] - places[b] || a - b);
    $(".kg-overlay-body").innerHTML = `<table class="kg-table"><thead><tr><th>${esc(T.place_col)}</th><th>${esc(T.player)}</th><th class="num">${esc(T.total_col)}</th></tr></thead><tbody>` +
      order.map((s) => `<tr data-seat="${s}"${s === S.me ? ' class="is-me"' : ""}><td>${places[s]}.</td><td>${esc(seatName(s))}</td><td class="num">${totals[s]}</td></tr>`).join("") +
      "</tbody></table>";
    $(".kg-countdown").textContent = "";
    $(".kg-final-actions").hidden = false;
    return;
  }
  $(".kg-final-actions").hidden = true;
  $("#kg-overlay-title").textContent = fmt(T.hand_over, { n: h.hand_no, contract: contractText(h.contract, h.trump) });
  $(".kg-overlay-sub").textContent = h.summary.early ? T.ended_early : "";
  const rows = [0, 1, 2, 3].map((s) =>
    `<tr data-seat="${s}"${s === S.me ? ' class="is-me"' : ""}><td>${esc(seatName(s))}</td><td class="num">${h.tricks_taken[s]}</td><td class="num">${h.summary.scores[s]}</td><td class="num"><strong>${totals[s]}</strong></td></tr>`,
  );
  const deal = h.summary.deal.map((cards, s) =>
    `<li><span class="kg-deal-name">${esc(seatName(s))}</span> ${cards.map((c) => cardHtml(c, "kg-mini")).join("")}</li>`,
  );
  $(".kg-overlay-body").innerHTML =
    `<table class="kg-table"><thead><tr><th>${esc(T.player)}</th><th class="num">${esc(T.tricks_col)}</th><th class="num">${esc(T.score_col)}</th><th class="num">${esc(T.total_col)}</th></tr></thead><tbody>${rows.join("")}</tbody></table>` +
    `<details class="kg-deal"><summary>${esc(T.deal)}</summary><ul>${deal.join("")}</ul></details>` +
    verifyLink(T, h.fair); // G-V2: the deal with P-2's check
}

function renderScores() {
  // G-Q3: one row per hand played, the totals, each seat's choices left, plays left.
  const h = S.hand;
  const body = $(".kg-scores-body");
  if (!h) return;
  const t = h.score_table;
  const head = `<tr><th class="num">${esc(T.hand_col)}</th><th>${esc(T.chooser_col)}</th><th>${esc(T.contract_col)}</th>${[0, 1, 2, 3].map((s) => `<th class="num">${esc(seatName(s))}</th>`).join("")}</tr>`;
  const rows = t.rows.map((r) =>
    `<tr><td class="num">${r.hand_no}</td><td>${esc(seatName(r.chooser))}</td><td>${esc(contractText(r.contract, r.trump))}</td>${r.scores.map((v) => `<td class="num">${v}</td>`).join("")}</tr>`,
  );
  if (!rows.length) rows.push(`<tr><td colspan="7" class="kg-muted">${esc(T.no_rows)}</td></tr>`);
  const totals = `<tr class="kg-totals"><th colspan="3">${esc(T.totals_row)}</th>${t.totals.map((v) => `<td class="num"><strong>${v}</strong></td>`).join("")}</tr>`;
  const left = `<tr class="kg-left"><th colspan="3">${esc(T.left_row)}</th>${t.left.map((q) => `<td class="num">${esc(fmt(T.quota, { ceza: q.ceza, koz: q.koz }))}</td>`).join("")}</tr>`;
  const plays = Object.entries(t.contracts).map(([c, n]) => `<li>${esc(T.contracts[c] || c)} (${n})</li>`).join("");
  body.innerHTML = `<div class="kg-scroll"><table class="kg-table kg-score-table"><thead>${head}</thead><tbody>${rows.join("")}</tbody><tfoot>${totals}${left}</tfoot></table></div>` +
    `<p class="kg-plays-title">${esc(T.plays_left)}</p><ul class="kg-plays">${plays}</ul>`;
}

function renderLast() {
  const h = S.hand;
  const body = $(".kg-last-body");
  const last = h && h.last_trick;
  if (!last) {
    body.textContent = T.no_last_trick;
    return;
  }
  body.innerHTML = `<ul class="kg-last">${last.cards.map(({ seat, card }) =>
    `<li${seat === last.winner ? ' class="is-winner"' : ""}><span>${esc(seatName(seat))}</span> ${cardHtml(card)}</li>`).join("")}</ul>` +
    `<p>${esc(fmt(T.last_trick_winner, { name: seatName(last.winner) }))}</p>`;
}

// --- buttons and dialogs -----------------------------------------------------------------------

root.addEventListener("click", (event) => {
  const target = event.target.closest("[data-action]");
  if (!target || target.disabled) return;
  const action = target.dataset.action;
  if (action === "scores") {
    renderScores();
    $(".kg-scores-dialog").showModal();
  } else if (action === "last") {
    renderLast();
    $(".kg-last-dialog").showModal();
  } else if (action === "colours") {
    const on = !root.classList.contains("four-colours");
    try {
      localStorage.setItem(COLOURS_KEY, on ? "1" : "0");
    } catch {
      /* private mode: the toggle still works on this page */
    }
    applyColours(on);
  } else if (action === "leave") {
    $(".kg-leave-dialog").showModal();
  } else if (action === "close-dialog") {
    target.closest("dialog").close();
  }
});

// --- the clock: the move time (G-T1), the next hand, the watchdog ------------------------------

function tick() {
  const m = S.match;
  if (!m) return;
  const now = serverNow();
  const timer = $(".kg-timer");
  if (m.status === "playing" && m.deadline && !S.replaced) {
    const left = Math.max(0, m.deadline - now);
    timer.hidden = false;
    $(".kg-timer-text").textContent = fmt(T.seconds, { n: Math.ceil(left / 1000) });
    const warn = left <= (m.warning_seconds || 10) * 1000;
    timer.classList.toggle("is-warn", warn);
    timer.classList.toggle("is-mine", myTurn());
    timer.setAttribute("aria-live", warn && myTurn() ? "polite" : "off");
  } else {
    timer.hidden = true;
  }
  if (m.status === "between" && m.deadline) {
    const left = Math.ceil((m.deadline - now) / 1000);
    $(".kg-countdown").textContent = left > 0 ? fmt(T.next_hand_in, { n: left }) : T.next_hand_soon;
  } else if (m.status !== "finished") {
    $(".kg-countdown").textContent = "";
  }
  if (S.replaced) return; // another tab has the seat: no clock, no sync until "Play here"
  // Frames can be lost: when a timer has run out or a bot should have moved and nothing
  // came, ask for the state.
  const idle = Date.now() - S.lastFrameAt;
  const overdue = running() && m.deadline && now > m.deadline + 700;
  if (overdue && idle > 700) requestSync(1000);
  else if (running() && !myTurn() && idle > 4000) requestSync(4000);
}

setInterval(tick, 250);
setStatus(T.connecting);
sock.start();
