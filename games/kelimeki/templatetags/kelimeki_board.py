"""Kelimeki's board for server-rendered pages (the rules guide, issue 29).

``{% kk_board "0 0 4 9" words="2,0,r,ARKADAŞ" new="1,5,r,YEL" zone="0" %}`` draws the
part of the 15 × 15 board from row 0, col 0, 4 rows by 9 columns with the same markup
as games/kelimeki/static/kelimeki/view.js (``kk-cell x2``/``x3``/``home``, ``kk-tile``
with its letter and points, the zones' thick outline, W-Z8), so board.css styles it as on
the table.

``words``/``new``: ``;``-separated words ``row,col,dir,WORD`` (dir ``r`` rightwards,
``d`` downwards; a lower-case letter is a joker, W-T1); ``new`` tiles are drawn as the
player's tentative ones (yellow).  ``zone``: the seat whose zone (its starting block and
the placed ``words`` joined to it, W-Z1…W-Z3) is outlined; ``""`` none.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html, format_html_join, mark_safe

from games.kelimeki.engine import board
from games.kelimeki.engine.alphabet import POINTS

register = template.Library()
SEAT_MARKS = "●▲■◆"


def _tiles(spec: str) -> dict[tuple[int, int], str]:
    out = {}
    for part in filter(None, (p.strip() for p in spec.split(";"))):
        row, col, way, word = part.split(",")
        r, c = int(row), int(col)
        for k, ch in enumerate(word):
            out[(r, c + k) if way == "r" else (r + k, c)] = ch
    return out


def _zone(seat: int, placed: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """W-Z1, W-Z3: the seat's starting block, grown along its placed tiles."""
    corner = board.corners_for(4)[seat]
    zone = {board.rc(i) for i in board.BLOCKS[corner]}
    grown = True
    while grown:
        grown = False
        for r, c in placed - zone:
            if any((r + dr, c + dc) in zone for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))):
                zone.add((r, c))
                grown = True
    return zone


def _tile(ch: str, kind: str):
    if ch == "★":  # a joker in a rack: no letter yet (W-T3)
        return format_html('<span class="kk-tile {} joker"><span class="kk-letter">★</span>'
                           '<span class="kk-val">0</span></span>', kind)  # fmt: skip
    joker = ch != ch.upper() or ch == "ı"
    letter = ch.upper() if ch != "i" else "İ"
    letter = "I" if ch == "ı" else letter
    shown = ch if joker else letter
    star = mark_safe('<span class="kk-star" aria-hidden="true">★</span>') if joker else ""
    return format_html(
        '<span class="kk-tile {}{}"><span class="kk-letter">{}</span>'
        '<span class="kk-val">{}</span>{}</span>',
        kind, " joker" if joker else "", shown, 0 if joker else POINTS[letter], star,
    )  # fmt: skip


@register.simple_tag
def kk_board(area: str, words: str = "", new: str = "", zone: str = "", home: str = "0",
             label: str = ""):  # fmt: skip
    top, left, rows, cols = (int(v) for v in area.split())
    placed, tent = _tiles(words), _tiles(new)
    outlined = _zone(int(zone), set(placed)) if zone != "" else set()
    homes = {board.rc(board.HOMES[int(s)]): int(s) for s in home.split()} if home else {}
    zw, colour = "var(--zw)", f"var(--seat{zone or 0})"
    out_rows = []
    for r in range(top, top + rows):
        cells = []
        for c in range(left, left + cols):
            kind = board.LAYOUT[r][c]
            cls = ["kk-cell"] + (["x2"] if kind == "2" else ["x3"] if kind == "3" else [])
            style = ""
            if (r, c) in outlined:
                cls.append(f"zone z{zone}")
                edges = [
                    f"inset 0 {zw} 0 0 {colour}" if (r - 1, c) not in outlined else "",
                    f"inset 0 calc(-1 * {zw}) 0 0 {colour}" if (r + 1, c) not in outlined else "",
                    f"inset {zw} 0 0 0 {colour}" if (r, c - 1) not in outlined else "",
                    f"inset calc(-1 * {zw}) 0 0 0 {colour}" if (r, c + 1) not in outlined else "",
                ]  # fmt: skip
                style = ", ".join(e for e in edges if e)
            if (r, c) in homes:
                cls.append("home")
            if (r, c) in placed:
                inner = _tile(placed[(r, c)], "placed")
            elif (r, c) in tent:
                inner = _tile(tent[(r, c)], "tent")
            elif (r, c) in homes:
                inner = format_html('<span class="kk-mark">⌂<small>{}</small></span>',
                                    SEAT_MARKS[homes[(r, c)]])  # fmt: skip
            elif kind in "23":
                inner = format_html('<span class="kk-mark">×{}</span>', kind)
            else:
                inner = ""
            cells.append((" ".join(cls), f"box-shadow: {style}" if style else "", inner))
        row_html = format_html_join("", '<span class="{}" style="{}">{}</span>', cells)
        out_rows.append((row_html,))
    return format_html(
        '<div class="kk kk-guide-board" style="--cols: {}" role="img" aria-label="{}">{}</div>',
        cols, label, format_html_join("", '<span class="kk-row">{}</span>', out_rows),
    )  # fmt: skip


@register.simple_tag
def kk_rack(letters: str, label: str = ""):
    """Tiles as in a rack (``*`` a joker; each with its points, W-T2)."""
    tiles = format_html_join("", '<span class="kk-guide-slot">{}</span>',
                             ((_tile("★" if ch == "*" else ch, "placed"),) for ch in letters))  # fmt: skip
    return format_html('<div class="kk kk-guide-rack" role="img" aria-label="{}">{}</div>',
                       label or letters, tiles)  # fmt: skip


@register.simple_tag
def kk_bag():
    """W-T2: every tile of the bag with its points and how many there are."""
    from games.kelimeki.engine.alphabet import COUNTS, TILES

    items = (
        (_tile("★" if t == "*" else t, "placed"), f"×{COUNTS[t]}")
        for t in TILES
    )  # fmt: skip
    cells = format_html_join(
        "", '<span class="kk-guide-slot">{}<small>{}</small></span>', items
    )  # fmt: skip
    return format_html('<div class="kk kk-guide-rack kk-guide-bag">{}</div>', cells)
