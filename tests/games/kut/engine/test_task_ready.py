"""Görevi Aç tells the truth (issue 15, item 4): each seat's own view says whether its
tiles can form the current task (the solver's exact check, K-O2, K-O6, K-O7), whatever
their layout on the rack (K-O5); nothing once the seat has opened (K-O3)."""

from __future__ import annotations

import random
import time

from game.engine.fair import SeededRNG
from games.kut.engine.deal import hand_from_faces, new_hand
from games.kut.engine.solver import solve, task_ready
from games.kut.engine.tasks import FINISH, FIVE_PAIRS, TASK_LISTS
from games.kut.engine.transitions import apply
from games.kut.engine.views import view_for
from games.okey.engine.groups import KUT, RUN
from games.okey.engine.tiles import FAKE, face_of, parse_face

F = parse_face


def faces(*names):
    return [F(n) for n in names]


OTHERS = [
    faces(*[f"Y{n}" for n in range(1, 7)], *[f"B{n}" for n in range(2, 10)]),
    faces(*[f"K{n}" for n in range(4, 14)], "R6", "R7", "R8", "R9"),
    faces(*[f"R{n}" for n in range(10, 14)], *[f"Y{n}" for n in range(10, 14)],
          "B10", "B11", "B12", "K1", "R10", "Y10"),
]  # fmt: skip


def test_k_o2_ready_follows_the_tiles_not_the_layout():
    """K-O5: one segment of 15 tiles cannot open (task_mismatch), but the tiles can:
    the view says task_ready; after the opening it says None (K-O3)."""
    rack = faces("R5", "Y5", "B5", "K5", "R1", "R2", "R3", "R4", "Y7", "Y7", "B1", "K2",
                 "K3", "Y9", "B13")  # fmt: skip
    hand = hand_from_faces(8, 1, 0, F("K12"), [rack, *OTHERS], faces("B1"))
    assert view_for(hand, 0)["task_ready"] is True
    assert view_for(hand, None).get("task_ready") is None  # watchers: no rack, no flag
    apply(hand, 0, {"type": "separator", "at": 3})
    apply(hand, 0, {"type": "open"})
    assert view_for(hand, 0)["task_ready"] is None


def test_k_o2_not_ready_without_the_tiles():
    """Task 1 of 8 is a küt of 4: three 5s and no okey cannot form it."""
    rack = faces("R5", "Y5", "B5", "Y8", "R1", "R2", "R3", "R4", "Y7", "Y7", "B1", "K2",
                 "K3", "Y9", "B13")  # fmt: skip
    hand = hand_from_faces(8, 1, 0, F("K12"), [rack, *OTHERS], faces("Y8"))  # K5 elsewhere
    assert view_for(hand, 0)["task_ready"] is False


def test_task_ready_agrees_with_the_solver():
    """The cheap check is exactly the solver's can_open (K-O2, K-O6, K-O7), on random
    racks of every task (fake okeys and real okeys included)."""
    rng = random.Random(15)
    pool = [f for f in range(52) for _ in range(2)] + [FAKE, FAKE]
    tasks = sorted({t for lst in TASK_LISTS.values() for t in lst})
    assert FINISH in tasks and FIVE_PAIRS in tasks and ((KUT, 4), (RUN, 5)) in tasks
    ready = 0
    for i in range(400):
        okey = rng.randrange(52)
        rack = [f for f in rng.sample(pool, 15) if f != okey or rng.random() < 0.9]
        task = tasks[i % len(tasks)]
        want = bool(solve(rack, okey, task).can_open)
        assert task_ready(rack, okey, task) is want, (rack, okey, task)
        ready += want
    assert 20 < ready < 380  # both answers were checked


def test_task_ready_is_cheap_on_every_frame():
    """A frame asks for the flag for every seat: a whole hand's views stay fast."""
    hand = new_hand(12, 1, 0, SeededRNG(7))
    start = time.perf_counter()
    for _ in range(50):
        for seat in range(4):
            view_for(hand, seat)
    per_view = (time.perf_counter() - start) / 200
    assert per_view < 0.005, per_view
    assert task_ready([face_of(t) for t in hand.racks[0].tiles()], hand.okey, hand.task) in (
        True,
        False,
    )
