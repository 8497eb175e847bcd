"""Kastet: the shared-table okey game (``docs/rules/kastet.md``), on the Game protocol.

Pure Python, no Django.  KÜT's tile code is shared by import (``games.okey.engine.tiles``,
``groups``, ``deal``): faces, notation, the okey rules of runs, sets and pairs, the
shuffle and the opaque ids.  ``GAME`` is what the platform talks to.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from game.engine.protocol import HandResult, InputError, MatchResult, places_of
from games.kastet.engine import match as _match
from games.kastet.engine.notes import timeout_notes as _timeout_notes
from games.kastet.engine.rating import KastetRating, match_points
from games.kastet.engine.replay import export_scenario
from games.kastet.engine.rules import AWAY_AFTER_TIMEOUTS, log_form, team_scores
from games.kastet.engine.views import replay_snapshot as _replay_snapshot
from games.kastet.engine.views import view_for


class Kastet:
    key = "kastet"
    name = "Kastet"
    seat_counts = (4,)
    partners = True  # S-M3
    lower_is_better = True  # S-M5
    default_move_seconds = _match.DEFAULT_MOVE_SECONDS
    fixed_move_seconds = False
    private_kinds = frozenset({"arrange"})  # S-X4: the rack arrangement is the seat's own
    rematch_choice = ("hands", _match.HAND_COUNTS)  # S-M2: the host chooses the hands again
    quick_options = {"hands": 1}  # Hemen Oyna against bots: one hand (S-M2)
    rating = KastetRating()  # P-9: section 10's own rating instead of P-4's placings

    def clean_options(self, options: Mapping[str, Any]) -> dict:
        return _match.clean_options(options)

    def new_match(self, options: dict, seats: int, rng: random.Random) -> _match.MatchState:
        if seats != 4:
            raise InputError("Kastet is played by four seats (S-M1)")
        return _match.new_match(options, rng)

    def to_dict(self, state: _match.MatchState) -> dict:
        return state.to_dict()

    def from_dict(self, data: dict) -> _match.MatchState:
        return _match.MatchState.from_dict(data)

    def apply(self, state, seat: int, action: dict, now: float) -> list[dict]:
        return _match.apply(state, seat, action)

    def log_form(self, action: dict) -> dict:
        return log_form(action)

    def turn_key(self, state):
        """Changes exactly when a new turn starts (S-N6: lays and undos do not restart
        the clock)."""
        return [state.hand_no, state.hand.turn_no, state.hand.turn]

    def away_after_timeout(self, state, seat: int) -> bool:
        return state.hand.timeouts[seat] >= AWAY_AFTER_TIMEOUTS  # S-N7

    def bot_pace(self, state) -> float:
        hand = state.hand
        return 0.5 if hand.undo else 1.2  # a Pas after the lay is quick; a lay takes thought

    def view_for(self, state, seat: int | None) -> dict:
        return view_for(state.hand, seat, state)

    def to_act(self, state) -> tuple[int, ...]:
        return () if state.hand.over else (state.hand.turn,)

    def may_act(self, state) -> tuple[int, ...]:
        return self.to_act(state)

    def on_timeout(self, state, seat: int, now: float) -> list[dict]:
        return _match.apply(state, seat, {"type": "timeout"})

    def timeout_notes(self, state) -> list[dict]:
        """What the timer did for each seat whose turn ran out (S-N7): never silent."""
        return _timeout_notes(state.hand, state.hand_no)

    def bot_choose(self, view: dict, level: str, rng: random.Random) -> dict | None:
        from games.kastet.engine.bots import choose

        return choose(view, level, rng)

    def hand_over(self, state) -> bool:
        return state.hand.over

    def start_next_hand(self, state, rng: random.Random) -> list[dict]:
        return _match.start_next_hand(state, rng)

    def match_over(self, state) -> bool:
        return state.over

    def hand_results(self, state) -> list[HandResult]:
        out = []
        for i, r in enumerate(state.results):
            detail = {
                "finisher": r["finisher"],
                "blocked": r["blocked"],
                "racks": r["racks"],
                "team_scores": team_scores(r["scores"]) if state.partners else None,
            }
            out.append(HandResult(i + 1, list(r["scores"]), detail))
        return out

    def match_result(self, state) -> MatchResult:
        totals = list(state.totals)
        if state.partners:  # S-M5: the lower side wins; both partners share its place
            sides = team_scores(totals)
            side_places = places_of(sides, True)
            places = [side_places[s % 2] for s in range(4)]
        else:
            places = places_of(totals, True)
        detail = {"team_totals": team_scores(totals) if state.partners else None,
                  "points": match_points(state.hands, totals, state.partners)
                  if state.over else None}  # fmt: skip
        return MatchResult(totals, places, len(state.results), detail)

    # replay page: the okey-tile replay KÜT and KDVli share (protocol.py's default)

    def replay_snapshot(self, state) -> dict:
        """One replay step (protocol.py, optional): every rack revealed, as faces."""
        return _replay_snapshot(state)

    def export_hand(self, state) -> dict:
        return export_scenario(state.hand)


GAME = Kastet()
