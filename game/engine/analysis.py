"""The analysis report every game shares (issue 31, "Analiz"): a deterministic work
budget, the per-decision entries with their marks, and the per-seat summary, in the JSON
shape every game's ``analysis.analyse`` returns (``python -m game.engine.analyse``)::

    {"game", "unit", "thresholds": {"loss", "big_loss"}, "complete",
     "budget": {"limit", "used", "unit"}, "decisions": [...], "summary": [...]}

each decision ``{"step", "seat", "kind", "played", "best", "value", "best_value", "cost",
"exact", "bound", "mark", "notes"}`` (a game may add fields of its own after these), in
step order; the summary one row per seat.  Pure Python: no clock, no ``random``; the
budget is work (search nodes, solver calls, generator steps), never seconds, so the same
input and budget give the same report, byte for byte.
"""

from __future__ import annotations

from collections import Counter

MARKS = ("good", "loss", "big_loss")


class OutOfBudget(Exception):
    """The analysis budget ran out (``Budget.charge``): the decision being analysed is
    left out and the report says it is not complete."""


class Budget:
    """A number of work units, never seconds.  ``spend`` counts; ``charge`` counts and
    raises :class:`OutOfBudget` once more than ``limit`` were spent (what was spent stays
    counted)."""

    __slots__ = ("limit", "unit", "used")

    def __init__(self, limit: int, unit: str = "nodes"):
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
            raise ValueError(f"a budget is a whole number >= 0, not {limit!r}")
        self.limit = limit
        self.unit = unit
        self.used = 0

    @property
    def left(self) -> int:
        return max(0, self.limit - self.used)

    def spend(self, n: int = 1) -> None:
        self.used += n

    def charge(self, n: int = 1) -> None:
        self.used += n
        if self.used > self.limit:
            raise OutOfBudget

    def as_dict(self) -> dict:
        return {"limit": self.limit, "used": min(self.used, self.limit), "unit": self.unit}


def mark(cost, thresholds: dict) -> str:
    """``good``, ``loss`` (cost >= loss) or ``big_loss`` (cost >= big_loss)."""
    if cost >= thresholds["big_loss"]:
        return "big_loss"
    if cost >= thresholds["loss"]:
        return "loss"
    return "good"


def decision(thresholds: dict, *, step: int, seat: int, kind: str, played: dict,
             best: dict | None, value, best_value, cost=None, exact: bool = True,
             bound: str | None = None, notes=(), **extra) -> dict:  # fmt: skip
    """One analysed decision.  ``cost`` defaults to ``best_value - value`` (never below 0:
    the unit's higher is better); a game counting against the player passes its own.
    ``best`` is None when the played action was best (cost 0)."""
    if cost is None:
        cost = max(0, best_value - value)
    return {
        "step": step,
        "seat": seat,
        "kind": kind,
        "played": played,
        "best": None if cost == 0 else best,
        "value": value,
        "best_value": best_value,
        "cost": cost,
        "exact": exact,
        "bound": bound,
        "mark": mark(cost, thresholds),
        "notes": sorted(set(notes)),
        **extra,
    }


def summary(decisions: list[dict], seats: int = 4) -> list[dict]:
    """Per seat: how many decisions, of each mark, the total and average cost, and how
    often each note occurred."""
    out = []
    for seat in range(seats):
        mine = [d for d in decisions if d["seat"] == seat]
        marks = Counter(d["mark"] for d in mine)
        total = sum(d["cost"] for d in mine)
        notes = Counter(n for d in mine for n in d["notes"])
        out.append({
            "seat": seat,
            "decisions": len(mine),
            **{m: marks[m] for m in MARKS},
            "total_cost": total,
            "average_cost": round(total / len(mine), 2) if mine else 0,
            "counts": dict(sorted(notes.items())),
        })  # fmt: skip
    return out


def report(game: str, unit: str, thresholds: dict, budget: Budget, decisions: list[dict],
           complete: bool, seats: int = 4) -> dict:  # fmt: skip
    """The whole analysis, decisions in step order."""
    decisions = sorted(decisions, key=lambda d: d["step"])
    return {
        "game": game,
        "unit": unit,
        "thresholds": dict(thresholds),
        "complete": complete,
        "budget": budget.as_dict(),
        "decisions": decisions,
        "summary": summary(decisions, seats),
    }


def timed(analyse, scenarios, budget: int | None = None):
    """For the games' analysis benches: each scenario with its analysis and the CPU
    seconds it took (this process's CPU time: the fair figure on a shared machine)."""
    import time

    for data in scenarios:
        c0 = time.process_time()
        out = analyse(data, budget)
        yield data, out, time.process_time() - c0
