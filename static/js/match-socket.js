// The match socket, shared by every game's table: ONE copy of connecting, reconnecting
// with back-off, the close codes, the page's online / visibility / page-cache events, the
// 25-s ping, "sync" and the change frames (issue 22, ./frames.js).
//
//   import { openMatchSocket } from "../js/match-socket.js";   // from games/<key>/static/<key>/
//   const sock = openMatchSocket({
//     matchId,
//     onFrame: (frame) => ...,          // every full state frame (a snapshot or a change applied)
//     onError: (msg) => ...,            // {type: "error", code, message}
//     onOpen: () => ...,                // the socket is open (again)
//     onClose: ({ code, final, reason }) => ...,  // reason: "kicked" (4008), "replaced"
//                                       // (4009: the seat opened in another tab),
//                                       // "cannot_join" (4001/4003/4004) — all final —
//                                       // or "reconnecting"
//   });
//   sock.send({type: "action", ...}); sock.requestSync(); sock.isOpen(); sock.reconnect();
//
// A final close stops the socket (a 4009 tab never reconnects on its own: it would knock
// the other tab off in turn); reconnect() starts it again (KÜT's "Burada oyna").

import { frameStream, socketUrl } from "./frames.js";

export const PERMANENT_CLOSE = new Set([4001, 4003, 4004, 4008]);
export const REPLACED = 4009;
const PING_MS = 25000;

function closeReason(code) {
  if (code === 4008) return "kicked";
  if (code === REPLACED) return "replaced";
  if (PERMANENT_CLOSE.has(code)) return "cannot_join";
  return "reconnecting";
}

export function matchSocketUrl(matchId) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return socketUrl(`${proto}//${location.host}/ws/match/${matchId}/`);
}

export function openMatchSocket({ matchId, onFrame, onError, onOpen, onClose, onConnect, connectNow = true }) {
  const net = { ws: null, open: false, everOpened: false, attempts: 0, stopped: false, retryTimer: null, lastSync: 0 };

  function send(message) {
    if (!net.ws || !net.open) return false;
    net.ws.send(JSON.stringify(message));
    return true;
  }

  // issue 22: a snapshot, then what changed; a change that does not fit asks for a snapshot
  const frames = frameStream(() => send({ type: "sync" }));

  function onMessage(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    const frame = frames.take(msg); // a snapshot, or a change applied (frames.js)
    if (frame) onFrame(frame);
    else if (msg.type === "error" && onError) onError(msg);
  }

  function connect() {
    if (net.stopped) return;
    clearTimeout(net.retryTimer);
    if (onConnect) onConnect();
    const ws = new WebSocket(matchSocketUrl(matchId));
    net.ws = ws;
    ws.addEventListener("open", () => {
      if (net.ws !== ws) return;
      net.open = true;
      net.attempts = 0;
      if (net.everOpened) send({ type: "sync" }); // reconnected: ask for the latest state
      net.everOpened = true;
      if (onOpen) onOpen();
    });
    ws.addEventListener("message", (event) => {
      if (net.ws === ws) onMessage(event.data);
    });
    ws.addEventListener("close", (event) => {
      if (net.ws !== ws) return;
      net.ws = null;
      net.open = false;
      const reason = closeReason(event.code);
      const final = reason !== "reconnecting";
      if (final) net.stopped = true;
      else {
        const delay = Math.min(15000, 500 * 2 ** net.attempts) * (0.75 + Math.random() * 0.5);
        net.attempts += 1;
        net.retryTimer = setTimeout(connect, delay);
      }
      if (onClose) onClose({ code: event.code, final, reason });
    });
  }

  function reconnectNow() {
    if (!net.ws && !net.stopped) connect();
  }

  window.addEventListener("online", reconnectNow);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") reconnectNow();
  });
  window.addEventListener("pagehide", () => {
    net.stopped = true;
    clearTimeout(net.retryTimer);
    if (net.ws) net.ws.close(1000);
  });
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return; // back from the page cache: join the table again
    net.stopped = false;
    net.attempts = 0;
    reconnectNow();
  });
  setInterval(() => send({ type: "ping" }), PING_MS);

  if (connectNow) connect();

  return {
    send,
    isOpen: () => net.open,
    // a fresh snapshot, at most once per minGap ms (a version gap, a stale action)
    requestSync(minGap = 2000) {
      if (!net.open || Date.now() - net.lastSync < minGap) return;
      net.lastSync = Date.now();
      send({ type: "sync" });
    },
    // start again after a final close (KÜT's "Burada oyna" after 4009)
    reconnect() {
      net.stopped = false;
      net.attempts = 0;
      reconnectNow();
    },
    start: reconnectNow,
    close() {
      net.stopped = true;
      clearTimeout(net.retryTimer);
      if (net.ws) net.ws.close(1000);
    },
  };
}
