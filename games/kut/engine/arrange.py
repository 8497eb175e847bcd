"""Diz (K-R4): arrange the rack so the task is ready, with separators; opens nothing.

Before opening, the task's groups come first (küts before runs when a task needs both,
runs for a run task, pairs for the pairs task); if the task cannot be opened yet, the
best runs and küts.  After opening (and in the finish-from-hand hand), the arrangement
that leaves the fewest points outside runs and küts.  Groups never straddle a row end;
each group is closed by a separator; loose tiles follow.
"""

from __future__ import annotations

from games.kut.engine.solver import PLAY, solve
from games.kut.engine.tasks import is_finish
from games.okey.engine.groups import KUT, PAIR, RUN
from games.okey.engine.rack import CELLS, ROW, Rack
from games.okey.engine.tiles import face_of

_KIND_ORDER = {KUT: 0, RUN: 1, PAIR: 2}


def plan_groups(faces: list[int], okey: int, task, opened: bool) -> list[list[int]]:
    """The groups (faces, in group order) Diz lines up, first to last."""
    if opened or task is None:
        sol = solve(faces, okey, None)
        return sorted(sol.groups, key=len, reverse=True)
    sol = solve(faces, okey, task, PLAY)  # Diz (K-R4): the opening that leaves the best rest
    if sol.can_open and not is_finish(task):
        pairs = sorted(zip(sol.kinds, sol.groups), key=lambda kg: _KIND_ORDER[kg[0]])
        return [g for _, g in pairs]
    return list(sol.groups)


def layout(tiles: list[int], groups: list[list[int]]) -> Rack:
    """Place ``groups`` (faces) using the physical ``tiles``; returns the new rack."""
    pool = list(tiles)
    placed: list[list[int]] = []
    for g in groups:
        phys = []
        for f in g:
            t = next(t for t in pool if face_of(t) == f)
            pool.remove(t)
            phys.append(t)
        placed.append(phys)
    rack = Rack()
    pos = 0
    overflow: list[list[int]] = []
    for phys in placed:
        if pos % ROW and pos % ROW + len(phys) > ROW:
            pos = (pos // ROW + 1) * ROW  # never straddle the row end
        if pos + len(phys) > CELLS:
            overflow.append(phys)
            continue
        for t in phys:
            rack.cells[pos] = t
            pos += 1
        if pos % ROW:
            rack.seps.add(pos - 1)
    loose = [t for g in overflow for t in g] + sorted(pool, key=face_of)
    for t in loose:
        rack.cells[rack.cells.index(None)] = t
    return rack


def arrange(state, seat: int) -> Rack:
    """The rack Diz would make for ``seat`` now."""
    rack = state.racks[seat]
    tiles = rack.tiles()
    groups = plan_groups([face_of(t) for t in tiles], state.okey, state.task,
                         state.opened[seat])  # fmt: skip
    return layout(tiles, groups)
