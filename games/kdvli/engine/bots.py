"""KDVli bots at three levels (P-1, V-H3: they see a seat's **view** only).

    choose(view, level, rng) -> action | None

Each call returns one action for the view's seat (None when it is not its turn); the
caller applies it and asks again until the turn passes.

* ``easy``   shows the indicator when it can, draws from the deck unless the thrown
  tile lets it finish, finishes on runs only (never on pairs, never choosing how it
  pays), keeps the runs and sets it has and throws a random one of its other tiles
  (never a real okey while another tile is left).  A blind random throw never finished
  before the deck ran out (four easy bots dealt void hands forever, V-E1); this one does
  about half the time, and still loses clearly to normal (see simulate).
* ``normal`` takes the thrown tile when it lowers its runs points, throws the tile
  whose loss leaves the least runs points, finishes on runs or pairs.
* ``hard``   counts exactly (V-S2: min of runs points and twice the pairs points) to
  choose what to take, keep and throw, breaks ties by how well the left-over tiles can
  still grow, and finishes the way that pays most: on pairs and with a real okey as the
  finishing tile when it can (V-S1: each doubles what the others pay).
"""

from __future__ import annotations

import random
from functools import lru_cache

from games.kdvli.engine import counting
from games.okey.engine.tiles import FAKE, colour_of, number_of, parse_face

LEVELS = ("easy", "normal", "hard")


@lru_cache(maxsize=1 << 15)
def _count(faces: tuple, okey: int) -> counting.Count:
    return counting.count(list(faces), okey)


def _key(faces) -> tuple:
    return tuple(sorted(faces))


def _rack(view: dict) -> list[tuple[str, int]]:
    return [(c["id"], parse_face(c["face"])) for c in view["rack"]["cells"] if c is not None]


def _without(faces: list[int], face: int) -> list[int]:
    rest = list(faces)
    rest.remove(face)
    return rest


def _finishes(faces: list[int], okey: int, kinds=("runs", "pairs")) -> list[tuple]:
    """Every (finishing face, kind, groups) the 15 faces allow (V-F1, V-F2)."""
    return counting.finishes(faces, okey, kinds, lambda fs, ok: _count(_key(fs), ok))


def _metric(faces: list[int], okey: int, level: str) -> int:
    c = _count(_key(faces), okey)
    return c.runs_points if level == "normal" else c.points


def _growth(faces: list[int], okey: int) -> int:
    """How many tiles of the rack touch another one (same colour ±2, same number):
    a rough measure of what the left-over tiles may still become."""
    score = 0
    nat = [f if f != FAKE else okey for f in faces if f != okey]
    for i, a in enumerate(nat):
        for j, b in enumerate(nat):
            if i == j:
                continue
            if colour_of(a) == colour_of(b) and 0 < abs(number_of(a) - number_of(b)) <= 2:
                score += 2
            elif number_of(a) == number_of(b) and a != b:
                score += 2
            elif a == b:
                score += 1
    return score


def _best_discard(faces: list[int], okey: int, level: str, rng: random.Random,
                  keep: int | None = None) -> tuple[int, int]:  # fmt: skip
    """(value after the best discard, the face to throw); ``keep`` is never thrown."""
    options = [f for f in set(faces) if f != okey and f != keep] or [
        f for f in set(faces) if f != keep
    ]
    scored = []
    for f in options:
        rest = _without(faces, f)
        v = _metric(rest, okey, level)
        tie = -_growth(rest, okey) if level == "hard" else 0
        scored.append((v, tie, rng.random(), f))
    v, _tie, _r, f = min(scored)
    return v, f


def _finish_action(rack, fin, okey) -> dict:
    face, _kind, groups = fin
    ids = {}
    for tid, f in rack:
        ids.setdefault(f, []).append(tid)
    tile_id = ids[face].pop()
    group_ids = [[ids[f].pop() for f in g] for g in groups]
    return {"type": "finish", "tile_id": tile_id, "group_ids": group_ids}


def _pays(fin, okey, coloured: bool) -> int:
    face, kind, _groups = fin
    m = 2 if coloured else 1
    if kind == "pairs":
        m *= 2
    if face == okey:
        m *= 2
    return m


def _easy_discard(rack, faces: list[int], okey: int, rng: random.Random) -> dict:
    """Easy keeps the runs and sets it has and throws a random one of the other tiles
    (the runs count's left-over tiles, V-S2) — not the costliest one, as normal does;
    never a real okey while another tile is left."""
    left = [f for f in _count(_key(faces), okey).left if f != okey]
    face = rng.choice(left or [f for f in faces if f != okey] or faces)
    tid = next(t for t, f in rack if f == face)
    return {"type": "discard", "tile_id": tid}


def choose(view: dict, level: str, rng: random.Random) -> dict | None:
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    can = view.get("can") or {}
    if view.get("over") or not any(can.values()):
        return None
    okey = parse_face(view["okey"])
    rack = _rack(view)
    faces = [f for _tid, f in rack]
    if can.get("show_indicator"):
        return {"type": "show_indicator"}  # V-I2: a free bonus
    if can.get("draw") or can.get("take"):
        if can.get("take"):
            thrown = parse_face(view["thrown"]["tile"]["face"])
            with_it = faces + [thrown]
            kinds = ("runs",) if level == "easy" else ("runs", "pairs")
            if _finishes(with_it, okey, kinds):
                return {"type": "take_discard"}
        if level != "easy" and can.get("take"):
            after, _f = _best_discard(with_it, okey, level, rng, keep=None)
            now = _metric(faces, okey, level)
            margin = 0 if level == "normal" else 3
            if after < now - margin or not can.get("draw"):
                return {"type": "take_discard"}
        return {"type": "draw"} if can.get("draw") else {"type": "take_discard"}
    if can.get("finish"):
        kinds = ("runs",) if level == "easy" else ("runs", "pairs")
        fins = _finishes(faces, okey, kinds)
        if fins:
            if level == "hard":
                fin = max(fins, key=lambda x: _pays(x, okey, view.get("coloured", False)))
            else:
                fin = fins[0]
            return _finish_action(rack, fin, okey)
        if level == "easy":
            return _easy_discard(rack, faces, okey, rng)
        _v, face = _best_discard(faces, okey, level, rng)
        tid = next(t for t, f in rack if f == face)
        return {"type": "discard", "tile_id": tid}
    return None
