"""Small statistics shared by the games' simulation and bench commands."""

from __future__ import annotations

import math
import os
import time
from collections import defaultdict


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


def load_average() -> str:
    """The machine's 1/5/15-minute load average, for the record beside a timing."""
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - not every platform has it
        return "n/a"


class MoveClock:
    """Each bot decision's wall-clock and CPU time, by level.

    CPU time is this thread's (``time.thread_time``): the fair figure on a shared,
    loaded machine, where the wall clock also counts the wait for a core.
    """

    def __init__(self) -> None:
        self.wall: dict[str, list[float]] = defaultdict(list)
        self.cpu: dict[str, list[float]] = defaultdict(list)

    def call(self, level: str, fn, *args, **kwargs):
        """``fn(*args, **kwargs)``, timed as one decision of ``level``."""
        t0, c0 = time.perf_counter(), time.thread_time()
        out = fn(*args, **kwargs)
        self.cpu[level].append(time.thread_time() - c0)
        self.wall[level].append(time.perf_counter() - t0)
        return out

    def report(self, levels=None) -> dict:
        """``{level: {"moves", "wall_ms": ms_summary, "cpu_ms": ms_summary}}``."""
        out = {}
        for lv in levels or sorted(self.cpu):
            out[lv] = {"moves": len(self.cpu[lv]), "wall_ms": ms_summary(self.wall[lv]),
                       "cpu_ms": ms_summary(self.cpu[lv])}  # fmt: skip
        return out


def move_table(report: dict, title: str = "bot move") -> list[str]:
    """A ``MoveClock.report`` as text lines: per level, CPU then wall p50/p99/max."""
    lines = [f"{title:14} {'moves':>6}  {'CPU p50':>9} {'p99':>8} {'max':>8}   "
             f"{'wall p50':>9} {'p99':>8} {'max':>8}"]  # fmt: skip
    for lv, m in report.items():
        lines.append(f"{lv:14} {m['moves']:>6}  {ms_cells(m['cpu_ms'])}   {ms_cells(m['wall_ms'])}")
    return lines
