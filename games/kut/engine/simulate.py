"""Bot-versus-bot simulation::

    python -m games.kut.engine.simulate --hands 2000 --levels hard,normal,easy,normal

Plays N seeded hands (seats rotate through the level list so every level sits in every
seat), and prints each level's mean hand score with a 95% confidence interval, how often
it opened, how often it opened when its rack could open at one of its turns, and
hands/second.  Bots get only their seat's view (a JSON copy), as at a live table.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import defaultdict

from game.engine.errors import EngineError
from game.engine.fair import SeededRNG
from game.engine.stats import MoveClock, load_average, mean_ci, move_table, ms_summary
from games.kut.engine import bots
from games.kut.engine.deal import new_hand
from games.kut.engine.solver import solve
from games.kut.engine.state import HandState
from games.kut.engine.tasks import is_finish
from games.kut.engine.transitions import apply
from games.kut.engine.views import can_claim, view_for
from games.okey.engine.tiles import face_of

MAX_TURN_ACTIONS = 60


def bot_view(hand: HandState, seat: int) -> dict:
    """What a bot gets: a detached JSON copy of its seat's view (P-1)."""
    return json.loads(json.dumps(view_for(hand, seat)))


def play_bot_hand(hand: HandState, levels: list[str], rng: random.Random,
                  observe=None, timings: list | None = None,
                  clock: MoveClock | None = None) -> int:  # fmt: skip
    """Play a hand to its end with one bot per seat; returns the number of actions.
    ``timings`` collects the seconds each bot decision took (view copy included);
    ``clock`` times each decision (claims too) by level, view copy excluded."""
    clock = clock or MoveClock()
    actions = 0
    turn_actions = 0
    last_turn = (hand.table_turn, hand.turn)
    while not hand.over:
        if hand.claimable:
            for k in (1, 2, 3):
                s = (hand.turn + k) % 4
                if can_claim(hand, s) and clock.call(
                    levels[s], bots.wants_claim, bot_view(hand, s), levels[s], rng
                ):
                    apply(hand, s, {"type": "claim"})
                    actions += 1
                    break
        seat = hand.turn
        if observe:
            observe(hand, seat)
        t0 = time.perf_counter()
        view = bot_view(hand, seat)
        action = clock.call(levels[seat], bots.choose, view, levels[seat], rng)
        if timings is not None:
            timings.append(time.perf_counter() - t0)
        if turn_actions >= MAX_TURN_ACTIONS:
            action = {"type": "timeout"}
        try:
            apply(hand, seat, action)
        except EngineError as exc:  # a bot's illegal move is a bug: say which
            raise RuntimeError(f"bot {levels[seat]} made an illegal move {action}") from exc
        actions += 1
        now = (hand.table_turn, hand.turn)
        turn_actions = 0 if now != last_turn else turn_actions + 1
        last_turn = now
    return actions


def simulate(hands: int, levels: list[str], seed: int = 1, tasks: int = 8) -> dict:
    rng = random.Random(seed)
    scores: dict[str, list[int]] = defaultdict(list)
    opened: dict[str, int] = defaultdict(int)
    could: dict[str, int] = defaultdict(int)
    could_opened: dict[str, int] = defaultdict(int)
    seats_played: dict[str, int] = defaultdict(int)
    total_actions = 0
    timings: list[float] = []
    clock = MoveClock()
    start = time.perf_counter()
    for h in range(hands):
        order = [levels[(s + h) % len(levels)] for s in range(4)]
        task_no = rng.randint(1, tasks)
        hand = new_hand(tasks, task_no, rng.randrange(4), SeededRNG(f"{seed}:{h}"))
        could_open = [False] * 4

        def observe(hd: HandState, seat: int, could_open=could_open) -> None:
            if could_open[seat] or hd.opened[seat] or hd.phase != "play":
                return
            task = hd.task
            faces = [face_of(t) for t in hd.racks[seat].tiles()]
            sol = solve(faces, hd.okey, task)
            if sol.can_open and (is_finish(task) or sum(map(len, sol.groups)) < len(faces)):
                could_open[seat] = True

        total_actions += play_bot_hand(hand, order, rng, observe, timings, clock)
        for s in range(4):
            lvl = order[s]
            scores[lvl].append(hand.scores[s])
            seats_played[lvl] += 1
            opened[lvl] += hand.opened[s]
            if could_open[s]:
                could[lvl] += 1
                could_opened[lvl] += hand.opened[s]
    elapsed = time.perf_counter() - start
    report = {}
    for lvl in sorted(set(levels), key=bots.LEVELS.index):
        mean, ci = mean_ci(scores[lvl])
        report[lvl] = {
            "seats": seats_played[lvl],
            "mean": round(mean, 2),
            "ci95": round(ci, 2),
            "opened": round(opened[lvl] / seats_played[lvl], 3),
            "could_open": could[lvl],
            "opened_when_could": round(could_opened[lvl] / could[lvl], 3) if could[lvl] else None,
        }
    return {"hands": hands, "seconds": round(elapsed, 2),
            "hands_per_second": round(hands / elapsed, 2), "actions": total_actions,
            "bot_move_ms": ms_summary(timings),
            "moves": clock.report(sorted(set(levels), key=bots.LEVELS.index, reverse=True)),
            "load_average": load_average(), "levels": report}  # fmt: skip


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="KÜT bot-versus-bot simulation")
    p.add_argument("--hands", type=int, default=200)
    p.add_argument("--levels", default="hard,normal,easy,normal")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--tasks", type=int, default=8, choices=(5, 8, 12))
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    levels = args.levels.split(",")
    if any(lv not in bots.LEVELS for lv in levels):
        p.error(f"levels must be among {bots.LEVELS}")
    r = simulate(args.hands, levels, args.seed, args.tasks)
    if args.json:
        print(json.dumps(r))
        return 0
    print(f"{r['hands']} hands in {r['seconds']} s ({r['hands_per_second']} hands/s)")
    ms = r["bot_move_ms"]
    print(
        f"bot move (all levels, wall): p50 {ms['p50']} ms, p99 {ms['p99']} ms, max {ms['max']} ms"
    )
    print(f"{'level':8} {'seats':>6} {'mean score':>11} {'±95%':>7} {'opened':>7} "
          f"{'could open':>11} {'opened when could':>18}")  # fmt: skip
    for lvl, x in r["levels"].items():
        owc = "-" if x["opened_when_could"] is None else f"{x['opened_when_could']:.1%}"
        print(f"{lvl:8} {x['seats']:>6} {x['mean']:>11.1f} {x['ci95']:>7.1f} "
              f"{x['opened']:>7.1%} {x['could_open']:>11} {owc:>18}")  # fmt: skip
    print("\n".join(move_table(r["moves"], "bot decision")))
    print(f"load average {r['load_average']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
