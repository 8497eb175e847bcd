"""Kastet's analysis (issue 31, "Analiz"): per turn of each seat, the most rack tiles it
could have laid (S-L1 … S-L6) against what it laid, in tiles.

    analyse(data, budget=None) -> dict      # data: a kastet-scenario.md scenario

A ``turn`` decision is a whole turn, from the seat's first action to the one that passes
the turn on (``pass``, ``draw``, ``timeout``, or the ``pass`` that finishes, S-F1), at
the index of that last action.  ``value`` is the rack tiles the seat laid in the turn
(pairs included), ``best_value`` the most that one lay from the position at the start
of the turn could place: ``search.best_layout`` (the hard bot's branch-and-bound over
table rearrangements: every table tile stays on the table in valid runs and sets, at
most 26 groups, S-A1, S-L2, S-L3) on the run area and the seat's rack as
``views.view_for`` shows them (P-1, S-V1): the deck and the other racks are never read.
``cost = best_value − value``.

**Exact or bounded.**  The search is exact when it ends within its node budget
(``PER_DECISION`` nodes, or what is left of the hand's budget): ``"exact": true``.
When it is cut, ``best_value`` is the best layout found so far (a lower bound of the
optimum), ``"exact": false`` and ``"bound": "nodes N"``.  The search looks only for lays
better than the played one (the played count is its floor), so a turn is never charged
for a lay the search did not find, and proving that none is better is often quick.  Pairs (S-L5) are not searched:
they need a run area of 26 groups, which at least 78 tiles on the table and in the rack
make possible; in such a position ``best_value`` counts no pairs, ``"exact": false`` and
the bound says so.

Notes: ``missed_finish`` (the seat could have laid its whole rack, S-F1, and did not),
``missed_lay`` (it laid nothing although it could lay).

The budget counts search nodes.  When the hand's budget is spent, the remaining turns
are not analysed: ``"complete": false``.
"""

from __future__ import annotations

from ..errors import EngineError
from ..okey.analysis import Budget, decision, report
from ..tiles import parse_face
from .replay import load_scenario
from .rules import apply
from .search import Search, best_layout, face_names
from .state import SLOTS
from .views import view_for

UNIT = "tiles"
THRESHOLDS = {"loss": 1, "big_loss": 3}
PER_DECISION = 1000  # search nodes for one turn
DEFAULT_BUDGET = 80000  # search nodes per hand (analysis_bench: p99 well under a second)
PAIR_TILES = 3 * SLOTS  # fewer tiles than this never fill the 26 slots (S-L5)


def _faces(tiles: list[dict]) -> list[int]:
    return [parse_face(t["face"]) for t in tiles]


def _rack(view: dict) -> list[int]:
    return _faces([c for c in view["rack"]["cells"] if c is not None])


def _table(view: dict) -> list[list[int]]:
    return [_faces(g["tiles"]) for g in view["table"]]


def _names(view: dict, key: str) -> list[list[str]]:
    return [[t["face"] for t in g["tiles"]] for g in view[key]]


def best_lay(view: dict, nodes: int, floor: int = 0) -> tuple[int, list | None, object]:
    """(rack tiles the best lay found places, its run area as names or None, the
    search) for the seat of ``view`` at the start of its turn, within ``nodes``; only
    lays placing more than ``floor`` tiles are looked for (none found: ``floor``)."""
    okey = parse_face(view["okey"])
    table = [f for g in _table(view) for f in g]
    groups, search = best_layout(table, _rack(view), okey, nodes, floor=(floor, 0))
    placed = search.best_score[0] if groups is not None else floor
    layout = None if groups is None else [face_names(g, okey) for g in groups]
    return placed, layout, search


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
                                        action, budget_))  # fmt: skip
    return report("kastet", UNIT, THRESHOLDS, budget_, decisions, complete)


def _turn_decision(before: dict, after: dict, step: int, seat: int, action: dict,
                   budget: Budget) -> dict:  # fmt: skip
    rack = _rack(before)
    laid = max(0, len(rack) - len(_rack(after)))  # a draw adds a tile
    if placeable(before) <= laid:  # nothing better exists: no search needed
        return decision(THRESHOLDS, step=step, seat=seat, kind="turn",
                        played=_played(before, after, laid, action), best=None, value=laid,
                        best_value=laid, cost=0)  # fmt: skip
    nodes = min(PER_DECISION, budget.left)
    # only a lay better than the played one is looked for: proving that none exists is
    # often quick (a bound prunes every branch that cannot place more)
    best, layout, search = best_lay(before, nodes, laid)
    budget.spend(min(search.nodes, nodes))
    exact, bound = search.complete, None if search.complete else f"nodes {nodes}"
    tiles = sum(len(g) for g in _table(before)) + len(rack)
    if tiles >= PAIR_TILES:
        exact = False
        bound = "; ".join(b for b in (bound, "pairs (S-L5) not searched") if b)
    if laid:
        played = {"type": "lay", "table": _names(after, "table")}
        new_pairs = _names(after, "pairs")[len(before["pairs"]) :]
        if new_pairs:
            played["pairs"] = new_pairs
    else:
        played = {"type": action["type"]}
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
