"""Bot-versus-bot simulation (the Kelimeki issue, item 3)::

    python -m games.kelimeki.engine.simulate --hands 40 --seed 1 [--players 2]

For each level (easy, normal, hard) plays N seeded games of that level against the
``normal`` bot as a fixed yardstick (the level sits in seat 0 and 1 alternately; with
``--players 4`` the other three seats are yardsticks) and prints the level's mean final
score per game with a 95 % confidence interval, its win rate and games/second.  Bots
get only their seat's view (a JSON copy), as at a live table.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from game.engine.protocol import BOT_LEVELS
from game.engine.stats import MoveClock, load_average, mean_ci, move_table
from games.kelimeki.engine import GAME
from games.kelimeki.engine.lexicon import shipped

MAX_ACTIONS = 1000  # far above any real game (W-E2 ends a run of passes)


def play_game(levels: list[str], rng: random.Random, timings: list | None = None,
              clock: MoveClock | None = None):  # fmt: skip
    """One whole game through the protocol only; returns the final state.  ``timings``
    gets each decision's (wall, CPU) seconds, ``clock`` each decision by level."""
    clock = clock or MoveClock()
    state = GAME.new_match({}, len(levels), rng)
    for _ in range(MAX_ACTIONS):
        if GAME.match_over(state):
            return state
        (seat,) = GAME.may_act(state)
        view = json.loads(json.dumps(GAME.view_for(state, seat)))
        t0, c0 = time.perf_counter(), time.process_time()
        action = clock.call(levels[seat], GAME.bot_choose, view, levels[seat], rng)
        if timings is not None:  # (wall, CPU) seconds of the decision
            timings.append((time.perf_counter() - t0, time.process_time() - c0))
        GAME.apply(state, seat, action, 0.0)
    raise RuntimeError("a bot game did not end")


def run(games: int, seed: int, players: int = 2) -> dict:
    out = {}
    clock = MoveClock()
    shipped().trie  # noqa: B018 - built once per process, not in the first move's time
    start = time.perf_counter()
    for level in BOT_LEVELS:
        rng = random.Random(f"{seed}:{level}")
        scores, wins = [], 0
        for g in range(games):
            seat = g % 2
            levels = ["normal"] * players
            levels[seat] = level
            state = play_game(levels, rng, clock=clock)
            scores.append(state.scores[seat])
            wins += state.scores[seat] == max(state.scores)
        m, h = mean_ci(scores)
        out[level] = {"games": games, "mean": round(m, 1), "ci95": [round(m - h, 1), round(m + h, 1)],
                      "win_rate": round(wins / games, 3)}  # fmt: skip
    elapsed = time.perf_counter() - start
    out["games_per_second"] = round(3 * games / elapsed, 3)
    e, n, h = (out[k]["ci95"] for k in ("easy", "normal", "hard"))
    out["ordered"] = e[1] < n[0] and n[1] < h[0]  # hard > normal > easy, no overlap
    out["moves"] = clock.report(("hard", "normal", "easy"))
    out["load_average"] = load_average()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", "--games", type=int, default=40, dest="games")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, choices=(2, 4), default=2)
    args = ap.parse_args(argv)
    res = run(args.games, args.seed, args.players)
    for level in BOT_LEVELS:
        r = res[level]
        print(f"{level:7s} mean {r['mean']:7.1f}  95% CI [{r['ci95'][0]}, {r['ci95'][1]}]  "
              f"wins {r['win_rate']:.0%} vs normal  ({r['games']} games)")  # fmt: skip
    print(f"hard > normal > easy with intervals apart: {res['ordered']}; "
          f"{res['games_per_second']} games/s")  # fmt: skip
    print("\n".join(move_table(res["moves"], "bot decision")))
    print(f"load average {res['load_average']}")
    print(json.dumps(res, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
