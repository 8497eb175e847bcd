"""Kastet's groups (kastet.md section 2) on top of KÜT's validators.

Everything works on **faces** (``games.okey.engine.tiles``); ``okey`` is the real okey's face.
KÜT's ``run_values``/``kut_values``/``pair_values`` already implement the shared okey
rules (S-G1 … S-G6 are K-G1 … K-G6 as written); Kastet only adds which readings a
group of the run area may take (S-L3: runs and sets, never pairs) and the S-G7
preference for the run reading.
"""

from __future__ import annotations

from games.okey.engine.groups import KUT, PAIR, RUN, kut_values, pair_values, run_values

__all__ = ["KUT", "PAIR", "RUN", "read_group", "read_pair"]


def read_group(faces: list[int], okey: int) -> tuple[str, list] | None:
    """A run-area group's reading ``(kind, values)`` or None when it is no valid run or
    set (S-G1 … S-G6, S-L3).  S-G7: a group that reads both ways is a run, as ordered."""
    values = run_values(faces, okey)
    if values is not None:
        return RUN, values
    values = kut_values(faces, okey)
    if values is not None:
        return KUT, values
    return None


def read_pair(faces: list[int], okey: int) -> tuple[str, list] | None:
    """A pair-area group's reading (S-G3): two identical tiles, or a natural tile and a
    real okey (two real okeys never; ``F F`` yes; ``F`` and a real okey no)."""
    values = pair_values(faces, okey)
    return None if values is None else (PAIR, values)


def check_draft(okey_name: str, table: list[list[str]], pairs: list[list[str]] = ()) -> dict:
    """Which groups and pairs of a draft (S-L8) are valid, by face names: what the table
    marks at once while the player drags tiles (``okey_name`` is the view's ``okey``).
    Tile accounting (S-L2) is the server's, at *Aç*."""
    from games.okey.engine.tiles import NotationError, parse_face

    def ok(names, reader) -> bool:
        try:
            faces = [parse_face(n) for n in names]
        except NotationError:
            return False
        return reader(faces, okey) is not None

    okey = parse_face(okey_name)
    return {"groups": [ok(g, read_group) for g in table],
            "pairs": [ok(p, read_pair) for p in pairs]}  # fmt: skip
