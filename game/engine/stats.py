"""Small statistics shared by the games' simulation and bench commands."""

from __future__ import annotations

import math


def mean_ci(xs: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% confidence interval (normal
    approximation, sample variance; 0 for fewer than two values)."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, 0.0
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)


def percentile(xs: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``xs`` by the nearest rank below; 0.0 for none."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0.0


def ms_summary(seconds: list[float]) -> dict:
    """Timings in seconds as ``{"p50", "p99", "max"}`` milliseconds, rounded to 0.01."""
    return {
        "p50": round(percentile(seconds, 0.5) * 1000, 2),
        "p99": round(percentile(seconds, 0.99) * 1000, 2),
        "max": round(max(seconds, default=0) * 1000, 2),
    }


def ms_cells(ms: dict) -> str:
    """A ``ms_summary`` as table cells under the headings ``p50 p99 max`` (9, 8, 8 wide)."""
    return f"{ms['p50']:>7.1f}ms {ms['p99']:>6.1f}ms {ms['max']:>6.1f}ms"
