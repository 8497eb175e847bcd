"""The table's tile component for server-rendered pages (the rules guide).

``{% tiles "R7 Y7 B7 K7" okey="B3" %}`` gives the same markup as ``tileHTML`` in
games/okey/static/okey/tiles.js (classes ``kt-tile kt-c-R``, the number, the colour-blind
shape mark; the real okey's joker face, K-T4; the fake okey's clover, K-T1), inside a
``kt kt-strip`` span so that games/okey/static/okey/tiles.css styles it exactly as on the
table.  A test checks the two stay the same.

Spec: faces in K-T2 notation separated by spaces; the okey's own face (``okey=``) is a
real okey; ``B3=R10`` is a real okey standing for R10 (K-G4); ``|`` is a rack separator
(K-O5); ``_`` an empty rack cell.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html, mark_safe
from django.utils.translation import gettext as _

register = template.Library()

# The same pictures as games/okey/static/okey/tiles.js (CLOVER, JOKER).
CLOVER = (
    '<svg class="kt-clover" viewBox="0 0 40 40" aria-hidden="true">'
    '<g fill="#1f8a3a"><circle cx="14" cy="14" r="7"/><circle cx="26" cy="14" r="7"/><circle cx="14" cy="26" r="7"/><circle cx="26" cy="26" r="7"/></g>'  # noqa: E501
    '<path d="M20 20 q6 8 2 17" stroke="#1f6a2e" stroke-width="3" fill="none"/><circle cx="20" cy="20" r="3" fill="#c6f0c9"/></svg>'  # noqa: E501
)
JOKER = (
    '<svg class="kt-joker" viewBox="0 0 40 40" aria-hidden="true">'
    '<path d="M20 3l4.6 10.6 11.4 1-8.7 7.6 2.6 11.3L20 27.6 10.1 33.5l2.6-11.3L4 14.6l11.4-1z" fill="#f2b705" stroke="#8a5a00" stroke-width="1.5"/>'  # noqa: E501
    '<circle cx="16" cy="18" r="1.6" fill="#5a3a00"/><circle cx="24" cy="18" r="1.6" fill="#5a3a00"/>'  # noqa: E501
    '<path d="M15 22.5q5 4.5 10 0" stroke="#5a3a00" stroke-width="1.6" fill="none"/></svg>'
)
COLOURS = "RYBK"


def _colour_name(letter: str) -> str:
    return {"R": _("red"), "Y": _("yellow"), "B": _("blue"), "K": _("black")}[letter]


def _plain(face: str) -> str:
    return _("{colour} {number}").format(colour=_colour_name(face[0]), number=face[1:])


def _check(face: str) -> str:
    if face == "F" or (
        len(face) in (2, 3) and face[0] in COLOURS and face[1:].isdigit()
        and 1 <= int(face[1:]) <= 13
    ):  # fmt: skip
        return face
    raise template.TemplateSyntaxError(f"not a tile: {face!r}")


def tile_html(face: str, okey: str = "", value: str = "") -> tuple[str, str]:
    """(markup, spoken name) of one tile, as tileHTML / tileName in table.js."""
    _check(face)
    if face == "F":
        name = (
            _("fake okey, counts as {tile}").format(tile=_plain(okey)) if okey else _("fake okey")
        )
        return f'<span class="kt-tile kt-fake" data-face="F">{CLOVER}</span>', name
    if face == okey:
        as_ = ""
        name = _("okey")
        if value and value != okey:
            _check(value)
            as_ = format_html('<span class="kt-as kt-c-{}">{}</span>', value[0], value[1:])
            name = _("okey, standing for {tile}").format(tile=_plain(value))
        markup = format_html(
            '<span class="kt-tile kt-okey" data-face="{}">{}<span class="kt-okey-word">OKEY'
            "</span>{}</span>",
            face, mark_safe(JOKER), as_,
        )  # fmt: skip
        return markup, name
    markup = format_html(
        '<span class="kt-tile kt-c-{}" data-face="{}"><span class="kt-num">{}</span>'
        '<span class="kt-mark"></span></span>',
        face[0], face, face[1:],
    )  # fmt: skip
    return markup, _plain(face)


@register.simple_tag
def tiles(spec: str, okey: str = "", size: str = ""):
    parts, names = [], []
    for token in str(spec).split():
        if token == "|":
            parts.append('<span class="kt-strip-sep" aria-hidden="true"></span>')
            continue
        if token == "_":
            parts.append('<span class="kt-strip-empty" aria-hidden="true"></span>')
            continue
        face, _sep, value = token.partition("=")
        markup, name = tile_html(face, okey, value)
        parts.append(markup)
        names.append(name)
    classes = "kt kt-strip" + (f" kt-strip-{size}" if size in ("small", "big") else "")
    return format_html(
        '<span class="{}" role="img" aria-label="{}">{}</span>',
        classes, ", ".join(names), mark_safe("".join(parts)),
    )  # fmt: skip
