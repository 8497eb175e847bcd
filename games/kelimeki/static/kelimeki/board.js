// Kelimeki — the board in the browser (vanilla JS modules, no build step; rules:
// kelimeki.md, W-…) of games/kelimeki/templates/kelimeki/table.html.  Every game is a
// match of the platform — a live one, a recorded one against the AI, or an unrecorded one
// at /kelimeki/ (a guest's, issue 27): frames come over the match socket
// ({type: "state", version, match, me, hand}, game/frames.py — after the first one, what
// changed, which ../js/frames.js turns into that frame: issue 22) and moves go back as
// {"type": "action", "action": {...}, "version": v}.  The AI moves in the background at
// the site's pace: its word arrives as a frame of its own, and meanwhile its row shows
// it "thinking" (issue 29).  The page at /kelimeki/ without a game has no match (the
// start form only): no socket then.
//
// Every frame goes through onFrame() (the one place that accepts frames).  The server is
// the authority: tentative tiles (before Oyna) live here only and are never sent to
// anyone but the preview endpoint of this seat (W-T5, W-M7).  Every word shown comes from
// #kk-strings.
//
// This module holds the board's state, its helpers and its moves on the socket; the rest
// is by concern, each a function of the board `t` (its element, strings, state and every
// module's functions, read when called): ./play.js keeps the move being laid (rack order,
// tentative tiles, preview), ./view.js draws, ./input.js takes the player's drags, taps,
// keys and buttons, ./zoom.js zooms the board (pinch, double tap), ./notes.js says what
// stays until dealt with (a timeout, another tab).

import { openMatchSocket } from "../js/match-socket.js";
import { fmt } from "../js/text.js";
import { toaster } from "../js/toast.js";
import { kelimekiInput } from "./input.js";
import { kelimekiNotes } from "./notes.js";
import { kelimekiPlay } from "./play.js";
import { kelimekiView } from "./view.js";
import { kelimekiZoom } from "./zoom.js";

const root = document.getElementById("kk");
const T = JSON.parse(document.getElementById("kk-strings").textContent);
const LETTERS = Array.from(T.letters); // W-T1

const $ = (sel, el = root) => el.querySelector(sel);
const toast = toaster(root, "kk");

const S = { version: -1, match: null, hand: null, me: null, frameAt: 0 };
// The player's own table: the rack's order (Karıştır, W-T6), the tentative tiles, the
// selected tile, the exchange choice.  Items: {id, tile}.
const UI = { order: [], nextId: 1, tent: [], selected: null, exchange: null, focus: 112, dir: "row", previewSeq: 0, overlayClosed: false, jokerAt: null, log: [] };

// --- helpers ---------------------------------------------------------------------------------

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

// The board: what every module works on (the board's cells are built by ./view.js).
const t = { root, T, S, UI, LETTERS, $, toast, boardEl: $(".kk-board"), cells: [] };
Object.assign(t, { lowerTr, upperTr, setStatus, isAi, seatName, myTurn, busy, errorText });

// --- the match socket -------------------------------------------------------------------------

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
      // another tab of this seat took the table: Burada oyna takes it back (issue 29)
      if (reason === "replaced") t.replaced(() => sock.reconnect());
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
  S.frameAt = Date.now();
  if (msg.match && typeof msg.match.server_time === "number") S.clockOffset = msg.match.server_time - Date.now();
  root.dataset.busy = "0";
  if (gap) transport.sync();
  remember(msg);
  t.reconcile();
  document.dispatchEvent(new CustomEvent("kut:frame", { detail: msg })); // the page's other scripts
  t.render();
  t.showNotes(); // a move deadline that ran out (W-X3, W-E6), once
  t.schedulePreview();
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
  t.render();
}

function act(action) {
  if (S.me === null || S.me === undefined || !transport) return;
  transport.act(action);
}

Object.assign(t, { act });
Object.assign(t, kelimekiView(t), kelimekiPlay(t), kelimekiNotes(t));
Object.assign(t, kelimekiInput(t), kelimekiZoom(t));

setInterval(t.renderClock, 20000); // the minutes change (W-X3)
// The move deadline passed (W-X3): the server forfeits the seat (W-E6) in a process that
// may hold no socket of this table, so ask for the state until it comes (issue 29).
setInterval(() => {
  const m = S.match;
  if (!transport || !m || m.status !== "playing" || !m.deadline) return;
  if (Date.now() + (S.clockOffset || 0) > m.deadline + 700 && Date.now() - S.frameAt > 700) transport.sync();
}, 1000);

// --- start ------------------------------------------------------------------------------------

t.buildBoard();
t.buildJokerPicker();
const newDialog = $(".kk-new-dialog");
if (newDialog && newDialog.dataset.open === "1") newDialog.showModal();
if (transport) transport.start();
