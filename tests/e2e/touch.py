"""Touch targets (issue 29 item 8): every interactive element of a page at least 40×40
CSS px.  ``too_small(page)`` lists the visible ones that are smaller, with their size;
``smallest(page)`` the smallest size found (for the report)."""

from __future__ import annotations

from pathlib import Path

SCREENS = Path(__file__).resolve().parents[2] / "var" / "screenshots"  # every table's

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


def measure(page, game: str, where: str, within: str = "") -> tuple[list, list]:
    """Every touch target at least 40×40 (issue 29 item 8), the smallest printed for the
    report; returns (targets, separators).  ``within``: only the targets inside these
    elements (a card over the table).  The okey racks' separators (``.kt-gap``, a few px
    between two cells) are measured apart: a 40-px hit area there would take the cells'
    own (Seri Diz / Çift Diz and empty cells set groups apart too)."""
    found = targets(page)
    if within:  # the same measure, on what lies inside ``within`` only
        scoped = ", ".join(f"{box.strip()} {sel.strip()}" for box in within.split(",")
                           for sel in INTERACTIVE.split(", "))  # fmt: skip
        found = page.evaluate(MEASURE_JS, [scoped, MIN, ""])
    gaps = [t for t in found if "ayırıcı" in t["name"]]
    rest = [t for t in found if t not in gaps]
    small = [t for t in rest if t["w"] < MIN or t["h"] < MIN]
    least = (min(t["w"] for t in rest), min(t["h"] for t in rest)) if rest else (0, 0)
    print(
        f"\n[touch] {game} {where}: smallest {least} of {len(rest)} targets; "
        f"{len(gaps)} separators {gaps[0]['w'] if gaps else '-'}×{gaps[0]['h'] if gaps else '-'}"
    )
    assert small == [], small
    return rest, gaps


def screenshot(page, name: str) -> None:
    """The page as ``var/screenshots/<name>.png`` (issue 29: every table, desktop and phone)."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"))
