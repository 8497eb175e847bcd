"""Kastet's analysis (issue 31, "Analiz"): per turn of each seat, the most rack tiles it
could have laid (S-L1 … S-L6) against what it laid, in tiles.

    analyse(data, budget=None) -> dict      # data: a kastet-scenario.md scenario

A ``turn`` decision is a whole turn, from the seat's first action to the one that passes
the turn on (``pass``, ``draw``, ``timeout``, or the ``pass`` that finishes, S-F1), at
the index of that last action.  ``value`` is the rack tiles the seat laid in the turn
(pairs included), ``best_value`` the most that one lay from the position at the start
of the turn could place: ``search.Search`` (the hard bot's branch-and-bound over
table rearrangements: every table tile stays on the table in valid runs and sets, at
most 26 groups, S-A1, S-L2, S-L3) on the run area and the seat's rack as
``views.view_for`` shows them (P-1, S-V1): the deck and the other racks are never read.
``cost = best_value − value``.  ``played`` is the run area the turn left (``{"type":
"lay", "table": [...], "pairs": [...]}``) or the turn's last action (``draw``, ``pass``,
``timeout``); ``best`` a ``lay`` in the scenario's form.

**Exact or bounded.**  Each turn gets ``PER_DECISION`` nodes, or less: the hand's budget
divided by the scenario's turns (at least one node), so that a long hand is analysed
whole, each turn more briefly — a share that depends on the scenario's length only,
never on what the other seats' searches used.  Of a turn's nodes an eighth goes to an
upper bound, an eighth to a quick lay that keeps the table's groups (``quick_lay``, a
lower bound), the rest to the search.  The upper bound: the relaxation ``_Relaxed`` (the rack's
natural tiles in runs and sets that may borrow table tiles, the table not having to
stay whole, plus the rack's real okeys) when it ends within its nodes, and never more
than ``placeable`` (the rack tiles that some run or set could hold, each on its own).
A turn whose lay reaches the bound needs no search; the search stops as soon as a
layout reaches it; and a search that ends within its nodes has found the optimum.
Those decisions are ``"exact": true``.  When the search is cut, ``best_value`` is the
best lay found (a lower bound of the optimum), ``"exact": false`` and ``"bound": "nodes
N"``.  The search looks only for lays better than the played one and the quick lay, so
a turn is never charged for a lay that was not found.  Pairs (S-L5) are not searched:
they need a run area of 26 groups, which at least 78 tiles on the table and in the rack
make possible; in such a position the bound is the whole rack, ``best_value`` counts no
pairs, and unless it is the whole rack the decision is ``"exact": false`` with a bound
that says so.

Notes: ``missed_finish`` (the seat could have laid its whole rack, S-F1, and did not),
``missed_lay`` (it laid nothing although it could lay).

The budget counts search nodes.  When the hand's budget is spent (a budget smaller than
the hand's turns), the remaining turns are not analysed: ``"complete": false``.
"""

from __future__ import annotations

from game.engine.analysis import Budget, decision, report
from game.engine.errors import EngineError
from games.kastet.engine.groups import read_group
from games.kastet.engine.replay import load_scenario
from games.kastet.engine.rules import apply
from games.kastet.engine.search import Search, face_names
from games.kastet.engine.state import SLOTS
from games.kastet.engine.views import view_for
from games.okey.engine.tiles import face_name, parse_face

UNIT = "tiles"
THRESHOLDS = {"loss": 1, "big_loss": 3}
PER_DECISION = 2000  # search nodes for one turn, at most
DEFAULT_BUDGET = 45000  # search nodes per hand (analysis_bench: p99 well under a second)
PAIR_TILES = 3 * SLOTS  # fewer tiles than this never fill the 26 slots (S-L5)


def _faces(tiles: list[dict]) -> list[int]:
    return [parse_face(t["face"]) for t in tiles]


def _rack(view: dict) -> list[int]:
    return _faces([c for c in view["rack"]["cells"] if c is not None])


def _table(view: dict) -> list[list[int]]:
    return [_faces(g["tiles"]) for g in view["table"]]


def _names(view: dict, key: str) -> list[list[str]]:
    return [[t["face"] for t in g["tiles"]] for g in view[key]]


class _Reached(Exception):
    pass


class _UpTo(Search):
    """The layout search, stopped as soon as a layout places ``target`` rack tiles (an
    upper bound: nothing can place more)."""

    def __init__(self, table, rack, okey, budget, target):
        super().__init__(table, rack, okey, budget)
        self.target = target

    def _record(self) -> None:
        super()._record()
        if self.best_score[0] >= self.target:
            raise _Reached


def best_lay(view: dict, nodes: int, floor: int = 0,
             target: int | None = None) -> tuple[int, list | None, bool, int]:  # fmt: skip
    """(rack tiles the best lay found places, its run area as names or None, whether
    that is the optimum, search nodes used) for the seat of ``view`` at the start of its
    turn, within ``nodes``.  Only lays placing more than ``floor`` tiles are looked for
    (none found: ``floor``); the search stops once one places ``target`` (an upper
    bound, default the rack)."""
    okey = parse_face(view["okey"])
    table = [f for g in _table(view) for f in g]
    rack = _rack(view)
    search = _UpTo(table, rack, okey, nodes, len(rack) if target is None else target)
    try:
        groups = search.run((floor, 0))
        optimal = search.complete
    except _Reached:
        groups, optimal = search.best, True
    placed = search.best_score[0] if groups is not None else floor
    layout = None if groups is None else [face_names(g, okey) for g in groups]
    return placed, layout, optimal, min(search.nodes, nodes)


def placeable(view: dict) -> int:
    """An upper bound of the rack tiles one lay can place: the tiles of the rack that
    some run or set of the table's and the rack's tiles could hold (each alone)."""
    okey = parse_face(view["okey"])
    table = [f for g in _table(view) for f in g]
    rack = _rack(view)
    s = Search([], table + rack, okey, 0)
    natural = sum(1 for v in range(52) if s.opt[v] for _ in range(_own(rack, v, okey))
                  if s.groups_through(v))  # fmt: skip
    jokers = sum(1 for f in rack if f == okey)
    return natural + (jokers if any(s.opt) else 0)


class _Stop(Exception):
    pass


class _Relaxed(Search):
    """The rack's natural tiles in runs and sets that may take the table's tiles as
    helpers, the table not having to stay whole (nor 26 groups): a relaxation of the
    lay, so its optimum plus the rack's real okeys bounds what a lay can place."""

    def __init__(self, table, rack, okey, budget):
        super().__init__(table, rack, okey, budget)
        self.jokers = self.jopt
        self.best_natural = 0

    def natural(self) -> int:
        return self.placed - (self.jokers - self.jopt)

    def go(self, start: int) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Stop
        here = self.natural()
        if here + sum(self.opt) <= self.best_natural:
            return
        key = self._key(start)
        if self.seen.get(key, -1) >= here:
            return
        self.seen[key] = here
        self.best_natural = max(self.best_natural, here)
        v = next((i for i in range(start, 52) if self.opt[i]), None)
        if v is None:
            return
        for g in self.groups_through(v):
            src = self._take(g)
            self.go(v)
            self._give(g, src)
        self.go(v + 1)


def quick_lay(view: dict, nodes: int) -> tuple[int, list | None, int]:
    """(rack tiles placed, run area as names or None, search nodes used): a lay that
    keeps the table's groups — the rack's own best groups (``Search`` on the rack
    alone, within ``nodes``), then tiles added at the ends of runs and to sets of three,
    while any fits.  A lower bound that the full search then tries to beat."""
    okey = parse_face(view["okey"])
    table = _table(view)
    rack = _rack(view)
    own = Search([], rack, okey, nodes, SLOTS - len(table))
    groups = own.run() or []
    layout = [list(g) for g in table] + [[parse_face(n) for n in face_names(g, okey)]
                                         for g in groups]  # fmt: skip
    left = list(rack)
    for g in layout[len(table) :]:
        for f in g:
            left.remove(f)
    grown = True
    while grown and left:
        grown = False
        for f in sorted(set(left), key=lambda x: (x == okey, x)):
            for i, g in enumerate(layout):
                cand = next((c for c in (g + [f], [f] + g) if read_group(c, okey)), None)
                if cand is not None:
                    layout[i] = cand
                    left.remove(f)
                    grown = True
                    break
            if grown:
                break
    placed = len(rack) - len(left)
    names = [[face_name(f) for f in g] for g in layout] if placed else None
    return placed, names, min(own.nodes, nodes)


def upper_bound(view: dict, nodes: int) -> tuple[int, int]:
    """(an upper bound of the rack tiles one lay can place, search nodes used): the
    relaxation ``_Relaxed`` when it ends within ``nodes``, and never more than
    ``placeable``."""
    okey = parse_face(view["okey"])
    table = [f for g in _table(view) for f in g]
    rack = _rack(view)
    top = placeable(view)
    r = _Relaxed(table, rack, okey, nodes)
    try:
        r.go(0)
    except _Stop:
        return top, nodes
    return min(top, r.best_natural + r.jokers), r.nodes


def _own(rack: list[int], v: int, okey: int) -> int:
    """How many tiles of the rack stand for value ``v`` (an F stands for the okey's)."""
    return sum(1 for f in rack if f != okey and (okey if f == 52 else f) == v)


def analyse(data, budget: int | None = None) -> dict:
    hand, actions = load_scenario(data)
    budget_ = Budget(DEFAULT_BUDGET if budget is None else budget, "nodes")
    decisions: list[dict] = []
    start: tuple[int, dict] | None = None  # (turn number, the seat's view at its start)
    # the budget is shared out over the scenario's turns (at most one per pass, draw or
    # timeout) so that a long hand is analysed whole, each turn more briefly.  A turn's
    # share depends on the scenario's length alone, never on what the other seats' searches
    # used (their racks are hidden, P-1)
    turns = sum(1 for b in actions if b["type"] in ("pass", "draw", "timeout"))
    share = min(PER_DECISION, max(1, budget_.limit // max(1, turns)))
    complete = True
    for step, a in enumerate(actions):
        seat = a["seat"]
        action = {k: v for k, v in a.items() if k != "seat"}
        if hand.over or seat != hand.turn:
            continue  # refused (not the seat's turn, or over): nothing happens
        if start is None or start[0] != hand.turn_no:
            start = (hand.turn_no, view_for(hand, seat))
        turn_no = hand.turn_no
        try:
            apply(hand, seat, action)
        except EngineError:
            continue
        if hand.turn_no == turn_no and not hand.over:
            continue  # the turn goes on (a lay or an undo)
        if budget_.left == 0:
            complete = False
            break
        decisions.append(_turn_decision(start[1], view_for(hand, seat), step, seat,
                                        action, budget_, share))  # fmt: skip
    return report("kastet", UNIT, THRESHOLDS, budget_, decisions, complete)


def _turn_decision(before: dict, after: dict, step: int, seat: int, action: dict,
                   budget: Budget, share: int) -> dict:  # fmt: skip
    rack = _rack(before)
    laid = max(0, len(rack) - len(_rack(after)))  # a draw adds a tile
    tiles = sum(len(g) for g in _table(before)) + len(rack)
    pairs = tiles >= PAIR_TILES  # 26 groups possible: pairs may be laid too (S-L5)
    nodes = min(share, budget.left)
    top = len(rack)
    if not pairs:
        top, used = upper_bound(before, max(1, nodes // 8))
        budget.spend(used)
        nodes = max(1, min(nodes - used, budget.left))
    if top <= laid:  # nothing better exists: no search needed
        return decision(THRESHOLDS, step=step, seat=seat, kind="turn",
                        played=_played(before, after, laid, action), best=None, value=laid,
                        best_value=laid, cost=0)  # fmt: skip
    quick, quick_layout, used = quick_lay(before, max(1, nodes // 8))
    budget.spend(used)
    nodes = max(1, min(nodes - used, budget.left))
    floor, floor_layout = (quick, quick_layout) if quick > laid else (laid, None)
    # only a lay better than the played one is looked for, and the search stops at the
    # upper bound: proving the optimum is then often quick
    best, layout, exact, used = best_lay(before, nodes, floor, top)
    budget.spend(used)
    if layout is None:  # nothing beats the floor: the quick lay, or the played one
        layout = floor_layout
    exact = exact or best >= top
    bound = None if exact else f"nodes {nodes}"
    if pairs and best < len(rack):
        exact = False
        bound = "; ".join(b for b in (bound, "pairs (S-L5) not searched") if b)
    played = _played(before, after, laid, action)
    notes = []
    if best == len(rack) and laid < best:
        notes.append("missed_finish")
    if laid == 0 and best > 0:
        notes.append("missed_lay")
    return decision(THRESHOLDS, step=step, seat=seat, kind="turn", played=played,
                    best=None if layout is None else {"type": "lay", "table": layout},
                    value=laid, best_value=best, cost=best - laid, exact=exact,
                    bound=bound, notes=notes)  # fmt: skip


def _played(before: dict, after: dict, laid: int, action: dict) -> dict:
    if not laid:
        return {"type": action["type"]}
    played = {"type": "lay", "table": _names(after, "table")}
    new_pairs = _names(after, "pairs")[len(before["pairs"]) :]
    if new_pairs:
        played["pairs"] = new_pairs
    return played


def run_scenario(data) -> dict:
    """The ``analyse`` command's entry (registry): ``analyse(data)``."""
    return analyse(data)
