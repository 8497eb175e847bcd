"""KDVli Okey (*Sayılı Okey* / *Banko*) behind the Game protocol (kdvli.md).

Pure Python, no Django.  The okey family's tiles, rack and shuffle come from
``games/okey/engine/``; KDVli's own rules are ``groups`` (V-G*), ``counting`` (V-S2, the
exact counting), ``hand`` (a hand's state and actions), ``match`` (N hands), ``views``
(V-H*), ``bots`` (P-1), ``rating`` (V-Q*, V-X*), ``replay`` and ``solve`` (the
commands of ``kdvli-scenario.md``).

Actions (wire form): ``draw``, ``take_discard``, ``discard`` (``tile_id`` or ``tile``),
``finish`` (``tile_id``/``tile`` and ``group_ids``/``groups``; without groups the rack's
segments count, V-F3), ``show_indicator``, and the layout actions ``move``,
``separator``, ``layout``, ``arrange`` (``how``: ``runs`` = *Seri Diz*, ``pairs`` = *Çift
Diz*, V-R2).  An action carrying ``"auto": true`` was played for the seat by the server
(a bot for an away or disconnected player): it does not clear the seat's *away* mark
(V-N6).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from game.engine.errors import RuleError
from game.engine.protocol import HandResult, InputError, MatchResult
from games.kdvli.engine import bots
from games.kdvli.engine import rating as rating_rules
from games.kdvli.engine.hand import LAYOUT_TYPES, SEATS
from games.kdvli.engine.hand import apply as apply_action
from games.kdvli.engine.match import HAND_COUNTS, Match, new_match
from games.kdvli.engine.replay import export_scenario
from games.kdvli.engine.views import hand_view
from games.kdvli.engine.views import replay_snapshot as _replay_snapshot

MOVE_SECONDS = range(30, 301, 15)  # V-N5


class KdvliGame:
    key = "kdvli"
    name = "KDVli Okey"
    seat_counts = (SEATS,)
    partners = True  # V-M1
    lower_is_better = True  # V-M4
    default_move_seconds = 60  # V-N5
    fixed_move_seconds = False
    next_hand_seconds = 10  # V-M3: the pause before the next hand starts
    private_kinds = frozenset(LAYOUT_TYPES)  # V-R1, V-R2: the rack is the seat's own
    rematch_choice = ("hands", HAND_COUNTS)  # the host chooses the length again
    quick_options = {"hands": 3}  # Hemen Oyna against bots: the shortest match (V-M2)
    rating = None  # set below: P-9, the KDVli rating (V-Q*, V-X*)

    def clean_options(self, options: Mapping[str, Any]) -> dict:
        if not isinstance(options, Mapping):
            raise InputError("options must be an object")
        unknown = set(options) - {"hands", "partners", "move_seconds", "rated"}
        if unknown:
            raise InputError(f"unknown KDVli option(s): {', '.join(sorted(unknown))}")
        hands = options.get("hands", 11)
        if isinstance(hands, bool) or hands not in HAND_COUNTS:
            raise InputError("a KDVli match has 3, 5, 7, 9 or 11 hands (V-M2)")
        partners = options.get("partners", False)
        if not isinstance(partners, bool):
            raise InputError("'partners' must be true or false (V-M1)")
        rated = options.get("rated", True)
        if not isinstance(rated, bool):
            raise InputError("'rated' must be true or false")
        secs = options.get("move_seconds", self.default_move_seconds)
        if isinstance(secs, bool) or secs not in MOVE_SECONDS:
            raise InputError("the move time is 30-300 seconds in steps of 15 (V-N5)")
        return {"hands": hands, "partners": partners, "move_seconds": secs, "rated": rated}

    def new_match(self, options: dict, seats: int, rng: random.Random) -> Match:
        if seats != SEATS:
            raise InputError("KDVli Okey is played by four (V-M1)")
        return new_match(self.clean_options(options), rng)

    def to_dict(self, state: Match) -> dict:
        return state.to_dict()

    def from_dict(self, data: dict) -> Match:
        return Match.from_dict(data)

    def apply(self, state: Match, seat: int, action: dict, now: float) -> list[dict]:
        events = apply_action(state.hand, seat, action)
        state.record()
        if state.hand.over and state.over():
            events.append({"type": "match_over"})
        return events

    def log_form(self, action: dict) -> dict:
        """Only the keys the rules read (kdvli.hand): no client junk reaches the log."""
        return {k: action[k] for k in LOGGED_KEYS if k in action}

    def turn_key(self, state: Match):
        hand = state.hand
        return [state.hand_no, sum(hand.turns_done), hand.turn]

    def away_after_timeout(self, state: Match, seat: int) -> bool:
        return bool(state.hand.away[seat])  # V-N6

    def bot_pace(self, state: Match) -> float:
        return 1.0

    def replay_snapshot(self, state: Match) -> dict:
        """Protocol (optional): one replay step, every rack revealed (views.py)."""
        return _replay_snapshot(state)

    def view_for(self, state: Match, seat: int | None) -> dict:
        view = hand_view(state.hand, seat)
        view.update(
            hand_no=state.hand_no,
            hands=state.hands,
            totals=state.totals(),
            team_totals=state.team_totals(),
            history=[list(r["scores"]) for r in state.results],
            match_over=state.over(),
            move_seconds=state.options.get("move_seconds"),
            rated=state.options.get("rated"),
        )
        return view

    def to_act(self, state: Match) -> tuple[int, ...]:
        return () if state.hand.over else (state.hand.turn,)

    def may_act(self, state: Match) -> tuple[int, ...]:
        return self.to_act(state)

    def on_timeout(self, state: Match, seat: int, now: float) -> list[dict]:
        """V-N6: the server completes the turn."""
        return self.apply(state, seat, {"type": "timeout"}, now)

    def bot_choose(self, view: dict, level: str, rng: random.Random) -> dict | None:
        return bots.choose(view, level, rng)

    def hand_over(self, state: Match) -> bool:
        return state.hand.over

    def start_next_hand(self, state: Match, rng: random.Random) -> list[dict]:
        state.next_hand(rng)
        return [{"type": "hand_start", "hand_no": state.hand_no, "starter": state.hand.starter}]

    def match_over(self, state: Match) -> bool:
        return state.over()

    def hand_results(self, state: Match) -> list[HandResult]:
        return [
            HandResult(r["hand_no"], list(r["scores"]),
                       {k: v for k, v in r.items() if k not in ("hand_no", "scores")})
            for r in state.results
        ]  # fmt: skip

    def match_result(self, state: Match) -> MatchResult:
        return MatchResult(
            totals=state.totals(),
            places=state.places(),
            hands=len(state.results),
            detail={"partners": bool(state.options.get("partners")),
                    "team_totals": state.team_totals(), "void_hands": state.voids},
        )  # fmt: skip

    def export_hand(self, state: Match) -> dict:
        return export_scenario(state.hand)

    def timeout_notes(self, state: Match) -> list[dict]:
        """What the timer played for each seat whose last turn ran out and who has not
        acted since (V-N6; issue 29: a timeout is never silent): ``{"seat", "hand_no",
        "at", "took", "tile"}`` — ``at`` the timeout's place in the hand's log, ``took``
        ``"deck"`` (a tile drawn, never named), ``"thrown"`` (the tile thrown to the
        seat, public) or None (nothing taken: the starter's first turn), ``tile`` the
        face discarded (public on the pile).  Public facts only (V-H1, V-H2)."""
        hand = state.hand
        notes = []
        for seat in range(SEATS):
            if not hand.timeouts[seat]:
                continue  # the seat has acted since its last timeout
            for at in range(len(hand.log) - 1, -1, -1):
                entry = hand.log[at]
                if entry.get("seat") == seat and entry.get("type") == "timeout":
                    notes.append({"seat": seat, "hand_no": state.hand_no, "at": at,
                                  "took": entry.get("took"), "tile": entry.get("discarded")})  # fmt: skip
                    break
        return notes


LOGGED_KEYS = ("type", "tile", "tile_id", "groups", "group_ids", "at", "auto", "cells", "how",
               "separators", "to")  # fmt: skip


class KdvliRating:
    """P-9: the KDVli rating (kdvli.md section 12) as the platform asks for it."""

    START = rating_rules.START  # V-Q1

    def leave_cost(self, options: dict, completed_hands: int) -> int:
        return rating_rules.leave_cost(options["hands"])  # V-X1: 2 x the match's hands

    def match_changes(self, result: MatchResult, partners: bool, players: list,
                      options: dict) -> list[int | None]:  # fmt: skip
        if result.hands < options["hands"]:
            # V-X4: the table closed before the last hand (no human left): nothing more
            # is written (the leavers' V-X1 costs were written when they left)
            return [None] * len(players)
        return rating_rules.match_changes(result.totals, options["hands"], partners, players)


GAME = KdvliGame()
GAME.rating = KdvliRating()

__all__ = ["GAME", "KdvliGame", "RuleError"]
