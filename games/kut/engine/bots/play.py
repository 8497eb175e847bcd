"""Bot decisions from a seat's view (see ``bots/__init__.py``)."""

from __future__ import annotations

import random
from functools import lru_cache

from games.kut.engine.solver import PLAY
from games.kut.engine.solver import solve as _solve_exact
from games.kut.engine.tasks import is_finish
from games.okey.engine.groups import (
    KUT,
    PAIR,
    RUN,
    exchange_index,
    kut_takes,
    natural,
    run_end_fits,
)
from games.okey.engine.tiles import FAKE, colour_of, number_of, parse_face

LEVELS = ("easy", "normal", "hard")


@lru_cache(maxsize=8192)
def _solve_cached(faces: tuple, okey: int, task):
    return _solve_exact(list(faces), okey, task, PLAY)  # the best rest; finish on the okey


def solve(faces, okey, task):
    """The exact solver, memoised on the multiset of faces (racks repeat a lot)."""
    return _solve_cached(tuple(sorted(faces)), okey, task)


MAX_CANDIDATES = 8  # discards the hard bot evaluates with the solver


class Seat:
    """What a bot reads from its view, in engine terms (faces)."""

    def __init__(self, view: dict):
        self.view = view
        self.me = view["me"]
        self.okey = parse_face(view["okey"])
        self.task = tuple(tuple(req) for req in view["task"])
        self.cells = [c for c in view["rack"]["cells"] if c]
        self.faces = [parse_face(c["face"]) for c in self.cells]
        self.ids = [c["id"] for c in self.cells]
        self.islek = [c.get("islek", False) for c in self.cells]
        self.opened = view["seats"][self.me]["opened"]
        self.table = [
            (
                g["kind"],
                [parse_face(t["face"]) for t in g["tiles"]],
                [None if v is None else parse_face(v) for v in g["values"]],
                g.get("added", [0, 0]),
            )
            for g in view["table"]
        ]

    # -- mapping faces back to my tile ids -----------------------------------------
    def ids_for(self, groups: list[list[int]]) -> list[list[str]]:
        free = list(zip(self.faces, self.ids))
        out = []
        for g in groups:
            ids = []
            for f in g:
                k = next(i for i, (face, _) in enumerate(free) if face == f)
                ids.append(free.pop(k)[1])
            out.append(ids)
        return out

    def id_of(self, face: int) -> str:
        return self.ids[self.faces.index(face)]

    # -- laying off ------------------------------------------------------------------
    def placements(self, face: int):
        """(group index, end|None, is_exchange) where ``face`` could go now."""
        out = []
        for i, (kind, faces, values, added) in enumerate(self.table):
            if exchange_index(values, faces, face, self.okey) is not None:
                out.append((i, None, True))
                continue
            if kind == RUN:
                left, right = run_end_fits(values, face, self.okey)
                if right and added[1] < 2:
                    out.append((i, "right", False))
                elif left and added[0] < 2:
                    out.append((i, "left", False))
            elif kind == KUT and kut_takes(values, faces, face, self.okey):
                out.append((i, None, False))
        return out


def _points(face: int, okey: int) -> int:
    if face == okey:
        return 100
    return number_of(okey) if face == FAKE else number_of(face)


def _lay_off_action(seat: Seat, level: str) -> dict | None:
    count = len(seat.faces)
    order = sorted(range(count), key=lambda i: (seat.faces[i] == seat.okey, i))
    for i in order:
        face = seat.faces[i]
        for g, end, exchange in seat.placements(face):
            if not exchange and count <= 1:
                continue  # K-N4: keep a tile to discard
            if face == seat.okey:
                if level == "easy":
                    continue
                # an okey left in hand after the next turn costs 100 (K-S4): spend it,
                # but keep a natural tile to discard
                if count <= 2:
                    continue
            if not exchange and face != seat.okey and count <= 1:
                continue
            action = {"type": "lay_off", "tile_id": seat.ids[i], "group": g}
            if end and face == seat.okey:
                action["end"] = end
            return action
    return None


def _new_groups_action(seat: Seat) -> dict | None:
    sol = solve(seat.faces, seat.okey, None)
    groups = [g for g, k in zip(sol.groups, sol.kinds) if k in (RUN, KUT)]
    if not groups:
        return None
    while groups and sum(map(len, groups)) >= len(seat.faces):
        groups.pop()  # K-N4: keep a tile to discard
    if not groups:
        return None
    return {"type": "new_groups", "group_ids": seat.ids_for(groups)}


def _open_action(seat: Seat) -> dict | None:
    sol = solve(seat.faces, seat.okey, seat.task)
    if not sol.can_open:
        return None
    if sum(map(len, sol.groups)) >= len(seat.faces):
        return None
    return {"type": "open", "group_ids": seat.ids_for(sol.groups)}


def _usefulness(faces: list[int], i: int, okey: int, task) -> float:
    """How much tile ``i`` helps the rack toward the task (before opening)."""
    f = faces[i]
    if f == okey:
        return 1000.0
    v = natural(f, okey)
    c, n = colour_of(v), number_of(v)
    kinds = {k for k, _ in task} if task else {RUN, KUT}
    score = 0.0
    others = [natural(x, okey) for j, x in enumerate(faces) if j != i and x != okey]
    if KUT in kinds:
        colours = {colour_of(x) for x in others if number_of(x) == n and colour_of(x) != c}
        score += 1.5 * len(colours)
    if RUN in kinds:
        for x in others:
            if colour_of(x) == c:
                d = abs(number_of(x) - n)
                score += 1.6 if d == 1 else 0.8 if d == 2 else 0.0
    if PAIR in kinds:
        score += 3.0 * sum(1 for x in others if x == v)
    return score


def _need(faces: list[int], okey: int, task) -> int:
    """Hard: about how many more tiles the rack needs to open ``task`` (0: ready)."""
    okeys = sum(1 for f in faces if f == okey)
    values = [natural(f, okey) for f in faces if f != okey]
    have = set(values)
    kinds = [k for k, _ in task]
    if PAIR in kinds:
        counts: dict[int, int] = {}
        for v in values:
            counts[v] = counts.get(v, 0) + 1
        pairs = sum(c // 2 for c in counts.values())
        singles = sum(c % 2 for c in counts.values())
        missing = max(0, len(task) - pairs)
        return max(0, missing - min(okeys, singles)) + max(0, missing - singles)
    best: dict[tuple, list[int]] = {}
    for kind, length in set(task):
        opts = []
        if kind == KUT:
            for n in range(13):
                opts.append(length - min(length, sum(c * 13 + n in have for c in range(4))))
        else:
            for c in range(4):
                row = [c * 13 + n in have for n in range(13)]
                for start in range(14 - length):
                    opts.append(length - sum(row[start : start + length]))
        best[(kind, length)] = sorted(opts)
    missing = 0
    used: dict[tuple, int] = {}
    for req in task:
        k = used.get(req, 0)
        missing += best[req][k]
        used[req] = k + 1
    return max(0, missing - okeys)


def _feeds_next(seat: Seat, face: int) -> bool:
    """Would this discard give the next player what it visibly collects?"""
    nxt = (seat.me + 1) % 4
    v = natural(face, seat.okey)
    for name in seat.view["seats"][nxt].get("picked", []):
        p = natural(parse_face(name), seat.okey)
        if number_of(p) == number_of(v) and colour_of(p) != colour_of(v):
            return True
        if colour_of(p) == colour_of(v) and abs(number_of(p) - number_of(v)) <= 2:
            return True
    return False


def _discard_action(seat: Seat, level: str, rng: random.Random) -> dict:
    count = len(seat.faces)
    if count == 1:
        return {"type": "discard", "tile_id": seat.ids[0]}  # K-F1: finish
    naturals = [i for i in range(count) if seat.faces[i] != seat.okey]
    pool = naturals or list(range(count))
    if level == "easy":
        return {"type": "discard", "tile_id": seat.ids[rng.choice(pool)]}
    if seat.opened:
        # keep what the best arrangement uses; throw the loose tile worth most
        sol = solve(seat.faces, seat.okey, None)
        loose = list(sol.left)
        cands = [i for i in pool if seat.faces[i] in loose] or pool
        if level == "hard":
            return _best_by_solver(seat, cands, None)
        key = lambda i: seat.islek[i] * 100 - _points(seat.faces[i], seat.okey)  # noqa: E731
        return {"type": "discard", "tile_id": seat.ids[min(cands, key=key)]}
    task = seat.task
    feed = 4.0 if level == "hard" else 0.0
    if level == "hard" and not is_finish(task):
        needs = {}
        for i in pool:
            f = seat.faces[i]
            if f not in needs:
                needs[f] = _need(seat.faces[:i] + seat.faces[i + 1 :], seat.okey, task)
        low = min(needs.values())
        pool = [i for i in pool if needs[seat.faces[i]] == low]
    ranked = sorted(
        pool,
        key=lambda i: (
            seat.islek[i] * 100
            + _usefulness(seat.faces, i, seat.okey, task)
            + (feed if _feeds_next(seat, seat.faces[i]) else 0.0)
            - _points(seat.faces[i], seat.okey) / 20.0
        ),
    )
    return {"type": "discard", "tile_id": seat.ids[ranked[0]]}


def _best_by_solver(seat: Seat, cands: list[int], task) -> dict:
    """Hard: evaluate each distinct candidate face by the rack it leaves."""
    seen: dict[int, int] = {}
    for i in cands:
        seen.setdefault(seat.faces[i], i)
    # a cheap pre-ranking keeps the number of solver calls bounded
    pre = sorted(seen.values(), key=lambda i: (
        seat.islek[i] * 100 + _usefulness(seat.faces, i, seat.okey, task or ())
        - _points(seat.faces[i], seat.okey) / 20.0))[:MAX_CANDIDATES]  # fmt: skip
    best, best_cost = pre[0], None
    for i in pre:
        rest = seat.faces[:i] + seat.faces[i + 1 :]
        if task is None:
            sol = solve(rest, seat.okey, None)
            cost = sol.points_left
        else:
            sol = solve(rest, seat.okey, task)
            cost = (0 if sol.can_open else 200) - _usefulness(seat.faces, i, seat.okey, task) * 4
        cost += seat.islek[i] * 100
        cost += 12 if _feeds_next(seat, seat.faces[i]) else 0
        if best_cost is None or cost < best_cost:
            best, best_cost = i, cost
    return {"type": "discard", "tile_id": seat.ids[best]}


def _helps(seat: Seat, face: int, level: str) -> bool:
    """Would adding ``face`` to the rack help? (take or claim decisions)"""
    with_it = seat.faces + [face]
    if not seat.opened:
        if is_finish(seat.task):
            return solve(with_it, seat.okey, seat.task).can_open
        i = len(with_it) - 1
        if level == "hard" and not is_finish(seat.task):
            if _need(with_it, seat.okey, seat.task) < _need(seat.faces, seat.okey, seat.task):
                return True
        useful = _usefulness(with_it, i, seat.okey, seat.task)
        if level == "hard" and useful >= 3.0:
            return True
        return useful >= 1.5 and solve(with_it, seat.okey, seat.task).can_open
    before = solve(seat.faces, seat.okey, None).points_left
    after = solve(with_it, seat.okey, None).points_left
    return after < before  # the tile goes into a group


def choose(view: dict, level: str, rng: random.Random) -> dict | None:
    """The bot's next action on its own turn; None when it is not its turn."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    if view.get("over") or view.get("turn") != view.get("me"):
        return None
    seat = Seat(view)
    can = view["can"]
    if view["phase"] == "take":
        if can["take"] and level != "easy":
            thrown = parse_face(view["thrown"]["tile"]["face"])
            if _helps(seat, thrown, level):
                return {"type": "take_discard"}
        if can["draw"]:
            return {"type": "draw"}
        if can["take"]:
            return {"type": "take_discard"}
        return {"type": "timeout"}  # nothing to take: let the rules complete the turn
    if not seat.opened:
        if is_finish(seat.task):
            sol = solve(seat.faces, seat.okey, seat.task)
            if sol.can_open:
                return {"type": "open", "group_ids": seat.ids_for(sol.groups)}
        else:
            action = _open_action(seat)
            if action:
                return action
    elif can["lay_off"]:
        if level == "easy":
            if (
                any(seat.placements(f) for f in seat.faces if f != seat.okey)
                and len(seat.faces) > 1
            ):
                return {"type": "auto_lay_off"}
        else:
            action = _lay_off_action(seat, level)
            if action:
                return action
            action = _new_groups_action(seat)
            if action:
                return action
    return _discard_action(seat, level, rng)


def wants_claim(view: dict, level: str, rng: random.Random) -> bool:
    """Out of turn: claim the thrown tile (K-C1…K-C3, weighing the penalty tile)?"""
    if level == "easy" or not view.get("can", {}).get("claim"):
        return False
    seat = Seat(view)
    face = parse_face(view["thrown"]["tile"]["face"])
    if is_finish(seat.task):
        return False  # two more tiles make finishing from hand harder
    if not seat.opened:
        with_it = seat.faces + [face]
        if _usefulness(with_it, len(with_it) - 1, seat.okey, seat.task) < 1.5:
            return False  # cannot complete anything: skip the solver
        return solve(with_it, seat.okey, seat.task).can_open
    if level != "hard":
        return False
    before = solve(seat.faces, seat.okey, None).points_left
    after = solve(seat.faces + [face], seat.okey, None).points_left
    return before - after >= 15  # worth more than an average penalty tile
