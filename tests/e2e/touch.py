"""Touch targets (issue 29 item 8): every interactive element of a page at least 40×40
CSS px.  ``too_small(page)`` lists the visible ones that are smaller, with their size;
``smallest(page)`` the smallest size found (for the report)."""

from __future__ import annotations

MIN = 40

# what a finger can act on: controls, links, and whatever a table makes tappable
INTERACTIVE = (
    "button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button], "
    "[tabindex]:not([tabindex='-1']), [draggable=true]"
)

MEASURE_JS = """([selector, min, extra]) => {
  const out = [];
  const seen = new Set();
  for (const el of document.querySelectorAll(selector + (extra ? ", " + extra : ""))) {
    if (seen.has(el)) continue;
    seen.add(el);
    if (el.closest("[hidden], [inert], dialog:not([open])")) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none") continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    // only what is on the screen now (a scrolled list's rows are measured as they are)
    if (r.bottom < 0 || r.right < 0 || r.top > innerHeight || r.left > innerWidth) continue;
    // the hit area may be larger than the box: a ::after/::before with an inset (measured)
    let w = r.width, h = r.height;
    for (const pseudo of ["::before", "::after"]) {
      const p = getComputedStyle(el, pseudo);
      if (p.content === "none" || p.position !== "absolute" || p.pointerEvents === "none") continue;
      const pw = parseFloat(p.width), ph = parseFloat(p.height);
      if (pw > w) w = pw;
      if (ph > h) h = ph;
    }
    const name = (el.getAttribute("aria-label") || el.textContent || el.className || el.tagName)
      .toString().trim().replace(/\\s+/g, " ").slice(0, 40);
    out.push({ name, tag: el.tagName.toLowerCase(), w: Math.round(w * 10) / 10, h: Math.round(h * 10) / 10 });
  }
  return out;
}"""


def targets(page, extra: str = "") -> list[dict]:
    """Every visible interactive element on the screen with its hit size."""
    return page.evaluate(MEASURE_JS, [INTERACTIVE, MIN, extra])


def too_small(page, extra: str = "", minimum: int = MIN) -> list[dict]:
    return [t for t in targets(page, extra) if t["w"] < minimum or t["h"] < minimum]


def smallest(page, extra: str = "") -> tuple[float, float]:
    found = targets(page, extra)
    return (min(t["w"] for t in found), min(t["h"] for t in found)) if found else (0, 0)
