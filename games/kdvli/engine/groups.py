"""KDVli groups: runs, sets and pairs (kdvli.md section 2).

Everything works on **faces** (``games.okey.engine.tiles``).  ``okey`` is the real
okey's face (V-T3): a tile showing it is wild.  A fake okey (``FAKE``) is a natural
tile of the okey's face for every purpose (V-T4), so it pairs with a real okey.

A group is a set of tiles, not a sequence (V-G5): it is valid when its tiles can be
ordered, and its okeys given values, so that it is a run, a set or a pair.
"""

from __future__ import annotations

from games.okey.engine.tiles import FAKE, colour_of, number_of

RUN, SET, PAIR = "run", "set", "pair"


def natural(face: int, okey: int) -> int:
    """The face a non-wild tile stands for: itself, or the okey face for ``F`` (V-T4)."""
    return okey if face == FAKE else face


def value(face: int, okey: int) -> int:
    """V-T6: a tile's points: its number (1 counts 1); ``F`` and a real okey count the
    real okey's number."""
    return number_of(okey if face in (FAKE, okey) else face)


def _split(faces: list[int], okey: int) -> tuple[list[int], int]:
    naturals = [natural(f, okey) for f in faces if f != okey]
    return naturals, len(faces) - len(naturals)


def is_run(faces: list[int], okey: int) -> bool:
    """V-G1, V-G4: 3..13 tiles of one colour, consecutive; 1 is low (1-2-3) or high
    after 13 (12-13-1), never both in one run and never in the middle; okeys fill."""
    n = len(faces)
    if not 3 <= n <= 13:
        return False
    naturals, _wild = _split(faces, okey)
    if not naturals:  # V-G4: every group holds a natural tile
        return False
    if len({colour_of(f) for f in naturals}) != 1:
        return False
    numbers = [number_of(f) for f in naturals]
    if len(set(numbers)) != len(numbers):  # no number twice (V-G1)
        return False
    for high_one in (False, True):
        pos = sorted(14 if (high_one and x == 1) else x for x in numbers)
        lo_bound = 2 if high_one else 1
        hi_bound = 14 if high_one else 13
        # an interval of n positions inside [lo_bound, hi_bound] holding every natural
        if pos[-1] - pos[0] + 1 <= n and pos[0] >= lo_bound and pos[-1] <= hi_bound:
            if n <= hi_bound - lo_bound + 1:
                return True
    return False


def is_set(faces: list[int], okey: int) -> bool:
    """V-G2, V-G4: 3 or 4 tiles of one number, all of different colours."""
    if not 3 <= len(faces) <= 4:
        return False
    naturals, _wild = _split(faces, okey)
    if not naturals:
        return False
    if len({number_of(f) for f in naturals}) != 1:
        return False
    return len({colour_of(f) for f in naturals}) == len(naturals)


def is_pair(faces: list[int], okey: int) -> bool:
    """V-G3: two tiles of the same colour and number (``F F`` too), or one natural plus
    one real okey (``F`` + real okey too); two real okeys are no pair (V-G4)."""
    if len(faces) != 2:
        return False
    naturals, wild = _split(faces, okey)
    if wild == 2:
        return False
    return wild == 1 or naturals[0] == naturals[1]


def kind_of(faces: list[int], okey: int) -> str | None:
    """The reading of ``faces`` as one group: ``run``, ``set``, ``pair`` or None."""
    if len(faces) == 2:
        return PAIR if is_pair(faces, okey) else None
    if is_run(faces, okey):
        return RUN
    if is_set(faces, okey):
        return SET
    return None


def finish_kind(groups: list[list[int]], okey: int) -> str | None:
    """V-F2: ``"runs"`` when every group is a run or a set, ``"pairs"`` when there are
    exactly seven pairs; None otherwise (pairs and runs never mix).  The caller checks
    that the groups hold exactly the 14 tiles."""
    if not groups or sum(len(g) for g in groups) != 14:
        return None
    kinds = [kind_of(g, okey) for g in groups]
    if any(k is None for k in kinds):
        return None
    if all(k == PAIR for k in kinds):
        return "pairs" if len(kinds) == 7 else None
    if any(k == PAIR for k in kinds):
        return None
    return "runs"
