"""KDVli bot-versus-bot simulation::

    python -m games.kdvli.engine.simulate --hands 2000 --seed 1 [--levels hard,normal,easy,normal]

Plays N finished hands (void hands are dealt again and reported apart, V-E2); the
level list is rotated one seat each hand so every level sits in every seat.  Prints
each level's mean hand score with a 95% confidence interval (lower is better, V-M4),
the bots' move-time percentiles and hands/second.  Bots get only a JSON copy of their
seat's view (P-1).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import defaultdict

from game.engine.fair import SeededRNG
from game.engine.stats import MoveClock, load_average, mean_ci, move_table, ms_summary, percentile
from games.kdvli.engine import bots
from games.kdvli.engine.hand import Hand, apply, new_hand
from games.kdvli.engine.views import hand_view

MAX_ACTIONS = 400  # a hand has at most 48 draws + discards: far below


def bot_view(hand: Hand, seat: int) -> dict:
    return json.loads(json.dumps(hand_view(hand, seat)))


def play_hand(hand: Hand, levels: list[str], rng: random.Random,
              timings: list | None = None, cpu: list | None = None,
              clock: MoveClock | None = None) -> int:  # fmt: skip
    """Play one hand to its end with a bot per seat; returns the number of actions.
    ``timings``/``cpu`` get each decision's seconds (view copy included), ``clock``
    each decision by level (view copy excluded)."""
    clock = clock or MoveClock()
    n = 0
    while not hand.over:
        seat = hand.turn
        c0, t0 = time.thread_time(), time.perf_counter()
        view = bot_view(hand, seat)
        action = clock.call(levels[seat], bots.choose, view, levels[seat], rng)
        if timings is not None:
            timings.append(time.perf_counter() - t0)
        if cpu is not None:
            cpu.append(time.thread_time() - c0)
        apply(hand, seat, action)  # an illegal bot move raises: a bug
        n += 1
        if n > MAX_ACTIONS:
            raise RuntimeError("a bot hand did not end")
    return n


def run(hands: int, seed: int, levels: list[str]) -> dict:
    rng = random.Random(seed)
    scores: dict[str, list[int]] = defaultdict(list)
    timings: list[float] = []
    cpu: list[float] = []
    clock = MoveClock()
    finished = voids = actions = 0
    start = time.perf_counter()
    i = 0
    while finished < hands:
        rot = finished % 4
        seat_levels = [levels[(s + rot) % 4] for s in range(4)]
        hand = new_hand(finished % 4, SeededRNG(seed * 1_000_003 + i))
        i += 1
        actions += play_hand(hand, seat_levels, rng, timings, cpu, clock)
        if hand.void:
            voids += 1
            continue
        finished += 1
        for s in range(4):
            scores[seat_levels[s]].append(hand.scores[s])
    elapsed = time.perf_counter() - start
    return {
        "hands": finished,
        "void_hands": voids,
        "actions": actions,
        "seconds": round(elapsed, 1),
        "hands_per_second": round((finished + voids) / elapsed, 2),
        "levels": {
            lv: dict(zip(("mean", "ci95"), map(lambda x: round(x, 2), mean_ci(xs))), n=len(xs))
            for lv, xs in scores.items()
        },  # fmt: skip
        "bot_ms": {
            **ms_summary(timings),
            "cpu_p50": round(percentile(cpu, 0.5) * 1e3, 2),
            "cpu_p99": round(percentile(cpu, 0.99) * 1e3, 2),
        },  # fmt: skip
        "moves": clock.report([lv for lv in ("hard", "normal", "easy") if lv in levels]),
        "load_average": load_average(),
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--levels", default="hard,normal,easy,normal")
    args = p.parse_args(argv)
    levels = args.levels.split(",")
    if len(levels) != 4 or any(lv not in bots.LEVELS for lv in levels):
        p.error("--levels needs four of easy, normal, hard")
    r = run(args.hands, args.seed, levels)
    print(f"{r['hands']} finished hands ({r['void_hands']} void, dealt again), "
          f"{r['actions']} actions in {r['seconds']} s, {r['hands_per_second']} hands/s")  # fmt: skip
    for lv in ("hard", "normal", "easy"):
        if lv in r["levels"]:
            x = r["levels"][lv]
            lo, hi = x["mean"] - x["ci95"], x["mean"] + x["ci95"]
            print(f"{lv:7s} mean hand score {x['mean']:8.2f} ± {x['ci95']:.2f}  "
                  f"[{lo:.2f}, {hi:.2f}]  (n={x['n']})")  # fmt: skip
    b = r["bot_ms"]
    print(
        f"bot move ms (view copy included), wall clock: p50 {b['p50']}  p99 {b['p99']}  "
        f"max {b['max']}; CPU time: p50 {b['cpu_p50']}  p99 {b['cpu_p99']}"
    )
    print("\n".join(move_table(r["moves"], "bot decision")))
    print(f"load average {r['load_average']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
