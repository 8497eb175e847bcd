"""Kelimeki's moves in words for the analysis (issue 31): ``analysis_move_text`` of its
``WEB`` (imported into its GameWeb class) says a decision's ``played`` or ``best``
(``engine/analysis.py``: ``play`` with its ``placements``, ``exchange``, ``pass``)."""

from __future__ import annotations

from django.utils.translation import ngettext, pgettext


def lower_tr(letter: str) -> str:
    """A letter in Turkish lower case (I → ı, İ → i)."""
    return {"I": "ı", "İ": "i"}.get(letter, letter.lower())


def analysis_move_text(self, move: dict) -> str:
    """E.g. "KEL across from row 1, column 1" / "KEL, 1. satır 1. sütundan yatay"; a
    joker's letter in lower case."""
    kind = (move or {}).get("type")
    if kind == "play":
        cells = sorted(move.get("placements") or [], key=lambda p: (p["row"], p["col"]))
        if not cells:
            return ""
        letters = "".join(lower_tr(p["letter"]) if p.get("joker") else p["letter"] for p in cells)
        across = len({p["row"] for p in cells}) == 1 and len(cells) > 1
        where = {"letters": letters, "row": cells[0]["row"] + 1, "col": cells[0]["col"] + 1}
        if across:
            return (
                pgettext("analysis move", "%(letters)s across from row %(row)d, column %(col)d")
                % where
            )
        if len(cells) > 1:
            return (
                pgettext("analysis move", "%(letters)s down from row %(row)d, column %(col)d")
                % where
            )
        return pgettext("analysis move", "%(letters)s at row %(row)d, column %(col)d") % where
    if kind == "exchange":
        n = len(move.get("letters") or [])
        return ngettext("exchange %(n)d tile", "exchange %(n)d tiles", n) % {"n": n}
    if kind == "pass":
        return pgettext("analysis move", "pass")
    if kind == "timeout":
        return pgettext("analysis move", "the time ran out")
    return str(kind or "")
