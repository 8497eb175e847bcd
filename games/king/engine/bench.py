"""King benchmark: engine speed and bot move times::

    python -m games.king.engine.bench [--hands 300] [--bot-hands 40] [--seed 1]

1. Engine: N hands of random legal play through the Game protocol (choice, every card,
   the view of the seat to play rendered each move), hands/s and actions/s by the wall
   clock and by this process's CPU time (the fair figure on a shared, loaded machine).
2. Bots: every decision of each level on real positions (tables of hard, normal, easy,
   normal turning seats, 20-hand matches), timed from its JSON view to its action:
   p50 / p99 / max, by the wall clock and by the thread's CPU time.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import defaultdict

from game.engine.stats import percentile as pct
from games.king.engine.bots import LEVELS
from games.king.engine.game import GAME


def engine_speed(hands: int, seed: int) -> dict:
    rng = random.Random(seed)
    actions = 0
    start, cpu0 = time.perf_counter(), time.process_time()
    state = GAME.new_match({"length": 20}, 4, rng)
    for _ in range(hands):
        if GAME.match_over(state):
            state = GAME.new_match({"length": 20}, 4, rng)
        elif GAME.hand_over(state):
            GAME.start_next_hand(state, rng)
        while not GAME.hand_over(state):
            (seat,) = GAME.to_act(state)
            view = GAME.view_for(state, seat)
            if view["choice"]:
                c = rng.choice([o["contract"] for o in view["choice"]["options"] if o["allowed"]])
                action = {"type": "choose", "contract": c}
                if c == "koz":
                    action["trump"] = rng.choice("SHCD")
            else:
                action = {"type": "play", "card": rng.choice(view["playable"])}
            GAME.apply(state, seat, action, 0.0)
            actions += 1
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu0
    return {"hands": hands, "actions": actions, "seconds": round(wall, 3),
            "hands_per_second": round(hands / wall, 1), "cpu_hands_per_second": round(hands / cpu, 1),
            "actions_per_second": round(actions / wall, 1),
            "cpu_actions_per_second": round(actions / cpu, 1)}  # fmt: skip


def bot_times(hands: int, seed: int) -> dict:
    rng = random.Random(seed)
    wall: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[float]] = defaultdict(list)
    levels = ["hard", "normal", "easy", "normal"]
    played = m = 0
    while played < hands:
        order = [levels[(s + m) % 4] for s in range(4)]
        state = GAME.new_match({"length": 20}, 4, random.Random(f"{seed}:{m}"))
        m += 1
        while played < hands:
            while not GAME.hand_over(state):
                (seat,) = GAME.to_act(state)
                view = json.loads(json.dumps(GAME.view_for(state, seat)))
                t0, c0 = time.perf_counter(), time.thread_time()
                action = GAME.bot_choose(view, order[seat], rng)
                wall[order[seat]].append(time.perf_counter() - t0)
                cpu[order[seat]].append(time.thread_time() - c0)
                GAME.apply(state, seat, action, 0.0)
            played += 1
            if GAME.match_over(state):
                break
            GAME.start_next_hand(state, rng)
    out = {}
    for lvl in LEVELS:
        w, c = wall[lvl], cpu[lvl]
        out[lvl] = {"moves": len(w),
                    "wall_ms": {"p50": round(pct(w, 0.5) * 1e3, 2), "p99": round(pct(w, 0.99) * 1e3, 2),
                                "max": round(max(w, default=0) * 1e3, 2)},
                    "cpu_ms": {"p50": round(pct(c, 0.5) * 1e3, 2), "p99": round(pct(c, 0.99) * 1e3, 2),
                               "max": round(max(c, default=0) * 1e3, 2)}}  # fmt: skip
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=300)
    p.add_argument("--bot-hands", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    r = {
        "engine": engine_speed(args.hands, args.seed),
        "bots": bot_times(args.bot_hands, args.seed),
    }
    if args.json:
        print(json.dumps(r))
        return 0
    e = r["engine"]
    print(f"engine: {e['hands']} random-legal hands, {e['actions']} actions in {e['seconds']} s")
    print(f"  hands/s   {e['hands_per_second']} (wall)   {e['cpu_hands_per_second']} (CPU)")
    print(f"  actions/s {e['actions_per_second']} (wall)   {e['cpu_actions_per_second']} (CPU)")
    print(f"bots ({args.bot_hands} hands): move time p50 / p99 / max")
    for lvl, b in r["bots"].items():
        w, c = b["wall_ms"], b["cpu_ms"]
        print(f"  {lvl:7} {b['moves']:>6} moves   wall {w['p50']:.1f} / {w['p99']:.1f} / "
              f"{w['max']:.1f} ms   CPU {c['p50']:.1f} / {c['p99']:.1f} / {c['max']:.1f} ms")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
