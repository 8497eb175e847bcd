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


_ROW = (1 << 13) - 1
_BIT = [1 << v for v in range(52)]
_DIGIT = [1 << (2 * v) for v in range(52)]  # one tile of face v in a count code
_NUMBER = [number_of(v) for v in range(52)]
_COLUMN = [sum(1 << (c * 13 + n) for c in range(4)) for n in range(13)]  # a number's faces


class Search:
    """The search's state.  Beside the tile counts it keeps, for speed, ``req_code`` and
    ``opt_code`` (each count as a 2-bit digit of one integer: the memo key and the lowest
    tile in a few integer operations), ``avail`` (bit ``v`` set while a ``v`` is left
    in table or rack), ``opt_n`` (rack tiles left) and the groups through a tile by its
    neighbourhood (``_through``): the same nodes in the same order as a plain search."""

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
        self.req_code = sum(n << (2 * v) for v, n in enumerate(self.req))
        self.opt_code = sum(n << (2 * v) for v, n in enumerate(self.opt))
        self.avail = sum(1 << v for v in range(52) if self.req[v] or self.opt[v])
        self.opt_n = sum(self.opt)
        self.budget = budget
        self.nodes = 0
        self.max_groups = max_groups
        self.best_score: tuple[int, int] = (0, 0)
        self.best: list[list[int]] | None = None
        self.groups: list[list[int]] = []
        self.placed = 0
        self.points = 0
        self.seen: dict[tuple, int] = {}
        self._through: dict[tuple, list[list[int]]] = {}
        self.complete = True  # False when the budget ran out

    # -- taking and giving back tiles -----------------------------------------------
    def _take(self, group: list[int]) -> list[int]:
        """Take a group's tiles (table copies first); returns what came from where."""
        src = []
        req, opt = self.req, self.opt
        req_code, opt_code, avail = self.req_code, self.opt_code, self.avail
        placed = points = naturals = 0
        for v in group:
            if v == J:
                if self.jreq:
                    self.jreq -= 1
                    src.append(0)
                else:
                    self.jopt -= 1
                    src.append(1)
                    placed += 1
                    points += _NUMBER[self.okey]
                continue
            if req[v]:
                req[v] -= 1
                req_code -= _DIGIT[v]
                src.append(0)
            else:
                opt[v] -= 1
                opt_code -= _DIGIT[v]
                src.append(1)
                naturals += 1
                placed += 1
                points += _NUMBER[v]
            if not (req[v] or opt[v]):
                avail &= ~_BIT[v]
        self.req_code, self.opt_code, self.avail = req_code, opt_code, avail
        self.placed += placed
        self.points += points
        self.opt_n -= naturals
        return src

    def _give(self, group: list[int], src: list[int]) -> None:
        req, opt = self.req, self.opt
        req_code, opt_code, avail = self.req_code, self.opt_code, self.avail
        placed = points = naturals = 0
        for v, s in zip(group, src):
            if v == J:
                if s:
                    self.jopt += 1
                    placed += 1
                    points += _NUMBER[self.okey]
                else:
                    self.jreq += 1
                continue
            if s:
                opt[v] += 1
                opt_code += _DIGIT[v]
                naturals += 1
                placed += 1
                points += _NUMBER[v]
            else:
                req[v] += 1
                req_code += _DIGIT[v]
            avail |= _BIT[v]
        self.req_code, self.opt_code, self.avail = req_code, opt_code, avail
        self.placed -= placed
        self.points -= points
        self.opt_n += naturals

    # -- the groups through one tile -----------------------------------------------
    def groups_through(self, v: int) -> list[list[int]]:
        """Every run through ``v`` (naturals where there are any, okeys in the gaps)
        and every set of its number, longest first (shared lists: not to be changed)."""
        c, n = divmod(v, 13)
        jokers = self.jreq + self.jopt
        key = (v, jokers, (self.avail >> (13 * c)) & _ROW, self.avail & _COLUMN[n])
        out = self._through.get(key)
        if out is None:
            out = self._through[key] = self._groups_through(v, jokers)
        return out

    def _groups_through(self, v: int, jokers: int) -> list[list[int]]:
        avail = self.avail
        c, n = divmod(v, 13)
        n += 1
        base = c * 13 - 1  # face of (c, k) is base + k
        out: list[list[int]] = []
        below: list[int] = []
        used_below = 0
        for a in range(n, 0, -1):
            if a < n:
                w = base + a
                if avail >> w & 1:
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
                if avail >> w & 1:
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
                if avail >> w & 1:
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

    def _key(self, start: int) -> tuple:
        return (self.req_code, self.opt_code, self.jreq, self.jopt, start)

    def _dfs(self, start: int) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Budget
        # bound: every rack tile left could at best be placed
        if self.placed + self.opt_n + self.jopt <= self.best_score[0]:
            return
        # the tiles left decide what can still be laid (and how many are placed): a state
        # already searched with as few groups (as much room, S-A1) needs no second look
        key = self._key(start)
        if self.seen.get(key, SLOTS + 1) <= len(self.groups):
            return
        self.seen[key] = len(self.groups)
        if self.req_code:  # cover the lowest table tile
            low = self.req_code & -self.req_code
            v = (low.bit_length() - 1) >> 1
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
        rest = self.opt_code >> (2 * start)
        if not rest:
            return
        v = start + (((rest & -rest).bit_length() - 1) >> 1)
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
