"""King's moves in words for the analysis (issue 31): ``analysis_move_text`` of its
``WEB`` (imported into its GameWeb class) says a decision's ``played`` or ``best``
(``engine/analysis.py``: ``choose`` with ``contract`` and ``trump``, ``play`` with
``card``) with the table's own card and contract words."""

from __future__ import annotations

from django.utils.translation import pgettext

from games.king.strings import king_strings

SUIT_SYMBOL = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


def analysis_move_text(self, move: dict) -> str:
    """E.g. "play the queen of spades" / "maça kız oyna", "choose Trump ♠"."""
    words = king_strings()
    kind = (move or {}).get("type")
    if kind == "play":
        card = move["card"]
        name = words["card"].format(rank=words["ranks"].get(card[0], card[0]),
                                    suit=words["suits"].get(card[1], card[1]))  # fmt: skip
        return pgettext("analysis move", "play the %(card)s") % {"card": name}
    if kind == "choose":
        contract = words["contracts"].get(move["contract"], move["contract"])
        if move.get("trump"):
            contract = f"{contract} {SUIT_SYMBOL.get(move['trump'], move['trump'])}"
        return pgettext("analysis move", "choose %(contract)s") % {"contract": contract}
    if kind == "timeout":
        return pgettext("analysis move", "the time ran out")
    return str(kind or "")
