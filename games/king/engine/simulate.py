"""Bot-versus-bot simulation of King::

    python -m games.king.engine.simulate --hands 1000 --seed 1 [--length 20]
                                        [--levels hard,normal,easy,normal] [--json]

Plays seeded matches of ``--length`` hands until ``--hands`` hands are played (the seat
order of the levels turns by one seat each match, so every level sits in every seat
and chooses as often), and prints each level's mean score per hand with a 95%
confidence interval, and the bots' move times.  Bots get only their seat's view (a
JSON copy), as at a live table (P-1); everything goes through the Game protocol.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter, defaultdict

from game.engine.stats import MoveClock, load_average, mean_ci, ms_cells, ms_summary
from games.king.engine import bots
from games.king.engine.bots import LEVELS, measure_baseline
from games.king.engine.contracts import CONTRACTS
from games.king.engine.game import GAME


def bot_view(state, seat: int) -> dict:
    """What a bot gets: a detached JSON copy of its seat's view (P-1)."""
    return json.loads(json.dumps(GAME.view_for(state, seat)))


def play_hand(state, levels: list[str], rng: random.Random, timings=None,
              clock: MoveClock | None = None) -> int:  # fmt: skip
    """Play the current hand to its end with one bot per seat; returns the actions.
    ``timings`` maps a level to the seconds each of its decisions took; ``clock``
    times them by level (CPU and wall clock)."""
    clock = clock or MoveClock()
    n = 0
    while not GAME.hand_over(state):
        (seat,) = GAME.to_act(state)
        view = bot_view(state, seat)
        t0 = time.perf_counter()
        action = clock.call(levels[seat], GAME.bot_choose, view, levels[seat], rng)
        if timings is not None:
            timings[levels[seat]].append(time.perf_counter() - t0)
        GAME.apply(state, seat, action, 0.0)  # a bot's illegal move raises: a bug
        n += 1
        if n > 60:
            raise RuntimeError("a hand did not end")
    return n


def simulate(hands: int, levels: list[str], seed: int = 1, length: int = 20) -> dict:
    rng = random.Random(seed)
    scores: dict[str, list[int]] = defaultdict(list)
    timings: dict[str, list[float]] = defaultdict(list)
    clock = MoveClock()
    # contracts chosen, by the chooser's level (G-H2 ids; koz with its trump suit apart)
    chosen: dict[str, Counter] = defaultdict(Counter)
    played = actions = matches = 0
    start = time.perf_counter()
    while played < hands:
        order = [levels[(s + matches) % len(levels)] for s in range(4)]
        state = GAME.new_match({"length": length}, 4, random.Random(f"{seed}:{matches}"))
        matches += 1
        while played < hands:
            actions += play_hand(state, order, rng, timings, clock)
            chosen[order[state.hand.chooser]][state.hand.contract] += 1
            for s in range(4):
                scores[order[s]].append(state.hand.scores[s])
            played += 1
            if GAME.match_over(state):
                break
            GAME.start_next_hand(state, random.Random(f"{seed}:{matches}:{played}"))
    elapsed = time.perf_counter() - start
    report = {}
    moves = clock.report(sorted(set(levels), key=LEVELS.index))
    for lvl in sorted(set(levels), key=LEVELS.index):
        m, ci = mean_ci(scores[lvl])
        t = timings[lvl]
        report[lvl] = {
            "seat_hands": len(scores[lvl]),
            "mean": round(m, 2),
            "ci95": round(ci, 2),
            "low": round(m - ci, 2),
            "high": round(m + ci, 2),
            "move_ms": {**ms_summary(t), "moves": len(t)},
            "cpu_ms": moves[lvl]["cpu_ms"],
            "contracts": {c: chosen[lvl][c] for c in CONTRACTS},
        }  # fmt: skip
    ranked = sorted(report, key=lambda lv: LEVELS.index(lv))
    separated = all(report[b]["low"] > report[a]["high"] for a, b in zip(ranked, ranked[1:]))
    total = Counter()
    for c in chosen.values():
        total.update(c)
    return {"hands": played, "matches": matches, "length": length, "seconds": round(elapsed, 1),
            "actions": actions, "levels": report, "separated": separated,
            "contracts": {c: total[c] for c in CONTRACTS},
            "load_average": load_average()}  # fmt: skip


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="King bot-versus-bot simulation")
    p.add_argument("--hands", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--length", type=int, default=20, choices=(4, 8, 12, 20))
    p.add_argument("--levels", default="hard,normal,easy,normal")
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--rollouts",
        type=int,
        default=bots.PLAY_ROLLOUTS,
        help="the hard bot's play-outs per card decision",
    )
    p.add_argument("--choice-deals", type=int, help="the hard bot's deals per contract choice")
    p.add_argument(
        "--baseline",
        type=int,
        metavar="HANDS",
        help="measure the bots' BASELINE over HANDS random hands instead",
    )
    args = p.parse_args(argv)
    if args.baseline:
        print(json.dumps(measure_baseline(args.baseline, args.seed)))
        return 0
    levels = args.levels.split(",")
    if len(levels) != 4 or any(lv not in LEVELS for lv in levels):
        p.error(f"--levels: four levels among {LEVELS}")
    if args.hands < 1:
        p.error("--hands must be positive")
    bots.PLAY_ROLLOUTS = args.rollouts
    if args.choice_deals:
        bots.CHOICE_DEALS["hard"] = args.choice_deals
    r = simulate(args.hands, levels, args.seed, args.length)
    if args.json:
        print(json.dumps(r))
        return 0
    print(f"{r['hands']} hands ({r['matches']} matches of {r['length']}) in {r['seconds']} s")
    print(f"{'level':8} {'seat-hands':>10} {'mean/hand':>10} {'±95%':>7} {'interval':>20} "
          f"{'CPU p50':>9} {'p99':>8} {'max':>8}  {'wall p50':>9} {'p99':>8} {'max':>8}")  # fmt: skip
    for lvl, x in r["levels"].items():
        print(f"{lvl:8} {x['seat_hands']:>10} {x['mean']:>10.1f} {x['ci95']:>7.1f} "
              f"{'[' + format(x['low'], '.1f') + ', ' + format(x['high'], '.1f') + ']':>20} "
              f"{ms_cells(x['cpu_ms'])}  {ms_cells(x['move_ms'])}")  # fmt: skip
    print("hard > normal > easy with 95% intervals apart:", "yes" if r["separated"] else "NO")
    print("contracts chosen, by the chooser's level:")
    print(f"  {'level':8} " + " ".join(f"{c:>11}" for c in CONTRACTS))
    for lvl, x in r["levels"].items():
        print(f"  {lvl:8} " + " ".join(f"{x['contracts'][c]:>11}" for c in CONTRACTS))
    print(f"  {'all':8} " + " ".join(f"{r['contracts'][c]:>11}" for c in CONTRACTS))
    print(f"load average {r['load_average']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
