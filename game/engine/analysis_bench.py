"""Time the analysis command (issue 31) on hands played by bots::

    python -m game.engine.analysis_bench GAME [--n 200] [--seed 1] [--budget N]
                                             [--levels hard,normal,easy,normal]

Plays ``--n`` hands of GAME (any registered game with an ``analyse`` command) through
its protocol (``new_match``, ``bot_choose`` on each seat's view, ``start_next_hand``:
whole matches, so every hand of a match — each of KÜT's tasks — is sampled), exports
each as the history's scenario (``export_hand``, or the whole game's ``export_log``)
and times ``analyse`` on it with the CPU clock of this thread (``time.thread_time``).  Prints the CPU time per hand (p50 / p99 / max), the
budget used, how many analyses were complete and how many decisions exact.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import time

from game.engine.registry import GAMES, command, get
from game.engine.stats import percentile

MAX_ACTIONS = 5000


def play_hands(key: str, n: int, seed: int, levels: list[str]) -> list[dict]:
    """``n`` scenarios of hands played to their end by bots at ``levels`` (per seat)."""
    game = get(key)
    rng = random.Random(seed)
    out: list[dict] = []
    while len(out) < n:
        state = game.new_match({}, 4, rng)
        log: list = []  # the match's (seat, kind, payload) rows, as the site logs them
        while len(out) < n:
            for _ in range(MAX_ACTIONS):
                if game.hand_over(state):
                    break
                for seat in game.may_act(state):
                    view = json.loads(json.dumps(game.view_for(state, seat)))
                    action = game.bot_choose(view, levels[seat], rng)
                    if action is not None:
                        game.apply(state, seat, action, 0.0)
                        log.append((seat, action["type"], game.log_form(action)))
                        break
                else:
                    raise RuntimeError(f"{key}: no bot would act")
            else:
                raise RuntimeError(f"{key}: a bot hand did not end")
            # the scenario the history downloads: the whole log where the game has one
            # (Kelimeki's export_log), else the hand
            exported = game.export_log(state, log) if game.export_log else game.export_hand(state)
            out.append(exported)
            if game.match_over(state):
                break
            game.start_next_hand(state, rng)
    return out


def bench(key: str, scenarios: list[dict], budget: int | None = None) -> dict:
    if budget is None:
        analyse = command("analyse", {"game": key})
    else:
        module, _ = GAMES[key].commands["analyse"].split(":")
        fn = importlib.import_module(module).analyse
        analyse = lambda data: fn(data, budget)  # noqa: E731
    cpu, used = [], []
    complete = decisions = exact = 0
    for data in scenarios:
        c0 = time.thread_time()
        out = analyse(data)
        cpu.append(time.thread_time() - c0)
        used.append(out["budget"]["used"])
        complete += out["complete"]
        decisions += len(out["decisions"])
        exact += sum(1 for d in out["decisions"] if d["exact"])
    return {
        "hands": len(scenarios),
        "cpu_ms": {q: round(percentile(cpu, p) * 1e3, 1) for q, p in (("p50", 0.5), ("p99", 0.99))}
        | {"max": round(max(cpu) * 1e3, 1)},
        "budget": {"limit": out["budget"]["limit"], "unit": out["budget"]["unit"],
                   "p50": percentile(used, 0.5), "max": max(used)},
        "complete": complete,
        "decisions": decisions,
        "exact": exact,
    }  # fmt: skip


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game", choices=[k for k, e in GAMES.items() if "analyse" in e.commands])
    p.add_argument("--n", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--budget", type=int, default=None)
    p.add_argument("--levels", default="hard,normal,easy,normal")
    args = p.parse_args(argv)
    levels = args.levels.split(",")
    if len(levels) != 4:
        p.error("--levels needs four bot levels")
    r = bench(args.game, play_hands(args.game, args.n, args.seed, levels), args.budget)
    c, b = r["cpu_ms"], r["budget"]
    print(f"{args.game}: {r['hands']} hands, analyse CPU per hand p50 {c['p50']} ms  "
          f"p99 {c['p99']} ms  max {c['max']} ms; budget {b['limit']} {b['unit']}, used "
          f"p50 {b['p50']} max {b['max']}; complete {r['complete']}/{r['hands']}; "
          f"exact decisions {r['exact']}/{r['decisions']}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
