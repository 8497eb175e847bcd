"""KÜT behind the Game protocol (``game/engine/protocol.py``).

KÜT's rules live in the modules beside this package (``game/engine/tiles.py`` …
``transitions.py``, ``match.py``, ``bots/``); this adapter is all the platform sees of
them.  Options: ``tasks`` (5, 8 or 12, K-M2).  The move time is fixed at 45 s (K-N6).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .. import bots
from ..errors import RuleError
from ..match import MatchState, new_match, record_hand, start_next_hand
from ..protocol import HandResult, InputError, MatchResult, places_of
from ..replay import export_scenario
from ..state import SEATS
from ..tasks import TASK_LISTS
from ..transitions import apply
from ..views import can_claim, view_for


class KutGame:
    key = "kut"
    name = "KÜT"
    seat_counts = (SEATS,)
    partners = False
    lower_is_better = True  # K-S6: points count against you
    default_move_seconds = 45
    fixed_move_seconds = True  # K-N6
    # the platform's hooks for the site (not part of the rules): the table page's
    # template; a game without one is listed as "coming soon" (yakında)
    table_template = "game/match.html"

    def clean_options(self, options: Mapping[str, Any]) -> dict:
        tasks = options.get("tasks", 8)
        if isinstance(tasks, bool) or tasks not in TASK_LISTS:
            raise InputError("a KÜT match has 5, 8 or 12 tasks (K-M2)")
        unknown = set(options) - {"tasks"}
        if unknown:
            raise InputError(f"unknown KÜT option(s): {', '.join(sorted(unknown))}")
        return {"tasks": tasks}

    def new_match(self, options: dict, seats: int, rng: random.Random) -> MatchState:
        if seats != SEATS:
            raise InputError("KÜT is played by four")
        return new_match(self.clean_options(options)["tasks"], rng)

    def to_dict(self, state: MatchState) -> dict:
        return state.to_dict()

    def from_dict(self, data: dict) -> MatchState:
        return MatchState.from_dict(data)

    def apply(self, state: MatchState, seat: int, action: dict, now: float) -> list[dict]:
        if state.hand is None or state.over:
            raise RuleError("hand_over")
        return apply(state.hand, seat, action)

    def view_for(self, state: MatchState, seat: int | None) -> dict:
        return view_for(state.hand, seat)

    def to_act(self, state: MatchState) -> tuple[int, ...]:
        hand = state.hand
        return () if hand is None or hand.over else (hand.turn,)

    def may_act(self, state: MatchState) -> tuple[int, ...]:
        hand = state.hand
        if hand is None or hand.over:
            return ()
        claimants = tuple(s for s in range(SEATS) if s != hand.turn and can_claim(hand, s))
        return (hand.turn, *claimants)

    def on_timeout(self, state: MatchState, seat: int, now: float) -> list[dict]:
        return apply(state.hand, seat, {"type": "timeout"})  # K-N6, K-N7

    def bot_choose(self, view: dict, level: str, rng: random.Random) -> dict | None:
        if view.get("turn") == view.get("me"):
            return bots.choose(view, level, rng)
        if bots.wants_claim(view, level, rng):
            return {"type": "claim"}
        return None

    def hand_over(self, state: MatchState) -> bool:
        return state.hand is not None and state.hand.over

    def start_next_hand(self, state: MatchState, rng: random.Random) -> list[dict]:
        start_next_hand(state, rng)
        return [{"type": "hand_started", "hand_no": state.hand_no}]

    def match_over(self, state: MatchState) -> bool:
        if state.hand is not None and state.hand.over and not state.over:
            record_hand(state)  # the last task's hand ends the match (K-M4); idempotent
        return state.over

    def hand_results(self, state: MatchState) -> list[HandResult]:
        return [
            HandResult(r["hand_no"], list(r["scores"]),
                       {"task_no": r["task_no"], "finisher": r["finisher"], "lines": r["lines"]})
            for r in state.results
        ]  # fmt: skip

    def match_result(self, state: MatchState) -> MatchResult:
        totals = list(state.totals)
        return MatchResult(totals, places_of(totals, self.lower_is_better), len(state.results))

    def export_hand(self, state: MatchState) -> dict:
        return export_scenario(state.hand)


GAME = KutGame()
