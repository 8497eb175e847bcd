"""Kelimeki timings::

    python -m games.kelimeki.engine.bench [--games 6] [--seed 1]

Plays seeded 2- and 4-player games between ``hard`` bots and reports: the hard bot's
decision time per move (p50, p99, max, by the wall clock and by the process's CPU
time — the fair figure on a shared, loaded machine; the issue asks p99 < 1 s), the shipped word
list's load time and size, the lookup time of ``contains`` (µs), and the engine's own
speed (plays checked per second, bots aside), and the worst case of the move
generator: the hard decision with both jokers in the rack.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import timeit

from game.engine.stats import percentile as pct
from games.kelimeki.engine import GAME, bots
from games.kelimeki.engine.lexicon import shipped
from games.kelimeki.engine.movegen import Position, generate
from games.kelimeki.engine.simulate import play_game


def run(games: int, seed: int) -> dict:
    t0 = time.perf_counter()
    lex = shipped()
    load = time.perf_counter() - t0
    t0 = time.perf_counter()
    lex.trie  # noqa: B018 - built on first use
    trie = time.perf_counter() - t0
    probes = ["KARE", "ILIK", "İLİK", "GELMEK", "XYZQ", "ARKADAŞLIK", "AB", "ZZ"]
    per = timeit.timeit(lambda: [lex.contains(w) for w in probes], number=20000)
    lookup_us = per / (20000 * len(probes)) * 1e6
    rng = random.Random(seed)
    timings: list[tuple[float, float]] = []
    checks, check_s = 0, 0.0
    for g in range(games):
        players = 2 if g % 2 == 0 else 4
        state = play_game(["hard"] * players, rng, timings)
        checks_g, secs = _engine_speed(players, random.Random(f"{seed}:{g}"))
        checks += checks_g
        check_s += secs
        assert state.over
    wall = [w for w, _ in timings]
    cpu = [c for _, c in timings]
    return {
        "words": len(lex),
        "load_seconds": round(load, 3),
        "trie_seconds": round(trie, 3),
        "contains_us": round(lookup_us, 3),
        "hard_moves": len(timings),
        "hard_p50_s": round(pct(wall, 0.5), 4),
        "hard_p99_s": round(pct(wall, 0.99), 4),
        "hard_max_s": round(max(wall), 4),
        "hard_cpu_p50_s": round(pct(cpu, 0.5), 4),
        "hard_cpu_p99_s": round(pct(cpu, 0.99), 4),
        "hard_cpu_max_s": round(max(cpu), 4),
        "plays_checked_per_second": round(checks / check_s, 1),
        **_two_jokers(random.Random(f"j{seed}")),
    }


def _two_jokers(rng: random.Random, games: int = 2) -> dict:
    """The generator's worst case: at every turn of hard-bot games, the hard decision
    for the same view with the rack forced to hold both jokers (CPU seconds)."""
    cpu = []
    for _ in range(games):
        state = GAME.new_match({}, 2, rng)
        while not state.over:
            seat = state.turn
            view = GAME.view_for(state, seat)
            forced = dict(view, rack=["*", "*"] + [t for t in view["rack"] if t != "*"][:5])
            c0 = time.process_time()
            bots.choose(forced, "hard", random.Random(0))
            cpu.append(time.process_time() - c0)
            GAME.apply(state, seat, GAME.bot_choose(view, "hard", rng), 0.0)
    return {"two_joker_moves": len(cpu), "two_joker_cpu_p50_s": round(pct(cpu, 0.5), 4),
            "two_joker_cpu_p99_s": round(pct(cpu, 0.99), 4),
            "two_joker_cpu_max_s": round(max(cpu), 4)}  # fmt: skip


def _engine_speed(players: int, rng: random.Random) -> tuple[int, float]:
    """Check every legal play of the opening positions of a game through the rules
    (``GAME.preview``): plays checked and the seconds it took."""
    state = GAME.new_match({}, players, rng)
    seat = state.turn
    view = GAME.view_for(state, seat)
    moves = generate(Position.from_view(view), shipped())
    t0 = time.perf_counter()
    for m in moves:
        GAME.preview(state, seat, m.to_action()["placements"])
    return len(moves), time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    print(json.dumps(run(args.games, args.seed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
