// KÜT — the game table (vanilla JS modules, no build step).
//
// The server is the authority: it sends this seat a full "state" frame, then after every
// change what changed (issue 22: ../js/frames.js turns it into the full frame; kut.md;
// game/frames.py) and this table renders it.  Moves go back as
// {"type": "action", "action": {...}, "version": n}.  Older frames are ignored; a
// version gap, a reconnect or a silent socket where a bot or a timer should have moved
// asks for a fresh snapshot ({"type": "sync"}).  Every word shown comes from the
// translated strings the page renders into #kt-strings (no mixed-language screens).
//
// This module holds the table's state and its moves on the socket; the rest is by
// concern, each a function of the table `t` (its element, strings, state, the okey kit
// and every module's functions, read when called): ./view.js draws the frame, ./input.js
// takes the player's moves (drag, taps, keys, clicks, dialogs), ./clock.js keeps time,
// ./moves.js shows other players' moves, the claim window and the winner's moment,
// ./sound.js calls the player (title, favicon, sounds), ./notes.js tells what stays.

import { openMatchSocket } from "../js/match-socket.js";
import { tableKit } from "../okey/table-kit.js";
import { kutClock } from "./clock.js";
import { kutInput } from "./input.js";
import { kutMoves } from "./moves.js";
import { kutNotes } from "./notes.js";
import { kutSound } from "./sound.js";
import { kutView } from "./view.js";

const root = document.getElementById("kt");
const T = JSON.parse(document.getElementById("kt-strings").textContent);

const LAYOUT = new Set(["layout", "move", "separator", "arrange"]);
const RETRYABLE = new Set(["draw", "discard", "open", "new_groups", "auto_lay_off", "arrange", "undo", "lay_off"]);

const matchId = Number(root.dataset.match);

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

// The table: what every module works on.  The shared parts of the tile tables come from
// ../okey/table-kit.js; each module adds its functions.
const t = { root, T, S, board: root.querySelector(".kt-board") };
Object.assign(t, tableKit({ root, S, T, statusText: () => t.statusText(), render: () => t.render(), requestSync: (minGap) => sock.requestSync(minGap) }));
Object.assign(t, kutView(t), kutClock(t), kutSound(t), kutMoves(t), kutNotes(t));
const { setStatus, toast } = t;
const { can, rackHas, render } = t;
const { note } = t;

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
  const before = { match: S.match, hand: S.hand }; // issue 15: sounds, celebration
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
    t.showMoves(previous, S.hand);
  }
  t.showNotes();
  t.answered(accepted); // the notes after a move (./notes.js)
  t.frameSounds(before); // a claim, the hand's end (./sound.js)
  if (before.match && S.match && before.match.status !== "finished" && S.match.status === "finished") t.celebrate();
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
    else t.askEnd(item.action);
    pump();
    return;
  }
  root.dataset.errors = String(Number(root.dataset.errors || 0) + 1);
  root.dataset.lastError = code;
  if (code === "replaced") return; // the "another tab" panel says it (close code 4009)
  if (code === "task_mismatch" && t.openAdvice()) {
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

Object.assign(t, { act, sendRaw, requestSync });
Object.assign(t, kutInput(t));

setInterval(t.tick, 250);

// --- start -----------------------------------------------------------------------------------------

t.renderSound();
setStatus(T.connecting);
sock.start();
