// Kastet — the game table (kastet.md; vanilla JS modules, no build step).
//
// The server is the authority: after every change it sends this seat a "state" frame
// {type, version, layout, match, me, hand} — or what changed, which ../js/frames.js turns
// into that frame (issue 22) — (game/frames.py; the hand is
// games/kastet/engine/views.py) and this module renders it.  The player edits a private
// draft of the run area (S-L8): tiles are dragged (mouse and touch through Pointer
// Events) or picked and placed (tap or keyboard) from the rack or from ANY table group
// into another group, a new group or — once the 26 slots are full — a new pair (S-L5).
// Invalid groups are marked at once by a local mirror of the engine's check
// (games/kastet/engine/groups.py: check_draft); *Aç* sends the whole draft as one lay
// and the server's answer is the truth.  *Geri Al* resets the draft, or undoes the
// turn's last accepted lay (S-U1).  The rack's own order is the seat's private
// "arrange" action (GAME.private_kinds).  Every word comes from #ks-strings.
//
// This module holds the table's state and its moves on the socket; ./draft.js keeps the
// draft, ./view.js draws, ./input.js takes the player's drops, taps, clicks and keys —
// each a function of the table `t` (its element, strings, state, the okey kit and every
// module's functions, read when called).

import { tableKit } from "../okey/table-kit.js";
import { kastetDraft } from "./draft.js";
import { kastetInput } from "./input.js";
import { kastetNotes } from "./notes.js";
import { kastetView } from "./view.js";

const root = document.getElementById("kt");
const T = JSON.parse(document.getElementById("ks-strings").textContent);
const PRIVATE = new Set(["arrange"]);

const matchId = Number(root.dataset.match);

const S = { version: -1, layout: 0, match: null, hand: null, me: null, offset: 0, lastFrameAt: 0, picked: null, drag: null, deferred: false, draft: null, passAfter: false, deckDragEnd: 0 };
const net = { inflight: null }; // the one move in flight (the socket itself: ../js/match-socket.js)

// The table: what every module works on.  The shared parts of the tile tables (names,
// presence, status, toasts, drag end, clock) come from ../okey/table-kit.js.
const t = { root, T, S, board: root.querySelector(".kt-board") };
const kit = tableKit({ root, S, T, statusText: () => t.statusText(), render: () => t.render() });
Object.assign(t, kit, { tick: () => kit.tick("ks") }); // the clock box is .ks-clock
const { openSocket, setStatus, toast } = t;
Object.assign(t, kastetView(t), kastetDraft(t), kastetNotes(t));
const { render } = t;

// --- the socket (one place: frames in, actions out) ----------------------------------------
// ../js/match-socket.js owns connecting, back-off, close codes, ping, sync and the change
// frames (issue 22); this table only says what a frame, an error and a close mean here.

const sock = openSocket(matchId, net, { onFrame: (frame) => onState(frame), onError: (msg) => onError(msg) });
const sendRaw = (message) => sock.send(message);
const requestSync = (minGap) => sock.requestSync(minGap);

// What a draft is drawn on: the table, the turn and the rack's tiles (not their order).
function tableSig(h) {
  if (!h) return "";
  const rack = h.rack ? h.rack.cells.filter(Boolean).map((c) => c.id).sort() : [];
  return JSON.stringify([h.hand_no, h.turn, h.over, h.laid_this_turn, h.table.map((g) => g.tiles.map((tile) => tile.id)), h.pairs.length, rack]);
}

function onState(msg) {
  if (typeof msg.version !== "number" || msg.version < S.version) return; // an older frame
  const layout = typeof msg.layout === "number" ? msg.layout : 0;
  if (msg.version === S.version && layout < S.layout) return; // an older layout frame
  const gap = S.version >= 0 && msg.version > S.version + 1;
  const accepted = net.inflight && (msg.version > net.inflight.at || layout > S.layout);
  const before = tableSig(S.hand);
  const hadDraft = t.dirty();
  S.version = msg.version;
  S.layout = layout;
  S.match = msg.match;
  S.hand = msg.hand;
  S.me = msg.me;
  S.lastFrameAt = Date.now();
  if (msg.match && typeof msg.match.server_time === "number") S.offset = msg.match.server_time - Date.now();
  // The table moved (a lay accepted, an undo, a draw, a timeout, the next turn): the
  // draft is rebuilt from the table as it is (S-N7: an unsent draft is dropped).  A frame
  // that changes none of that (a seat's presence, the rack's own order) keeps it.
  if (tableSig(S.hand) !== before) S.draft = null;
  if (S.picked && !t.findTile(S.picked)) S.picked = null;
  t.showTimeouts(hadDraft && !t.dirty()); // S-N7: what the timer did, once (./notes.js)
  if (gap) requestSync();
  document.dispatchEvent(new CustomEvent("kut:frame", { detail: msg }));
  if (accepted) finishInflight();
  // S-L8: Pas with a pending draft sends it first and passes only once it is accepted.
  if (S.passAfter && accepted) {
    S.passAfter = false;
    if (t.myTurn() && S.hand.laid_this_turn && t.can("pass")) act({ type: "pass" });
  }
  if (S.drag && S.drag.started) S.deferred = true;
  else render();
}

function onError(msg) {
  const code = msg.code || "";
  finishInflight();
  S.passAfter = false;
  root.dataset.errors = String(Number(root.dataset.errors || 0) + 1);
  root.dataset.lastError = code;
  if (code === "replaced" || code === "stale_version") return;
  toast((T.errors && T.errors[code]) || msg.message || code, "error");
  render(); // the draft stays for correction, its invalid groups marked (S-L8)
}

function act(action) {
  if (S.me === null || !sock.isOpen()) return false;
  if (PRIVATE.has(action.type)) {
    sendRaw({ type: "action", action }); // private: no shared version
    return true;
  }
  if (net.inflight) return false; // one move at a time: the next frame decides the next
  t.clearTimeoutNote(); // the player plays on: the timer's note is seen
  net.inflight = { at: S.version, timer: setTimeout(finishInflight, 5000) };
  sendRaw({ type: "action", action, version: S.version });
  return true;
}

function finishInflight() {
  if (net.inflight) clearTimeout(net.inflight.timer);
  net.inflight = null;
}

Object.assign(t, { act, sendRaw });
kastetInput(t);

// --- the clock: the move countdown (S-N6), the 10-second pause (S-M4), the watchdog ---------

setInterval(t.tick, 250);

// --- start ----------------------------------------------------------------------------------

setStatus(T.connecting);
sock.start();
