"""KDVli benchmark::

    python -m games.kdvli.engine.bench [--racks 5000] [--hands 200] [--seed 1]

* exact counting (V-S2): ``count`` on random 14-tile racks dealt from a shuffled set
  (a fresh process: caches start empty), p50 / p99 / max in ms;
* engine: hands/second of play where every seat draws and throws a random tile
  (counting each rack at the end, V-S3), by the wall clock and by CPU time;
* bots: every decision of each level (tables of hard, normal, easy, normal turning
  seats) from a JSON copy of the view: CPU and wall-clock p50 / p99 / max in ms.
"""

from __future__ import annotations

import argparse
import random
import time

from game.engine.fair import SeededRNG
from game.engine.stats import MoveClock, load_average, move_table, percentile
from games.kdvli.engine import bots
from games.kdvli.engine.counting import count
from games.kdvli.engine.hand import apply, new_hand
from games.kdvli.engine.simulate import bot_view, play_hand
from games.okey.engine.deal import shuffled_deal
from games.okey.engine.tiles import face_of, okey_face

LEVEL_ORDER = ("hard", "normal", "easy", "normal")


def bench_counting(racks: int, seed: int) -> dict:
    rng = random.Random(seed)
    times, cpu = [], []
    for _ in range(racks):
        indicator, tiles = shuffled_deal(rng)
        okey = okey_face(face_of(indicator))
        faces = [face_of(t) for t in tiles[:14]]
        c0, t0 = time.thread_time(), time.perf_counter()
        count(faces, okey)
        times.append(time.perf_counter() - t0)
        cpu.append(time.thread_time() - c0)
    return {"racks": racks, "p50_ms": percentile(times, 0.5) * 1e3,
            "p99_ms": percentile(times, 0.99) * 1e3, "max_ms": max(times) * 1e3,
            "cpu_p50_ms": percentile(cpu, 0.5) * 1e3, "cpu_p99_ms": percentile(cpu, 0.99) * 1e3,
            "cpu_max_ms": max(cpu) * 1e3}  # fmt: skip


def bench_engine(hands: int, seed: int) -> dict:
    rng = random.Random(seed)
    t0, c0 = time.perf_counter(), time.process_time()
    actions = 0
    for i in range(hands):
        hand = new_hand(i % 4, SeededRNG(seed * 7919 + i))
        while not hand.over:
            seat = hand.turn
            if not hand.may_play():
                apply(hand, seat, {"type": "draw"})
                actions += 1
            tile = rng.choice(hand.racks[seat].tiles())
            apply(hand, seat, {"type": "discard", "tile_id": hand.ids[tile]})
            actions += 1
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"hands": hands, "actions": actions, "hands_per_second": hands / wall,
            "cpu_hands_per_second": hands / cpu}  # fmt: skip


def bench_bots(hands: int, seed: int, level: str = "hard") -> dict:
    rng = random.Random(seed)
    times, cpu = [], []
    for i in range(hands):
        hand = new_hand(i % 4, SeededRNG(seed * 104729 + i))
        while not hand.over:
            view = bot_view(hand, hand.turn)
            c0, t0 = time.thread_time(), time.perf_counter()
            action = bots.choose(view, level, rng)
            times.append(time.perf_counter() - t0)
            cpu.append(time.thread_time() - c0)
            apply(hand, hand.turn, action)
    return {"moves": len(times), "p50_ms": percentile(times, 0.5) * 1e3,
            "p99_ms": percentile(times, 0.99) * 1e3, "max_ms": max(times) * 1e3,
            "cpu_p99_ms": percentile(cpu, 0.99) * 1e3}  # fmt: skip


def bench_levels(hands: int, seed: int) -> dict:
    """Every decision of each level on mixed tables (the levels turn seats each hand)."""
    rng = random.Random(seed)
    clock = MoveClock()
    for i in range(hands):
        levels = [LEVEL_ORDER[(s + i) % 4] for s in range(4)]
        play_hand(new_hand(i % 4, SeededRNG(seed * 104729 + i)), levels, rng, clock=clock)
    return clock.report(("hard", "normal", "easy"))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--racks", type=int, default=5000)
    p.add_argument("--hands", type=int, default=200)
    p.add_argument("--bot-hands", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    c = bench_counting(args.racks, args.seed)
    print(f"counting, {c['racks']} random 14-tile racks: p50 {c['p50_ms']:.3f} ms  "
          f"p99 {c['p99_ms']:.3f} ms  max {c['max_ms']:.3f} ms (wall clock); CPU time: "
          f"p50 {c['cpu_p50_ms']:.3f} ms  p99 {c['cpu_p99_ms']:.3f} ms  "
          f"max {c['cpu_max_ms']:.3f} ms")  # fmt: skip
    e = bench_engine(args.hands, args.seed)
    print(
        f"engine, {e['hands']} random-play hands ({e['actions']} actions): "
        f"{e['hands_per_second']:.1f} hands/s wall, {e['cpu_hands_per_second']:.1f} CPU"
    )
    b = bench_bots(args.bot_hands, args.seed)
    print(f"hard bot, {b['moves']} moves: p50 {b['p50_ms']:.2f} ms  p99 {b['p99_ms']:.2f} ms  "
          f"max {b['max_ms']:.2f} ms (wall clock); CPU p99 {b['cpu_p99_ms']:.2f} ms")  # fmt: skip
    print("\n".join(move_table(bench_levels(args.bot_hands, args.seed), "bot decision")))
    print(f"load average {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
