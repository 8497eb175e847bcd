"""King's analysis cost and reach (issue 31)::

    python -m games.king.engine.analysis_bench [--n 200] [--seed 1] [--budget N]
    python -m games.king.engine.analysis_bench --baseline 300   # analysis.BASELINE

1. ``--n``: plays N hands of 20-hand matches between bots (normal, easy, normal,
   normal), analyses each hand's scenario (``export_scenario``) with the budget
   (default ``analysis.DEFAULT_BUDGET``) and reports the CPU time per hand (p50 / p99 /
   max, this process's CPU: the fair figure on a shared machine), the nodes used, how
   many hands were analysed completely, and from which trick on the cards were searched
   exactly (the last six always).
2. ``--baseline``: the mean over N random deals of the best estimated score of each kind
   (the best penalty contract, the best koz suit) for the chooser, by the choice's own
   estimate: the worth of one choice of that kind kept for later.
"""

from __future__ import annotations

import argparse
import json
import random

from game.engine.analysis import Budget, timed
from game.engine.stats import ms_summary, percentile
from games.king.engine import analysis
from games.king.engine.contracts import KOZ, PENALTIES
from games.king.engine.game import GAME
from games.king.engine.hand import HandState
from games.king.engine.replay import export_scenario

LEVELS = ("normal", "easy", "normal", "normal")


def hands(n: int, seed: int):
    """N finished hands of bot play, as scenarios."""
    rng = random.Random(seed)
    state = GAME.new_match({"length": 20}, 4, rng)
    for _ in range(n):
        if GAME.match_over(state):
            state = GAME.new_match({"length": 20}, 4, rng)
        elif GAME.hand_over(state):
            GAME.start_next_hand(state, rng)
        while not GAME.hand_over(state):
            (seat,) = GAME.to_act(state)
            action = GAME.bot_choose(GAME.view_for(state, seat), LEVELS[seat], rng)
            GAME.apply(state, seat, action, 0.0)
        yield export_scenario(state.hand)


def cost(n: int, seed: int, budget: int | None) -> dict:
    cpu, used, first_trick = [], [], []
    complete = choice = 0
    for _, out, seconds in timed(analysis.analyse, hands(n, seed), budget):
        cpu.append(seconds)
        used.append(out["budget"]["used"])
        complete += out["complete"]
        choice += any(d["kind"] == "choose" for d in out["decisions"])
        cards = [d["step"] for d in out["decisions"] if d["kind"] == "card"]
        first_trick.append(1 + (min(cards) - 1) // 4 if cards else 14)
    return {
        "hands": n,
        "budget": analysis.DEFAULT_BUDGET if budget is None else budget,
        "cpu_ms": ms_summary(cpu),
        "nodes": {"p50": percentile(used, 0.5), "max": max(used)},
        "complete": complete,
        "choice_analysed": choice,
        "exact_from_trick": {"p50": percentile(first_trick, 0.5),
                             "p90": percentile(first_trick, 0.9), "max": max(first_trick)},
    }  # fmt: skip


def baseline(n: int, seed: int) -> dict:
    rng = random.Random(seed)
    best = {"koz": 0.0, "ceza": 0.0}
    for _ in range(n):
        deck = list(range(52))
        rng.shuffle(deck)
        hand = HandState(4, 0, [[], [], [], []], [deck[13 * s : 13 * s + 13] for s in range(4)])
        scores = analysis.choice_scores(hand, hand.chosen, Budget(10**9))
        best["koz"] += max(o["score"] for o in scores if o["contract"] == KOZ)
        best["ceza"] += max(o["score"] for o in scores if o["contract"] in PENALTIES)
    return {k: round(v / n, 1) for k, v in best.items()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--budget", type=int, default=None)
    p.add_argument("--baseline", type=int, default=0, metavar="N")
    args = p.parse_args(argv)
    if args.baseline:
        print(json.dumps({"baseline": baseline(args.baseline, args.seed)}))
    else:
        print(json.dumps(cost(args.n, args.seed, args.budget)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
