"""Kastet benchmark: bot move times and engine speed on one core::

    python -m games.kastet.engine.bench [--hands 40] [--big 10] [--seed 1] [--json]

Plays seeded hands with all three bot levels at the table (hard, normal, easy, normal,
rotating), then ``--big`` hands of four hard bots (their tables grow biggest), and prints
each level's decision time — p50, p99 and max, by this thread's CPU time (the fair figure
on a shared, loaded machine) and by the wall clock; the hard decisions on tables of 50
tiles or more are also shown apart — and the engine's own speed: ``apply`` and
``view_for`` calls per CPU second.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from game.engine.fair import SeededRNG
from game.engine.stats import MoveClock, load_average, move_table
from games.kastet.engine.bots import BUDGETS, LEVELS, choose
from games.kastet.engine.deal import new_hand
from games.kastet.engine.rules import apply
from games.kastet.engine.views import view_for

ORDER = ("hard", "normal", "easy", "normal")
BIG_TABLE = 50  # table tiles from which a position counts as a big table


def run(hands: int, seed: int, big: int = 0) -> dict:
    rng = random.Random(seed)
    clock = MoveClock()
    apply_cpu = view_cpu = 0.0
    applies = views = 0
    for h in range(hands + big):
        # the last ``big`` hands: four hard bots, whose tables grow biggest; their
        # decisions on tables of BIG_TABLE tiles or more are also reported apart
        levels = [ORDER[(s + h) % 4] for s in range(4)] if h < hands else ["hard"] * 4
        hand = new_hand(h % 4, SeededRNG(f"kastet-bench:{seed}:{h}"))
        while not hand.over:
            seat = hand.turn
            c0 = time.process_time()
            view = view_for(hand, seat)
            view_cpu += time.process_time() - c0
            views += 1
            view = json.loads(json.dumps(view))
            level = levels[seat]
            if h >= hands and sum(len(g["tiles"]) for g in view["table"]) >= BIG_TABLE:
                level = "hard 50+ table"
            action = clock.call(level, choose, view, levels[seat], rng)
            c0 = time.process_time()
            apply(hand, seat, action)
            apply_cpu += time.process_time() - c0
            applies += 1
    # every hard decision (big tables included) under "hard"
    for k in ("cpu", "wall"):
        getattr(clock, k)["hard"] += getattr(clock, k)["hard 50+ table"]
    names = [*LEVELS[::-1], "hard 50+ table"] if big else LEVELS[::-1]
    return {"hands": hands, "big_table_hands": big, "big_table_tiles": BIG_TABLE,
            "budget_nodes": dict(BUDGETS), "moves": clock.report(names),
            "apply_per_cpu_second": round(applies / max(apply_cpu, 1e-9)),
            "view_for_per_cpu_second": round(views / max(view_cpu, 1e-9)),
            "load_average": load_average()}  # fmt: skip


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--big",
        type=int,
        default=0,
        help="hands of four hard bots after the mixed ones (big tables)",
    )
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    r = run(args.hands, args.seed, args.big)
    if args.json:
        print(json.dumps(r))
        return 0
    print(f"{r['hands']} bot hands; search budget (nodes): {r['budget_nodes']}")
    print("\n".join(move_table(r["moves"], "bot decision")))
    print(f"engine: {r['apply_per_cpu_second']} apply/s, {r['view_for_per_cpu_second']} "
          "view_for/s (CPU time)")  # fmt: skip
    print(f"big table: {r['big_table_tiles']}+ table tiles, in {r['big_table_hands']} hands of "
          f"four hard bots; load average {r['load_average']}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
