"""Runs, küts and pairs with every okey rule (kut.md section 2).

Everything here works on **faces** (see ``tiles.py``).  ``okey`` is the face of the
hand's real okey: any tile showing it is wild (K-T4, K-T5).  A fake okey (``FAKE``)
is not wild: it is a natural tile of the okey's face (K-T6).

A group's *values* say what each tile stands for: a natural tile stands for itself
(a fake okey for the okey face), a real okey for the tile it replaces, or ``None`` for
a küt okey whose colour is still undecided (K-G6, K-L5).
"""

from __future__ import annotations

from games.okey.engine.tiles import FAKE, colour_of, make_face, number_of

RUN, KUT, PAIR = "run", "kut", "pair"  # the kinds of group (K-G1…K-G3)

Values = list  # list[int | None]


def natural(face: int, okey: int) -> int:
    """The face a non-wild tile stands for: itself, or the okey face for a fake okey."""
    return okey if face == FAKE else face


def run_values(faces: list[int], okey: int) -> Values | None:
    """Values of a run (K-G1, K-G4, K-G5), or None if ``faces`` in this order is no run."""
    n = len(faces)
    if not 3 <= n <= 13:
        return None
    colour = start = None
    for i, face in enumerate(faces):
        if face == okey:
            continue
        value = natural(face, okey)
        c, s = colour_of(value), number_of(value) - i
        if colour is None:
            colour, start = c, s
        elif c != colour or s != start:
            return None
    if colour is None:  # only okeys (K-G5)
        return None
    if start < 1 or start + n - 1 > 13:  # 1 is only low; nothing past 13 (K-G1, K-G4)
        return None
    return [make_face(colour, start + i) for i in range(n)]


def kut_values(faces: list[int], okey: int) -> Values | None:
    """Values of a küt (K-G2, K-G5, K-G6), or None.

    Okeys fill the missing colours in colour order when every missing colour is covered;
    in a küt of three with fewer okeys than missing colours they stay undecided (None).
    """
    n = len(faces)
    if not 3 <= n <= 4:
        return None
    number = None
    colours = set()
    wild = 0
    for face in faces:
        if face == okey:
            wild += 1
            continue
        value = natural(face, okey)
        num, col = number_of(value), colour_of(value)
        if number is None:
            number = num
        elif num != number:
            return None
        if col in colours:  # two tiles of one colour never stand in one küt (K-G2)
            return None
        colours.add(col)
    if number is None:
        return None
    missing = [c for c in range(4) if c not in colours]
    decided = wild == len(missing)
    out: Values = []
    fill = iter(missing)
    for face in faces:
        if face == okey:
            out.append(make_face(next(fill), number) if decided else None)
        else:
            out.append(natural(face, okey))
    return out


def pair_values(faces: list[int], okey: int) -> Values | None:
    """Values of a pair (K-G3): two identical tiles, or a normal tile and a real okey.
    Two real okeys never pair; a fake okey pairs only with the other fake okey."""
    if len(faces) != 2:
        return None
    a, b = faces
    if a == okey and b == okey:
        return None
    if a == okey or b == okey:
        other = b if a == okey else a
        if other == FAKE:
            return None
        return [other, other]
    if a != b:
        return None
    value = natural(a, okey)
    return [value, value]


_VALIDATORS = {RUN: run_values, KUT: kut_values, PAIR: pair_values}


def group_values(kind: str, faces: list[int], okey: int) -> Values | None:
    return _VALIDATORS[kind](faces, okey)


def classify(faces: list[int], okey: int, kinds=(RUN, KUT, PAIR)) -> list[tuple[str, Values]]:
    """Every reading of ``faces`` as a group of one of ``kinds``, runs first."""
    out = []
    for kind in kinds:
        values = _VALIDATORS[kind](faces, okey)
        if values is not None:
            out.append((kind, values))
    return out


# --- what a group on the table can still take ------------------------------------


def exchange_index(values: Values, faces: list[int], face: int, okey: int) -> int | None:
    """K-L4: the position of a real okey in the group standing for ``face``'s natural
    value, so that ``face`` can take its place; None if there is none."""
    if face == okey:
        return None
    want = natural(face, okey)
    for i, (f, v) in enumerate(zip(faces, values)):
        if f == okey and v is not None and v == want:
            return i
    return None


def run_end_fits(values: Values, face: int, okey: int) -> tuple[bool, bool]:
    """(fits_left, fits_right) for adding ``face`` at the ends of a run (K-L3),
    ignoring the per-turn limit."""
    first, last = values[0], values[-1]
    lo, hi = number_of(first), number_of(last)
    if len(values) >= 13:
        return (False, False)
    if face == okey:
        return (lo > 1, hi < 13)
    value = natural(face, okey)
    if colour_of(value) != colour_of(first):
        return (False, False)
    n = number_of(value)
    return (lo > 1 and n == lo - 1, hi < 13 and n == hi + 1)


def kut_takes(values: Values, faces: list[int], face: int, okey: int) -> bool:
    """Whether a küt of three can grow to four with ``face`` (K-L3, K-L5)."""
    if len(faces) != 3:
        return False
    if face == okey:
        return True
    value = natural(face, okey)
    number = None
    for f, v in zip(faces, values):
        if f != okey:
            number = number_of(v)
            break
    if number_of(value) != number:
        return False
    present = {colour_of(v) for f, v in zip(faces, values) if f != okey}
    return colour_of(value) not in present
