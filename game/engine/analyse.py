"""The analysis command (issue 31, *Analiz*)::

    python -m game.engine.analyse SCENARIO.json      # or '-' for standard input

Takes exactly what ``python -m game.engine.replay`` takes (each game's
``<game>-scenario.md``), dispatches on its ``"game"`` (default ``"kut"``) through the
registry's ``"analyse"`` command, and prints one JSON object: for each decision of each
seat, what the engine would have done and what the difference cost, marks and a
summary per seat.  A malformed scenario exits 2 with one line on standard error, as
does a game whose analysis is not there (yet).

The shape every game's analysis returns is built here (``report``), so that it is the
same for every game:

``{"game", "unit", "thresholds": {"loss", "big_loss"}, "complete", "budget": {"limit",
"used", "unit"}, "decisions": [...], "summary": [...]}`` — each decision ``{"step",
"seat", "kind", "played", "best", "value", "best_value", "cost", "exact", "bound",
"mark", "notes"}`` (a game may add fields of its own after these), in step order; the
summary one row per seat.  The budget is deterministic work (search nodes, generator
steps), never seconds: the same input and budget give the same output, byte for byte.
"""

from __future__ import annotations

import sys
from collections import Counter

MARKS = ("good", "loss", "big_loss")


def mark(cost: float, thresholds: dict) -> str:
    """``big_loss`` from ``thresholds["big_loss"]`` on, ``loss`` from ``thresholds["loss"]``."""
    if cost >= thresholds["big_loss"]:
        return "big_loss"
    if cost >= thresholds["loss"]:
        return "loss"
    return "good"


def decision(step: int, seat: int, kind: str, played: dict, best: dict | None, value,
             best_value, thresholds: dict, *, exact: bool = True, bound: str | None = None,
             notes: list[str] | tuple[str, ...] = (), **extra) -> dict:  # fmt: skip
    """One decision in the shared form; ``best`` is dropped (null) when the played
    decision was as good; ``cost`` is ``best_value - value`` (never below 0)."""
    cost = max(0, best_value - value)
    return {
        "step": step,
        "seat": seat,
        "kind": kind,
        "played": played,
        "best": best if cost > 0 else None,
        "value": value,
        "best_value": best_value,
        "cost": cost,
        "exact": exact,
        "bound": bound,
        "mark": mark(cost, thresholds),
        "notes": list(notes),
        **extra,
    }


def summary(decisions: list[dict], seats: int) -> list[dict]:
    """One row per seat: its decisions analysed, their marks, the total and average cost
    and how often each note came up."""
    rows = []
    for s in range(seats):
        mine = [d for d in decisions if d["seat"] == s]
        marks = Counter(d["mark"] for d in mine)
        total = sum(d["cost"] for d in mine)
        notes = Counter(n for d in mine for n in d["notes"])
        rows.append({
            "seat": s,
            "decisions": len(mine),
            **{m: marks[m] for m in MARKS},
            "total_cost": total,
            "average_cost": round(total / len(mine), 2) if mine else 0,
            "counts": dict(sorted(notes.items())),
        })  # fmt: skip
    return rows


def report(game: str, unit: str, thresholds: dict, decisions: list[dict], seats: int, *,
           complete: bool, limit: int, used: int, budget_unit: str) -> dict:  # fmt: skip
    """The whole analysis (the contract's shape), decisions in step order."""
    decisions = sorted(decisions, key=lambda d: d["step"])
    return {
        "game": game,
        "unit": unit,
        "thresholds": dict(thresholds),
        "complete": complete,
        "budget": {"limit": limit, "used": used, "unit": budget_unit},
        "decisions": decisions,
        "summary": summary(decisions, seats),
    }


class Budget:
    """Deterministic work units shared by one analysis: ``spend`` raises
    ``OutOfBudget`` once more than ``limit`` were spent (what was spent stays counted)."""

    __slots__ = ("limit", "used")

    def __init__(self, limit: int):
        self.limit = limit
        self.used = 0

    def spend(self, n: int = 1) -> None:
        self.used += n
        if self.used > self.limit:
            raise OutOfBudget

    @property
    def left(self) -> int:
        return max(0, self.limit - self.used)


class OutOfBudget(Exception):
    """The analysis budget ran out: the decision being analysed is left out."""


def timed(analyse, scenarios, budget: int | None = None):
    """For the games' analysis benches: each scenario with its analysis and the CPU
    seconds it took (this process's CPU time: the fair figure on a shared machine)."""
    import time

    for data in scenarios:
        c0 = time.process_time()
        out = analyse(data, budget)
        yield data, out, time.process_time() - c0


def main(argv: list[str] | None = None) -> int:
    """The command: dispatches on the scenario's ``"game"`` (default ``"kut"``)."""
    from game.engine.cli import main as cli_main

    return cli_main("analyse", argv)


if __name__ == "__main__":
    sys.exit(main())
