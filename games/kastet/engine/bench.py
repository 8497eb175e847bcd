"""Kastet benchmark: bot move times and engine speed on one core::

    python -m games.kastet.engine.bench [--hands 40] [--seed 1]

Plays seeded hands with all three bot levels at the table (hard, normal, easy, normal,
rotating) and prints each level's move time — p50, p99 and max, by the wall clock and by
this process's CPU time (the fair figure on a shared, loaded machine) — and the engine's
own speed: ``apply`` and ``view_for`` calls per CPU second.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import defaultdict

from game.engine.fair import SeededRNG
from game.engine.stats import ms_cells
from game.engine.stats import percentile as pct
from games.kastet.engine.bots import BUDGETS, LEVELS, choose
from games.kastet.engine.deal import new_hand
from games.kastet.engine.rules import apply
from games.kastet.engine.views import view_for

ORDER = ("hard", "normal", "easy", "normal")


def run(hands: int, seed: int) -> dict:
    rng = random.Random(seed)
    wall: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[float]] = defaultdict(list)
    apply_cpu = view_cpu = 0.0
    applies = views = 0
    for h in range(hands):
        levels = [ORDER[(s + h) % 4] for s in range(4)]
        hand = new_hand(h % 4, SeededRNG(f"kastet-bench:{seed}:{h}"))
        while not hand.over:
            seat = hand.turn
            c0 = time.process_time()
            view = view_for(hand, seat)
            view_cpu += time.process_time() - c0
            views += 1
            view = json.loads(json.dumps(view))
            t0, c0 = time.perf_counter(), time.process_time()
            action = choose(view, levels[seat], rng)
            wall[levels[seat]].append(time.perf_counter() - t0)
            cpu[levels[seat]].append(time.process_time() - c0)
            c0 = time.process_time()
            apply(hand, seat, action)
            apply_cpu += time.process_time() - c0
            applies += 1
    out = {"hands": hands, "budget_nodes": dict(BUDGETS), "moves": {},
           "apply_per_cpu_second": round(applies / max(apply_cpu, 1e-9)),
           "view_for_per_cpu_second": round(views / max(view_cpu, 1e-9))}  # fmt: skip
    for lv in LEVELS:
        w, c = wall[lv], cpu[lv]
        out["moves"][lv] = {
            "n": len(w),
            "wall_ms": {"p50": round(pct(w, 0.5) * 1e3, 1), "p99": round(pct(w, 0.99) * 1e3, 1),
                        "max": round(max(w, default=0) * 1e3, 1)},
            "cpu_ms": {"p50": round(pct(c, 0.5) * 1e3, 1), "p99": round(pct(c, 0.99) * 1e3, 1),
                       "max": round(max(c, default=0) * 1e3, 1)},
        }  # fmt: skip
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    r = run(args.hands, args.seed)
    if args.json:
        print(json.dumps(r))
        return 0
    print(f"{r['hands']} bot hands; search budget (nodes): {r['budget_nodes']}")
    print(f"{'level':8} {'moves':>6}  {'wall p50':>9} {'p99':>8} {'max':>8}  "
          f"{'cpu p50':>8} {'p99':>8} {'max':>8}")  # fmt: skip
    for lv, m in r["moves"].items():
        w, c = m["wall_ms"], m["cpu_ms"]
        print(f"{lv:8} {m['n']:>6}  {ms_cells(w)}  "
              f"{c['p50']:>6.1f}ms {c['p99']:>6.1f}ms {c['max']:>6.1f}ms")  # fmt: skip
    print(f"engine: {r['apply_per_cpu_second']} apply/s, {r['view_for_per_cpu_second']} "
          "view_for/s (CPU time)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
