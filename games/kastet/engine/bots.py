"""Kastet bots at three levels (P-1, S-V5: they read a seat's **view** only).

    choose(view, level, rng) -> action | None

Each call returns one action; the caller applies it and asks again until the turn
passes.  A bot lays once per turn (one whole new layout, S-L1), then presses *Pas*; when
it finds nothing to lay it draws, or presses *Pas* when it cannot draw (S-N4).

* ``easy``   lays groups made of its own rack only, found greedily, never using a real
  okey; it never touches the table.
* ``normal`` lays the best groups its rack can make (okeys included, an exact search
  over the rack) and then lays tiles off onto the ends of table runs and onto sets of
  three — without rearranging anything.
* ``hard``   searches table rearrangements: every table tile may move to any group as
  long as every group stays valid (``search.best_layout``, a branch-and-bound over all
  groups through the lowest uncovered table tile), within a node budget; it keeps the
  normal plan when the search finds nothing better.

Normal and hard also lay their pairs once all 26 slots are full (S-L5).
"""

from __future__ import annotations

import random

from games.kastet.engine.groups import read_group
from games.kastet.engine.search import J, best_layout, face_names, to_values
from games.kastet.engine.state import SLOTS
from games.okey.engine.tiles import FAKE, colour_of, face_name, make_face, number_of, parse_face

LEVELS = ("easy", "normal", "hard")
# Search nodes per decision (the engine never reads a clock; README, "Kastet bots"):
# the hard bot's table search, and the normal bot's search over its own rack (which
# never needs more than a few hundred).  6,000 nodes keep a hard move's CPU p99 under
# 60 ms on this machine under load (issue 30).
BUDGETS = {"normal": 6000, "hard": 6000}


class Seat:
    """What a bot reads from its view, as faces."""

    def __init__(self, view: dict):
        self.view = view
        self.okey = parse_face(view["okey"])
        self.rack = [parse_face(c["face"]) for c in view["rack"]["cells"] if c]
        self.table = [[parse_face(t["face"]) for t in g["tiles"]] for g in view["table"]]


def choose(view: dict, level: str, rng: random.Random) -> dict | None:
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    can = view.get("can") or {}
    if view.get("over") or view.get("turn") != view.get("me") or not can.get("lay"):
        return None
    if view.get("laid_this_turn"):
        return {"type": "pass"}  # S-N3: the lay stands (an empty rack finishes, S-F1)
    seat = Seat(view)
    lay = plan(seat, level)
    if lay is not None:
        return lay
    if can.get("draw"):
        return {"type": "draw"}
    return {"type": "pass"}


def plan(seat: Seat, level: str) -> dict | None:
    """A lay action for this seat at this level, or None."""
    okey = seat.okey
    if level == "easy":
        groups = _greedy_rack_groups(seat.rack, okey)
        if not groups or len(seat.table) + len(groups) > SLOTS:
            return None
        table = [_names(g) for g in seat.table] + [_names(g) for g in groups]
        return {"type": "lay", "table": table}
    table, laid, left = _normal_plan(seat)
    candidates = [(table, left)]
    if level == "hard":
        floor = (laid, 0)
        table_faces = [f for g in seat.table for f in g]
        groups, _ = best_layout(table_faces, seat.rack, okey, BUDGETS["hard"], floor)
        if groups is not None:
            left = _left_after(seat.rack, groups, seat.table, okey)
            candidates.append(([face_names(g, okey) for g in groups], left))
    best = None
    for table, left in candidates:
        laid = len(seat.rack) - len(left)
        pairs = _pairs(left, okey) if len(table) == SLOTS else []  # S-L5
        laid += 2 * len(pairs)
        if laid and (best is None or laid > best[0]):
            best = (laid, table, pairs)
    if best is None:
        return None
    action = {"type": "lay", "table": best[1]}
    if best[2]:
        action["pairs"] = best[2]
    return action


def _names(faces: list[int]) -> list[str]:
    return [face_name(f) for f in faces]


# --- easy: greedy natural groups from the rack ----------------------------------------


def _greedy_rack_groups(rack: list[int], okey: int) -> list[list[int]]:
    left = sorted(f for f in rack if f != okey)
    out = []
    while True:
        g = _first_group(left, okey)
        if g is None:
            return out
        out.append(g)
        for f in g:
            left.remove(f)


def _first_group(faces: list[int], okey: int) -> list[int] | None:
    have = set(faces)
    for f in sorted(have):
        v = okey if f == FAKE else f
        c, n = colour_of(v), number_of(v)
        run = [f]
        k = n + 1
        while k <= 13:
            w = make_face(c, k)
            nxt = FAKE if w == okey else w
            if nxt not in have or nxt == okey:
                break
            run.append(nxt)
            k += 1
        if len(run) >= 3:
            return run
        same = [f] + [make_face(o, n) for o in range(4) if o != c and make_face(o, n) in have]
        if len(same) >= 3 and all(x != okey for x in same):
            return same
    return None


# --- normal: the best rack groups, then lay-offs onto the table ------------------------


def _normal_plan(seat: Seat) -> tuple[list[list[str]], int, list[int]]:
    """(new run area as names, rack tiles laid, rack faces left)."""
    okey = seat.okey
    room = SLOTS - len(seat.table)
    groups, _ = best_layout([], seat.rack, okey, BUDGETS["normal"], max_groups=room)
    left = list(seat.rack)
    new_groups: list[list[str]] = []
    for g in groups or []:
        names = face_names(g, okey)
        new_groups.append(names)
        for n in names:
            left.remove(parse_face(n))
    table = [_names(g) for g in seat.table] + new_groups
    # lay-offs: a rack tile at either end of a run, or a set of three made four
    changed = True
    while changed and left:
        changed = False
        for i, g in enumerate(table):
            faces = [parse_face(n) for n in g]
            for f in sorted(set(left), key=lambda x: (x == okey, x)):
                for cand in (faces + [f], [f] + faces):
                    if read_group(cand, okey) is not None:
                        table[i] = _names(cand)
                        left.remove(f)
                        changed = True
                        break
                if changed:
                    break
            if changed:
                break
    return table, len(seat.rack) - len(left), left


def _left_after(rack: list[int], groups: list[list[int]], table: list[list[int]],
                okey: int) -> list[int]:  # fmt: skip
    """The rack faces a planned layout leaves in hand."""
    need: list[int] = []
    for g in groups:
        for n in face_names(g, okey):
            need.append(parse_face(n))
    for g in table:
        for f in g:
            need.remove(f)
    left = list(rack)
    for f in need:
        left.remove(f)
    return left


def _pairs(left: list[int], okey: int) -> list[list[str]]:
    """S-G3 pairs among the tiles left: identical tiles, then a real okey with a tile."""
    nat, jokers = to_values(left, okey)
    out = []
    pool = sorted(left)
    for f in sorted(set(pool)):
        if f != okey and pool.count(f) >= 2:
            out.append([face_name(f), face_name(f)])
            pool.remove(f)
            pool.remove(f)
    for _ in range(jokers):
        rest = [f for f in pool if f not in (okey, FAKE)]
        if not rest:
            break
        f = max(rest, key=number_of)
        out.append([face_name(f), face_name(okey)])
        pool.remove(f)
        pool.remove(okey)
    return out


__all__ = ["LEVELS", "choose", "plan", "J"]
