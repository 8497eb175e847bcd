// Loaded by templates/lobby/_socket.html (a file, not an inline script: the site's
// Content-Security-Policy allows scripts from this site only, issue 16).
/* Lobby live updates: the server pushes whole HTML fragments (snapshots) over the
   socket named by data-lobby-socket; a lost message is repaired by the next one, and a
   reconnect receives a fresh snapshot. */
(() => {
  const box = document.querySelector("[data-lobby-socket]");
  // The lists are the same for every player (one render per change); the page marks the
  // player's own table, where "Sit here" is not offered (issue 29: they sit there already).
  const markMine = () => {
    const me = box && box.dataset.me;
    if (!me) return;
    for (const card of box.querySelectorAll(".table-card[data-seated]")) {
      card.classList.toggle("is-mine", card.dataset.seated.split(" ").includes(me));
    }
  };
  markMine();
  if (!box || !("WebSocket" in window)) return;
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + box.dataset.lobbySocket;
  let delay = 1000;
  let stop = false;
  // One navigation at a time. The host's start form posts through htmx and is answered
  // with HX-Redirect to the match while the server's socket says the same: whichever
  // comes second must not abort the navigation the first one started (net::ERR_ABORTED).
  let leaving = false;
  window.addEventListener("beforeunload", () => { leaving = true; });
  window.addEventListener("pageshow", () => { leaving = false; }); // back from the cache
  // htmx follows HX-Redirect after htmx:beforeOnLoad; cancelling it leaves the navigation
  // under way alone (htmx still ends the request). htmx fires it on the form itself, which
  // a snapshot may have taken out of the page by then (the match started: a new
  // #table-live), where nothing bubbles: so the guard goes on the form when it sends.
  const guard = (event) => {
    const xhr = event.detail && event.detail.xhr;
    if (leaving && xhr && xhr.getResponseHeader("HX-Redirect")) event.preventDefault();
  };
  document.addEventListener("htmx:beforeRequest", (event) => {
    event.target.addEventListener("htmx:beforeOnLoad", guard);
  });
  const connect = () => {
    const ws = new WebSocket(url);
    ws.onopen = () => { delay = 1000; };
    ws.onmessage = (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch (e) { return; }
      if (msg.type === "html") {
        const target = document.getElementById(msg.target);
        if (target) {
          target.innerHTML = msg.html;
          if (window.htmx) window.htmx.process(target);
          markMine();
        }
      } else if (msg.type === "redirect" && typeof msg.url === "string" && msg.url.startsWith("/") && !msg.url.startsWith("//")) {
        stop = true;
        if (!leaving) {
          leaving = true;
          window.location.assign(msg.url);
        }
      } else if (msg.type === "kicked") {
        stop = true;
        window.location.reload();
      }
    };
    ws.onclose = (event) => {
      if (stop || event.code >= 4000) return;
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 15000);
    };
  };
  connect();
})();
