// KDVli Okey — the game table (kdvli.md; vanilla JS module, no build step).
//
// The server is the authority: after every change it sends this seat a "state" frame
// {type, version, layout, match, me, hand} — or what changed, which ../js/frames.js turns
// into that frame (issue 22) — (game/frames.py; the hand is
// games/kdvli/engine/views.py) and this module renders it.  Moves go back as
// {"type": "action", "action": {...}, "version": v}; the private rack-layout actions
// (move, separator, arrange) carry no version and come back as a frame of the same
// version with a higher "layout".  A version gap, a reconnect or a silent socket where a
// bot or a timer should have moved asks for a snapshot ({"type": "sync"}).  Tiles and
// the rack are the okey tables' (../okey/tiles.js, ../okey/*.css); every word comes from
// the translated strings in #kv-strings.

import { ROW, esc, fmt, plainName as plain, tileHTML as okeyTile, tileName as okeyName } from "../okey/tiles.js";
import { verifyLink } from "../js/fair.js";
import { tableKit } from "../okey/table-kit.js";
import { kdvliNotes } from "./notes.js";

const root = document.getElementById("kt");
const T = JSON.parse(document.getElementById("kv-strings").textContent);
const POS = ["south", "east", "north", "west"]; // me, me+1 (on my right), me+2, me+3
const PILE = ["se", "ne", "nw", "sw"]; // each player's discards lie on their right
const LAYOUT = new Set(["move", "separator", "arrange"]);

const matchId = Number(root.dataset.match);
const board = root.querySelector(".kt-board");

const S = { turnSeconds: 0, version: -1, layout: 0, match: null, hand: null, me: null, offset: 0, lastFrameAt: 0, picked: null, focus: 0, drag: null, deferred: false, myPoints: null, settingsOpen: false };
const net = { inflight: null }; // the one move in flight (the socket itself: ../js/match-socket.js)
// the shared parts of the tile tables: names, presence, status, toasts, drag end, clock
const { $, playing, seatName, presence, setStatus, toast, note, pointerDrag, rackPress, rackEdits, rackKey, tick: clockTick, openSocket, scoreTable, renderEnd } = tableKit({
  root, S, T, statusText: () => statusText(), render: () => render(),
});
const tick = () => clockTick("kv");

// --- helpers -------------------------------------------------------------------------------

const tileHTML = (face) => okeyTile(face, S.hand ? S.hand.okey : null);
const tileName = (face) => okeyName(T, face, S.hand ? S.hand.okey : null);
const plainName = (face) => plain(T, face);
const rel = (seat) => (seat - (S.me ?? 0) + 4) % 4;
const seatAt = (offset) => ((S.me ?? 0) + offset) % 4;
const can = (key) => Boolean(S.hand && S.hand.can && S.hand.can[key]);
const rackCells = () => (S.hand && S.hand.rack ? S.hand.rack.cells : []);
const rackHas = (id) => rackCells().some((c) => c && c.id === id);
const myTurn = () => S.me !== null && S.hand && !S.hand.over && S.hand.turn === S.me;
const { showTimeouts, finishing, finishMark } = kdvliNotes({ S, T, note, tileName }); // ./notes.js

// V-M1, P-8: in partners seats 0 + 2 (team A) play against seats 1 + 3 (team B).
const TEAMS = ["A", "B"];
const partnersOn = () => Boolean(S.hand && S.hand.team_totals);
const teamOf = (seat) => seat % 2;
const teamName = (t) => `${fmt(T.team_badge, { t: TEAMS[t] })} (${seatName(t)} + ${seatName(t + 2)})`;
const teamLine = (t) => fmt(T.team_line, { a: seatName(t), b: seatName(t + 2), n: S.hand.team_totals[t] });

// --- the socket ----------------------------------------------------------------------------
// ../js/match-socket.js owns connecting, back-off, close codes, ping, sync and the change
// frames (issue 22); this table only says what a frame, an error and a close mean here.

const sock = openSocket(matchId, net, { onFrame: (frame) => onState(frame), onError: (msg) => onError(msg) });
const sendRaw = (message) => sock.send(message);
const requestSync = (minGap) => sock.requestSync(minGap);

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
  // V-S5: your points as they stood after your last discard (the server leaves out the
  // tile taken this turn, so a page loaded mid-turn shows them too; null before a first discard)
  if (S.hand && S.me !== null) S.myPoints = S.hand.points_shown ?? null;
  if (gap) requestSync();
  // The hook for the page's other scripts (templates/game/_extras.html): every accepted frame.
  document.dispatchEvent(new CustomEvent("kut:frame", { detail: msg }));
  if (accepted) finishInflight();
  if (S.drag && S.drag.started) S.deferred = true;
  else render();
  showTimeouts(); // V-N6: what the timer played for the player, once
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
  if (S.me === null || !sock.isOpen()) return;
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

const { moveTile, toggleSeparator } = rackEdits(act); // K-R2, V-R1 (the kit's)

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
    const team = partnersOn() ? teamOf(seat) : null;
    if (team !== null) bits.push(fmt(T.team_badge, { t: TEAMS[team] }), fmt(T.partner, { name: seatName((seat + 2) % 4) }), fmt(T.team_total, { n: h.team_totals[team] }));
    if (info.shown) bits.push(T.shown);
    if (turn) bits.push(seat === S.me ? T.your_turn : fmt(T.turn_of, { name: seatName(seat) }));
    el.dataset.seat = String(seat);
    if (team !== null) el.dataset.team = TEAMS[team];
    else delete el.dataset.team;
    el.setAttribute("aria-label", fmt(T.seat_card, { name, tiles, status: bits.join(", ") }));
    const teamHTML =
      team === null
        ? ""
        : `<span class="kv-team" aria-hidden="true"><span class="kv-team-badge" data-team="${TEAMS[team]}" title="${esc(fmt(T.team_badge, { t: TEAMS[team] }))}">${TEAMS[team]}</span>` +
          `<span class="kv-partner">${esc(fmt(T.partner, { name: seatName((seat + 2) % 4) + ((seat + 2) % 4 === S.me ? ` (${T.you})` : "") }))}</span>` +
          `<span class="kv-team-total">${esc(fmt(T.team_total, { n: h.team_totals[team] }))}</span></span>`;
    el.innerHTML =
      `<div class="kt-card${turn ? " is-turn" : ""}">` +
      `<span class="kt-ring" aria-hidden="true"></span>` +
      `<span class="kt-name" aria-hidden="true"><span class="kt-presence is-${presKey}" title="${esc(presText)}"></span>${esc(name)}</span>` +
      `<span class="kt-meta" aria-hidden="true"><span class="kt-count">${esc(tiles)}</span>` +
      (info.shown ? `<span class="kt-badge kv-shown" title="${esc(T.shown)}">${esc(T.indicator)} ${info.bonus}</span>` : "") +
      `</span><span class="kt-total" aria-hidden="true">${esc(fmt(T.total, { n: totals[seat] }))}</span>` +
      teamHTML +
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
  // V-M1, P-8: who plays with whom, and the team totals (the team total decides, V-M4)
  if (partnersOn()) for (const t of [0, 1]) facts.push([fmt(T.team_badge, { t: TEAMS[t] }), teamLine(t)]);
  else facts.push([T.mode, T.individual]);
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
  const fin = finishing(); // V-F1: the tiles the rack can finish with now
  let html = "";
  for (let r = 0; r < 2; r++) {
    html += `<div class="kt-row" data-row="${r}">`;
    for (let c = 0; c < ROW; c++) {
      const i = r * ROW + c;
      const tile = rack.cells[i];
      const picked = tile && tile.id === S.picked;
      const mark = finishMark(tile, fin);
      const label = tile ? mark.label || tileName(tile.face) : fmt(T.empty_cell, { n: i + 1 });
      html +=
        `<button type="button" class="kt-cell${tile ? " has-tile" : ""}${picked ? " is-picked" : ""}${mark.cls}" data-i="${i}" data-drop="cell"` +
        `${tile ? ` data-id="${esc(tile.id)}" data-face="${esc(tile.face)}"` : ""} tabindex="${i === S.focus ? 0 : -1}" aria-label="${esc(label)}"` +
        `${tile ? ` aria-pressed="${picked ? "true" : "false"}"` : ""}>${tile ? tileHTML(tile.face) + mark.badge : ""}</button>`;
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
  const h = S.hand;
  const teamRows = (cells) => {
    let foot = "";
    for (const t of [0, 1]) foot += `<tr class="kv-team-row" data-team="${TEAMS[t]}"><th scope="row">${esc(teamName(t))}</th>${cells(t)}</tr>`;
    return foot;
  };
  renderEnd({
    order: [0, 1, 2, 3].map(seatAt),
    reveal: ".kv-reveal",
    final: () => ({
      teams: h.team_totals,
      hands: (h.history || []).map((row, i) => ({ head: fmt(T.hand_of, { n: i + 1, total: h.hands }), scores: row })),
      totals: h.totals || S.match.totals,
      cls: "kv-final-table",
      foot: partnersOn() ? teamRows((t) => (h.history || []).map((row) => `<td>${row[t] + row[t + 2]}</td>`).join("") + `<td class="kt-sum">${h.team_totals[t]}</td>`) : "",
      reveal: revealHTML(h),
    }),
    hand: () => {
      const reveal = revealHTML(h) + verifyLink(T, h.fair);
      if (h.void) return { kind: "void", sub: esc(T.void_hand), scores: "", reveal };
      const totals = h.totals || S.match.totals;
      const kind = h.finish_kind === "pairs" ? T.kind_pairs : T.kind_runs;
      const sub = `${esc(fmt(T.finished_by, { name: seatName(h.finisher) }))} (${esc(kind)}) · <strong class="kv-mult">${esc(fmt(T.multiplier, { n: h.multiplier }))}</strong>`;
      const cells = (s) => `<td>${h.reveal ? h.reveal[s].points : ""}</td><td>${h.seats[s].bonus || ""}</td><td class="kt-sum">${h.scores[s]}</td><td class="kt-sum">${totals[s]}</td>`;
      // V-S4: in partners each seat is scored alone; the team's hand score is the sum
      const foot = partnersOn() ? teamRows((t) => `<td></td><td></td><td class="kt-sum">${h.scores[t] + h.scores[t + 2]}</td><td class="kt-sum">${h.team_totals[t]}</td>`) : "";
      const heads = [T.col_points, T.col_bonus, T.col_hand, T.col_total];
      return { kind: "hand", sub, scores: scoreTable({ order: [0, 1, 2, 3].map(seatAt), heads, cells, winner: (s) => h.finisher === s, foot }), reveal };
    },
  });
}

// --- the clock: the move countdown (V-N5), the 10-second pause (V-M3), the watchdog ----------

setInterval(tick, 250);

// --- toasts --------------------------------------------------------------------------------

// --- pointer: drag and drop (mouse and touch), taps (K-R2, V-R1) ---------------------------

pointerDrag({
  ...rackPress,
  tap: (drag) => tapCell(drag.from),
  drop(drag, target) {
    if (!target) return;
    const kind = target.dataset.drop;
    if (kind === "cell") moveTile(drag.id, Number(target.dataset.i));
    else if (kind === "discard") discard(drag.id);
    else if (kind === "finish") finish(drag.id);
  },
});

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

// --- keyboard: arrows, Home, End over the rack, Enter picks/places, S separator, D draw, A take,
// X discard, F finish with the picked tile ---------------------------------------------------

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target.closest && target.closest("dialog, input, select, textarea, .kt-lang")) return;
  if (!S.hand || S.me === null) return;
  const cell = target.closest && target.closest(".kt-cell");
  const key = event.key;
  if (cell && rackKey(event, cell, { tap: tapCell, separator: toggleSeparator })) return;
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
sock.start();
