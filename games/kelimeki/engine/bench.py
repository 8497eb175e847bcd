"""Kelimeki timings::

    python -m games.kelimeki.engine.bench [--games 6] [--joker-games 2] [--seed 1] [--json]

Plays seeded 2- and 4-player games between the levels (2 players: hard–normal,
normal–easy, easy–hard in turn; 4 players: hard, normal, easy, normal) and reports each
level's decision time per move (p50, p99, max, by this thread's CPU time — the fair
figure on a shared, loaded machine — and by the wall clock), the shipped word list's
load time and size, the lookup time of ``contains`` (µs), the engine's own speed (plays
checked per second, bots aside), and the move generator's worst cases: at every turn of
``--joker-games`` hard-bot games, every level's decision with the rack forced to hold
0, 1 and 2 jokers.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import timeit

from game.engine.stats import MoveClock, load_average, move_table
from games.kelimeki.engine import GAME, bots
from games.kelimeki.engine.alphabet import JOKER, RACK_SIZE
from games.kelimeki.engine.lexicon import shipped
from games.kelimeki.engine.movegen import Position, generate

LEVEL_TABLES = {
    2: (("hard", "normal"), ("normal", "easy"), ("easy", "hard")),
    4: (("hard", "normal", "easy", "normal"),),
}


def run(games: int, seed: int, joker_games: int = 2) -> dict:
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
    clock = MoveClock()
    checks, check_s = 0, 0.0
    for g in range(games):
        players = 2 if g % 2 == 0 else 4
        tables = LEVEL_TABLES[players]
        levels = list(tables[(g // 2) % len(tables)])
        state = _play(levels, rng, clock)
        checks_g, secs = _engine_speed(players, random.Random(f"{seed}:{g}"))
        checks += checks_g
        check_s += secs
        assert state.over
    return {
        "words": len(lex),
        "load_seconds": round(load, 3),
        "trie_seconds": round(trie, 3),
        "contains_us": round(lookup_us, 3),
        "moves": clock.report([lv for lv in ("hard", "normal", "easy") if clock.cpu[lv]]),
        "plays_checked_per_second": round(checks / check_s, 1),
        "jokers": _jokers(random.Random(f"j{seed}"), joker_games),
        "load_average": load_average(),
    }


def _play(levels: list[str], rng: random.Random, clock: MoveClock):
    """One whole game through the protocol, each decision timed by level."""
    state = GAME.new_match({}, len(levels), rng)
    while not GAME.match_over(state):
        (seat,) = GAME.may_act(state)
        view = json.loads(json.dumps(GAME.view_for(state, seat)))
        action = clock.call(levels[seat], GAME.bot_choose, view, levels[seat], rng)
        GAME.apply(state, seat, action, 0.0)
    return state


def _jokers(rng: random.Random, games: int = 2) -> dict:
    """The generator's worst cases: at every turn of two-player hard-bot games (the
    board filling up to the end), each level's decision for the same view with the rack
    forced to hold 0, 1 and 2 jokers (and letters of the real rack, or of the bag's
    letters when it runs short, to seven tiles)."""
    clock = MoveClock()
    for _ in range(games):
        state = GAME.new_match({}, 2, rng)
        while not state.over:
            seat = state.turn
            view = GAME.view_for(state, seat)
            letters = [t for t in view["rack"] if t != JOKER]
            letters += [t for t in _FILL if t not in letters][: RACK_SIZE - len(letters)]
            for k in (0, 1, 2):
                forced = dict(view, rack=[JOKER] * k + letters[: RACK_SIZE - k])
                for level in ("hard", "normal", "easy"):
                    clock.call(f"{level} {k} joker", bots.choose, forced, level,
                               random.Random(0))  # fmt: skip
            GAME.apply(state, seat, GAME.bot_choose(view, "hard", rng), 0.0)
    return clock.report([f"{lv} {k} joker" for k in (0, 1, 2) for lv in ("hard", "normal", "easy")])


_FILL = "AEİLRNK"  # common letters to fill a short rack to seven tiles


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
    ap.add_argument("--joker-games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    r = run(args.games, args.seed, args.joker_games)
    if args.json:
        print(json.dumps(r))
        return 0
    print(
        f"{r['words']} words, loaded in {r['load_seconds']} s (trie {r['trie_seconds']} s); "
        f"contains {r['contains_us']} µs; {r['plays_checked_per_second']} plays checked/s"
    )
    print("\n".join(move_table(r["moves"], f"{args.games} games")))
    print("\n".join(move_table(r["jokers"], "forced racks")))
    print(f"load average {r['load_average']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
