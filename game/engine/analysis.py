"""The analysis report every game shares (issue 31, "Analiz"): a deterministic work
budget, the per-decision entries with their marks, and the per-seat summary, in the
JSON shape every game's ``analysis.analyse`` returns::

    {"game", "unit", "thresholds": {"loss", "big_loss"}, "complete",
     "budget": {"limit", "used", "unit"}, "decisions": [...], "summary": [...]}

Pure Python: no clock, no ``random``; the same input gives the same report.
"""

from __future__ import annotations

SEATS = 4


class Budget:
    """A number of work units (solver calls, counts, search nodes), never seconds."""

    def __init__(self, limit: int, unit: str):
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

    def as_dict(self) -> dict:
        return {"limit": self.limit, "used": self.used, "unit": self.unit}


def mark(cost, thresholds: dict) -> str:
    """``good``, ``loss`` (cost >= loss) or ``big_loss`` (cost >= big_loss)."""
    if cost >= thresholds["big_loss"]:
        return "big_loss"
    if cost >= thresholds["loss"]:
        return "loss"
    return "good"


def decision(thresholds: dict, *, step: int, seat: int, kind: str, played: dict,
             best: dict | None, value, best_value, cost, exact: bool = True,
             bound: str | None = None, notes=()) -> dict:  # fmt: skip
    """One analysed decision; ``best`` is None when the played action was best (cost 0)."""
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
    }


def summary(decisions: list[dict], seats: int = SEATS) -> list[dict]:
    """Per seat: how many decisions, of each mark, the total and average cost, and how
    often each note occurred."""
    out = []
    for seat in range(seats):
        mine = [d for d in decisions if d["seat"] == seat]
        total = sum(d["cost"] for d in mine)
        counts: dict[str, int] = {}
        for d in mine:
            for n in d["notes"]:
                counts[n] = counts.get(n, 0) + 1
        out.append({
            "seat": seat,
            "decisions": len(mine),
            "good": sum(1 for d in mine if d["mark"] == "good"),
            "loss": sum(1 for d in mine if d["mark"] == "loss"),
            "big_loss": sum(1 for d in mine if d["mark"] == "big_loss"),
            "total_cost": total,
            "average_cost": round(total / len(mine), 2) if mine else 0,
            "counts": dict(sorted(counts.items())),
        })  # fmt: skip
    return out


def report(game: str, unit: str, thresholds: dict, budget: Budget, decisions: list[dict],
           complete: bool) -> dict:  # fmt: skip
    decisions = sorted(decisions, key=lambda d: d["step"])
    return {
        "game": game,
        "unit": unit,
        "thresholds": dict(thresholds),
        "complete": complete,
        "budget": budget.as_dict(),
        "decisions": decisions,
        "summary": summary(decisions),
    }
