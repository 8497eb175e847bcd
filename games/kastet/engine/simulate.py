"""Kastet bot-versus-bot simulation::

    python -m games.kastet.engine.simulate --hands 1000 --seed 1 [--levels hard,normal,easy,normal]

Plays N seeded hands (seats rotate through the level list, so every level sits in every
seat and starts as often), each bot seeing only a JSON copy of its seat's view (P-1).
Prints, per level, the tiles it shed per hand (rack tiles laid, S-L2) and its mean hand
score (S-S1 … S-S3, lower is better), each with a 95% confidence interval, how often it
finished, and the bot move times.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict

from game.engine.errors import EngineError
from game.engine.fair import SeededRNG
from game.engine.stats import MoveClock, load_average, mean_ci, ms_cells, ms_summary
from games.kastet.engine.bots import LEVELS, choose
from games.kastet.engine.deal import new_hand
from games.kastet.engine.rules import apply
from games.kastet.engine.state import HandState
from games.kastet.engine.views import view_for

MAX_ACTIONS = 2000  # a hand always ends long before (S-E2); this only guards a bug


def bot_view(hand: HandState, seat: int) -> dict:
    """What a bot gets: a detached JSON copy of its seat's view (P-1)."""
    return json.loads(json.dumps(view_for(hand, seat)))


def play_bot_hand(hand: HandState, levels: list[str], rng: random.Random,
                  timings: dict | None = None, clock: MoveClock | None = None) -> int:  # fmt: skip
    """Play a hand to its end with one bot per seat; returns the number of actions.
    ``timings`` maps a level to each decision's seconds (view copy included);
    ``clock`` times each decision by level, CPU and wall clock (view copy excluded)."""
    clock = clock or MoveClock()
    actions = 0
    while not hand.over:
        seat = hand.turn
        t0 = time.perf_counter()
        view = bot_view(hand, seat)
        action = clock.call(levels[seat], choose, view, levels[seat], rng)
        if timings is not None:
            timings[levels[seat]].append(time.perf_counter() - t0)
        try:
            apply(hand, seat, action)
        except EngineError as exc:  # a bot's illegal move is a bug: say which
            raise RuntimeError(f"bot {levels[seat]} made an illegal move {action}") from exc
        actions += 1
        if actions > MAX_ACTIONS:
            raise RuntimeError("a bot hand did not end")
    return actions


def simulate(hands: int, levels: list[str], seed: int = 1, progress=None) -> dict:
    rng = random.Random(seed)
    shed: dict[str, list[int]] = defaultdict(list)
    scores: dict[str, list[int]] = defaultdict(list)
    finished: dict[str, int] = defaultdict(int)
    timings: dict[str, list[float]] = defaultdict(list)
    clock = MoveClock()
    blocked = actions = 0
    start = time.perf_counter()
    for h in range(hands):
        order = [levels[(s + h) % len(levels)] for s in range(4)]
        hand = new_hand(h % 4, SeededRNG(f"kastet-sim:{seed}:{h}"))
        actions += play_bot_hand(hand, order, rng, timings, clock)
        blocked += hand.blocked
        for s in range(4):
            shed[order[s]].append(hand.laid[s])
            scores[order[s]].append(hand.scores[s])
            finished[order[s]] += hand.finisher == s
        if progress and (h + 1) % progress == 0:
            line = ", ".join(f"{lv} {sum(shed[lv]) / len(shed[lv]):.2f}" for lv in LEVELS
                             if shed[lv])  # fmt: skip
            print(f"[{h + 1} hands, {time.perf_counter() - start:.0f} s] tiles shed: {line}",
                  file=sys.stderr, flush=True)  # fmt: skip
    elapsed = time.perf_counter() - start
    report = {}
    for lvl in sorted(set(levels), key=LEVELS.index):
        sm, sci = mean_ci(shed[lvl])
        m, ci = mean_ci(scores[lvl])
        t = timings[lvl]
        report[lvl] = {
            "seats": len(shed[lvl]),
            "shed_mean": round(sm, 3), "shed_ci95": round(sci, 3),
            "score_mean": round(m, 2), "score_ci95": round(ci, 2),
            "finished": round(finished[lvl] / len(shed[lvl]), 3),
            "move_ms": ms_summary(t),
            "cpu_ms": ms_summary(clock.cpu[lvl]),
        }  # fmt: skip
    return {"hands": hands, "seed": seed, "levels": levels, "seconds": round(elapsed, 1),
            "actions": actions, "blocked": blocked, "by_level": report,
            "load_average": load_average()}  # fmt: skip


def separated(report: dict, key: str = "shed") -> bool:
    """hard > normal > easy on ``key`` with non-overlapping 95% intervals."""
    r = report["by_level"]
    lo = {lv: r[lv][f"{key}_mean"] - r[lv][f"{key}_ci95"] for lv in r}
    hi = {lv: r[lv][f"{key}_mean"] + r[lv][f"{key}_ci95"] for lv in r}
    return lo["hard"] > hi["normal"] and lo["normal"] > hi["easy"]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="Kastet bot-versus-bot simulation")
    p.add_argument("--hands", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--levels", default="hard,normal,easy,normal")
    p.add_argument("--json", action="store_true")
    p.add_argument("--progress", type=int, default=0, help="a line on stderr every N hands")
    args = p.parse_args(argv)
    levels = args.levels.split(",")
    if any(lv not in LEVELS for lv in levels) or len(levels) not in (1, 2, 4):
        p.error(f"levels: 1, 2 or 4 of {LEVELS}")
    r = simulate(args.hands, levels, args.seed, args.progress)
    if args.json:
        print(json.dumps(r))
        return 0
    print(f"{r['hands']} hands (seed {r['seed']}) in {r['seconds']} s, {r['actions']} actions, "
          f"{r['blocked']} blocked")  # fmt: skip
    print(f"{'level':8} {'seats':>6} {'tiles shed':>11} {'±95%':>6} {'mean score':>11} "
          f"{'±95%':>6} {'finished':>9} {'CPU p50':>9} {'p99':>8} {'max':>8}  "
          f"{'wall p50':>9} {'p99':>8} {'max':>8}")  # fmt: skip
    for lvl, x in r["by_level"].items():
        ms = x["move_ms"]
        print(f"{lvl:8} {x['seats']:>6} {x['shed_mean']:>11.2f} {x['shed_ci95']:>6.2f} "
              f"{x['score_mean']:>11.1f} {x['score_ci95']:>6.1f} {x['finished']:>9.1%} "
              f"{ms_cells(x['cpu_ms'])}  {ms_cells(ms)}")  # fmt: skip
    if set(r["by_level"]) == set(LEVELS):
        print("hard > normal > easy, 95% intervals apart: tiles shed "
              f"{'yes' if separated(r) else 'NO'}, score "
              f"{'yes' if _score_sep(r) else 'NO'}")  # fmt: skip
    print(f"load average {r['load_average']}")
    return 0


def _score_sep(report: dict) -> bool:
    """Scores: lower is better, so hard < normal < easy with intervals apart."""
    r = report["by_level"]
    lo = {lv: r[lv]["score_mean"] - r[lv]["score_ci95"] for lv in r}
    hi = {lv: r[lv]["score_mean"] + r[lv]["score_ci95"] for lv in r}
    return hi["hard"] < lo["normal"] and hi["normal"] < lo["easy"]


if __name__ == "__main__":
    raise SystemExit(main())
