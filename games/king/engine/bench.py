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

from game.engine.stats import MoveClock, load_average, move_table
from games.king.engine.bots import LEVELS
from games.king.engine.game import GAME
from games.king.engine.simulate import play_hand


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
    clock = MoveClock()
    levels = ["hard", "normal", "easy", "normal"]
    played = m = 0
    while played < hands:
        order = [levels[(s + m) % 4] for s in range(4)]
        state = GAME.new_match({"length": 20}, 4, random.Random(f"{seed}:{m}"))
        m += 1
        while played < hands:
            play_hand(state, order, rng, clock=clock)
            played += 1
            if GAME.match_over(state):
                break
            GAME.start_next_hand(state, rng)
    return clock.report(LEVELS)


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
        "load_average": load_average(),
    }
    if args.json:
        print(json.dumps(r))
        return 0
    e = r["engine"]
    print(f"engine: {e['hands']} random-legal hands, {e['actions']} actions in {e['seconds']} s")
    print(f"  hands/s   {e['hands_per_second']} (wall)   {e['cpu_hands_per_second']} (CPU)")
    print(f"  actions/s {e['actions_per_second']} (wall)   {e['cpu_actions_per_second']} (CPU)")
    print("\n".join(move_table(r["bots"], f"{args.bot_hands} bot hands")))
    print(f"load average {r['load_average']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
