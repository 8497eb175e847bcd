// KDVli Okey — the game table (kdvli.md; vanilla JS module, no build step).
//
// The server is the authority: after every change it sends this seat a "state" frame
// {type, version, layout, match, me, hand} (game/frames.py; the hand is
// game/engine/kdvli/views.py) and this module renders it.  Moves go back as
// {"type": "action", "action": {...}, "version": v}; the private rack-layout actions
// (move, separator, arrange) carry no version and come back as a frame of the same
// version with a higher "layout".  A version gap, a reconnect or a silent socket where a
// bot or a timer should have moved asks for a snapshot ({"type": "sync"}).  Tiles and
// the rack are KÜT's (static/js/okey/tiles.js, static/css/table.css); every word comes
// from the translated strings in #kv-strings.

import { CELLS, ROW, esc, fmt, localMove, plainName as plain, tileHTML as okeyTile, tileName as okeyName } from "../okey/tiles.js";

const root = document.getElementById("kt");
const T = JSON.parse(document.getElementById("kv-strings").textContent);
const POS = ["south", "east", "north", "west"]; // me, me+1 (on my right), me+2, me+3
const PILE = ["se", "ne", "nw", "sw"]; // each player's discards lie on their right
const LAYOUT = new Set(["move", "separator", "arrange"]);
const PERMANENT_CLOSE = new Set([4001, 4003, 4004, 4008]);
const DRAG_THRESHOLD = 6;

const matchId = Number(root.dataset.match);
const board = root.querySelector(".kt-board");
const $ = (sel, el = root) => el.querySelector(sel);
const $$ = (sel, el = root) => Array.from(el.querySelectorAll(sel));

const S = { turnSeconds: 0, version: -1, layout: 0, match: null, hand: null, me: null, offset: 0, lastFrameAt: 0, lastSync: 0, picked: null, focus: 0, drag: null, deferred: false, myPoints: null, settingsOpen: false };
const net = { ws: null, open: false, everOpened: false, attempts: 0, stopped: false, inflight: null, retryTimer: null };

// --- helpers -------------------------------------------------------------------------------

const tileHTML = (face) => okeyTile(face, S.hand ? S.hand.okey : null);
const tileName = (face) => okeyName(T, face, S.hand ? S.hand.okey : null);
const plainName = (face) => plain(T, face);
const serverNow = () => Date.now() + S.offset;
const rel = (seat) => (seat - (S.me ?? 0) + 4) % 4;
const seatAt = (offset) => ((S.me ?? 0) + offset) % 4;
const can = (key) => Boolean(S.hand && S.hand.can && S.hand.can[key]);
const rackCells = () => (S.hand && S.hand.rack ? S.hand.rack.cells : []);
const rackHas = (id) => rackCells().some((c) => c && c.id === id);
const myTurn = () => S.me !== null && S.hand && !S.hand.over && S.hand.turn === S.me;
const playing = () => S.match && S.match.status === "playing";

function seatName(seat) {
  const info = S.match && S.match.seats[seat];
  if (!info) return "";
  if (info.bot) return fmt(T.bot_name, { n: seat + 1, level: T.levels[info.bot] || info.bot });
  return info.name;
}

function botControlled(seat) {
  const info = S.match && S.match.seats[seat];
  return Boolean(info && (info.bot || info.away || info.left || info.dropped || info.user_id === null));
}

// --- the socket ----------------------------------------------------------------------------

function sendRaw(message) {
  if (net.ws && net.open) net.ws.send(JSON.stringify(message));
}

function connect() {
  if (net.stopped) return;
  clearTimeout(net.retryTimer);
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/match/${matchId}/`);
  net.ws = ws;
  ws.addEventListener("open", () => {
    if (net.ws !== ws) return;
    net.open = true;
    net.attempts = 0;
    if (net.everOpened) sendRaw({ type: "sync" }); // reconnected: the latest state
    net.everOpened = true;
    setStatus();
  });
  ws.addEventListener("message", (event) => {
    if (net.ws === ws) onMessage(event.data);
  });
  ws.addEventListener("close", (event) => {
    if (net.ws !== ws) return;
    net.ws = null;
    net.open = false;
    net.inflight = null; // applied or not: never sent twice
    if (PERMANENT_CLOSE.has(event.code) || event.code === 4009) {
      net.stopped = true;
      setStatus(event.code === 4008 ? T.kicked : event.code === 4009 ? T.replaced_status : T.cannot_join);
      return;
    }
    setStatus(T.reconnecting);
    const delay = Math.min(15000, 500 * 2 ** net.attempts) * (0.75 + Math.random() * 0.5);
    net.attempts += 1;
    net.retryTimer = setTimeout(connect, delay);
  });
}

window.addEventListener("online", () => net.ws || connect());
document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && !net.ws && connect());
window.addEventListener("pagehide", () => {
  net.stopped = true;
  if (net.ws) net.ws.close(1000);
});
setInterval(() => sendRaw({ type: "ping" }), 25000);

function requestSync(minGap = 2000) {
  if (!net.open || Date.now() - S.lastSync < minGap) return;
  S.lastSync = Date.now();
  sendRaw({ type: "sync" });
}

function onMessage(data) {
  let msg;
  try {
    msg = JSON.parse(data);
  } catch {
    return;
  }
  if (msg.type === "state") onState(msg);
  else if (msg.type === "error") onError(msg);
}

function onState(msg) {
  if (typeof msg.version !== "number" || msg.version < S.version) return; // an older frame
  const layout = typeof msg.layout === "number" ? msg.layout : 0;
  if (msg.version === S.version && layout < S.layout) return; // an older layout frame
  const gap = S.version >= 0 && msg.version > S.version + 1;
  const accepted = net.inflight && (msg.version > net.inflight.at || layout > S.layout);
  S.version = msg.version;
  S.layout = layout;
  S.match = msg.match;
  S.hand = msg.hand;
  S.me = msg.me;
  S.lastFrameAt = Date.now();
  if (msg.match && typeof msg.match.server_time === "number") S.offset = msg.match.server_time - Date.now();
  if (S.picked && !rackHas(S.picked)) S.picked = null;
  // V-S5: your points as they stand after your discard (not mid-turn, with 15 tiles)
  if (S.hand && S.me !== null && (!myTurn() || S.hand.over)) S.myPoints = S.hand.points;
  if (gap) requestSync();
  // The hook for the page's other scripts (templates/game/_extras.html): every accepted frame.
  document.dispatchEvent(new CustomEvent("kut:frame", { detail: msg }));
  if (accepted) finishInflight();
  if (S.drag && S.drag.started) S.deferred = true;
  else render();
}

function onError(msg) {
  const code = msg.code || "";
  finishInflight();
  root.dataset.errors = String(Number(root.dataset.errors || 0) + 1);
  root.dataset.lastError = code;
  if (code === "replaced") return;
  if (code === "stale_version") return; // the snapshot that follows shows the table as it is
  toast((T.errors && T.errors[code]) || msg.message || code, "error");
}

function act(action) {
  if (S.me === null || !net.open) return;
  const versioned = !LAYOUT.has(action.type);
  if (versioned) {
    if (net.inflight) return; // one turn move at a time: the next frame decides the next
    net.inflight = { at: S.version, timer: setTimeout(finishInflight, 5000) };
    sendRaw({ type: "action", action, version: S.version });
  } else {
    sendRaw({ type: "action", action }); // private: no shared version (issue 16)
  }
}

function finishInflight() {
  if (net.inflight) clearTimeout(net.inflight.timer);
  net.inflight = null;
}

// --- moves -----------------------------------------------------------------------------------

function moveTile(id, to) {
  if (!S.hand || !S.hand.rack || S.hand.over) return;
  if (localMove(S.hand.rack.cells, id, to)) {
    S.focus = to;
    render();
    act({ type: "move", tile_id: id, to });
  }
}

function toggleSeparator(at) {
  if (!S.hand || !S.hand.rack || S.hand.over || at % ROW === ROW - 1 || at < 0 || at >= CELLS - 1) return;
  const seps = S.hand.rack.separators;
  const i = seps.indexOf(at);
  if (i >= 0) seps.splice(i, 1);
  else seps.push(at);
  render();
  act({ type: "separator", at });
}

function discard(id) {
  if (!can("discard") || !rackHas(id)) return;
  S.picked = null;
  act({ type: "discard", tile_id: id });
}

// V-F1, V-F3: the finishing tile on the indicator; the rest of the rack's segments count.
function finish(id) {
  if (!can("finish")) return;
  if (!id || !rackHas(id)) {
    toast(T.finish_pick, "info");
    return;
  }
  S.picked = null;
  act({ type: "finish", tile_id: id });
}

function arrange(how) {
  if (!S.hand || S.hand.over || S.me === null) return;
  S.picked = null;
  act({ type: "arrange", how });
}

// --- rendering -------------------------------------------------------------------------------

function setStatus(text) {
  const el = $(".kt-status");
  if (text !== undefined) {
    el.textContent = text;
    el.dataset.sticky = text ? "1" : "";
    return;
  }
  el.dataset.sticky = "";
  el.textContent = statusText();
}

function statusText() {
  const h = S.hand;
  if (!h || !playing() || h.over) return "";
  if (S.picked && rackHas(S.picked)) {
    const cell = rackCells().find((c) => c && c.id === S.picked);
    return fmt(T.selected, { tile: tileName(cell.face) });
  }
  if (myTurn()) {
    if (can("draw") || can("take")) return T.your_turn_take;
    if (h.starter === S.me && h.seats[S.me].turns === 0) return T.your_turn_first;
    return T.your_turn_play;
  }
  return fmt(T.turn_of, { name: seatName(h.turn) });
}

function phase() {
  if (!myTurn()) return "wait";
  if (can("draw") || can("take")) return "take";
  return can("discard") ? "play" : "wait";
}

function render() {
  const h = S.hand;
  const m = S.match;
  root.dataset.version = String(S.version);
  root.dataset.layout = String(S.layout);
  root.dataset.status = m ? m.status : "";
  root.dataset.hand = h ? String(h.hand_no) : "";
  root.dataset.deal = h && h.fair ? String(h.fair.commitment || "") : "";
  root.dataset.phase = phase();
  root.dataset.points = S.myPoints === null || S.myPoints === undefined ? "" : String(S.myPoints);
  root.classList.toggle("is-ready", Boolean(h));
  root.classList.toggle("is-watcher", S.me === null);
  root.classList.toggle("is-my-turn", Boolean(myTurn()));
  board.setAttribute("aria-busy", h ? "false" : "true");
  const focused = document.activeElement && document.activeElement.classList.contains("kt-cell") ? Number(document.activeElement.dataset.i) : null;
  if (m && h) {
    renderBar();
    renderSeats();
    renderPiles();
    renderCenter();
    renderSettings();
    renderRack();
    renderButtons();
  }
  renderOverlay();
  const mine = m && S.me !== null ? m.seats[S.me] : null;
  $(".kv-away").hidden = !(mine && mine.away && !mine.left && (m.status === "playing" || m.status === "between"));
  if (!$(".kt-status").dataset.sticky) setStatus();
  document.title = myTurn() ? `● ${T.your_turn} · KDVli Okey` : "KDVli Okey";
  if (focused !== null) {
    const el = $(`.kt-cell[data-i="${focused}"]`);
    if (el) el.focus({ preventScroll: true });
  }
  tick();
}

function renderBar() {
  const h = S.hand;
  $(".kv-hand-no").textContent = fmt(T.hand_of, { n: h.hand_no, total: h.hands });
  $(".kv-kind").textContent = "";
}

function presence(seat) {
  const info = S.match.seats[seat];
  if (info.left) return ["left", T.left];
  if (info.bot) return ["bot", T.bot];
  if (info.away) return ["away", T.away];
  return info.connected ? ["online", T.online] : ["offline", T.offline];
}

function renderSeats() {
  const h = S.hand;
  const totals = h.totals || S.match.totals;
  for (let offset = 0; offset < 4; offset++) {
    const seat = seatAt(offset);
    const el = $(`.kt-seat[data-pos="${POS[offset]}"]`);
    const info = h.seats[seat];
    const [presKey, presText] = presence(seat);
    const name = seatName(seat) + (seat === S.me ? ` (${T.you})` : "");
    const tiles = fmt(T.tiles_count, { n: info.count });
    const turn = !h.over && playing() && h.turn === seat;
    const bits = [presText];
    if (info.shown) bits.push(T.shown);
    if (turn) bits.push(seat === S.me ? T.your_turn : fmt(T.turn_of, { name: seatName(seat) }));
    el.dataset.seat = String(seat);
    el.setAttribute("aria-label", fmt(T.seat_card, { name, tiles, status: bits.join(", ") }));
    el.innerHTML =
      `<div class="kt-card${turn ? " is-turn" : ""}">` +
      `<span class="kt-ring" aria-hidden="true"></span>` +
      `<span class="kt-name" aria-hidden="true"><span class="kt-presence is-${presKey}" title="${esc(presText)}"></span>${esc(name)}</span>` +
      `<span class="kt-meta" aria-hidden="true"><span class="kt-count">${esc(tiles)}</span>` +
      (info.shown ? `<span class="kt-badge kv-shown" title="${esc(T.shown)}">${esc(T.indicator)} ${info.bonus}</span>` : "") +
      `</span><span class="kt-total" aria-hidden="true">${esc(fmt(T.total, { n: totals[seat] }))}</span>` +
      `<span class="kt-timer" aria-hidden="true"></span></div>`;
  }
}

function renderPiles() {
  const h = S.hand;
  for (let offset = 0; offset < 4; offset++) {
    const seat = seatAt(offset);
    const el = $(`.kt-pile[data-pos="${PILE[offset]}"]`);
    const pile = h.seats[seat].discards;
    const top = pile.length ? pile[pile.length - 1] : null;
    const count = pile.length ? `<span class="kt-pile-count" aria-hidden="true">${pile.length}</span>` : "";
    const face = top ? tileHTML(top.face) : `<span class="kt-pile-empty" aria-hidden="true"></span>`;
    // the tiles under the top one, small, so that every discard stays public (V-H1)
    const under = pile.slice(-7, -1).map((t) => tileHTML(t.face)).join("");
    const history = under ? `<span class="kv-pile-under" aria-hidden="true">${under}</span>` : "";
    const owner = `<span class="kt-pile-owner" aria-hidden="true">${esc(seatName(seat))}</span>`;
    let label = `${fmt(T.pile_of, { name: seatName(seat) })}: ${top ? tileName(top.face) : T.pile_empty}`;
    if (offset === 3 && S.me !== null) {
      const live = can("take");
      if (live && top) label = fmt(T.take_thrown, { tile: tileName(top.face) });
      el.innerHTML = `<button type="button" class="kt-pile-btn${live ? " is-live" : ""}" data-pile="take" data-action="take" aria-label="${esc(label)}"${live ? "" : ' aria-disabled="true"'}>${face}${count}</button>${history}${owner}`;
    } else if (offset === 0 && S.me !== null) {
      const live = can("discard");
      const hint = live ? `${T.your_pile}. ${T.discard_here}` : T.your_pile;
      el.innerHTML = `<button type="button" class="kt-pile-btn kt-pile-mine${live ? " is-live" : ""}" data-pile="discard" data-action="discard" data-drop="discard" aria-label="${esc(hint + (top ? `: ${tileName(top.face)}` : ""))}"${live ? "" : ' aria-disabled="true"'}>${face}${count}</button>${history}${owner}`;
    } else {
      el.innerHTML = `<div class="kt-pile-box" role="img" aria-label="${esc(label)}">${face}${count}</div>${history}${owner}`;
    }
  }
}

function renderCenter() {
  const h = S.hand;
  const ind = $(".kv-indicator");
  const live = can("finish");
  ind.innerHTML = `<span class="kt-label">${esc(T.indicator)}</span>${tileHTML(h.indicator)}<span class="kt-okey-is">${esc(fmt(T.okey_is, { tile: plainName(h.okey) }))}</span>`;
  ind.classList.toggle("is-live", live);
  ind.classList.toggle("is-coloured", Boolean(h.coloured));
  ind.setAttribute("aria-label", `${T.indicator}: ${plainName(h.indicator)}. ${fmt(T.okey_is, { tile: plainName(h.okey) })}${live ? `. ${T.finish_here}` : ""}`);
  const deck = $(".kt-deck");
  const deckText = fmt(T.deck, { n: h.deck_count });
  deck.innerHTML = `<span class="kt-back" aria-hidden="true"></span><span class="kt-deck-count" aria-hidden="true">${h.deck_count}</span>`;
  deck.disabled = !can("draw");
  deck.classList.toggle("is-live", can("draw"));
  deck.setAttribute("aria-label", can("draw") ? `${deckText}. ${T.draw}` : h.deck_count ? deckText : T.deck_empty);
  const notes = h.seats.map((s, seat) => (s.shown ? `<p>${esc(seatName(seat))}: ${esc(T.shown)} (${s.bonus})</p>` : "")).join("");
  $(".kv-table-notes").innerHTML = notes;
}

function renderSettings() {
  const h = S.hand;
  const panel = $(".kv-settings");
  panel.classList.toggle("is-open", S.settingsOpen);
  $(".kv-settings-toggle").setAttribute("aria-expanded", S.settingsOpen ? "true" : "false");
  const points = $(".kv-points");
  if (S.me === null) points.textContent = "";
  else points.textContent = S.myPoints === null || S.myPoints === undefined ? T.my_points_wait : fmt(T.my_points, { n: S.myPoints });
  const facts = [
    [T.col_hand, fmt(T.hand_of, { n: h.hand_no, total: h.hands })],
    [T.indicator, `${plainName(h.indicator)}${h.coloured ? " (×2)" : ""}`],
    [T.okey, plainName(h.okey)],
  ];
  const m = S.match;
  if (m.status === "playing" && m.deadline && m.turn_started) S.turnSeconds = Math.round((m.deadline - m.turn_started) / 1000);
  if (S.turnSeconds) facts.push([T.move_time, fmt(T.seconds_left, { n: S.turnSeconds })]); // P-6, V-N5
  $(".kv-facts").innerHTML = facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join("");
}

function renderRack() {
  const rackEl = $(".kt-rack");
  const rack = S.hand.rack;
  if (!rack) {
    rackEl.innerHTML = "";
    return;
  }
  rackEl.setAttribute("aria-label", T.rack);
  const seps = new Set(rack.separators);
  let html = "";
  for (let r = 0; r < 2; r++) {
    html += `<div class="kt-row" data-row="${r}">`;
    for (let c = 0; c < ROW; c++) {
      const i = r * ROW + c;
      const tile = rack.cells[i];
      const picked = tile && tile.id === S.picked;
      const label = tile ? tileName(tile.face) : fmt(T.empty_cell, { n: i + 1 });
      html +=
        `<button type="button" class="kt-cell${tile ? " has-tile" : ""}${picked ? " is-picked" : ""}" data-i="${i}" data-drop="cell"` +
        `${tile ? ` data-id="${esc(tile.id)}" data-face="${esc(tile.face)}"` : ""} tabindex="${i === S.focus ? 0 : -1}" aria-label="${esc(label)}"` +
        `${tile ? ` aria-pressed="${picked ? "true" : "false"}"` : ""}>${tile ? tileHTML(tile.face) : ""}</button>`;
      if (c < ROW - 1) {
        const on = seps.has(i);
        html += `<button type="button" class="kt-gap${on ? " is-on" : ""}" data-at="${i}" tabindex="-1" aria-pressed="${on}" aria-label="${esc(fmt(T.separator, { a: i + 1, b: i + 2 }))}"><span class="kt-gap-hit" aria-hidden="true"></span></button>`;
      }
    }
    html += "</div>";
  }
  rackEl.innerHTML = html;
}

function renderButtons() {
  const h = S.hand;
  const seated = S.me !== null;
  const enable = {
    show_indicator: seated && can("show_indicator"),
    runs: seated && !h.over && playing(),
    pairs: seated && !h.over && playing(),
    finish: seated && can("finish"),
    leave: seated && S.match && (S.match.status === "playing" || S.match.status === "between"),
  };
  for (const [action, on] of Object.entries(enable)) {
    const button = $(`.kt-btn[data-action="${action}"]`);
    if (button) button.disabled = !on;
  }
  $(".kv-btn-show").classList.toggle("is-live", enable.show_indicator);
}

// --- end of a hand (V-M3, V-H4) and of the match (V-M4) -----------------------------------

function groupsHTML(groups, cls = "") {
  return groups.map((g) => `<span class="kv-group ${cls}">${g.map((f) => tileHTML(f)).join("")}</span>`).join("");
}

function revealHTML(h) {
  if (!h || !h.reveal) return "";
  let out = "";
  for (const seat of [0, 1, 2, 3].map(seatAt)) {
    const r = h.reveal[seat];
    const fin = h.finisher === seat;
    const counted = fin ? (r.counted === "pairs" ? T.kind_pairs : T.kind_runs) : r.counted === "pairs" ? T.counted_pairs : T.counted_runs;
    const left = r.left && r.left.length ? `<span class="kv-left"><span class="kv-cap">${esc(T.left_out)}</span>${groupsHTML([r.left], "is-left")}</span>` : "";
    const finTile = fin && r.finish_tile ? `<span class="kv-left"><span class="kv-cap">${esc(T.finish_tile)}</span>${groupsHTML([[r.finish_tile]], "is-finish")}</span>` : "";
    const score = h.scores ? h.scores[seat] : 0;
    out +=
      `<div class="kv-rack-line${fin ? " is-finisher" : ""}${seat === S.me ? " is-me" : ""}" data-seat="${seat}">` +
      `<p class="kv-rack-head"><strong>${esc(seatName(seat))}</strong> <span>${esc(counted)}</span>` +
      (h.void ? "" : ` <span class="kv-rack-points">${esc(fmt(T.points, { n: r.points }))}</span> <strong class="kv-rack-score">${score > 0 ? "+" : ""}${score}</strong>`) +
      `</p><div class="kv-groups">${groupsHTML(r.groups)}${left}${finTile}</div></div>`;
  }
  return out;
}

function renderOverlay() {
  const overlay = $(".kt-overlay");
  const m = S.match;
  const h = S.hand;
  const title = $("#kt-overlay-title");
  const sub = $(".kt-overlay-sub");
  const scores = $(".kt-scores");
  const reveal = $(".kv-reveal");
  const finalActions = $(".kt-final-actions");
  if (!m || !h) {
    overlay.hidden = true;
    return;
  }
  const totals = h.totals || m.totals;
  if (m.status === "finished") {
    overlay.hidden = false;
    overlay.dataset.kind = "final";
    title.textContent = T.match_over;
    const names = m.winners.map(seatName).join(", ");
    let teams = "";
    if (h.team_totals) teams = ` ${fmt(T.team, { a: seatName(0), b: seatName(2), n: h.team_totals[0] })} · ${fmt(T.team, { a: seatName(1), b: seatName(3), n: h.team_totals[1] })}`;
    sub.innerHTML = `<strong class="kt-winners">${esc(fmt(m.winners.length > 1 ? T.winners : T.winner, { names }))}</strong> ${esc(T.lowest_wins)}${esc(teams)}`;
    let head = `<tr><th scope="col">${esc(T.col_player)}</th>`;
    (h.history || []).forEach((_, i) => (head += `<th scope="col">${esc(fmt(T.hand_of, { n: i + 1, total: h.hands }))}</th>`));
    head += `<th scope="col">${esc(T.col_total)}</th></tr>`;
    let body = "";
    for (const s of [0, 1, 2, 3].map(seatAt)) {
      const win = m.winners.includes(s);
      body += `<tr class="${win ? "is-winner" : ""}${s === S.me ? " is-me" : ""}"><th scope="row">${win ? '<span class="kt-crown" aria-hidden="true">★</span>' : ""}${esc(seatName(s))}</th>`;
      for (const row of h.history || []) body += `<td>${row[s]}</td>`;
      body += `<td class="kt-sum">${totals[s]}</td></tr>`;
    }
    scores.innerHTML = `<table class="kt-score-table kv-final-table"><thead>${head}</thead><tbody>${body}</tbody></table>`;
    reveal.innerHTML = revealHTML(h);
    $(".kt-countdown").textContent = "";
    finalActions.hidden = false;
    return;
  }
  if (m.status === "abandoned" || m.status === "aborted") {
    overlay.hidden = false;
    overlay.dataset.kind = "closed";
    title.textContent = T.closed;
    sub.textContent = "";
    scores.innerHTML = "";
    reveal.innerHTML = "";
    finalActions.hidden = false;
    return;
  }
  if (h.over) {
    overlay.hidden = false;
    overlay.dataset.kind = h.void ? "void" : "hand";
    title.textContent = fmt(T.hand_over, { n: h.hand_no });
    if (h.void) {
      sub.textContent = T.void_hand;
      scores.innerHTML = "";
    } else {
      const kind = h.finish_kind === "pairs" ? T.kind_pairs : T.kind_runs;
      sub.innerHTML = `${esc(fmt(T.finished_by, { name: seatName(h.finisher) }))} (${esc(kind)}) · <strong class="kv-mult">${esc(fmt(T.multiplier, { n: h.multiplier }))}</strong>`;
      let head = `<tr><th scope="col">${esc(T.col_player)}</th><th scope="col">${esc(T.col_points)}</th><th scope="col">${esc(T.col_bonus)}</th><th scope="col">${esc(T.col_hand)}</th><th scope="col">${esc(T.col_total)}</th></tr>`;
      let body = "";
      for (const s of [0, 1, 2, 3].map(seatAt)) {
        const bonus = h.seats[s].bonus;
        body += `<tr class="${h.finisher === s ? "is-winner" : ""}${s === S.me ? " is-me" : ""}"><th scope="row">${esc(seatName(s))}</th><td>${h.reveal ? h.reveal[s].points : ""}</td><td>${bonus || ""}</td><td class="kt-sum">${h.scores[s]}</td><td class="kt-sum">${totals[s]}</td></tr>`;
      }
      scores.innerHTML = `<table class="kt-score-table"><thead>${head}</thead><tbody>${body}</tbody></table>`;
    }
    let verify = "";
    const fair = h.fair;
    if (fair && fair.salt && fair.order) {
      const q = new URLSearchParams({ commitment: fair.commitment, salt: fair.salt, order: fair.order.join(",") });
      verify = `<p class="kt-verify"><a href="${esc(String(T.verify_url))}?${esc(q.toString())}" target="_blank" rel="noopener">${esc(T.verify_shuffle)}</a></p>`;
    }
    reveal.innerHTML = revealHTML(h) + verify;
    finalActions.hidden = true;
    return;
  }
  overlay.hidden = true;
  overlay.dataset.kind = "";
}

// --- the clock: the move countdown (V-N5), the 10-second pause (V-M3), the watchdog ----------

function tick() {
  const m = S.match;
  const h = S.hand;
  if (!m) return;
  const now = serverNow();
  const clock = $(".kv-clock");
  const active = $(".kt-card.is-turn");
  let left = null;
  if (m.status === "playing" && m.deadline && m.turn_started && h && !h.over) {
    left = Math.max(0, m.deadline - now);
    const warn = left <= (m.warning_seconds || 10) * 1000;
    clock.hidden = false;
    clock.classList.toggle("is-warn", warn);
    clock.classList.toggle("is-mine", h.turn === S.me);
    $(".kv-clock-who", clock).textContent = h.turn === S.me ? T.your_turn : seatName(h.turn);
    $(".kv-clock-left", clock).textContent = fmt(T.seconds_left, { n: Math.ceil(left / 1000) });
    root.dataset.clock = String(Math.ceil(left / 1000));
    root.dataset.warn = warn ? "1" : "";
    if (active) {
      active.style.setProperty("--p", (left / Math.max(1, m.deadline - m.turn_started)).toFixed(4));
      active.classList.add("has-timer");
      active.classList.toggle("is-warn", warn);
      $(".kt-timer", active).textContent = fmt(T.seconds_left, { n: Math.ceil(left / 1000) });
    }
  } else {
    clock.hidden = true;
    root.dataset.clock = "";
    root.dataset.warn = "";
  }
  const countdown = $(".kt-countdown");
  if (m.status === "between" && m.deadline) {
    const secs = Math.ceil((m.deadline - now) / 1000);
    countdown.textContent = secs > 0 ? fmt(T.next_hand_in, { n: secs }) : T.next_hand_soon;
  } else if (m.status !== "between") {
    countdown.textContent = "";
  }
  const idle = Date.now() - S.lastFrameAt;
  const overdue = (m.status === "playing" || m.status === "between") && m.deadline && now > m.deadline + 700;
  const botToMove = playing() && h && !h.over && h.turn !== S.me && botControlled(h.turn);
  if (overdue && idle > 700) requestSync(1000);
  else if (botToMove && idle > 3000) requestSync();
}

setInterval(tick, 250);

// --- toasts --------------------------------------------------------------------------------

function toast(text, kind = "info") {
  const box = $(".kt-toasts");
  const same = Array.from(box.children).find((t) => t.textContent === text);
  if (same) same.remove();
  const el = document.createElement("div");
  el.className = `kt-toast kt-toast-${kind}`;
  el.setAttribute("role", kind === "error" ? "alert" : "status");
  el.textContent = text;
  box.append(el);
  while (box.children.length > 2) box.firstElementChild.remove();
  setTimeout(() => el.remove(), 4500);
}

// --- pointer: drag and drop (mouse and touch), taps (K-R2, V-R1) ---------------------------

function dropTarget(x, y) {
  const el = document.elementFromPoint(x, y);
  return el ? el.closest("[data-drop]") : null;
}

function clearHover() {
  $$(".is-hover").forEach((el) => el.classList.remove("is-hover"));
}

function endDrag() {
  const drag = S.drag;
  S.drag = null;
  clearHover();
  root.classList.remove("is-dragging");
  if (drag && drag.ghost) drag.ghost.remove();
  $$(".is-dragging").forEach((el) => el.classList.remove("is-dragging"));
  if (S.deferred) {
    S.deferred = false;
    render();
  }
  return drag;
}

document.addEventListener("pointerdown", (event) => {
  if (S.drag) endDrag();
  if (event.button !== 0 || !S.hand || S.hand.over || S.me === null) return;
  const cell = event.target.closest(".kt-cell");
  if (!cell || !root.contains(cell)) return;
  S.drag = { id: cell.dataset.id || null, from: Number(cell.dataset.i), x0: event.clientX, y0: event.clientY, started: false, ghost: null, pointerId: event.pointerId };
});

document.addEventListener("pointermove", (event) => {
  const drag = S.drag;
  if (!drag || event.pointerId !== drag.pointerId) return;
  if (!drag.started) {
    if (!drag.id || Math.hypot(event.clientX - drag.x0, event.clientY - drag.y0) < DRAG_THRESHOLD) return;
    const source = $(`.kt-cell[data-i="${drag.from}"]`);
    const tile = source && source.querySelector(".kt-tile");
    if (!tile) {
      S.drag = null;
      return;
    }
    drag.started = true;
    const rect = tile.getBoundingClientRect();
    const ghost = tile.cloneNode(true);
    ghost.classList.add("kt-ghost");
    ghost.style.width = `${rect.width}px`;
    ghost.style.height = `${rect.height}px`;
    document.body.append(ghost);
    drag.ghost = ghost;
    drag.dx = rect.width / 2;
    drag.dy = rect.height / 2;
    source.classList.add("is-dragging");
    root.classList.add("is-dragging");
    try {
      source.setPointerCapture(event.pointerId);
    } catch {
      // the pointer is already gone: pointercancel cleans up
    }
  }
  event.preventDefault();
  drag.ghost.style.transform = `translate(${event.clientX - drag.dx}px, ${event.clientY - drag.dy}px)`;
  clearHover();
  const target = dropTarget(event.clientX, event.clientY);
  if (target) target.classList.add("is-hover");
});

document.addEventListener("pointerup", (event) => {
  const drag = S.drag;
  if (!drag || event.pointerId !== drag.pointerId) return;
  if (!drag.started) {
    endDrag();
    tapCell(drag.from);
    return;
  }
  const target = dropTarget(event.clientX, event.clientY);
  endDrag();
  if (!target) return;
  const kind = target.dataset.drop;
  if (kind === "cell") moveTile(drag.id, Number(target.dataset.i));
  else if (kind === "discard") discard(drag.id);
  else if (kind === "finish") finish(drag.id);
});

document.addEventListener("pointercancel", (event) => {
  if (S.drag && event.pointerId === S.drag.pointerId) endDrag();
});
window.addEventListener("blur", () => S.drag && endDrag());

// Tap a tile, then the cell it should go to (the same tile again puts it down).
function tapCell(index) {
  const tile = rackCells()[index];
  S.focus = index;
  if (!S.picked) {
    if (tile) S.picked = tile.id;
  } else if (tile && tile.id === S.picked) {
    S.picked = null;
  } else {
    const id = S.picked;
    S.picked = null;
    moveTile(id, index);
  }
  render();
}

// --- clicks --------------------------------------------------------------------------------

const leaveDialog = $(".kt-leave-dialog");

root.addEventListener("click", (event) => {
  const cell = event.target.closest(".kt-cell");
  if (cell) {
    if (event.detail === 0 && performance.now() - (S.keyAt || 0) > 100) tapCell(Number(cell.dataset.i));
    return;
  }
  const gap = event.target.closest(".kt-gap");
  if (gap) {
    toggleSeparator(Number(gap.dataset.at));
    return;
  }
  const el = event.target.closest("[data-action]");
  if (!el || el.disabled) return;
  switch (el.dataset.action) {
    case "draw":
      if (can("draw")) act({ type: "draw" });
      break;
    case "take":
      if (can("take")) act({ type: "take_discard" });
      break;
    case "discard":
      if (S.picked) discard(S.picked);
      break;
    case "finish-here":
    case "finish":
      if (S.picked || el.dataset.action === "finish") finish(S.picked);
      break;
    case "show_indicator":
      if (can("show_indicator")) act({ type: "show_indicator" });
      break;
    case "runs":
    case "pairs":
      arrange(el.dataset.action);
      break;
    case "back":
      sendRaw({ type: "action", action: { type: "back" } }); // V-N6: the player plays again
      break;
    case "settings":
      S.settingsOpen = !S.settingsOpen;
      render();
      break;
    case "leave":
      leaveDialog.showModal();
      break;
    case "stay":
      leaveDialog.close();
      break;
    default:
      break;
  }
});

// --- keyboard: arrows over the rack, Enter picks/places, S separator, D draw, A take,
// X discard, F finish with the picked tile ---------------------------------------------------

function focusCell(index) {
  S.focus = Math.max(0, Math.min(CELLS - 1, index));
  $$(".kt-cell").forEach((c) => (c.tabIndex = Number(c.dataset.i) === S.focus ? 0 : -1));
  const el = $(`.kt-cell[data-i="${S.focus}"]`);
  if (el) el.focus();
}

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target.closest && target.closest("dialog, input, select, textarea, .kt-lang")) return;
  if (!S.hand || S.me === null) return;
  const cell = target.closest && target.closest(".kt-cell");
  const key = event.key;
  if (cell) {
    const i = Number(cell.dataset.i);
    const moves = { ArrowLeft: i - 1, ArrowRight: i + 1, ArrowUp: i - ROW, ArrowDown: i + ROW };
    if (key in moves) {
      event.preventDefault();
      if (moves[key] >= 0 && moves[key] < CELLS) focusCell(moves[key]);
      return;
    }
    if (key === "Enter" || key === " ") {
      event.preventDefault();
      S.keyAt = performance.now();
      tapCell(i);
      focusCell(S.focus);
      return;
    }
    if (key === "s" || key === "S") {
      event.preventDefault();
      toggleSeparator(i);
      focusCell(i);
      return;
    }
  }
  const lower = key.length === 1 ? key.toLocaleLowerCase("en") : key;
  const focusedId = cell ? cell.dataset.id || null : null;
  if (key === "Escape" && S.picked) {
    S.picked = null;
    render();
  } else if (lower === "d" && can("draw")) {
    act({ type: "draw" });
  } else if (lower === "a" && can("take")) {
    act({ type: "take_discard" });
  } else if ((lower === "x" || key === "Delete") && (S.picked || focusedId)) {
    discard(S.picked || focusedId);
  } else if (lower === "f" && (S.picked || focusedId)) {
    finish(S.picked || focusedId);
  }
});

// --- start ----------------------------------------------------------------------------------

setStatus(T.connecting);
connect();
