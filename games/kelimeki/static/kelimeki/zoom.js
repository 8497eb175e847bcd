// Zooming Kelimeki's board (issue 29): on a phone the whole board's cells are about 25 px,
// so a finger can pinch it larger, double-tap it (2×, again: back to 1×), or press the
// zoom tool (⤢, mouse and keyboard: around the focused square).  The board grows inside
// its area (.kk-board-wrap scrolls; one finger pans it as any scrolled box); the point
// under the fingers stays where it was.  Only the board's size changes (--zoom): tiles,
// taps and drags work as before.  `t` is the board (./board.js).

const MAX = 3;
const DOUBLE = 2; // a double tap's zoom
const TAP_MS = 350;
const TAP_PX = 30;

export function kelimekiZoom(t) {
  const { root, UI, $, boardEl } = t;
  const wrap = $(".kk-board-wrap");
  const button = $(".kk-zoom");
  let zoom = 1;
  let pinch = null; // two fingers on the board: {d: their first spread, zoom then}

  function setZoom(value, x, y) {
    const next = Math.min(MAX, Math.max(1, value < 1.05 ? 1 : value));
    const before = boardEl.getBoundingClientRect();
    const fx = (x - before.left) / before.width;
    const fy = (y - before.top) / before.height;
    zoom = next;
    root.style.setProperty("--zoom", String(next));
    root.dataset.zoom = next.toFixed(2);
    wrap.classList.toggle("is-zoomed", next > 1);
    if (button) button.setAttribute("aria-pressed", next > 1 ? "true" : "false");
    // keep the point (x, y) of the board where it was
    const after = boardEl.getBoundingClientRect();
    wrap.scrollLeft += after.left + fx * after.width - x;
    wrap.scrollTop += after.top + fy * after.height - y;
  }

  function toggleAt(x, y) {
    setZoom(zoom > 1 ? 1 : DOUBLE, x, y);
  }

  // the zoom tool: around the focused square
  if (button) {
    button.addEventListener("click", () => {
      const cell = t.cells[UI.focus] || boardEl;
      const r = cell.getBoundingClientRect();
      toggleAt(r.left + r.width / 2, r.top + r.height / 2);
    });
  }

  // a double tap of a finger (not on a tile being laid, not while a tile is selected:
  // those taps place or take back a tile)
  let lastTap = null;
  wrap.addEventListener("pointerup", (event) => {
    if (event.pointerType !== "touch" || pinch) return;
    const free = UI.selected === null && !event.target.closest(".kk-tile.tent");
    const now = performance.now();
    if (free && lastTap && now - lastTap.at < TAP_MS && Math.hypot(event.clientX - lastTap.x, event.clientY - lastTap.y) < TAP_PX) {
      lastTap = null;
      toggleAt(event.clientX, event.clientY);
      return;
    }
    lastTap = free ? { at: now, x: event.clientX, y: event.clientY } : null;
  });

  // two fingers pinch
  const spread = (e) => Math.hypot(e.touches[0].clientX - e.touches[1].clientX, e.touches[0].clientY - e.touches[1].clientY);
  const middle = (e) => [(e.touches[0].clientX + e.touches[1].clientX) / 2, (e.touches[0].clientY + e.touches[1].clientY) / 2];
  wrap.addEventListener(
    "touchstart",
    (event) => {
      if (event.touches.length === 2) {
        pinch = { d: spread(event) || 1, zoom };
        lastTap = null;
      }
    },
    { passive: true },
  );
  wrap.addEventListener(
    "touchmove",
    (event) => {
      if (!pinch || event.touches.length !== 2) return;
      event.preventDefault(); // the board zooms, not the page
      const [x, y] = middle(event);
      setZoom((pinch.zoom * spread(event)) / pinch.d, x, y);
    },
    { passive: false },
  );
  wrap.addEventListener("touchend", (event) => {
    if (event.touches.length < 2) setTimeout(() => (pinch = null), 0);
  });

  return { setZoom };
}
