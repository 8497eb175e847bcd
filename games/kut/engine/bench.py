"""Engine benchmark: plays N random-legal hands on one core and prints hands/second and
actions/second (claims, undos and timeouts included), by the wall clock and by the
process's CPU time (the fair figure on a shared, loaded machine), then each bot level's
decision time (claims included) over ``--bot-hands`` bot hands (levels hard, normal,
easy, normal turning seats): CPU and wall-clock p50 / p99 / max per level::

    python -m games.kut.engine.bench [--hands 1000] [--bot-hands 200] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from game.engine.fair import SeededRNG
from game.engine.stats import MoveClock, load_average, move_table
from games.kut.engine.deal import new_hand
from games.kut.engine.randomplay import play_random_hand

LEVEL_ORDER = ("hard", "normal", "easy", "normal")


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


def bot_times(hands: int, seed: int, tasks: int = 8) -> dict:
    """Every bot decision (turn actions and claims) of ``hands`` bot hands, by level."""
    from games.kut.engine.simulate import play_bot_hand

    rng = random.Random(seed)
    clock = MoveClock()
    for h in range(hands):
        order = [LEVEL_ORDER[(s + h) % 4] for s in range(4)]
        hand = new_hand(tasks, rng.randint(1, tasks), rng.randrange(4), SeededRNG(f"bb:{seed}:{h}"))
        play_bot_hand(hand, order, rng, clock=clock)
    return clock.report(("hard", "normal", "easy"))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=1000)
    p.add_argument("--bot-hands", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    r = run(args.hands, args.seed)
    r["bots"] = bot_times(args.bot_hands, args.seed) if args.bot_hands > 0 else {}
    r["load_average"] = load_average()
    if args.json:
        print(json.dumps(r))
        return 0
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
    if r["bots"]:
        print("\n".join(move_table(r["bots"], f"{args.bot_hands} bot hands")))
    print(f"load average {r['load_average']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
