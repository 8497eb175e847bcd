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
``cost = best_value − value``.

**Exact or bounded.**  Each turn's search gets ``PER_DECISION`` nodes, or its share of
what is left of the hand's budget (that divided by the turns still to come in the
scenario, at least one node), so that a long hand is analysed whole, each turn more
briefly.  An upper bound, ``placeable``: the rack tiles that some run or set of the
table's and the rack's tiles could hold, each on its own.  A turn whose lay reaches it
needs no search; the search stops as soon as a layout reaches it; and a search that
ends within its nodes has found the optimum.  Those decisions are ``"exact": true``.
When the search is cut, ``best_value`` is the best layout found so far (a lower bound of
the optimum), ``"exact": false`` and ``"bound": "nodes N"``.  The search looks only for
lays better than the played one (the played count is its floor), so a turn is never
charged for a lay the search did not find.  Pairs (S-L5) are not searched: they need a
run area of 26 groups, which at least 78 tiles on the table and in the rack make
possible; in such a position the bound is the whole rack, ``best_value`` counts no
pairs, and unless it is the whole rack the decision is ``"exact": false`` with a bound
that says so.

Notes: ``missed_finish`` (the seat could have laid its whole rack, S-F1, and did not),
``missed_lay`` (it laid nothing although it could lay).

The budget counts search nodes.  When the hand's budget is spent (a budget smaller than
the hand's turns), the remaining turns are not analysed: ``"complete": false``.
"""

from __future__ import annotations

from ..errors import EngineError
from ..okey.analysis import Budget, decision, report
from ..tiles import parse_face
from .replay import load_scenario
from .rules import apply
from .search import Search, face_names
from .state import SLOTS
from .views import view_for

UNIT = "tiles"
THRESHOLDS = {"loss": 1, "big_loss": 3}
PER_DECISION = 2000  # search nodes for one turn, at most
DEFAULT_BUDGET = 60000  # search nodes per hand (analysis_bench: p99 well under a second)
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


def _own(rack: list[int], v: int, okey: int) -> int:
    """How many tiles of the rack stand for value ``v`` (an F stands for the okey's)."""
    return sum(1 for f in rack if f != okey and (okey if f == 52 else f) == v)


def analyse(data, budget: int | None = None) -> dict:
    hand, actions = load_scenario(data)
    budget_ = Budget(DEFAULT_BUDGET if budget is None else budget, "nodes")
    decisions: list[dict] = []
    start: tuple[int, dict] | None = None  # (turn number, the seat's view at its start)
    # the turns still to come (at most): the budget is shared out so that every turn of a
    # long hand gets its turn, each with a smaller search
    ends = [sum(1 for b in actions[i:] if b["type"] in ("pass", "draw", "timeout"))
            for i in range(len(actions))]  # fmt: skip
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
                                        action, budget_, ends[step]))  # fmt: skip
    return report("kastet", UNIT, THRESHOLDS, budget_, decisions, complete)


def _turn_decision(before: dict, after: dict, step: int, seat: int, action: dict,
                   budget: Budget, turns_left: int) -> dict:  # fmt: skip
    rack = _rack(before)
    laid = max(0, len(rack) - len(_rack(after)))  # a draw adds a tile
    tiles = sum(len(g) for g in _table(before)) + len(rack)
    pairs = tiles >= PAIR_TILES  # 26 groups possible: pairs may be laid too (S-L5)
    top = len(rack) if pairs else placeable(before)
    if top <= laid:  # nothing better exists: no search needed
        return decision(THRESHOLDS, step=step, seat=seat, kind="turn",
                        played=_played(before, after, laid, action), best=None, value=laid,
                        best_value=laid, cost=0)  # fmt: skip
    nodes = min(PER_DECISION, max(1, budget.left // turns_left))
    # only a lay better than the played one is looked for, and the search stops at the
    # upper bound: proving the optimum is then often quick
    best, layout, exact, used = best_lay(before, nodes, laid, top)
    budget.spend(used)
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
