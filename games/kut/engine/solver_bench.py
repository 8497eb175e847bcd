"""Time the hand solver.

    python -m games.kut.engine.solver_bench [--n 1000] [--seed 1] [--warmup 300]
                                       [--clock cpu|wall]

Racks of 15 and 32 tiles are drawn from a shuffled 106-tile set after turning an
indicator (K-D1), so real and fake okeys appear naturally; every second rack is forced
to hold at least one real okey.  For each rack size and task, prints p50 / p99 / max
milliseconds per ``solve`` call.  The solver's option tables are cached per process
(as in the server), so a warm-up on separate racks runs first.

``--clock cpu`` (the default) times each call with ``time.process_time``: the CPU time
of this process, which other load on the machine disturbs far less than the wall
clock (``--clock wall``, ``time.perf_counter``).
"""

from __future__ import annotations

import argparse
import random
import time

from games.kut.engine.solver import solve
from games.kut.engine.tasks import FINISH, describe, task_for
from games.okey.engine.tiles import FAKE, face_of, okey_face

TASKS = [None, FINISH, task_for(8, 3), task_for(8, 5), task_for(8, 6), task_for(8, 7)]


def random_rack(rng: random.Random, size: int, force_okey: bool):
    tiles = list(range(106))
    rng.shuffle(tiles)
    while face_of(tiles[0]) == FAKE:
        rng.shuffle(tiles)
    okey = okey_face(face_of(tiles[0]))
    rest = tiles[1:]
    rack = rest[:size]
    if force_okey and not any(face_of(t) == okey for t in rack):
        okey_tiles = [t for t in rest[size:] if face_of(t) == okey]
        if okey_tiles:
            rack[rng.randrange(size)] = okey_tiles[0]
    return [face_of(t) for t in rack], okey


def pct(sorted_times, q):
    i = min(len(sorted_times) - 1, int(round(q * (len(sorted_times) - 1))))
    return sorted_times[i] * 1e3


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="time the KÜT hand solver")
    ap.add_argument("--n", type=int, default=1000, help="racks per size")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--warmup", type=int, default=300, help="warm-up racks per size")
    ap.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="cpu: time.process_time (default); wall: time.perf_counter",
    )
    args = ap.parse_args(argv)
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    rng = random.Random(args.seed)
    for size in (15, 32):
        for i in range(args.warmup):
            faces, okey = random_rack(rng, size, i % 2 == 0)
            for task in TASKS:
                solve(faces, okey, task)
    print(f"clock: {args.clock}")
    print(f"{'tiles':>5}  {'task':<24} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'opened':>7}")
    for size in (15, 32):
        racks = [random_rack(rng, size, i % 2 == 0) for i in range(args.n)]
        for task in TASKS:
            times = []
            opened = 0
            for faces, okey in racks:
                t0 = clock()
                sol = solve(faces, okey, task)
                times.append(clock() - t0)
                opened += bool(sol.can_open)
            times.sort()
            name = "opened (None)" if task is None else describe(task)
            frac = "" if task is None else f"{opened / len(racks):6.1%}"
            print(
                f"{size:>5}  {name:<24} {pct(times, 0.5):8.2f} {pct(times, 0.99):8.2f} "
                f"{times[-1] * 1e3:8.2f} {frac:>7}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
