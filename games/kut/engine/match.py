"""The match around the hands (kut.md section 3): task order, starters, totals, winners."""

from __future__ import annotations

import random

from game.engine.errors import RuleError
from games.kut.engine.deal import new_hand
from games.kut.engine.scoring import winners
from games.kut.engine.state import SEATS, HandState, next_seat
from games.kut.engine.tasks import TASK_LISTS, task_for


class MatchState:
    __slots__ = ("tasks", "first_starter", "hand_no", "totals", "results", "hand", "over")

    def __init__(self, tasks: int, first_starter: int):
        task_for(tasks, 1)
        self.tasks = tasks
        self.first_starter = first_starter  # K-M6
        self.hand_no = 0  # 1-based number of the current (or last) hand
        self.totals = [0] * SEATS
        self.results: list[dict] = []  # one per finished hand
        self.hand: HandState | None = None
        self.over = False

    @property
    def winners(self) -> list[int]:
        return winners(self.totals) if self.over else []

    def starter_of(self, hand_no: int) -> int:
        """K-M6: each following hand is started by the next seat to the right."""
        return (self.first_starter + hand_no - 1) % SEATS

    def to_dict(self) -> dict:
        return {
            "tasks": self.tasks,
            "first_starter": self.first_starter,
            "hand_no": self.hand_no,
            "totals": list(self.totals),
            "results": [dict(r) for r in self.results],
            "hand": self.hand.to_dict() if self.hand is not None else None,
            "over": self.over,
        }

    @classmethod
    def from_dict(cls, d: dict) -> MatchState:
        m = cls(d["tasks"], d["first_starter"])
        m.hand_no = d["hand_no"]
        m.totals = list(d["totals"])
        m.results = [dict(r) for r in d["results"]]
        m.hand = HandState.from_dict(d["hand"]) if d["hand"] is not None else None
        m.over = d["over"]
        return m


def new_match(tasks: int, rng: random.Random) -> MatchState:
    """Draw the first starter with the RNG (K-M6) and deal hand 1."""
    if tasks not in TASK_LISTS:
        raise RuleError("bad_action", "a match has 5, 8 or 12 tasks (K-M2)")
    match = MatchState(tasks, rng.randrange(SEATS))
    start_next_hand(match, rng)
    return match


def hand_finished(match: MatchState) -> bool:
    return match.hand is not None and match.hand.over and len(match.results) < match.hand_no


def record_hand(match: MatchState) -> dict:
    """Write the finished hand's scores into the totals (K-S6); ends the match after the
    last task (K-M4).  Idempotent."""
    hand = match.hand
    if hand is None or not hand.over:
        raise RuleError("hand_not_over")
    if len(match.results) >= match.hand_no:
        return match.results[-1]
    result = {
        "hand_no": match.hand_no,
        "task_no": hand.task_no,
        "starter": hand.starter,
        "finisher": hand.finisher,
        "scores": list(hand.scores),
        "lines": [dict(x) for x in hand.score_lines],
    }
    match.results.append(result)
    match.totals = [t + s for t, s in zip(match.totals, hand.scores)]
    if match.hand_no >= match.tasks:
        match.over = True
    return result


def start_next_hand(match: MatchState, rng: random.Random) -> HandState:
    """Deal the next task's hand (K-M2, K-M4)."""
    if match.over:
        raise RuleError("match_over")
    if match.hand is not None:
        if not match.hand.over:
            raise RuleError("hand_in_progress")
        record_hand(match)
        if match.over:
            raise RuleError("match_over")
    match.hand_no += 1
    match.hand = new_hand(match.tasks, match.hand_no, match.starter_of(match.hand_no), rng)
    return match.hand


__all__ = ["MatchState", "new_match", "record_hand", "start_next_hand", "hand_finished",
           "next_seat"]  # fmt: skip
