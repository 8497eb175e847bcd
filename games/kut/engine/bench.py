"""Engine benchmark: plays N random-legal hands on one core and prints hands/second and
actions/second (claims, undos and timeouts included), by the wall clock and by the
process's CPU time (the fair figure on a shared, loaded machine)::

    python -m games.kut.engine.bench [--hands 1000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time

from game.engine.fair import SeededRNG
from games.kut.engine.deal import new_hand
from games.kut.engine.randomplay import play_random_hand


def run(hands: int, seed: int) -> dict:
    rng = random.Random(seed)
    actions = finished = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    for i in range(hands):
        tasks = rng.choice((5, 8, 12))
        hand = new_hand(tasks, rng.randint(1, tasks), rng.randrange(4), SeededRNG(seed * 7919 + i))
        actions += play_random_hand(hand, rng)
        finished += hand.finisher is not None
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    return {
        "cpu_seconds": round(cpu, 3),
        "cpu_hands_per_second": round(hands / cpu, 1),
        "cpu_actions_per_second": round(actions / cpu, 1),
        "hands": hands,
        "actions": actions,
        "seconds": round(elapsed, 3),
        "hands_per_second": round(hands / elapsed, 1),
        "actions_per_second": round(actions / elapsed, 1),
        "finished_hands": finished,
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    r = run(args.hands, args.seed)
    print(f"{r['hands']} random-legal hands, {r['actions']} actions in {r['seconds']} s")
    print(
        f"hands/second:   {r['hands_per_second']} (wall clock)   "
        f"{r['cpu_hands_per_second']} (CPU time of this one process)"
    )
    print(
        f"actions/second: {r['actions_per_second']} (wall clock)   "
        f"{r['cpu_actions_per_second']} (CPU time)"
    )
    print(f"hands ended by a finish: {r['finished_hands']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
