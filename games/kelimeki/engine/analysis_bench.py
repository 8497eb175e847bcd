"""Kelimeki's analysis cost (issue 31)::

    python -m games.kelimeki.engine.analysis_bench [--n 60] [--seed 1] [--budget N]

Plays N games between bots (2 and 4 players in turn; hard, normal, easy, normal seats)
as scenarios (kelimeki-scenario.md: exchanged tiles to the bottom of the bag, so that
the whole game replays), then reports, by this process's CPU time (the fair figure on a
shared machine; the shipped word list is loaded before timing):

* per game, the analysis with the budget (default ``analysis.DEFAULT_BUDGET``): CPU
  p50 / p99 / max, steps used, games analysed completely, moves analysed, and the steps
  a whole game's analysis would need;
* per move, each move judged alone within ``analysis.DECISION_LIMIT``, by the jokers in
  the rack (0, 1, 2): CPU p50 / p99 / max, steps p50 / max, and how many were exact.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from game.engine.analysis import timed
from game.engine.stats import ms_summary, percentile
from games.kelimeki.engine import GAME, analysis
from games.kelimeki.engine.alphabet import COUNTS, JOKER, RACK_SIZE, TILES
from games.kelimeki.engine.lexicon import shipped
from games.kelimeki.engine.replay import load_scenario, run_action

LEVELS = ("hard", "normal", "easy", "normal")


def games(n: int, seed: int):
    """N finished bot games as scenarios."""
    rng = random.Random(seed)
    for g in range(n):
        players = 2 if g % 2 == 0 else 4
        bag = [t for t in TILES for _ in range(COUNTS[t])]
        rng.shuffle(bag)
        racks = [bag[RACK_SIZE * s : RACK_SIZE * (s + 1)] for s in range(players)]
        data = {"game": "kelimeki", "players": players, "starter": rng.randrange(players),
                "racks": racks, "bag": bag[RACK_SIZE * players :], "actions": []}  # fmt: skip
        state, _ = load_scenario(data)
        while not state.over:
            seat = state.turn
            action = GAME.bot_choose(GAME.view_for(state, seat), LEVELS[seat], rng)
            GAME.apply(state, seat, action, 0.0)
            data["actions"].append({"seat": seat, **action})
        yield data


def per_move(data: dict, rows: dict) -> int:
    """Judge each move of the game alone (no game budget), by jokers in the rack; the
    steps the whole game needs."""
    state, actions = load_scenario(data)
    total = 0
    for a in actions:
        seat = a["seat"]
        view = GAME.view_for(state, seat)
        c0 = time.process_time()
        moves, used, full, jokers = analysis.plays(view, analysis.DECISION_LIMIT)
        cpu = time.process_time() - c0
        rows[view["rack"].count(JOKER)].append((cpu, used, full == jokers))
        total += used
        run_action(state, a)
    return total


def run(n: int, seed: int, budget: int | None) -> dict:
    shipped().trie  # noqa: B018 - built once per process, not per analysis
    cpu, used, needed, moves = [], [], [], 0
    complete = 0
    rows: dict[int, list] = {0: [], 1: [], 2: []}
    for data, out, seconds in timed(analysis.analyse, games(n, seed), budget):
        cpu.append(seconds)
        used.append(out["budget"]["used"])
        complete += out["complete"]
        moves += len(out["decisions"])
        needed.append(per_move(data, rows))
    return {
        "games": n,
        "budget": analysis.DEFAULT_BUDGET if budget is None else budget,
        "game_cpu_ms": ms_summary(cpu),
        "game_steps": {"p50": percentile(used, 0.5), "max": max(used)},
        "game_steps_needed": {"p50": percentile(needed, 0.5), "p90": percentile(needed, 0.9),
                              "max": max(needed)},
        "complete": complete,
        "moves_analysed": moves,
        "move_limit": analysis.DECISION_LIMIT,
        "moves_by_jokers": {
            str(j): {"moves": len(r), "cpu_ms": ms_summary([x for x, _, _ in r]),
                     "steps": {"p50": percentile([s for _, s, _ in r], 0.5),
                               "max": max((s for _, s, _ in r), default=0)},
                     "exact": sum(1 for *_, e in r if e)}
            for j, r in rows.items()
        },
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=60)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--budget", type=int, default=None)
    args = p.parse_args(argv)
    print(json.dumps(run(args.n, args.seed, args.budget)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
