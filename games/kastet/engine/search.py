"""The bots' layout search: a new run area from the table's tiles and a rack's.

``best_layout(table, rack, okey, budget)`` looks for a partition of **every** table tile
and as many rack tiles as it can into valid runs and sets (S-L2, S-L3) of at most 26
groups (S-A1): a depth-first branch-and-bound over table rearrangements.  It always
covers the lowest table tile still uncovered with one of the groups that can hold it
(every run through it, every set of its number), so table groups are split, merged and
re-formed freely; once the table is covered it adds groups of rack tiles.  Rack tiles
are worth one each (ties: their points, the score they would cost in hand, S-S2).

The budget is a number of search nodes, not seconds (the engine never reads a clock):
when it runs out the best layout found so far is returned.  ``DEFAULT_BUDGET`` keeps a
bot move well under a second on this machine (README, "Kastet bots").

Tiles here are *values*: a natural tile's value is the face it stands for (0..51; an
``F`` stands for the okey face, S-T4); a real okey is a joker (``J``), counted apart.
"""

from __future__ import annotations

from games.kastet.engine.state import SLOTS
from games.okey.engine.tiles import FAKE, face_name, number_of

J = -1  # a real okey in a plan
DEFAULT_BUDGET = 12000


def _others(c: int) -> list[list[int]]:
    o = [x for x in range(4) if x != c]
    return [[o[0], o[1]], [o[0], o[2]], [o[1], o[2]], o]


_OTHERS = [_others(c) for c in range(4)]


class _Budget(Exception):
    pass


def to_values(faces: list[int], okey: int) -> tuple[list[int], int]:
    """Natural values and the number of real okeys."""
    nat = []
    jokers = 0
    for f in faces:
        if f == okey:
            jokers += 1
        else:
            nat.append(okey if f == FAKE else f)
    return nat, jokers


def face_names(group: list[int], okey: int) -> list[str]:
    """A plan group (values, ``J`` for an okey) as tile names."""
    return [face_name(okey) if v == J else ("F" if v == okey else face_name(v)) for v in group]


class Search:
    def __init__(self, table: list[int], rack: list[int], okey: int, budget: int,
                 max_groups: int = SLOTS):  # fmt: skip
        self.okey = okey
        self.req = [0] * 52
        self.opt = [0] * 52
        nat, self.jreq = to_values(table, okey)
        for v in nat:
            self.req[v] += 1
        nat, self.jopt = to_values(rack, okey)
        for v in nat:
            self.opt[v] += 1
        self.budget = budget
        self.nodes = 0
        self.max_groups = max_groups
        self.best_score: tuple[int, int] = (0, 0)
        self.best: list[list[int]] | None = None
        self.groups: list[list[int]] = []
        self.placed = 0
        self.points = 0
        self.seen: dict[bytes, int] = {}
        self.complete = True  # False when the budget ran out

    # -- taking and giving back tiles -----------------------------------------------
    def _take(self, group: list[int]) -> list[int]:
        """Take a group's tiles (table copies first); returns what came from where."""
        src = []
        for v in group:
            if v == J:
                if self.jreq:
                    self.jreq -= 1
                    src.append(0)
                else:
                    self.jopt -= 1
                    src.append(1)
                    self.placed += 1
                    self.points += number_of(self.okey)
            elif self.req[v]:
                self.req[v] -= 1
                src.append(0)
            else:
                self.opt[v] -= 1
                src.append(1)
                self.placed += 1
                self.points += number_of(v)
        return src

    def _give(self, group: list[int], src: list[int]) -> None:
        for v, s in zip(group, src):
            if v == J:
                if s:
                    self.jopt += 1
                    self.placed -= 1
                    self.points -= number_of(self.okey)
                else:
                    self.jreq += 1
            elif s:
                self.opt[v] += 1
                self.placed -= 1
                self.points -= number_of(v)
            else:
                self.req[v] += 1

    # -- the groups through one tile -----------------------------------------------
    def groups_through(self, v: int) -> list[list[int]]:
        """Every run through ``v`` (naturals where there are any, okeys in the gaps)
        and every set of its number, longest first."""
        req, opt = self.req, self.opt
        c, n = divmod(v, 13)
        n += 1
        base = c * 13 - 1  # face of (c, k) is base + k
        out: list[list[int]] = []
        jokers = self.jreq + self.jopt
        below: list[int] = []
        used_below = 0
        for a in range(n, 0, -1):
            if a < n:
                w = base + a
                if req[w] or opt[w]:
                    below.insert(0, w)
                elif used_below < jokers:
                    below.insert(0, J)
                    used_below += 1
                else:
                    break
            run = below + [v]
            used = used_below
            for b in range(n + 1, 14):
                if len(run) >= 3:
                    out.append(list(run))
                if len(run) >= 13:
                    break
                w = base + b
                if req[w] or opt[w]:
                    run.append(w)
                elif used < jokers:
                    run.append(J)
                    used += 1
                else:
                    break
            else:
                if len(run) >= 3:
                    out.append(run)
        for pick in _OTHERS[c]:  # sets of n: two or three other colours
            g = [v]
            used = 0
            for o in pick:
                w = o * 13 + n - 1
                if req[w] or opt[w]:
                    g.append(w)
                elif used < jokers:
                    g.append(J)
                    used += 1
                else:
                    break
            else:
                out.append(g)
        # longer groups first: they place more tiles, so good layouts come early
        out.sort(key=len, reverse=True)
        return out

    # -- the search -----------------------------------------------------------------
    def _record(self) -> None:
        score = (self.placed, self.points)
        if score > self.best_score:
            self.best_score = score
            self.best = [list(g) for g in self.groups]

    def _key(self, start: int) -> bytes:
        return (
            bytes(self.req)
            + bytes(self.opt)
            + bytes((self.jreq, self.jopt, len(self.groups), start))
        )

    def _dfs(self, start: int) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Budget
        # bound: every rack tile left could at best be placed
        if self.placed + sum(self.opt) + self.jopt <= self.best_score[0]:
            return
        key = self._key(start)
        if self.seen.get(key, -1) >= self.placed:
            return
        self.seen[key] = self.placed
        v = next((i for i in range(52) if self.req[i]), None)
        if v is not None:  # cover the lowest table tile
            if len(self.groups) >= self.max_groups:
                return
            for g in self.groups_through(v):
                src = self._take(g)
                self.groups.append(g)
                self._dfs(0)
                self.groups.pop()
                self._give(g, src)
            return
        if self.jreq:  # a table okey still to place: a group of rack tiles must take it
            if len(self.groups) >= self.max_groups:
                return
            for w in range(52):
                if not self.opt[w]:
                    continue
                for g in self.groups_through(w):
                    if J not in g:
                        continue
                    src = self._take(g)
                    self.groups.append(g)
                    self._dfs(0)
                    self.groups.pop()
                    self._give(g, src)
            return
        self._record()
        if len(self.groups) >= self.max_groups:
            return
        v = next((i for i in range(start, 52) if self.opt[i]), None)
        if v is None:
            return
        for g in self.groups_through(v):  # a group of rack tiles through v …
            src = self._take(g)
            self.groups.append(g)
            self._dfs(v)
            self.groups.pop()
            self._give(g, src)
        self._dfs(v + 1)  # … or v stays in the rack

    def run(self, floor: tuple[int, int] = (0, 0)) -> list[list[int]] | None:
        """The best layout placing more than ``floor`` (rack tiles, points), or None."""
        self.best_score = floor
        try:
            self._dfs(0)
        except _Budget:
            self.complete = False
        return self.best


def best_layout(table: list[int], rack: list[int], okey: int, budget: int = DEFAULT_BUDGET,
                floor: tuple[int, int] = (0, 0), max_groups: int = SLOTS):  # fmt: skip
    """(groups as value lists, search) — groups None when nothing beats ``floor``."""
    s = Search(table, rack, okey, budget, max_groups)
    return s.run(floor), s
