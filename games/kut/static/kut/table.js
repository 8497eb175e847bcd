// KÜT — the game table (vanilla JS module, no build step).
//
// The server is the authority: it sends this seat a full "state" frame, then after every
// change what changed (issue 22: ../js/frames.js turns it into the full frame; kut.md;
// game/frames.py) and this module renders it.  Moves go back as
// {"type": "action", "action": {...}, "version": n}.  Older frames are ignored; a
// version gap, a reconnect or a silent socket where a bot or a timer should have moved
// asks for a fresh snapshot ({"type": "sync"}).  Every word shown comes from the
// translated strings the page renders into #kt-strings (no mixed-language screens).

import { CELLS, ROW, esc, fmt, tileHTML as okeyTileHTML } from "../okey/tiles.js";
import { openMatchSocket } from "../js/match-socket.js";
import { verifyLink } from "../js/fair.js";
import { tableKit } from "../okey/table-kit.js";

const root = document.getElementById("kt");
const T = JSON.parse(document.getElementById("kt-strings").textContent);

const POS = ["south", "east", "north", "west"]; // me, me+1 (on my right, K-M1), me+2, me+3
const PILE = ["se", "ne", "nw", "sw"]; // each player's discards lie on their right
const LAYOUT = new Set(["layout", "move", "separator", "arrange"]);
const RETRYABLE = new Set(["draw", "discard", "open", "new_groups", "auto_lay_off", "arrange", "undo", "lay_off"]);

const matchId = Number(root.dataset.match);
const userId = root.dataset.user;
const board = root.querySelector(".kt-board");

const S = {
  version: -1,
  layout: 0,
  match: null,
  hand: null,
  me: null,
  offset: 0, // server clock minus ours
  lastFrameAt: 0,
  picked: null, // id of the tile picked on the rack (tap/keyboard)
  focus: 0, // the rack cell holding the roving tabindex
  drag: null,
  deferred: false,
  attention: false,
  keyAt: 0,
};

const net = { queue: [], inflight: null, waitSnapshot: false }; // the moves (the socket itself: ../js/match-socket.js)
// the shared parts of the tile tables (./okey/table-kit.js)
const { $, $$, serverNow, seatName, botControlled, presence, setStatus, toast, pointerDrag, rackPress, rackEdits, rackKey, scoreTable, finalTable, showClosed } = tableKit({
  root, S, T, statusText: () => statusText(), render: () => render(), requestSync: (minGap) => sock.requestSync(minGap),
});

// --- small helpers --------------------------------------------------------------------------

function rel(seat) {
  return (seat - (S.me ?? 0) + 4) % 4;
}

function seatAt(offset) {
  return ((S.me ?? 0) + offset) % 4;
}

function can(key) {
  return Boolean(S.hand && S.hand.can && S.hand.can[key]);
}

function rackCells() {
  return S.hand && S.hand.rack ? S.hand.rack.cells : [];
}

function rackHas(id) {
  return rackCells().some((c) => c && c.id === id);
}

function cellOf(id) {
  return rackCells().findIndex((c) => c && c.id === id);
}

function myTurn() {
  return S.me !== null && S.hand && !S.hand.over && S.hand.turn === S.me;
}

function running() {
  return S.match && (S.match.status === "playing" || S.match.status === "between");
}

// --- names -------------------------------------------------------------------------------------

function plainName(face) {
  return fmt(T.tile, { colour: T.colours[face[0]] || face[0], number: face.slice(1) });
}

function tileName(face, value) {
  const okey = S.hand ? S.hand.okey : null;
  if (face === "F") return okey ? fmt(T.fake_okey_as, { tile: plainName(okey) }) : T.fake_okey;
  if (face === okey) return value && value !== okey ? fmt(T.okey_as, { tile: plainName(value) }) : T.okey;
  return plainName(face);
}

// --- tiles -------------------------------------------------------------------------------------

// The tile markup is shared with the other okey tables (../okey/tiles.js).
function tileHTML(face, value) {
  return okeyTileHTML(face, S.hand ? S.hand.okey : null, value);
}

// --- the socket ------------------------------------------------------------------------------
// ../js/match-socket.js owns connecting, back-off, close codes, ping, sync and the change
// frames (issue 22); this table only says what a frame, an error and a close mean here.

const sock = openMatchSocket({
  matchId,
  connectNow: false,
  onConnect: () => (root.dataset.connects = String(Number(root.dataset.connects || 0) + 1)),
  onFrame: (frame) => onState(frame),
  onError: (msg) => onError(msg),
  onOpen() {
    setStatus();
    pump();
  },
  onClose({ reason }) {
    // An action in flight may or may not have been applied: never send it twice.
    dropInflight();
    net.queue = [];
    net.waitSnapshot = false;
    if (reason === "replaced") {
      // The same seat was opened in another tab: final for this one (no reconnecting,
      // which would knock the other tab off in turn); "Play here" takes the seat back.
      setStatus(T.replaced_status);
      note("replaced", T.replaced_note, T.play_here, playHere);
      return;
    }
    setStatus({ kicked: T.kicked, cannot_join: T.cannot_join, reconnecting: T.reconnecting }[reason]);
  },
});
const sendRaw = (message) => sock.send(message);
const requestSync = (minGap) => sock.requestSync(minGap);

function playHere() {
  note("replaced", null);
  setStatus(T.connecting);
  sock.reconnect();
}

function onState(msg) {
  if (typeof msg.version !== "number" || msg.version < S.version) return; // an older frame
  // A private rack-layout change keeps the shared version and raises the seat's own
  // "layout" count (issue 16): an older layout frame of this version is ignored too.
  const layout = typeof msg.layout === "number" ? msg.layout : 0;
  if (msg.version === S.version && layout < S.layout) return;
  const gap = S.version >= 0 && msg.version > S.version + 1;
  const handBefore = S.match ? S.match.hand_no : null;
  const layoutBefore = S.layout;
  const previous = handBefore === (msg.match ? msg.match.hand_no : null) ? S.hand : null;
  const before = { match: S.match, hand: S.hand }; // issue 15: sounds, celebration (feel block)
  S.version = msg.version;
  S.layout = layout;
  S.match = msg.match;
  S.hand = msg.hand;
  S.me = msg.me;
  S.lastFrameAt = Date.now();
  if (msg.match && typeof msg.match.server_time === "number") S.offset = msg.match.server_time - Date.now();
  if (handBefore !== null && msg.match && msg.match.hand_no !== handBefore) S.picked = null;
  if (S.picked && !rackHas(S.picked)) S.picked = null;
  if (gap) requestSync();
  // The hook for the page's other scripts (templates/game/_extras.html: trial hints,
  // rematch): every state frame this table accepts, read-only.
  document.dispatchEvent(new CustomEvent("kut:frame", { detail: msg }));
  const accepted =
    net.inflight && (msg.version > net.inflight.at || layout > layoutBefore) ? net.inflight.action : null;
  if (accepted) finishInflight();
  if (net.waitSnapshot) net.waitSnapshot = false;
  if (S.drag && S.drag.started) {
    S.deferred = true; // redraw when the tile is dropped
  } else {
    render();
    showMoves(previous, S.hand);
  }
  showNotes();
  feelFrame(before, accepted);
  pump();
}

function onError(msg) {
  const code = msg.code || "";
  const item = net.inflight;
  finishInflight();
  if (code === "stale_version" && item && item.retryable && !item.retried) {
    // The table moved on (a bot, a claim): the server sends a snapshot next; try again
    // on it if the move still makes sense.
    item.retried = true;
    net.queue.unshift(item);
    net.waitSnapshot = true;
    return;
  }
  if (code === "end_required" && item && item.action.type === "lay_off") {
    if (item.endHint) act({ ...item.action, end: item.endHint });
    else askEnd(item.action);
    pump();
    return;
  }
  root.dataset.errors = String(Number(root.dataset.errors || 0) + 1);
  root.dataset.lastError = code;
  if (code === "replaced") return; // the "another tab" panel says it (close code 4009)
  if (code === "task_mismatch" && feelOpenAdvice()) {
    pump();
    return;
  }
  toast((T.errors && T.errors[code]) || msg.message || code, "error");
  pump();
}

function act(action, extra = {}) {
  if (S.me === null) return;
  if (!LAYOUT.has(action.type)) note("timeout", null); // seen: the player plays on
  net.queue.push({ action, versioned: !LAYOUT.has(action.type), retryable: RETRYABLE.has(action.type), retried: false, ...extra });
  pump();
}

function stillValid(action) {
  switch (action.type) {
    case "draw":
      return can("draw");
    case "discard":
      return can("play") && rackHas(action.tile_id);
    case "lay_off":
      return can("lay_off") && rackHas(action.tile_id);
    case "open":
      return can("play") && !S.hand.seats[S.me].opened;
    case "new_groups":
    case "auto_lay_off":
      return can("lay_off");
    case "undo":
      return can("undo");
    case "arrange":
      return Boolean(S.hand && !S.hand.over);
    default:
      return false;
  }
}

function pump() {
  if (!sock.isOpen() || net.inflight || net.waitSnapshot || !net.queue.length) return;
  const item = net.queue.shift();
  if (item.retried && !stillValid(item.action)) {
    pump();
    return;
  }
  item.at = S.version;
  net.inflight = item;
  item.timer = setTimeout(() => {
    if (net.inflight === item) {
      net.inflight = null;
      pump();
    }
  }, 5000);
  sendRaw({ type: "action", action: item.action, version: item.versioned ? S.version : null });
}

function finishInflight() {
  if (!net.inflight) return;
  clearTimeout(net.inflight.timer);
  net.inflight = null;
}

function dropInflight() {
  finishInflight();
}

// --- moves ---------------------------------------------------------------------------------------

const { moveTile, toggleSeparator } = rackEdits(act); // K-R2, V-R1 (the kit's)

function discard(id) {
  if (!can("play") || !rackHas(id)) return;
  S.picked = null;
  act({ type: "discard", tile_id: id });
}

function layOff(id, group, endHint = null) {
  if (!can("lay_off") || !rackHas(id)) return;
  S.picked = null;
  act({ type: "lay_off", tile_id: id, group }, { endHint });
}

function takeThrown() {
  if (can("take")) act({ type: "take_discard" });
}

function draw() {
  if (can("draw")) act({ type: "draw" });
}

function claim() {
  if (can("claim")) act({ type: "claim" });
}

const endDialog = $(".kt-end-dialog");
let endPending = null;

function askEnd(action) {
  endPending = action;
  if (!endDialog.open) endDialog.showModal();
}

endDialog.addEventListener("click", (event) => {
  const button = event.target.closest("[data-end]");
  if (!button) return;
  const end = button.dataset.end;
  endDialog.close();
  if (end && endPending) act({ ...endPending, end });
  endPending = null;
});

// --- rendering -----------------------------------------------------------------------------------

function statusText() {
  const h = S.hand;
  const m = S.match;
  if (!h || !m || m.status !== "playing" || h.over) return "";
  if (S.picked && rackHas(S.picked)) {
    const cell = rackCells()[cellOf(S.picked)];
    return fmt(T.selected, { tile: tileName(cell.face) });
  }
  if (myTurn()) {
    if (h.phase === "take") return T.your_turn_take + (h.forced_draw ? ` ${T.forced}` : "");
    if (h.first_turn) return T.your_turn_first;
    return T.your_turn_play;
  }
  if (can("claim")) return T.claim_possible;
  return fmt(T.turn_of, { name: seatName(h.turn) });
}

function render() {
  const h = S.hand;
  const m = S.match;
  // Plain facts on the root for styling and for the browser tests.
  root.dataset.version = String(S.version);
  root.dataset.layout = String(S.layout); // private rack-layout frames (issue 16)
  root.dataset.status = m ? m.status : "";
  root.dataset.hand = m ? String(m.hand_no) : "";
  root.dataset.phase = myTurn() ? h.phase : "wait";
  root.classList.toggle("is-ready", Boolean(h));
  root.classList.toggle("is-watcher", S.me === null);
  board.setAttribute("aria-busy", h ? "false" : "true");
  const focusKey = rememberFocus();
  const flip = feelPositions();
  if (m && h) {
    renderBar();
    renderSeats();
    renderPiles();
    renderCenter();
    renderRack();
    renderButtons();
  }
  renderOverlay();
  if (!$(".kt-status").dataset.sticky) setStatus();
  updateAttention();
  restoreFocus(focusKey);
  feelAnimate(flip);
  tick();
}

function rememberFocus() {
  const el = document.activeElement;
  if (!el || !root.contains(el)) return null;
  if (el.classList.contains("kt-cell")) return { cell: Number(el.dataset.i) };
  if (el.dataset.g !== undefined) return { group: el.dataset.g };
  if (el.dataset.pile) return { pile: el.dataset.pile };
  return null;
}

function restoreFocus(key) {
  if (!key) return;
  let el = null;
  if (key.cell !== undefined) el = $(`.kt-cell[data-i="${key.cell}"]`);
  else if (key.group !== undefined) el = $(`[data-g="${key.group}"]`);
  else if (key.pile) el = $(`[data-pile="${key.pile}"]`);
  if (el && document.activeElement !== el) el.focus({ preventScroll: true });
}

function renderBar() {
  const m = S.match;
  const h = S.hand;
  $(".kt-task-no").textContent = fmt(T.task_no, { n: h.task_no, total: m.options.tasks });
  $(".kt-task-text").textContent = T.task_texts[String(h.task_no)] || "";
  $(".kt-hand-no").textContent = fmt(T.hand_no, { n: m.hand_no });
}

function renderSeats() {
  const h = S.hand;
  const m = S.match;
  for (let offset = 0; offset < 4; offset++) {
    const seat = seatAt(offset);
    const el = $(`.kt-seat[data-pos="${POS[offset]}"]`);
    if (!el) continue;
    const info = h.seats[seat];
    const [presKey, presText] = presence(seat);
    const name = seatName(seat) + (seat === S.me ? ` (${T.you})` : "");
    const tiles = fmt(T.tiles_count, { n: info.count });
    const turn = !h.over && m.status === "playing" && h.turn === seat;
    const statusBits = [presText];
    if (info.opened) statusBits.push(T.opened);
    if (turn) statusBits.push(seat === S.me ? T.your_turn : fmt(T.turn_of, { name: seatName(seat) }));
    el.dataset.seat = String(seat);
    el.setAttribute("aria-label", fmt(T.seat_card, { name, tiles, status: statusBits.join(", ") }));
    el.innerHTML =
      `<div class="kt-card${turn ? " is-turn" : ""}${info.opened ? " is-opened" : ""}">` +
      `<span class="kt-ring" aria-hidden="true"></span>` +
      `<span class="kt-name" aria-hidden="true"><span class="kt-presence is-${presKey}" title="${esc(presText)}"></span>${esc(name)}</span>` +
      `<span class="kt-meta" aria-hidden="true"><span class="kt-count">${esc(tiles)}</span>` +
      (info.opened ? `<span class="kt-badge">${esc(T.opened)}</span>` : "") +
      `</span>` +
      `<span class="kt-total" aria-hidden="true">${esc(fmt(T.total, { n: m.totals[seat] }))}</span>` +
      `<span class="kt-timer" aria-hidden="true"></span>` +
      `</div>`;
  }
}

function renderPiles() {
  const h = S.hand;
  for (let offset = 0; offset < 4; offset++) {
    const seat = seatAt(offset);
    const pos = PILE[offset];
    const el = $(`.kt-pile[data-pos="${pos}"]`);
    const pile = h.seats[seat].discards;
    const top = pile.length ? pile[pile.length - 1] : null;
    const count = pile.length ? `<span class="kt-pile-count" aria-hidden="true">${pile.length}</span>` : "";
    const face = top ? tileHTML(top.face) : `<span class="kt-pile-empty" aria-hidden="true"></span>`;
    const owner = `<span class="kt-pile-owner" aria-hidden="true">${esc(seatName(seat))}</span>`;
    let label = top ? `${fmt(T.pile_of, { name: seatName(seat) })}: ${tileName(top.face)}` : `${fmt(T.pile_of, { name: seatName(seat) })}: ${T.pile_empty}`;
    if (offset === 3 && S.me !== null) {
      // The tile thrown to me: take it on my turn (K-N1).
      const enabled = can("take");
      if (enabled && top) label = fmt(T.take_thrown, { tile: tileName(top.face) });
      el.innerHTML = `<button type="button" class="kt-pile-btn${enabled ? " is-live" : ""}" data-pile="take" data-action="take" aria-label="${esc(label)}"${enabled ? "" : " aria-disabled=\"true\""}>${face}${count}</button>${owner}`;
    } else if (offset === 0 && S.me !== null) {
      const enabled = can("play");
      const hint = enabled ? `${T.your_pile}. ${T.discard_here}` : T.your_pile;
      el.innerHTML = `<button type="button" class="kt-pile-btn kt-pile-mine${enabled ? " is-live" : ""}" data-pile="discard" data-action="discard" data-drop="discard" aria-label="${esc(hint + (top ? `: ${tileName(top.face)}` : ""))}"${enabled ? "" : " aria-disabled=\"true\""}>${face}${count}</button>${owner}`;
    } else {
      el.innerHTML = `<div class="kt-pile-box" role="img" aria-label="${esc(label)}">${face}${count}</div>${owner}`;
    }
    // K-C1: the tile this seat may claim now, marked on its thrower's pile
    el.classList.toggle("is-claimable", Boolean(can("claim") && h.thrown && h.thrown.seat === seat));
  }
}

function groupHTML(group, index) {
  const tiles = group.tiles.map((t, i) => tileHTML(t.face, group.values[i])).join("");
  const names = group.tiles.map((t, i) => tileName(t.face, group.values[i])).join(", ");
  const label = fmt(T.group_label, { owner: seatName(group.owner), kind: T.kinds[group.kind] || group.kind, tiles: names }) + (group.this_turn ? ` (${T.new_this_turn})` : "");
  const live = can("lay_off") && S.picked ? " is-live" : "";
  return `<button type="button" class="kt-group kt-group-${esc(group.kind)}${group.this_turn ? " is-new" : ""}${live}" data-g="${index}" data-drop="group" data-owner="${rel(group.owner)}" aria-label="${esc(label)}">${feelOwnerTag(group.owner)}${tiles}</button>`;
}

function renderCenter() {
  const h = S.hand;
  $(".kt-indicator").innerHTML =
    `<span class="kt-label">${esc(T.indicator)}</span>${tileHTML(h.indicator)}` +
    `<span class="kt-okey-is">${esc(fmt(T.okey_is, { tile: plainName(h.okey) }))}</span>`;
  $(".kt-indicator").setAttribute("aria-label", `${T.indicator}: ${plainName(h.indicator)}. ${fmt(T.okey_is, { tile: plainName(h.okey) })}`);
  $(".kt-indicator").setAttribute("role", "img");
  const deck = $(".kt-deck");
  const deckText = fmt(T.deck, { n: h.deck_count });
  deck.innerHTML = `<span class="kt-back" aria-hidden="true"></span><span class="kt-deck-count" aria-hidden="true">${h.deck_count}</span>`;
  deck.disabled = !can("draw");
  deck.classList.toggle("is-live", can("draw"));
  deck.setAttribute("aria-label", can("draw") ? `${deckText}. ${T.draw}` : h.deck_count ? deckText : T.deck_empty);
  const melds = [];
  const pairs = [];
  h.table.forEach((g, i) => (g.kind === "pair" ? pairs : melds).push(groupHTML(g, i)));
  $(".kt-melds").innerHTML = melds.length ? melds.join("") : `<p class="kt-empty">${esc(T.no_groups_yet)}</p>`;
  $(".kt-pairs-list").innerHTML = pairs.join("");
  $(".kt-pairs").classList.toggle("has-pairs", pairs.length > 0);
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
  if (S.focus < 0 || S.focus >= CELLS) S.focus = 0;
  let html = "";
  for (let r = 0; r < 2; r++) {
    html += `<div class="kt-row" data-row="${r}">`;
    for (let c = 0; c < ROW; c++) {
      const i = r * ROW + c;
      const tile = rack.cells[i];
      const picked = tile && tile.id === S.picked;
      let label;
      if (tile) {
        label = tileName(tile.face) + (tile.islek ? `, ${T.islek}` : "");
      } else {
        label = fmt(T.empty_cell, { n: i + 1 });
      }
      const attrs = [
        `type="button"`,
        `class="kt-cell${tile ? " has-tile" : ""}${picked ? " is-picked" : ""}${tile && tile.islek ? " is-islek" : ""}"`,
        `data-i="${i}"`,
        `data-drop="cell"`,
        tile ? `data-id="${esc(tile.id)}"` : "",
        `tabindex="${i === S.focus ? 0 : -1}"`,
        `aria-label="${esc(label)}"`,
        tile ? `aria-pressed="${picked ? "true" : "false"}"` : "",
      ].join(" ");
      html += `<button ${attrs}>${tile ? tileHTML(tile.face) : ""}${tile && tile.islek ? '<span class="kt-islek" aria-hidden="true"></span>' : ""}</button>`;
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
  const mine = seated ? h.seats[S.me] : null;
  const islek = rackCells().some((c) => c && c.islek);
  const enable = {
    open: seated && can("play") && !mine.opened,
    new_groups: seated && can("lay_off"),
    auto_lay_off: seated && can("lay_off") && islek,
    arrange: seated && !h.over && S.match.status === "playing",
    undo: seated && can("undo"),
    claim: seated && can("claim"),
    leave: seated && running(),
  };
  for (const [action, on] of Object.entries(enable)) {
    const button = $(`.kt-btn[data-action="${action}"]`);
    if (button) button.disabled = !on;
  }
  $(".kt-btn-claim").classList.toggle("is-live", enable.claim);
  feelButtons(enable);
}

// --- end of hand and of the match ------------------------------------------------------------

function scoreCell(value) {
  return value ? `<td>${value > 0 ? "+" : ""}${value}</td>` : `<td class="kt-zero">0</td>`;
}

function seatOrder() {
  return [0, 1, 2, 3].map((k) => seatAt(k));
}

function renderOverlay() {
  const overlay = $(".kt-overlay");
  const m = S.match;
  const h = S.hand;
  const title = $("#kt-overlay-title");
  const sub = $(".kt-overlay-sub");
  const scores = $(".kt-scores");
  const finalActions = $(".kt-final-actions");
  if (!m) {
    overlay.hidden = true;
    return;
  }
  const last = m.results.length ? m.results[m.results.length - 1] : null;
  if (m.status === "finished") {
    overlay.hidden = false;
    overlay.dataset.kind = "final";
    title.textContent = T.match_over;
    const names = m.winners.map(seatName).join(", ");
    sub.innerHTML = `<strong class="kt-winners">${esc(fmt(m.winners.length > 1 ? T.winners : T.winner, { names }))}</strong>${esc(T.lowest_wins)}`;
    const hands = m.results.map((r) => ({ head: { text: fmt(T.hand_no, { n: r.hand_no }), title: T.task_texts[String(r.task_no)] || "" }, scores: r.scores }));
    scores.innerHTML = finalTable({ order: seatOrder(), winners: m.winners, hands, totals: m.totals });
    $(".kt-countdown").textContent = "";
    finalActions.hidden = false;
    return;
  }
  if (m.status === "abandoned" || m.status === "aborted") {
    showClosed();
    return;
  }
  if ((m.status === "between" || (h && h.over)) && last) {
    overlay.hidden = false;
    overlay.dataset.kind = "hand";
    title.textContent = fmt(T.hand_over, { n: last.hand_no });
    sub.textContent = `${T.task_texts[String(last.task_no)] || ""} · ${last.finisher !== null && last.finisher !== undefined ? fmt(T.finished_by, { name: seatName(last.finisher) }) : T.deck_ran_out}`;
    const cols = ["col_finish", "col_not_opened", "col_tiles", "col_okeys", "col_penalties", "col_hand", "col_total"];
    const cells = (s) => {
      const line = last.lines[s] || {};
      return [line.finish, line.not_opened, line.tiles, line.okeys, line.penalties].map(scoreCell).join("") + `<td class="kt-sum">${last.scores[s]}</td><td class="kt-sum">${m.totals[s]}</td>`;
    };
    const table = scoreTable({ order: seatOrder(), heads: cols.map((c) => T[c]), cells, winner: (s) => last.finisher === s });
    scores.innerHTML = table + verifyLink(T, h && h.over && h.fair);
    finalActions.hidden = true;
    return;
  }
  overlay.hidden = true;
  overlay.dataset.kind = "";
}

// --- the clock: turn timer, next-hand countdown, watchdog ------------------------------------

function tick() {
  const m = S.match;
  if (!m) return;
  const now = serverNow();
  const active = $(".kt-card.is-turn");
  if (active) {
    const timer = $(".kt-timer", active);
    if (m.status === "playing" && m.deadline && m.turn_started) {
      const total = Math.max(1, m.deadline - m.turn_started);
      const left = Math.max(0, m.deadline - now);
      active.style.setProperty("--p", (left / total).toFixed(4));
      active.classList.add("has-timer");
      active.classList.toggle("is-warn", left <= (m.warning_seconds || 10) * 1000);
      timer.textContent = fmt(T.seconds_left, { n: Math.ceil(left / 1000) });
      feelTick(active, left);
    } else {
      active.style.setProperty("--p", "1");
      active.classList.remove("has-timer", "is-warn");
      timer.textContent = "";
    }
  }
  claimCountdown(now);
  const countdown = $(".kt-countdown");
  if (m.status === "between" && m.deadline) {
    const left = Math.ceil((m.deadline - now) / 1000);
    countdown.textContent = left > 0 ? fmt(T.next_task_in, { n: left }) : T.next_task_soon;
  }
  // Frames can be lost (another process moved, a dropped group message): when a timer
  // has run out or a bot should have moved and nothing came, ask for the state.
  const idle = Date.now() - S.lastFrameAt;
  const overdue = running() && m.deadline && now > m.deadline + 700;
  const botToMove = m.status === "playing" && S.hand && !S.hand.over && S.hand.turn !== S.me && botControlled(S.hand.turn);
  if (overdue && idle > 700) requestSync(1000);
  else if (botToMove && idle > 3000) requestSync();
}

setInterval(tick, 250);

// --- your turn: title, favicon, sound, vibration --------------------------------------------

const baseTitle = document.title;
const favicon = document.querySelector('link[rel="icon"]');
const soundKey = `kut.sound.${userId}`;
let soundOn = false;
try {
  soundOn = localStorage.getItem(soundKey) === "1";
} catch {
  soundOn = false;
}
let audio = null;

function beep() {
  if (!soundOn) return;
  try {
    audio = audio || new AudioContext();
    if (audio.state === "suspended") audio.resume();
    const t = audio.currentTime;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = "sine";
    osc.frequency.setValueAtTime(660, t);
    osc.frequency.setValueAtTime(880, t + 0.12);
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.2, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.3);
    osc.connect(gain).connect(audio.destination);
    osc.start(t);
    osc.stop(t + 0.32);
  } catch {
    // no audio here: the title and the favicon still tell
  }
}

function renderSound() {
  const button = $(".kt-sound");
  button.setAttribute("aria-pressed", soundOn ? "true" : "false");
  $(".kt-sound-label").textContent = soundOn ? T.sound_on : T.sound_off;
  button.title = soundOn ? T.sound_on : T.sound_off;
}

function toggleSound() {
  soundOn = !soundOn;
  try {
    localStorage.setItem(soundKey, soundOn ? "1" : "0");
  } catch {
    // private mode: the choice lasts for this page only
  }
  renderSound();
  if (soundOn) feelSound("turn");
}

function updateAttention() {
  const turn = myTurn();
  const claimable = can("claim");
  const wanted = turn || claimable;
  const text = turn ? T.your_turn : T.claim_possible;
  document.title = wanted ? `● ${text} · ${baseTitle}` : baseTitle;
  if (favicon) favicon.href = wanted ? root.dataset.faviconTurn : root.dataset.favicon;
  root.classList.toggle("is-my-turn", turn);
  if (wanted && !S.attention) {
    feelSound(turn ? "turn" : "claimable");
    if (navigator.vibrate && navigator.userActivation && navigator.userActivation.hasBeenActive) navigator.vibrate(150);
  }
  S.attention = wanted;
}

// --- other players' moves made visible, the claim window, notes -------------------------------
//
// Bots play at a human pace (game/services.py, bot_think_seconds): each move of another
// seat is shown — the tile it takes travels to its card, its discard lands on its pile,
// the groups it opens or lays off on are highlighted for a moment.  Nothing moves under
// prefers-reduced-motion (the highlights stay, without animation).

const reducedMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };
const FLY_MS = 240;

function seatCard(seat) {
  return $(`.kt-seat[data-seat="${seat}"] .kt-card`);
}

function pileOf(seat) {
  return $(`.kt-pile[data-pos="${PILE[rel(seat)]}"]`);
}

function flash(el, cls = "is-flash", ms = 1600) {
  if (!el) return;
  el.classList.remove(cls);
  void el.offsetWidth; // restart the animation
  el.classList.add(cls);
  setTimeout(() => el.classList.remove(cls), ms);
}

function fly(from, to, html) {
  if (!from || !to || reducedMotion.matches || document.hidden) return;
  const a = from.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  if (!a.width || !b.width) return;
  const el = document.createElement("div");
  el.className = "kt-fly";
  el.setAttribute("aria-hidden", "true");
  el.innerHTML = html;
  el.style.left = `${a.left + a.width / 2}px`;
  el.style.top = `${a.top + a.height / 2}px`;
  document.body.append(el);
  const dx = b.left + b.width / 2 - (a.left + a.width / 2);
  const dy = b.top + b.height / 2 - (a.top + a.height / 2);
  const run = el.animate(
    [{ transform: "translate(-50%, -50%) scale(1)" }, { transform: `translate(calc(${dx}px - 50%), calc(${dy}px - 50%)) scale(0.8)` }],
    { duration: FLY_MS, easing: "ease-out" },
  );
  run.onfinish = () => el.remove();
  setTimeout(() => el.remove(), FLY_MS + 200);
}

function showMoves(prev, next) {
  if (!prev || !next || S.me === null) return;
  const moved = [];
  for (let seat = 0; seat < 4; seat++) {
    if (seat === S.me) continue;
    const a = prev.seats[seat];
    const b = next.seats[seat];
    if (b.count > a.count) {
      // took a tile: from a pile that shrank (the thrown tile, a claim), else the deck
      const from = [0, 1, 2, 3].find((t) => next.seats[t].discards.length < prev.seats[t].discards.length);
      if (from !== undefined) {
        const tile = prev.seats[from].discards[prev.seats[from].discards.length - 1];
        fly(pileOf(from), seatCard(seat), tile ? tileHTML(tile.face) : '<span class="kt-back"></span>');
      } else {
        fly($(".kt-deck"), seatCard(seat), '<span class="kt-back"></span>');
      }
      flash(seatCard(seat), "is-moved", 900);
      moved.push(seat);
    }
    if (b.discards.length > a.discards.length) {
      const tile = b.discards[b.discards.length - 1];
      fly(seatCard(seat), pileOf(seat), tileHTML(tile.face));
      flash(pileOf(seat), "is-landed", 1200);
      moved.push(seat);
    }
  }
  if (prev.turn !== S.me) {
    next.table.forEach((g, i) => {
      const old = prev.table[i];
      if (!old || g.tiles.length > old.tiles.length) flash($(`.kt-group[data-g="${i}"]`));
    });
  }
  if (moved.length) root.dataset.lastMoved = moved.join(",");
}

function claimCountdown(now) {
  const m = S.match;
  const h = S.hand;
  const button = $(".kt-btn-claim");
  if (!button) return;
  let badge = $(".kt-claim-count", button);
  const open = can("claim") && m.bot_due && h.turn !== S.me && botControlled(h.turn) && h.phase === "play";
  const left = open ? Math.max(0, Math.ceil((m.bot_due - now) / 1000)) : 0;
  root.dataset.claimWindow = open && left > 0 ? String(left) : "";
  if (!open || left <= 0) {
    if (badge) badge.remove();
    $$(".kt-pile[data-countdown]").forEach((el) => delete el.dataset.countdown);
    return;
  }
  if (!badge) {
    badge = document.createElement("span");
    badge.className = "kt-claim-count";
    button.append(badge);
  }
  badge.textContent = fmt(T.seconds_left, { n: left });
  const pile = h.thrown ? pileOf(h.thrown.seat) : null;
  if (pile) pile.dataset.countdown = String(left);
}

// Notes that stay until they are dealt with (not toasts): a timeout (K-N7), an away
// seat, this table opened in another tab.
const notesShown = new Set();

function note(kind, text, buttonLabel = null, onClick = null) {
  let box = $(".kt-notes");
  if (!box) {
    box = document.createElement("div");
    box.className = "kt-notes";
    board.after(box);
  }
  let el = $(`.kt-note[data-kind="${kind}"]`, box);
  if (!text) {
    if (el) el.remove();
    return;
  }
  if (!el) {
    el = document.createElement("div");
    el.className = "kt-note";
    el.dataset.kind = kind;
    el.setAttribute("role", "alert");
    box.append(el);
  }
  el.innerHTML = `<p class="kt-note-text"></p>`;
  $(".kt-note-text", el).textContent = text;
  const button = document.createElement("button");
  button.type = "button";
  button.className = buttonLabel ? "kt-btn kt-note-act" : "kt-note-close";
  button.textContent = buttonLabel || T.dismiss;
  button.addEventListener("click", () => {
    if (onClick) onClick();
    else el.remove();
  });
  el.append(button);
}

function showNotes() {
  const m = S.match;
  if (!m || S.me === null) return;
  for (const t of (S.hand && S.hand.timeouts) || []) {
    const key = `${t.hand_no}:${t.at}`;
    if (t.seat !== S.me || notesShown.has(key)) continue;
    notesShown.add(key);
    const tile = t.tile ? tileName(t.tile) : "";
    note("timeout", fmt(t.drew ? T.timed_out_drew : T.timed_out, { tile }));
  }
  const mine = m.seats[S.me];
  if (mine && mine.away && !mine.left && running()) {
    note("away", T.away_note, T.back, () => {
      sendRaw({ type: "action", action: { type: "back" }, version: null });
    });
  } else {
    note("away", null);
  }
}

// --- toasts -------------------------------------------------------------------------------------

// --- pointer: drag and drop (mouse and touch), taps -----------------------------------------

pointerDrag({
  ...rackPress,
  tap: (drag) => tapCell(drag.from),
  drop(drag, target, event) {
    if (!target) return;
    const kind = target.dataset.drop;
    if (kind === "cell") {
      moveTile(drag.id, Number(target.dataset.i));
    } else if (kind === "discard") {
      discard(drag.id);
    } else if (kind === "group") {
      const rect = target.getBoundingClientRect();
      layOff(drag.id, Number(target.dataset.g), event.clientX < rect.left + rect.width / 2 ? "left" : "right");
    }
  },
});

function pick(id) {
  S.picked = id;
  render();
}

// K-R2: tap a tile, then the cell it should go to (taking the same tile puts it down).
function tapCell(index) {
  const cells = rackCells();
  const tile = cells[index];
  S.focus = index;
  if (!S.picked) {
    if (tile) pick(tile.id);
    return;
  }
  if (tile && tile.id === S.picked) {
    pick(null);
    return;
  }
  const id = S.picked;
  S.picked = null;
  moveTile(id, index);
  render();
}

// --- clicks on everything else ------------------------------------------------------------

const leaveDialog = $(".kt-leave-dialog");
const helpDialog = $(".kt-help-dialog");

root.addEventListener("click", (event) => {
  const cell = event.target.closest(".kt-cell");
  if (cell) {
    // Pointer taps are handled on pointerup; a click without a pointer (assistive
    // technology) that the keyboard handler did not already take acts as a tap.
    if (event.detail === 0 && performance.now() - S.keyAt > 100) tapCell(Number(cell.dataset.i));
    return;
  }
  const gap = event.target.closest(".kt-gap");
  if (gap) {
    toggleSeparator(Number(gap.dataset.at));
    return;
  }
  const group = event.target.closest(".kt-group");
  if (group) {
    if (S.picked) layOff(S.picked, Number(group.dataset.g));
    return;
  }
  const el = event.target.closest("[data-action]");
  if (!el || el.disabled) return;
  switch (el.dataset.action) {
    case "draw":
      draw();
      break;
    case "take":
      takeThrown();
      break;
    case "discard":
      if (S.picked) discard(S.picked);
      break;
    case "claim":
      claim();
      break;
    case "open":
    case "new_groups":
    case "auto_lay_off":
    case "arrange":
    case "undo":
      S.picked = null;
      act({ type: el.dataset.action });
      break;
    case "leave":
      leaveDialog.showModal();
      break;
    case "stay":
      leaveDialog.close();
      break;
    case "sound":
      toggleSound();
      break;
    case "help":
      helpDialog.showModal();
      break;
    case "close-dialog":
      el.closest("dialog").close();
      break;
    default:
      break;
  }
});

// --- keyboard ------------------------------------------------------------------------------------

function focusedTileId() {
  const el = document.activeElement;
  return el && el.classList.contains("kt-cell") ? el.dataset.id || null : null;
}

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target.closest && target.closest("dialog, input, select, textarea, .kt-lang")) return;
  if (!S.hand || S.me === null) return;
  const cell = target.closest && target.closest(".kt-cell");
  const key = event.key;
  if (cell && rackKey(event, cell, { tap: tapCell, separator: toggleSeparator })) return;
  const lower = key.length === 1 ? key.toLocaleLowerCase("en") : key;
  if (lower === "escape" || key === "Escape") {
    if (S.picked) {
      S.picked = null;
      render();
    }
    return;
  }
  if (lower === "d") {
    event.preventDefault();
    draw();
  } else if (lower === "a") {
    event.preventDefault();
    takeThrown();
  } else if (lower === "t") {
    event.preventDefault();
    claim();
  } else if (lower === "x" || key === "Delete") {
    const id = S.picked || focusedTileId();
    if (id) {
      event.preventDefault();
      discard(id);
    }
  }
});

// --- issue 15 (feel): Görevi Aç that tells the truth, owners, motion, sound ----------------
//
// Kept in one block: the hooks above call feelFrame (every accepted frame), feelOpenAdvice
// (a task_mismatch error), feelPositions/feelAnimate (around render), feelOwnerTag (a
// table group), feelButtons (after the buttons) and feelTick (the turn timer).

const OWNER_STYLE = ["me", "right", "across", "left"]; // by seat relative to me (rel())

// Görevi Aç: emphasised when the solver says the tiles can form the task (the view's
// task_ready), quiet when they cannot (K-O2, K-O5).
function feelButtons(enable) {
  const open = $('.kt-btn[data-action="open"]');
  const ready = Boolean(S.hand && S.hand.task_ready);
  open.classList.toggle("is-ready", enable.open && ready);
  open.classList.toggle("is-quiet", enable.open && !ready);
  open.dataset.ready = S.hand && S.hand.task_ready !== null && S.hand.task_ready !== undefined ? String(ready) : "";
}

// A failed opening (K-O5): either the tiles are there and only the layout is wrong —
// offer Diz (K-R4) — or they are not, and the message says so.
function feelOpenAdvice() {
  if (!S.hand || S.hand.task_ready === null || S.hand.task_ready === undefined) return false;
  clearErrorToasts();
  if (!S.hand.task_ready) {
    toast(T.open_no_tiles, "error");
    return true;
  }
  const el = toast(T.open_layout, "error");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "kt-toast-action";
  button.dataset.action = "arrange-from-toast";
  button.textContent = T.arrange_now;
  button.addEventListener("click", () => {
    el.remove();
    S.picked = null;
    act({ type: "arrange" });
  });
  el.append(" ", button);
  return true;
}

function clearErrorToasts() {
  $$(".kt-toast-error").forEach((el) => el.remove());
}

// Who laid what: a tag with the owner's short name (colour-blind safe: text and a border
// style per seat, not colour alone).
function feelOwnerTag(owner) {
  const info = S.match && S.match.seats[owner];
  let short = "";
  if (owner === S.me) short = T.you_short;
  else if (info && info.bot) short = fmt(T.bot_short, { n: owner + 1 });
  else short = Array.from(seatName(owner)).slice(0, 2).join("");
  return `<span class="kt-owner kt-owner-${OWNER_STYLE[rel(owner)]}" aria-hidden="true" title="${esc(seatName(owner))}">${esc(short)}</span>`;
}

// Motion: tiles that moved on the rack (a drag, a tap, Diz, a tile drawn) glide to their
// new cell (FLIP, 180 ms); none under prefers-reduced-motion.
function feelPositions() {
  if (reducedMotion.matches || S.drag) return null;
  const at = new Map();
  for (const cell of $$(".kt-cell.has-tile")) {
    const tile = cell.querySelector(".kt-tile");
    if (tile) at.set(cell.dataset.id, tile.getBoundingClientRect());
  }
  return at;
}

function feelAnimate(before) {
  if (!before || !before.size || typeof Element.prototype.animate !== "function") return;
  for (const cell of $$(".kt-cell.has-tile")) {
    const tile = cell.querySelector(".kt-tile");
    const old = before.get(cell.dataset.id);
    if (!tile) continue;
    const now = tile.getBoundingClientRect();
    if (!old) {
      tile.animate([{ transform: "translateY(-40%) scale(0.85)", opacity: 0.2 }, { transform: "none", opacity: 1 }], { duration: 200, easing: "ease-out" });
      continue;
    }
    const dx = old.left - now.left;
    const dy = old.top - now.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    tile.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: 180, easing: "ease-out" });
  }
}

// Sound (the existing toggle; WebAudio, no files): your turn, a claim, a hand's end, the
// last 10 seconds of your turn, and a fanfare for the match's winner.
const SOUNDS = {
  turn: [[660, 0, 0.12], [880, 0.12, 0.18]],
  claimable: [[520, 0, 0.1], [700, 0.1, 0.1]],
  claim: [[392, 0, 0.09], [523, 0.08, 0.09], [784, 0.16, 0.16]],
  hand_end: [[784, 0, 0.14], [659, 0.14, 0.14], [523, 0.28, 0.3]],
  tick: [[1200, 0, 0.04]],
  fanfare: [[523, 0, 0.14], [659, 0.14, 0.14], [784, 0.28, 0.14], [1047, 0.42, 0.5]],
};

function feelSound(name) {
  root.dataset.lastSound = name; // what the table would play (the browser tests read it)
  if (!soundOn) return;
  try {
    audio = audio || new AudioContext();
    if (audio.state === "suspended") audio.resume();
    const t0 = audio.currentTime;
    for (const [freq, at, length] of SOUNDS[name] || []) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = name === "tick" ? "square" : "triangle";
      osc.frequency.setValueAtTime(freq, t0 + at);
      gain.gain.setValueAtTime(0.0001, t0 + at);
      gain.gain.exponentialRampToValueAtTime(name === "tick" ? 0.06 : 0.18, t0 + at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(t0 + at);
      osc.stop(t0 + at + length + 0.02);
    }
  } catch {
    // no audio here: the title, the favicon and the screen still tell
  }
}

let lastTickSecond = null;

function feelTick(active, left) {
  const mine = active.closest(".kt-seat-me") !== null;
  const second = Math.ceil(left / 1000);
  if (!mine || left <= 0 || second > 10) {
    lastTickSecond = null;
    return;
  }
  if (second !== lastTickSecond) {
    lastTickSecond = second;
    feelSound("tick");
  }
}

function feelFrame(before, accepted) {
  const h = S.hand;
  const m = S.match;
  if (accepted) {
    clearErrorToasts(); // an accepted move: the last error no longer applies
    if (accepted.type === "arrange" && h && !h.over && h.task_ready === false) toast(T.arrange_no_task, "info");
  }
  if (!before.hand || !h || !m || !before.match || before.match.hand_no !== m.hand_no) {
    if (before.match && m && before.match.status !== "finished" && m.status === "finished") celebrate();
    return;
  }
  // A claim (K-C3): a seat other than the one to play got the thrown tile and a penalty tile.
  for (let s = 0; s < 4; s++) {
    const was = before.hand.seats[s].count;
    if (s !== h.turn && s !== before.hand.turn && h.seats[s].count === was + 2) feelSound("claim");
  }
  if (!before.hand.over && h.over) feelSound("hand_end");
  if (before.match.status !== "finished" && m.status === "finished") celebrate();
}

// The match's winner: confetti over the final table (none under reduced motion) and a fanfare.
function celebrate() {
  const m = S.match;
  if (!m || !m.winners || !m.winners.length) return;
  feelSound("fanfare");
  const card = $(".kt-overlay-card");
  card.classList.add("is-celebrating");
  root.dataset.celebrated = m.winners.join(",");
  if (reducedMotion.matches) return;
  const layer = document.createElement("div");
  layer.className = "kt-confetti";
  layer.setAttribute("aria-hidden", "true");
  const colours = ["#c62828", "#f2b705", "#1f5fae", "#1b1b1b", "#1f8a3a"];
  for (let i = 0; i < 60; i++) {
    const bit = document.createElement("i");
    bit.style.left = `${(i * 37) % 100}%`;
    bit.style.background = colours[i % colours.length];
    bit.style.animationDelay = `${(i % 12) * 60}ms`;
    bit.style.setProperty("--drift", `${((i * 53) % 120) - 60}px`);
    layer.append(bit);
  }
  $(".kt-overlay").append(layer);
  setTimeout(() => layer.remove(), 3200);
}

// --- start -----------------------------------------------------------------------------------------

renderSound();
setStatus(T.connecting);
sock.start();
