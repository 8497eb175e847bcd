"""KDVli's analysis (issue 31, "Analiz"): per decision of each seat, what the exact
counting (V-S2, ``counting.py``) says was best and what the played move cost, in points.

    analyse(data, budget=None) -> dict      # data: a kdvli-scenario.md scenario

**What is measured (the interpretation of "the points shown after each discard
against the exact best arrangement, and missed finishes").**  V-S5: after each of its
discards a seat sees its own points, V-S2's ``min(runs points, 2 × pairs points)`` of
the 14 tiles it kept.  So a ``discard`` decision (a discard, a finish, or the server's
discard on a timeout, V-N6) is valued from the 15 tiles the seat held before it:

* a discard of ``d``: the points shown after it, ``points(rack − d)`` (what the seat
  would pay at M = 1);
* a finish (V-F1): the finisher's V-S3 score, ``−50 × M`` (M of V-S1: coloured
  indicator, pairs finish, a real okey as the finishing tile each double; the
  indicator bonus of V-I2 is not a decision here and is left out).

``best_value`` is the least of these over every tile of the rack and every finish it
allows (of a runs and a pairs finish the one with the larger M): exact, because the
counting is exact and the search is complete — tiles are skipped only by a valid lower
bound (``points(rack − d) >= min(runs − v, 2 × (pairs − v))`` with ``v`` the tile's
value, since an arrangement of the rest plus ``d`` left out is one of the whole rack).
A ``take`` decision is listed only when the tile thrown to the seat would have let it
finish at once and the seat drew from the deck instead (``missed_finish``): its value is
that of the seat's turn as it ended, its best the finish with the thrown tile.
``played`` and ``best`` are actions in the scenario's form (``discard``; ``finish``
with ``tile`` and ``groups``; ``timeout``; a take decision's best is ``{"type":
"take_discard", "then": <the finish>}``).  Other draws are not judged (the drawn tile is
hidden at that moment); showing the indicator (V-I1) is not a decision here.

Notes: ``missed_finish`` (a finish was available and the seat did not finish),
``okey_thrown`` (a real okey discarded).  Only the seat's own rack, the thrown tile and
the indicator are read, from ``views.hand_view`` (P-1, V-H1).

The budget counts exact counts (``counting.count`` calls; repeated racks are counted
once per analysis).  A decision that the budget left cannot pay for is not analysed,
nor is any later one: ``"complete": false``.
"""

from __future__ import annotations

from game.engine.analysis import Budget, decision, report
from game.engine.errors import EngineError
from games.kdvli.engine import counting
from games.kdvli.engine.groups import value as tile_value
from games.kdvli.engine.hand import FINISH_POINTS, apply
from games.kdvli.engine.replay import load_scenario
from games.kdvli.engine.views import hand_view
from games.okey.engine.tiles import face_name, parse_face

UNIT = "points"
THRESHOLDS = {"loss": 5, "big_loss": 25}
DEFAULT_BUDGET = 1500  # counts per hand (analysis_bench: p99 well under a second)
TAKES = ("draw", "take_discard")
ENDS = ("discard", "finish", "timeout")


class _Counter:
    """``counting.count`` with a per-analysis cache, charged to the budget."""

    def __init__(self, okey: int, budget: Budget):
        self.okey = okey
        self.budget = budget
        self.cache: dict[tuple, counting.Count] = {}

    def __call__(self, faces) -> counting.Count:
        key = tuple(sorted(faces))
        c = self.cache.get(key)
        if c is None:
            self.budget.spend()
            c = self.cache[key] = counting.count(list(key), self.okey)
        return c


def _without(faces: list[int], face: int) -> list[int]:
    rest = list(faces)
    rest.remove(face)
    return rest


def _names(faces) -> list[str]:
    return [face_name(f) for f in faces]


def _rack(view: dict) -> list[int]:
    return [parse_face(c["face"]) for c in view["rack"]["cells"] if c is not None]


def options(faces: list[int], okey: int, coloured: bool, count: _Counter,
            must: tuple = ()) -> list[tuple]:  # fmt: skip
    """The best move of a 15-tile rack, plus the moves named in ``must`` (faces to
    discard): ``[(value, rank, face, action)]``, exactly the least value first.  Moves
    that a lower bound shows cannot beat the best found are left out."""
    whole = count(faces)
    base = 2 if coloured else 1
    out = []
    best = None
    # a tile worth v can leave at best (runs - v) or 2 (pairs - v): try the best first
    order = sorted(set(faces), key=lambda f: (-tile_value(f, okey), f))
    for f in order:
        v = tile_value(f, okey)
        bound = min(whole.runs_points - v, 2 * (whole.pairs_points - v))
        finish_possible = v >= whole.runs_points or v >= whole.pairs_points
        if best is not None and bound >= best and not finish_possible and f not in must:
            continue
        c = count(_without(faces, f))
        m = base * (2 if f == okey else 1)
        moves = [(c.points, 2, f, {"type": "discard", "tile": face_name(f)})]
        if c.runs_points == 0:
            moves.append(
                (
                    FINISH_POINTS * m,
                    1,
                    f,
                    {
                        "type": "finish",
                        "tile": face_name(f),
                        "groups": [_names(g) for g in c.groups],
                    },
                )
            )
        if c.pairs_points == 0 and len(c.pairs) == 7:
            moves.append(
                (
                    FINISH_POINTS * m * 2,
                    0,
                    f,
                    {
                        "type": "finish",
                        "tile": face_name(f),
                        "groups": [_names(p) for p in c.pairs],
                    },
                )
            )
        out.extend(moves)
        low = min(x[0] for x in moves)
        best = low if best is None else min(best, low)
    out.sort(key=lambda x: (x[0], x[1], x[2]))
    return out


def _finish_value(view_after: dict) -> int:
    return FINISH_POINTS * view_after["multiplier"]


def analyse(data, budget: int | None = None) -> dict:
    hand, actions = load_scenario(data)
    budget_ = Budget(DEFAULT_BUDGET if budget is None else budget, "counts")
    okey = hand.okey
    count = _Counter(okey, budget_)
    decisions: list[dict] = []
    pending: dict[int, dict] = {}  # seat -> its take decision, valued when the turn ends
    complete = True
    for step, a in enumerate(actions):
        seat = a["seat"]
        action = {k: v for k, v in a.items() if k != "seat"}
        kind = action["type"]
        judged = not hand.over and seat == hand.turn and kind in TAKES + ENDS
        before = hand_view(hand, seat) if judged else None
        try:
            apply(hand, seat, action)
        except EngineError:
            continue  # a rejected action changes nothing and decides nothing
        if not judged:
            continue
        after = hand_view(hand, seat)
        need = 2 * (len(set(_rack(before))) + 2)  # at most what one decision counts
        if budget_.left < need:
            complete = False
            break
        # drew while the thrown tile was there (V-N1; a timeout draws when it can, V-N6)
        took = before["can"]["take"] and (
            kind == "draw"
            or kind == "timeout"
            and not before["can"]["discard"]
            and before["deck_count"]
        )
        if took:
            take = _take_decision(before, step, seat, okey, count)
            if take is not None:
                pending[seat] = take
        if kind in ENDS:
            d = _end_decision(before, after, step, seat, kind, action, okey, count)
            decisions.append(d)
            take = pending.pop(seat, None)
            if take is not None:
                take["value"] = d["value"]
                take["cost"] = take["value"] - take["best_value"]
                decisions.append(decision(THRESHOLDS, **_args(take)))
    return report("kdvli", UNIT, THRESHOLDS, budget_, decisions, complete)


def _args(t: dict) -> dict:
    return {k: t[k] for k in ("step", "seat", "kind", "played", "best", "value",
                              "best_value", "cost", "notes")}  # fmt: skip


def _take_decision(before: dict, step: int, seat: int, okey: int, count) -> dict | None:
    """A draw that missed a finish with the thrown tile (V-N1, V-F1), or None."""
    thrown = parse_face(before["thrown"]["tile"]["face"])
    rack = _rack(before) + [thrown]
    best = options(rack, okey, before["coloured"], count)[0]
    if best[3]["type"] != "finish":
        return None
    return {"step": step, "seat": seat, "kind": "take", "played": {"type": "draw"},
            "best": {"type": "take_discard", "then": best[3]}, "best_value": best[0],
            "notes": ["missed_finish"]}  # fmt: skip


def _end_decision(before, after, step, seat, kind, action, okey, count) -> dict:
    if kind == "timeout":  # V-N6: the server drew (maybe) and discarded for the seat
        played_face = parse_face(after["seats"][seat]["discards"][-1]["face"])
        rack = _rack(after) + [played_face]
        played = {"type": "timeout"}
    else:
        rack = _rack(before)
        played_face = _played_face(before, action)
        played = {"type": kind, "tile": face_name(played_face)}
        if kind == "finish":
            played["groups"] = action.get("groups")
    opts = options(rack, okey, before["coloured"], count, must=(played_face,))
    if kind == "finish":
        value = _finish_value(after)
    else:
        value = next(o[0] for o in opts if o[2] == played_face and o[3]["type"] == "discard")
    best_value, _rank, _face, best = opts[0]
    notes = []
    if best["type"] == "finish" and kind != "finish":
        notes.append("missed_finish")
    if kind != "finish" and played_face == okey:
        notes.append("okey_thrown")
    return decision(THRESHOLDS, step=step, seat=seat, kind="discard", played=played,
                    best=best, value=value, best_value=best_value,
                    cost=value - best_value, notes=notes)  # fmt: skip


def _played_face(before: dict, action: dict) -> int:
    if "tile" in action:
        return parse_face(action["tile"])
    tid = action.get("tile_id")
    return next(parse_face(c["face"]) for c in before["rack"]["cells"]
                if c is not None and c["id"] == tid)  # fmt: skip


def run_scenario(data) -> dict:
    """The ``analyse`` command's entry (registry): ``analyse(data)``."""
    return analyse(data)
