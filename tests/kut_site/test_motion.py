"""Motion respects ``prefers-reduced-motion`` (the product brief): every rule in the
site's style sheets that animates has an answer in a ``prefers-reduced-motion: reduce``
block — its own selector, an ancestor of it (hidden or stilled there), or a table-wide
``… *`` rule in the same sheet.  KDVli's clock once blinked for everyone."""

from __future__ import annotations

import re

from tests.conftest import ROOT

# the platform's style sheets and every game's home's (games/<key>/static/<key>/)
CSS = sorted(
    [*(ROOT / "static" / "css").rglob("*.css"), *(ROOT / "games").glob("*/static/**/*.css")]
)


def rules(text: str, media: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], str, str]]:
    """(the @media/@supports heads around it, the selector list, the body) of each rule;
    @keyframes are left out."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    out, i = [], 0
    while (k := text.find("{", i)) >= 0:
        head, depth, j = text[i:k].strip(), 1, k + 1
        while depth and j < len(text):
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        body = text[k + 1 : j - 1]
        if head.startswith(("@media", "@supports")):
            out += rules(body, (*media, head))
        elif not head.startswith("@keyframes"):
            out.append((media, head, body))
        i = j
    return out


def selectors(head: str) -> list[str]:
    return [" ".join(s.split()) for s in head.split(",")]


def test_the_parser_reads_nested_media_and_skips_keyframes():
    found = rules("a{animation:x 1s}@keyframes x{to{opacity:0}}"
                  "@media (prefers-reduced-motion: reduce){a, b c{animation:none}}")  # fmt: skip
    assert found == [((), "a", "animation:x 1s"),
                     (("@media (prefers-reduced-motion: reduce)",), "a, b c", "animation:none")]  # fmt: skip


def test_every_animation_stops_for_reduced_motion():
    assert CSS, "no style sheets found"
    assert any("games" in path.parts for path in CSS), "the games' own style sheets are read too"
    missing = []
    for path in CSS:
        found = rules(path.read_text(encoding="utf-8"))
        still = {
            s
            for media, head, _ in found
            if any("prefers-reduced-motion" in m and "reduce" in m for m in media)
            for s in selectors(head)
        }
        for media, head, body in found:
            if any("prefers-reduced-motion" in m for m in media):
                continue
            animated = re.search(r"(?:^|;)\s*animation(?:-name)?\s*:\s*([^;]+)", body)
            if not animated or animated.group(1).strip() == "none":
                continue
            for s in selectors(head):
                covered = (
                    s in still
                    or any(x.endswith("*") for x in still)  # a table-wide rule
                    or any(s.startswith(x + " ") for x in still)  # an ancestor
                )
                if not covered:
                    missing.append(f"{path.relative_to(ROOT)}: {s}")
    assert not missing, "animated without a reduced-motion answer:\n" + "\n".join(missing)
