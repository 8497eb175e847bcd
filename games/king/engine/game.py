"""King on the platform's Game protocol (``protocol.py``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from game.engine.errors import RuleError
from game.engine.protocol import HandResult, InputError, MatchResult, places_of
from games.king.engine import bots
from games.king.engine import hand as hand_rules
from games.king.engine.contracts import DEFAULT_LENGTH, LENGTHS
from games.king.engine.match import (
    MatchState,
    new_match,
    record_hand,
    start_next_hand,
    timeout_notes,
)
from games.king.engine.replay import export_scenario
from games.king.engine.replay_view import replay_snapshot as _replay_snapshot
from games.king.engine.tutorial import TUTORIAL
from games.king.engine.views import view_for

MOVE_SECONDS = (30, 300, 15, 30)  # G-T1, P-6: min, max, step, King's default


class KingGame:
    key = "king"
    name = "King"
    seat_counts = (4,)
    partners = False  # G-M1: each plays alone
    lower_is_better = False  # G-M5: the highest total wins
    default_move_seconds = MOVE_SECONDS[3]
    fixed_move_seconds = False
    private_kinds = frozenset()  # every King action is the table's business
    rematch_choice = ("length", (4, 8, 12, 20))  # G-X5: the host chooses the length again
    quick_options = {"length": 4}  # Hemen Oyna against bots: the shortest match (G-M2)
    tutorial = TUTORIAL  # the guided first hand (issue 29): one scripted Kupa almaz hand

    # -- options ---------------------------------------------------------------------
    def clean_options(self, options: Mapping[str, Any]) -> dict:
        """``length`` 4/8/12/20 (G-M2, default 20), ``rated`` (P-3, default true),
        ``move_seconds`` 30–300 in steps of 15 (G-T1; rated only), ``take_back``
        (G-X4: test tables only, default false)."""
        if not isinstance(options, Mapping):
            raise InputError("options must be an object")
        unknown = set(options) - {"length", "rated", "move_seconds", "take_back"}
        if unknown:
            raise InputError(f"unknown King option(s): {', '.join(sorted(map(str, unknown)))}")
        length = options.get("length", DEFAULT_LENGTH)
        if type(length) is not int or length not in LENGTHS:
            raise InputError(f"length must be 4, 8, 12 or 20 hands, not {length!r}")
        rated = options.get("rated", True)
        if not isinstance(rated, bool):
            raise InputError("rated must be true or false")
        take_back = options.get("take_back", False)
        if not isinstance(take_back, bool):
            raise InputError("take_back must be true or false")
        if take_back and rated:
            raise InputError("take-back is only for test tables (G-X4)")
        lo, hi, step, default = MOVE_SECONDS
        move = options.get("move_seconds", default if rated else None)
        if not rated:
            if move is not None:
                raise InputError("test tables have no move time (P-3)")
        elif (isinstance(move, bool) or not isinstance(move, int) or not lo <= move <= hi
              or (move - lo) % step):  # fmt: skip
            raise InputError(f"move_seconds must be {lo}-{hi} in steps of {step}, not {move!r}")
        return {"length": length, "rated": rated, "move_seconds": move, "take_back": take_back}

    # -- the match ---------------------------------------------------------------------
    def new_match(self, options: dict, seats: int, rng: random.Random) -> MatchState:
        if seats != 4:
            raise InputError("King is played by four seats (G-M1)")
        opts = self.clean_options(options)
        return new_match(opts["length"], rng, take_back=opts["take_back"])

    def to_dict(self, state: MatchState) -> dict:
        return state.to_dict()

    def from_dict(self, data: dict) -> MatchState:
        return MatchState.from_dict(data)

    def apply(self, state: MatchState, seat: int, action: dict, now: float) -> list[dict]:
        if isinstance(action, dict) and action.get("type") == "take_back":
            return self._take_back(state, seat)
        hand = state.hand
        events = hand_rules.apply(hand, seat, action)  # raises and changes nothing
        if action.get("type") == "timeout":
            state.timeouts[seat] += 1  # G-T3
            events.append({"type": "away", "seat": seat, "away": state.away()[seat]})
        else:
            state.timeouts[seat] = 0
        if hand.over:
            result = record_hand(state)
            events.append({"type": "hand_recorded", "hand_no": result["hand_no"],
                           "scores": list(result["scores"]), "totals": list(state.totals)})  # fmt: skip
            if state.over:
                events.append({"type": "match_over", "totals": list(state.totals)})
        return events

    def log_form(self, action: dict) -> dict:
        """An accepted action with only the keys the rules read."""
        kind = action["type"]
        if kind == "choose":
            out = {"type": kind, "contract": action["contract"]}
            if action["contract"] == "koz":
                out["trump"] = action["trump"]
            return out
        if kind == "play":
            return {"type": kind, "card": action["card"]}
        return {"type": kind}

    def turn_key(self, state: MatchState):
        """Changes whenever a new turn starts: the choice and every card get the full
        move time (G-T1), the chooser's first lead too."""
        hand = state.hand
        return None if hand is None else [state.hand_no, len(hand.log), hand.turn]

    def away_after_timeout(self, state: MatchState, seat: int) -> bool:
        return state.away()[seat]  # G-T3

    def bot_pace(self, state: MatchState) -> float:
        hand = state.hand
        return 1.5 if hand is not None and hand.phase == "choose" else 1.0

    def _take_back(self, state: MatchState, seat: int) -> list[dict]:
        """G-X4: a seat's own last action of the hand, while nothing has followed."""
        hand_rules._check_seat(seat)
        hand = state.hand
        if not state.take_back:
            raise RuleError("take_back_off")
        if hand.over:
            raise RuleError("hand_over")
        last = hand.log[-1] if hand.log else None
        if last is None or last["seat"] != seat or last["type"] == "timeout":
            raise RuleError("nothing_to_take_back")
        state.hand = hand_rules.replay_log(hand, hand.log[:-1])
        return [{"type": "take_back", "seat": seat, "action": dict(last)}]

    def view_for(self, state: MatchState, seat: int | None) -> dict:
        return view_for(state, seat)

    # optional protocol members (protocol.py): King's own replay step and page

    def replay_snapshot(self, state: MatchState) -> dict:
        """One replay step: the four hands revealed, the trick, the tricks taken."""
        return _replay_snapshot(state)

    def timeout_notes(self, state: MatchState) -> list[dict]:
        return timeout_notes(state)  # G-T2: what the timer chose or played for the seat

    def to_act(self, state: MatchState) -> tuple[int, ...]:
        hand = state.hand
        return () if hand is None or hand.over else (hand.turn,)

    def may_act(self, state: MatchState) -> tuple[int, ...]:
        return self.to_act(state)

    def on_timeout(self, state: MatchState, seat: int, now: float) -> list[dict]:
        """G-T2: the server chooses or plays for the seat."""
        return self.apply(state, seat, {"type": "timeout"}, now)

    def bot_choose(self, view: dict, level: str, rng: random.Random) -> dict | None:
        return bots.choose(view, level, rng)

    def hand_over(self, state: MatchState) -> bool:
        return state.hand is not None and state.hand.over

    def start_next_hand(self, state: MatchState, rng: random.Random) -> list[dict]:
        hand = start_next_hand(state, rng)
        return [{"type": "hand_start", "hand_no": state.hand_no, "chooser": hand.chooser}]

    def match_over(self, state: MatchState) -> bool:
        return state.over

    def hand_results(self, state: MatchState) -> list[HandResult]:
        return [
            HandResult(r["hand_no"], list(r["scores"]), {
                "chooser": r["chooser"], "contract": r["contract"], "trump": r["trump"],
                "deal": r["deal"], "tricks": r["tricks"],
            })
            for r in state.results
        ]  # fmt: skip

    def match_result(self, state: MatchState) -> MatchResult:
        """Totals over the completed hands (G-S9), places (G-M5; ranking P-4), and the
        sole leader on those totals for P-5 / G-X1 (None when the lead is shared)."""
        totals = list(state.totals)
        top = max(totals)
        leaders = [s for s in range(4) if totals[s] == top]
        return MatchResult(totals, places_of(totals, False), len(state.results), {
            "length": state.length, "complete": state.over,
            "sole_leader": leaders[0] if len(leaders) == 1 else None,
        })  # fmt: skip

    def export_hand(self, state: MatchState) -> dict:
        return export_scenario(state.hand)


GAME = KingGame()
