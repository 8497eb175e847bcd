// Loaded by templates/lobby/_socket.html (a file, not an inline script: the site's
// Content-Security-Policy allows scripts from this site only, issue 16).
/* Lobby live updates: the server pushes whole HTML fragments (snapshots) over the
   socket named by data-lobby-socket; a lost message is repaired by the next one, and a
   reconnect receives a fresh snapshot. */
(() => {
  const box = document.querySelector("[data-lobby-socket]");
  if (!box || !("WebSocket" in window)) return;
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + box.dataset.lobbySocket;
  let delay = 1000;
  let stop = false;
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
        }
      } else if (msg.type === "redirect" && typeof msg.url === "string" && msg.url.startsWith("/") && !msg.url.startsWith("//")) {
        stop = true;
        window.location.assign(msg.url);
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
