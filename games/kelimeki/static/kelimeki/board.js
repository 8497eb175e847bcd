// Kelimeki — the board in the browser (vanilla JS module, no build step; rules:
// kelimeki.md, W-…) of templates/game/kelimeki/table.html.  Every game is a match of
// the platform — a live one, a recorded one against the AI, or an unrecorded one at
// /kelimeki/ (a guest's, issue 27): frames come over the match socket
// ({type: "state", version, match, me, hand}, game/frames.py — after the first one,
// what changed, which ../js/frames.js turns into that frame: issue 22) and moves go back as
// {"type": "action", "action": {...}, "version": v}.  The AI moves in the background at
// the site's pace: its word arrives as a frame of its own, and meanwhile its row shows
// it "thinking" (issue 29).  The page at /kelimeki/ without a game has no match (the
// start form only): no socket then.
//
// Every frame goes through onFrame() (the one place that accepts frames).  The server is the authority: tentative tiles (before Oyna) live here
// only and are never sent to anyone but the preview endpoint of this seat (W-T5, W-M7).
// Every word shown comes from #kk-strings.

import { openMatchSocket } from "../js/match-socket.js";
import { toaster } from "../js/toast.js";

const root = document.getElementById("kk");
const T = JSON.parse(document.getElementById("kk-strings").textContent);
const SIZE = 15; // W-B1
const POINTS = { A: 1, B: 3, C: 4, Ç: 4, D: 3, E: 1, F: 7, G: 5, Ğ: 8, H: 5, I: 2, İ: 1, J: 10, K: 1, L: 1, M: 2, N: 1, O: 2, Ö: 7, P: 5, R: 1, S: 2, Ş: 4, T: 1, U: 2, Ü: 3, V: 7, Y: 3, Z: 4, "*": 0 }; // W-T2
const LETTERS = Array.from(T.letters); // W-T1
const JOKER = "*";

const $ = (sel, el = root) => el.querySelector(sel);
const $$ = (sel, el = root) => Array.from(el.querySelectorAll(sel));
const toast = toaster(root, "kk");

const S = { version: -1, match: null, hand: null, me: null };
// The player's own table: the rack's order (Karıştır, W-T6), the tentative tiles, the
// selected tile, the exchange choice.  Items: {id, tile}.
const UI = { order: [], nextId: 1, tent: [], selected: null, exchange: null, focus: 112, dir: "row", previewSeq: 0, overlayClosed: false, jokerAt: null, log: [] };

// --- helpers ---------------------------------------------------------------------------------

function fmt(text, vars) {
  return String(text).replace(/\{(\w+)\}/g, (m, key) => (key in vars ? vars[key] : m));
}

function esc(value) {
  return String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// W-T1: a joker shows its letter in Turkish lower case (İ → i, I → ı).
function lowerTr(letter) {
  return letter.toLocaleLowerCase("tr-TR");
}

function upperTr(letter) {
  return letter.toLocaleUpperCase("tr-TR");
}

function setStatus(text) {
  $(".kk-status").textContent = text || "";
}

function isAi(seat) {
  const s = S.match && S.match.seats[seat];
  return Boolean(s && s.bot && !s.user_id);
}

function seatName(seat) {
  if (seat === S.me) return T.you;
  const s = S.match && S.match.seats[seat];
  if (isAi(seat)) {
    const level = T.levels[s.bot] || s.bot;
    return S.hand && S.hand.players > 2 ? fmt(T.ai_name_n, { n: seat, level }) : fmt(T.ai_name, { level });
  }
  return s ? s.name : "";
}

function myTurn() {
  const h = S.hand;
  return Boolean(h && !h.over && h.turn !== null && h.turn === S.me);
}

function busy() {
  return root.dataset.busy === "1";
}

function errorText(code, fallback) {
  return (T.errors && T.errors[code]) || fallback || T.errors.bad_action;
}

// --- the match socket -------------------------------------------------------------------------

function postJson(url, body) {
  return fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": root.dataset.csrf },
    body: JSON.stringify(body),
  }).then((r) => r.json());
}

// The match socket: ../js/match-socket.js owns connecting, back-off, close codes, ping, sync
// and the change frames (issue 22); the board only delivers what they mean here.
function liveTransport() {
  const sock = openMatchSocket({
    matchId: root.dataset.match,
    connectNow: false,
    onFrame,
    onError,
    onClose({ reason }) {
      root.dataset.busy = "0";
      setStatus(reason === "replaced" ? T.replaced : reason === "reconnecting" ? T.reconnecting : T.cannot_join);
    },
  });
  return {
    start: sock.start,
    act(action) {
      if (busy() || !sock.isOpen()) return;
      root.dataset.busy = "1";
      const at = S.version;
      setTimeout(() => {
        if (S.version === at) root.dataset.busy = "0";
      }, 5000);
      sock.send({ type: "action", action, version: S.version });
    },
    sync() {
      sock.requestSync();
    },
  };
}

const transport = root.dataset.match ? liveTransport() : null; // no game yet: the start form only

// The one place where frames are accepted (socket or HTTP alike).
function onFrame(msg) {
  if (typeof msg.version !== "number" || msg.version < S.version) return; // an older frame
  const gap = S.version >= 0 && msg.version > S.version + 1;
  S.version = msg.version;
  S.match = msg.match;
  S.hand = msg.hand;
  S.me = msg.me;
  if (msg.match && typeof msg.match.server_time === "number") S.clockOffset = msg.match.server_time - Date.now();
  root.dataset.busy = "0";
  if (gap) transport.sync();
  remember(msg);
  reconcile();
  document.dispatchEvent(new CustomEvent("kut:frame", { detail: msg })); // the page's other scripts
  render();
  schedulePreview();
}

// The last moves, as their frames came (each frame's hand.last; a snapshot gives the
// latest one): the player sees their word scored, then the AI's (issue 29).
function remember(msg) {
  const last = msg.hand && msg.hand.last;
  if (!last || UI.log.some((e) => e.version === msg.version)) return;
  const key = JSON.stringify(last);
  if (UI.log.length && JSON.stringify(UI.log[UI.log.length - 1].ev) === key) return; // a presence frame
  UI.log.push({ version: msg.version, ev: last });
  UI.log.splice(0, UI.log.length - 4);
}

function onError(msg) {
  root.dataset.busy = "0";
  root.dataset.errors = String(Number(root.dataset.errors || 0) + 1);
  root.dataset.lastError = msg.code || "";
  if (msg.code === "stale_version") transport.sync();
  toast(errorText(msg.code, msg.message), "error");
  render();
}

function act(action) {
  if (S.me === null || S.me === undefined || !transport) return;
  transport.act(action);
}

// --- the rack and the tentative tiles ----------------------------------------------------------

// Keep the player's order (and tentative tiles) across frames: tiles still in the rack
// keep their place, new ones go to the end.
function reconcile() {
  const rack = (S.hand && S.hand.rack) || [];
  const left = {};
  rack.forEach((t) => (left[t] = (left[t] || 0) + 1));
  const kept = [];
  for (const item of UI.order) {
    if (left[item.tile] > 0) {
      left[item.tile] -= 1;
      kept.push(item);
    }
  }
  for (const t of rack) {
    if (left[t] > 0) {
      left[t] -= 1;
      kept.push({ id: UI.nextId++, tile: t });
    }
  }
  UI.order = kept;
  const ids = new Set(kept.map((i) => i.id));
  UI.tent = UI.tent.filter((p) => ids.has(p.id) && !cellLetter(p.row * SIZE + p.col));
  if (UI.selected !== null && !ids.has(UI.selected)) UI.selected = null;
  if (UI.exchange) UI.exchange = new Set([...UI.exchange].filter((id) => ids.has(id)));
  if (S.hand && S.hand.over) {
    UI.tent = [];
    UI.exchange = null;
  }
}

function cellLetter(i) {
  if (!S.hand) return null;
  const ch = S.hand.board[Math.floor(i / SIZE)][i % SIZE];
  return ch === "." ? null : ch;
}

function tentAt(i) {
  return UI.tent.find((p) => p.row * SIZE + p.col === i) || null;
}

function rackItems() {
  const placed = new Set(UI.tent.map((p) => p.id));
  return UI.order.filter((item) => !placed.has(item.id));
}

function place(id, i, letter) {
  const item = UI.order.find((x) => x.id === id);
  if (!item || UI.exchange || cellLetter(i) || tentAt(i) || (S.hand && S.hand.over)) return false;
  if (item.tile === JOKER && !letter) {
    openJoker(id, i);
    return false;
  }
  UI.tent = UI.tent.filter((p) => p.id !== id);
  UI.tent.push({ id, row: Math.floor(i / SIZE), col: i % SIZE, letter: item.tile === JOKER ? letter : item.tile, joker: item.tile === JOKER });
  UI.selected = null;
  changed();
  return true;
}

function takeBack(id) {
  UI.tent = UI.tent.filter((p) => p.id !== id);
  changed();
}

function recallAll() {
  if (!UI.tent.length) return;
  UI.tent = [];
  changed();
}

function changed() {
  render();
  schedulePreview();
}

function shuffle() {
  const a = UI.order;
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  render();
  toast(T.shuffled);
}

// --- the preview (W-M7) -----------------------------------------------------------------------

let previewTimer = null;

function schedulePreview() {
  clearTimeout(previewTimer);
  UI.previewSeq += 1; // an answer for older tiles is stale from now on
  root.dataset.preview = UI.tent.length ? "pending" : "";
  if (!UI.tent.length) return runPreview(); // nothing to ask: clear it at once
  previewTimer = setTimeout(runPreview, 120);
}

function placements() {
  return UI.tent.map((p) => ({ row: p.row, col: p.col, letter: p.letter, joker: p.joker }));
}

function runPreview() {
  const box = $(".kk-preview");
  const seq = ++UI.previewSeq;
  if (!UI.tent.length || !S.hand || S.hand.over) {
    root.dataset.preview = "";
    box.className = "kk-preview";
    box.textContent = S.hand && !S.hand.over ? T.preview_none : "";
    return;
  }
  root.dataset.preview = "pending";
  const key = JSON.stringify(placements());
  postJson(root.dataset.previewUrl, { placements: placements() })
    .then((res) => {
      if (seq !== UI.previewSeq || key !== JSON.stringify(placements())) return;
      if (res.type === "error") showPreviewError(res); // e.g. too many previews (issue 27)
      else showPreview(res);
    })
    .catch(() => {
      if (seq === UI.previewSeq) root.dataset.preview = "";
    });
}

function showPreviewError(res) {
  const box = $(".kk-preview");
  root.dataset.preview = "error";
  box.className = "kk-preview";
  box.innerHTML = `<p>${esc(errorText(res.code, res.message))}</p>`;
}

function showPreview(res) {
  const box = $(".kk-preview");
  if (res.ok) {
    root.dataset.preview = "valid";
    box.className = "kk-preview is-valid";
    const words = res.words.map((w) => `<li><span class="kk-word">${esc(w.word)}</span> <span class="kk-pts">${esc(fmt(T.point_short, { n: w.points }))}</span></li>`).join("");
    let html = `<p class="kk-verdict"><span aria-hidden="true">✓</span> ${esc(T.preview_valid)}</p><ul class="kk-words">${words}</ul>`;
    if (res.bingo) html += `<p>${esc(T.preview_bingo)}</p>`;
    html += `<p class="kk-total">${esc(fmt(T.preview_total, { n: res.points }))}</p>`;
    const taxes = res.shares.map((n, s) => (s !== S.me && n > 0 ? `<li>${esc(fmt(T.preview_tax, { name: seatName(s), n }))}</li>` : "")).join("");
    if (taxes) html += `<ul class="kk-tax">${taxes}</ul><p>${esc(fmt(T.preview_keep, { n: res.shares[S.me] }))}</p>`;
    box.innerHTML = html;
  } else {
    root.dataset.preview = "invalid";
    box.className = "kk-preview is-invalid";
    const why = res.error === "invalid_word" && res.invalid ? fmt(T.preview_invalid_words, { words: res.invalid.join(", ") }) : errorText(res.error);
    box.innerHTML = `<p class="kk-verdict"><span aria-hidden="true">✗</span> ${esc(T.preview_invalid)}</p><p>${esc(why)}</p>`;
  }
}

// --- rendering --------------------------------------------------------------------------------

const boardEl = $(".kk-board");
const cells = [];

function buildBoard() {
  for (let r = 0; r < SIZE; r++) {
    const row = document.createElement("div");
    row.className = "kk-row";
    row.setAttribute("role", "row");
    for (let c = 0; c < SIZE; c++) {
      const el = document.createElement("div");
      el.className = "kk-cell";
      el.setAttribute("role", "gridcell");
      el.dataset.i = String(r * SIZE + c);
      el.dataset.row = String(r);
      el.dataset.col = String(c);
      el.tabIndex = r * SIZE + c === UI.focus ? 0 : -1;
      row.append(el);
      cells.push(el);
    }
    boardEl.append(row);
  }
}

function render() {
  const h = S.hand;
  root.dataset.version = String(S.version);
  root.dataset.status = h ? (h.over ? "finished" : "running") : "";
  root.dataset.myTurn = myTurn() ? "1" : "0";
  if (!h) return;
  renderBoard();
  renderScores();
  renderRack();
  renderButtons();
  renderStatus();
  renderClock();
  renderLog();
  renderOverlay();
  $(".kk-bag-count").textContent = String(h.bag_count);
  if ($(".kk-bag-dialog").open) renderBag();
}

function zoneAt(i) {
  const ch = S.hand.zones[Math.floor(i / SIZE)][i % SIZE];
  return ch === "." ? -1 : Number(ch);
}

function renderBoard() {
  const h = S.hand;
  if (!h) return;
  const homes = {};
  h.homes.forEach(([r, c], s) => (homes[r * SIZE + c] = s));
  const lastCells = new Set(h.last && h.last.type === "play" ? h.last.cells : []);
  for (let i = 0; i < SIZE * SIZE; i++) {
    const el = cells[i];
    const r = Math.floor(i / SIZE);
    const c = i % SIZE;
    const kind = h.layout[r][c];
    const z = zoneAt(i);
    const ch = cellLetter(i);
    const t = tentAt(i);
    const cls = ["kk-cell"];
    const label = [fmt(T.cell, { row: r + 1, col: c + 1 })];
    if (kind === "2") cls.push("x2");
    if (kind === "3") cls.push("x3");
    if (z >= 0) {
      cls.push(`zone z${z}`);
      label.push(fmt(T.zone_of, { name: seatName(z) }));
    }
    if (i in homes) {
      cls.push("home");
      label.push(fmt(T.cell_home, { name: seatName(homes[i]) }));
    }
    if (lastCells.has(i)) cls.push("last");
    if (i === UI.focus) cls.push("focus");
    let html = "";
    if (ch) {
      const joker = ch !== upperTr(ch) || !(ch in POINTS);
      const letter = joker ? upperTr(ch) : ch;
      html = tileHtml(letter, joker, "placed");
      label.push(joker ? fmt(T.joker_as, { letter }) : fmt(T.tile, { letter, n: POINTS[letter] }));
    } else if (t) {
      html = tileHtml(t.letter, t.joker, "tent", t.id);
      cls.push("has-tent");
      label.push(fmt(T.cell_tentative, { letter: t.letter }));
    } else {
      if (kind === "2") label.push(T.cell_x2);
      if (kind === "3") label.push(T.cell_x3);
      if (!(kind === "2" || kind === "3") || !label.length) label.push(T.cell_empty);
      if (i in homes) html = `<span class="kk-mark" aria-hidden="true">⌂<small>${T.seat_marks[homes[i]]}</small></span>`;
      else if (kind === "2") html = `<span class="kk-mark" aria-hidden="true">×2</span>`;
      else if (kind === "3") html = `<span class="kk-mark" aria-hidden="true">×3</span>`;
      else if (z >= 0) html = `<span class="kk-zmark" aria-hidden="true">${T.seat_marks[z]}</span>`;
    }
    const className = cls.join(" ");
    if (el.className !== className) el.className = className;
    if (el.dataset.html !== html) {
      el.innerHTML = html;
      el.dataset.html = html;
    }
    el.setAttribute("aria-label", label.join(", "));
    // W-Z8: each zone outlined with a thick line in its owner's colour
    if (z >= 0) {
      const side = (rr, cc) => rr < 0 || cc < 0 || rr >= SIZE || cc >= SIZE || zoneAt(rr * SIZE + cc) !== z;
      const w = "var(--zw)";
      const col = `var(--seat${z})`;
      const parts = [];
      if (side(r - 1, c)) parts.push(`inset 0 ${w} 0 0 ${col}`);
      if (side(r + 1, c)) parts.push(`inset 0 calc(-1 * ${w}) 0 0 ${col}`);
      if (side(r, c - 1)) parts.push(`inset ${w} 0 0 0 ${col}`);
      if (side(r, c + 1)) parts.push(`inset calc(-1 * ${w}) 0 0 0 ${col}`);
      el.style.boxShadow = parts.join(", ");
    } else {
      el.style.boxShadow = "";
    }
  }
}

function tileHtml(letter, joker, kind, id) {
  const shown = joker ? lowerTr(letter) : letter;
  const pts = joker ? 0 : POINTS[letter];
  return `<span class="kk-tile ${kind}${joker ? " joker" : ""}"${id ? ` data-id="${id}"` : ""}>` +
    `<span class="kk-letter">${esc(shown)}</span><span class="kk-val">${pts}</span>${joker ? '<span class="kk-star" aria-hidden="true">★</span>' : ""}</span>`;
}

function renderScores() {
  const h = S.hand;
  const list = $(".kk-scores");
  list.innerHTML = h.scores
    .map((score, s) => {
      const turn = h.turn === s;
      const out = h.forfeited[s] ? ` <em>(${esc(T.forfeited)})</em>` : "";
      // issue 29: the AI to move "thinks" until its word arrives as a frame of its own
      const thinking = turn && isAi(s) ? ` <span class="kk-thinking" data-testid="kk-thinking"><span class="kk-dots" aria-hidden="true"><i></i><i></i><i></i></span> ${esc(T.thinking)}</span>` : "";
      return `<li class="kk-score seat${s}${turn ? " is-turn" : ""}" data-seat="${s}" aria-label="${esc(fmt(T.score_of, { name: seatName(s), n: score }))}${turn ? ", " + esc(T.to_move) : ""}">` +
        `<span class="kk-swatch" aria-hidden="true">${T.seat_marks[s]}</span>` +
        `<span class="kk-name">${esc(seatName(s))}${out}${thinking}</span>` +
        `<span class="kk-count">${esc(fmt(T.tiles_in_rack, { n: h.rack_counts[s] }))}</span>` +
        `<strong class="kk-points" data-score="${score}">${score}</strong></li>`;
    })
    .join("");
}

function renderRack() {
  const rack = $(".kk-rack");
  const items = rackItems();
  const html = items
    .map((item) => {
      const joker = item.tile === JOKER;
      const sel = UI.exchange ? UI.exchange.has(item.id) : UI.selected === item.id;
      const label = joker ? T.joker : fmt(T.tile, { letter: item.tile, n: POINTS[item.tile] });
      return `<button type="button" class="kk-rtile${joker ? " joker" : ""}${sel ? " is-selected" : ""}" data-id="${item.id}" data-tile="${esc(item.tile)}" aria-pressed="${sel}" aria-label="${esc(label)}">` +
        `<span class="kk-letter">${joker ? "★" : esc(item.tile)}</span><span class="kk-val">${POINTS[item.tile]}</span></button>`;
    })
    .join("");
  if (rack.dataset.html !== html) {
    rack.innerHTML = html;
    rack.dataset.html = html;
  }
}

function renderButtons() {
  const h = S.hand;
  const mine = myTurn() && !busy();
  $("[data-action=play]").disabled = !(mine && UI.tent.length);
  $("[data-action=recall]").disabled = !UI.tent.length;
  $("[data-action=pass]").disabled = !mine;
  // W-M9: no exchange when the bag is empty; at most as many tiles as the bag holds
  $("[data-action=exchange]").disabled = !(mine && h.max_exchange > 0);
  $("[data-action=shuffle]").disabled = !!h.over;
  const forfeit = $("[data-action=forfeit]");
  if (forfeit) forfeit.hidden = !!h.over || !!(h.forfeited && S.me !== null && h.forfeited[S.me]);
  const bar = $(".kk-exchange-bar");
  bar.hidden = !UI.exchange;
  $(".kk-buttons").hidden = !!UI.exchange;
  if (UI.exchange) {
    const n = UI.exchange.size;
    $(".kk-exchange-help").textContent = fmt(T.exchange_pick, { n: h.max_exchange });
    const ok = $("[data-action=exchange-confirm]");
    ok.textContent = fmt(T.exchange_count, { n });
    ok.disabled = !(mine && n > 0 && n <= h.max_exchange);
  }
}

// --- W-X3: the move deadline above the board (days, hours, minutes left; each minute) ---------

function leftText(ms) {
  const minutes = Math.max(0, Math.ceil(ms / 60000));
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  const parts = d ? [fmt(T.unit_d, { n: d }), h ? fmt(T.unit_h, { n: h }) : ""] : h ? [fmt(T.unit_h, { n: h }), m ? fmt(T.unit_m, { n: m }) : ""] : [fmt(T.unit_m, { n: m })];
  return parts.filter(Boolean).join(" ");
}

function renderClock() {
  const clock = $(".kk-clock");
  const h = S.hand;
  const deadline = S.match && S.match.deadline;
  if (!h || h.over || h.turn === null || !deadline) {
    clock.hidden = true;
    return;
  }
  // the server's clock, not the browser's: the offset measured when the frame came
  const left = deadline - (Date.now() + (S.clockOffset || 0));
  const text = leftText(left);
  const mine = myTurn();
  clock.textContent = mine ? fmt(T.clock_mine, { left: text }) : fmt(T.clock_theirs, { name: seatName(h.turn), left: text });
  clock.dataset.leftMs = String(Math.max(0, Math.round(left)));
  clock.classList.toggle("is-mine", mine);
  clock.classList.toggle("is-low", left < 6 * 3600 * 1000);
  clock.hidden = false;
}

setInterval(renderClock, 20000); // the minutes change (W-X3)

function renderStatus() {
  const h = S.hand;
  if (h.over) setStatus(T.game_over);
  else if (myTurn()) setStatus(h.first_done[S.me] ? T.your_turn : `${T.your_turn} ${T.your_first}`);
  else setStatus(fmt(T.their_turn, { name: seatName(h.turn) }));
}

function logLine(ev) {
  const name = seatName(ev.seat);
  if (ev.type === "play") {
    const words = (ev.words || []).map((w) => (typeof w === "string" ? w : w.word)).join(", ");
    let text = fmt(T.log_play, { name, words, n: ev.points });
    (ev.shares || []).forEach((n, s) => {
      if (s !== ev.seat && n > 0) text += ` · ${fmt(T.log_tax, { name: seatName(s), n })}`;
    });
    if (ev.finish_bonus) text += ` · ${fmt(T.log_finish_bonus, { n: ev.finish_bonus })}`;
    return text;
  }
  if (ev.type === "exchange") return fmt(T.log_exchange, { name, n: ev.count });
  if (ev.type === "pass") return fmt(T.log_pass, { name });
  if (ev.type === "forfeit") return fmt(T.log_forfeit, { name });
  return "";
}

function renderLog() {
  const html = UI.log.slice().reverse().map((e) => `<li>${esc(logLine(e.ev))}</li>`).join("");
  const list = $(".kk-log");
  if (list.dataset.html !== html) {
    list.innerHTML = html;
    list.dataset.html = html;
  }
}

function renderBag() {
  const h = S.hand;
  $(".kk-bag-text").textContent = fmt(T.bag_count, { n: h.bag_count });
  const total = Object.values(h.unseen).reduce((a, b) => a + b, 0);
  $(".kk-unseen-title").textContent = fmt(T.unseen_title, { n: total });
  $(".kk-unseen").innerHTML = [...LETTERS, JOKER]
    .filter((t) => h.unseen[t])
    .map((t) => `<li data-tile="${esc(t)}"><span class="kk-mini">${t === JOKER ? "★" : esc(t)}</span> ×${h.unseen[t]}</li>`)
    .join("");
}

function renderOverlay() {
  const h = S.hand;
  const overlay = $(".kk-overlay");
  if (!h.over || UI.overlayClosed) {
    overlay.hidden = true;
    return;
  }
  overlay.hidden = false;
  const winners = h.ranks ? h.ranks.map((p, s) => (p === 1 ? s : -1)).filter((s) => s >= 0) : [];
  let title = T.game_over;
  if (S.me !== null && winners.includes(S.me)) title = winners.length > 1 ? T.draw : T.you_won;
  else if (S.me !== null) title = T.you_lost;
  $("#kk-overlay-title").textContent = title;
  const ends = { out: fmt(T.end_out, { name: h.last ? seatName(h.last.seat) : "" }), passes: T.end_passes, forfeit: T.end_forfeit };
  $(".kk-overlay-sub").textContent = `${ends[h.end] || ""} ${fmt(T.winner, { names: winners.map(seatName).join(", ") })}`;
  const order = h.scores.map((_, s) => s).sort((a, b) => (h.ranks[a] ?? 99) - (h.ranks[b] ?? 99) || a - b);
  const rows = order
    .map((s) => {
      const left = (h.racks && h.racks[s]) || [];
      const tiles = left.map((t) => (t === JOKER ? "★" : t)).join(" ");
      const minus = h.deducted && h.deducted[s] ? ` (−${h.deducted[s]})` : "";
      return `<tr data-seat="${s}"><td>${h.ranks[s] ?? "–"}</td><th scope="row"><span aria-hidden="true">${T.seat_marks[s]}</span> ${esc(seatName(s))}</th>` +
        `<td>${esc(tiles)}${esc(minus)}</td><td class="kk-final" data-score="${h.scores[s]}">${h.scores[s]}</td></tr>`;
    })
    .join("");
  const fair = h.fair && h.fair.salt ? `<p class="kk-fair"><a data-testid="kk-verify" href="${esc(`${T.verify_url}?${new URLSearchParams({ commitment: h.fair.commitment, salt: h.fair.salt, order: h.fair.order.join(",") })}`)}">${esc(T.verify_bag)}</a></p>` : "";
  $(".kk-result").innerHTML = kligLine() + fair + `<table class="kk-result-table"><thead><tr><th>${esc(T.col_place)}</th><th>${esc(T.col_player)}</th><th>${esc(T.col_left)}</th><th>${esc(T.col_score)}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

// The end card's k-lig line for the logged-in player (W-L1…W-L4): the game's points from
// the view; once recorded (a page opened after the end), the rewards, total and seal.
function kligLine() {
  const h = S.hand;
  if (S.me === null || S.me === undefined || !h.klig || (S.match && S.match.kind === "guest")) return "";
  const after = T.klig_after;
  const n = after ? after.points : h.klig[S.me];
  const parts = [fmt(T.klig_change, { n: n > 0 ? `+${n}` : String(n).replace("-", "−") })];
  if (after) {
    (after.rewards || []).forEach(([rank, bonus]) => parts.push(fmt(T.klig_reward, { rank, n: bonus })));
    parts.push(fmt(T.klig_total, { n: after.total, seal: after.seal }));
  }
  return `<p class="kk-klig" data-testid="kk-klig" data-points="${n}">${parts.map(esc).join(" · ")} · <a href="${esc(T.klig_card_url)}">${esc(T.klig_card)}</a></p>`;
}

// --- the joker's letter (W-T3) ----------------------------------------------------------------

function buildJokerPicker() {
  $(".kk-letters").innerHTML = LETTERS.map((l) => `<button type="button" class="kk-pick" data-letter="${esc(l)}">${esc(l)}</button>`).join("");
}

function openJoker(id, i) {
  UI.jokerAt = { id, i };
  const dialog = $(".kk-joker-dialog");
  if (!dialog.open) dialog.showModal();
  const first = $(".kk-pick", dialog);
  if (first) first.focus();
}

// --- pointer: drag from the rack (or a tentative tile) to the board; tap, then tap --------

const drag = { item: null, from: null, x: 0, y: 0, ghost: null, moved: false, pointer: null };

function startDrag(event, id, from) {
  if (event.button !== undefined && event.button !== 0) return;
  drag.item = id;
  drag.from = from;
  drag.x = event.clientX;
  drag.y = event.clientY;
  drag.moved = false;
  drag.pointer = event.pointerId;
  drag.source = event.currentTarget || event.target;
}

function moveDrag(event) {
  if (drag.item === null || event.pointerId !== drag.pointer) return;
  if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
  if (!drag.moved) {
    drag.moved = true;
    const item = UI.order.find((x) => x.id === drag.item);
    if (!item) return;
    const ghost = document.createElement("div");
    ghost.className = "kk-ghost";
    ghost.innerHTML = `<span class="kk-letter">${item.tile === JOKER ? "★" : esc(item.tile)}</span>`;
    document.body.append(ghost);
    drag.ghost = ghost;
    root.classList.add("is-dragging");
  }
  if (drag.ghost) drag.ghost.style.transform = `translate(${event.clientX}px, ${event.clientY}px)`;
  event.preventDefault();
}

function endDrag(event) {
  if (drag.item === null || event.pointerId !== drag.pointer) return;
  const id = drag.item;
  const moved = drag.moved;
  const from = drag.from;
  drag.item = null;
  if (drag.ghost) drag.ghost.remove();
  drag.ghost = null;
  root.classList.remove("is-dragging");
  if (!moved) return tap(id, from);
  const target = document.elementFromPoint(event.clientX, event.clientY);
  const cell = target && target.closest(".kk-cell");
  if (cell) {
    const i = Number(cell.dataset.i);
    if (from === "board") {
      const t = UI.tent.find((p) => p.id === id);
      if (t && !cellLetter(i) && !tentAt(i)) {
        const letter = t.letter;
        UI.tent = UI.tent.filter((p) => p.id !== id);
        place(id, i, t.joker ? letter : undefined);
      }
    } else {
      place(id, i);
    }
    return;
  }
  const rackTarget = target && target.closest(".kk-rack");
  if (rackTarget) {
    if (from === "board") takeBack(id);
    const over = target.closest(".kk-rtile");
    if (over && Number(over.dataset.id) !== id) {
      // reorder: put the dragged tile before the one it was dropped on
      const item = UI.order.find((x) => x.id === id);
      UI.order = UI.order.filter((x) => x.id !== id);
      UI.order.splice(UI.order.findIndex((x) => x.id === Number(over.dataset.id)), 0, item);
      render();
    }
  }
}

function tap(id, from) {
  if (from === "board") return takeBack(id);
  if (UI.exchange) {
    if (UI.exchange.has(id)) UI.exchange.delete(id);
    else if (UI.exchange.size < S.hand.max_exchange) UI.exchange.add(id);
    return render();
  }
  UI.selected = UI.selected === id ? null : id;
  render();
  if (UI.selected !== null) {
    const item = UI.order.find((x) => x.id === id);
    setStatus(fmt(T.selected, { letter: item.tile === JOKER ? T.joker : item.tile }));
  }
}

$(".kk-rack").addEventListener("pointerdown", (event) => {
  const el = event.target.closest(".kk-rtile");
  if (el) startDrag(event, Number(el.dataset.id), "rack");
});
boardEl.addEventListener("pointerdown", (event) => {
  const tile = event.target.closest(".kk-tile.tent");
  if (tile) {
    startDrag(event, Number(tile.dataset.id), "board");
    return;
  }
  const cell = event.target.closest(".kk-cell");
  if (cell && UI.selected !== null) {
    event.preventDefault();
    place(UI.selected, Number(cell.dataset.i));
  }
  if (cell) setFocus(Number(cell.dataset.i), false);
});
document.addEventListener("pointermove", moveDrag, { passive: false });
document.addEventListener("pointerup", endDrag);
document.addEventListener("pointercancel", () => {
  if (drag.ghost) drag.ghost.remove();
  drag.ghost = null;
  drag.item = null;
  root.classList.remove("is-dragging");
});
// a keyboard "click" on a rack tile (Enter/Space) selects it
$(".kk-rack").addEventListener("click", (event) => {
  const el = event.target.closest(".kk-rtile");
  if (el && event.detail === 0) tap(Number(el.dataset.id), "rack");
});

// --- keyboard on the board --------------------------------------------------------------------

function setFocus(i, move = true) {
  const old = cells[UI.focus];
  if (old) old.tabIndex = -1;
  UI.focus = Math.max(0, Math.min(SIZE * SIZE - 1, i));
  cells[UI.focus].tabIndex = 0;
  if (move) cells[UI.focus].focus();
  renderBoard();
}

function advance() {
  const r = Math.floor(UI.focus / SIZE);
  const c = UI.focus % SIZE;
  if (UI.dir === "row" && c < SIZE - 1) setFocus(UI.focus + 1);
  if (UI.dir === "col" && r < SIZE - 1) setFocus(UI.focus + SIZE);
}

boardEl.addEventListener("keydown", (event) => {
  const i = UI.focus;
  const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -SIZE, ArrowDown: SIZE };
  if (event.key in moves) {
    event.preventDefault();
    const c = i % SIZE;
    if ((event.key === "ArrowLeft" && c === 0) || (event.key === "ArrowRight" && c === SIZE - 1)) return;
    UI.dir = event.key === "ArrowUp" || event.key === "ArrowDown" ? "col" : "row";
    setFocus(i + moves[event.key]);
    return;
  }
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    const t = tentAt(i);
    if (t) takeBack(t.id);
    else if (UI.selected !== null) place(UI.selected, i);
    return;
  }
  if (event.key === "Backspace" || event.key === "Delete") {
    event.preventDefault();
    let t = tentAt(i);
    if (!t && event.key === "Backspace") {
      const back = UI.dir === "row" ? i - 1 : i - SIZE;
      if (back >= 0) {
        t = tentAt(back);
        if (t) setFocus(back);
      }
    }
    if (t) takeBack(t.id);
    return;
  }
  if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
    // Type a letter: a rack tile of that letter, else a joker standing for it (W-T3)
    const letter = upperTr(event.key);
    if (!LETTERS.includes(letter) || cellLetter(i) || tentAt(i)) return;
    event.preventDefault();
    const items = rackItems();
    const item = items.find((x) => x.tile === letter) || items.find((x) => x.tile === JOKER);
    if (item && place(item.id, i, item.tile === JOKER ? letter : undefined)) advance();
  }
});

// --- buttons and dialogs ----------------------------------------------------------------------

root.addEventListener("click", (event) => {
  const button = event.target.closest("[data-action]");
  if (!button || button.disabled) return;
  const kind = button.dataset.action;
  if (kind === "play") {
    if (UI.tent.length) act({ type: "play", placements: placements() });
  } else if (kind === "recall") {
    recallAll();
    toast(T.taken_back);
  } else if (kind === "shuffle") shuffle();
  else if (kind === "pass") act({ type: "pass" });
  else if (kind === "exchange") {
    recallAll();
    UI.exchange = new Set();
    UI.selected = null;
    render();
  } else if (kind === "exchange-cancel") {
    UI.exchange = null;
    render();
  } else if (kind === "exchange-confirm") {
    const letters = UI.order.filter((x) => UI.exchange.has(x.id)).map((x) => x.tile);
    UI.exchange = null;
    act({ type: "exchange", letters });
  } else if (kind === "bag") {
    renderBag();
    $(".kk-bag-dialog").showModal();
  } else if (kind === "forfeit") {
    $(".kk-forfeit-dialog").showModal(); // W-X5: Teslim ol, confirmed
  } else if (kind === "new-game") {
    const dialog = $(".kk-new-dialog");
    if (dialog && !dialog.open) dialog.showModal();
  } else if (kind === "close-dialog") {
    button.closest("dialog").close();
  } else if (kind === "close-overlay") {
    UI.overlayClosed = true;
    render();
  } else if (kind === "joker-cancel") {
    UI.jokerAt = null;
    $(".kk-joker-dialog").close();
  }
});

$(".kk-letters").addEventListener("click", (event) => {
  const b = event.target.closest(".kk-pick");
  if (!b || !UI.jokerAt) return;
  const { id, i } = UI.jokerAt;
  UI.jokerAt = null;
  $(".kk-joker-dialog").close();
  place(id, i, b.dataset.letter);
});

// --- start ------------------------------------------------------------------------------------

buildBoard();
buildJokerPicker();
const newDialog = $(".kk-new-dialog");
if (newDialog && newDialog.dataset.open === "1") newDialog.showModal();
if (transport) transport.start();
