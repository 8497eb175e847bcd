"""KDVli's moves in words for the analysis (issue 31): ``analysis_move_text`` of its
``WEB`` (imported into its GameWeb class), the okey family's words."""

from __future__ import annotations

from games.okey.analysis_words import okey_move_text


def analysis_move_text(self, move: dict) -> str:
    """A decision's ``played`` or ``best`` (``engine/analysis.py``) in the request's
    language, e.g. "discard red 4" / "kırmızı 4 at"."""
    return okey_move_text(move)
