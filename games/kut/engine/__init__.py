"""KÜT behind the Game protocol (``game/engine/protocol.py``).

KÜT's rules live in the modules beside this package (``games/okey/engine/tiles.py`` …
``transitions.py``, ``match.py``, ``bots/``); this adapter is all the platform sees of
them.  Options: ``tasks`` (5, 8 or 12, K-M2).  The move time is fixed at 45 s (K-N6).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from game.engine.errors import RuleError
from game.engine.protocol import HandResult, InputError, MatchResult, places_of
from games.kut.engine import bots
from games.kut.engine.actions import LAYOUT_TYPES, logged_form
from games.kut.engine.match import MatchState, new_match, record_hand, start_next_hand
from games.kut.engine.replay import export_scenario
from games.kut.engine.state import SEATS
from games.kut.engine.tasks import TASK_LISTS
from games.kut.engine.timing import AWAY_AFTER_TIMEOUTS
from games.kut.engine.transitions import apply
from games.kut.engine.tutorial import TUTORIAL
from games.kut.engine.views import can_claim, views_for
from games.okey.engine.tiles import face_name, face_of

DREW_SELF = ("draw", "take_discard", "open", "new_groups", "lay_off", "auto_lay_off", "undo")


def timeout_notes(ms: MatchState) -> list[dict]:
    """What the timer did for each seat whose last turn ran out (K-N7), so that a
    timeout is never silent: ``{"seat", "hand_no", "at", "drew", "tile"}`` — ``at`` the
    entry's place in the hand's log (the client shows each note once), ``drew`` whether
    the server drew from the centre for the player, ``tile`` the discarded face.  Public
    facts only (which tile was drawn is never said)."""
    hand = ms.hand
    if hand is None or not any(hand.timeouts):
        return []
    notes = []
    log = hand.log
    for seat in range(SEATS):
        if not hand.timeouts[seat]:
            continue
        for at in range(len(log) - 1, -1, -1):
            entry = log[at]
            if entry.get("seat") == seat and entry.get("type") == "timeout":
                before = at - 1
                while before >= 0 and log[before].get("type") == "claim":
                    before -= 1
                # the hand's first turn starts with 15 tiles: nothing to draw
                prior = log[before] if before >= 0 else {"seat": seat, "type": "draw"}
                drew = not (prior.get("seat") == seat and prior.get("type") in DREW_SELF)
                notes.append({"seat": seat, "hand_no": ms.hand_no, "at": at, "drew": drew,
                              "tile": entry.get("tile")})  # fmt: skip
                break
    return notes


class KutGame:
    key = "kut"
    name = "KÜT"
    seat_counts = (SEATS,)
    partners = False
    lower_is_better = True  # K-S6: points count against you
    default_move_seconds = 45
    fixed_move_seconds = True  # K-N6
    private_kinds = frozenset(LAYOUT_TYPES)  # K-R2…K-R4: the rack is the seat's own
    tutorial = TUTORIAL  # the trial hand (K-X1)
    rematch_choice = ("tasks", (5, 8, 12))  # K-X2: the host chooses the tasks again
    quick_options = {"tasks": 5}  # Hemen Oyna against bots: the shortest match (K-M2)

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
        return self._recorded(state, apply(state.hand, seat, action))

    @staticmethod
    def _recorded(state: MatchState, events: list[dict]) -> list[dict]:
        """A hand that just ended is written into the totals at once (K-S6, K-M4)."""
        if state.hand.over and len(state.results) < state.hand_no:
            record_hand(state)
        return events

    def turn_key(self, state: MatchState):
        hand = state.hand
        return [state.hand_no, hand.table_turn, hand.turn] if hand is not None else None

    def away_after_timeout(self, state: MatchState, seat: int) -> bool:
        return state.hand.timeouts[seat] >= AWAY_AFTER_TIMEOUTS  # K-N7

    def log_form(self, action: dict) -> dict:
        return logged_form(action)

    def view_for(self, state: MatchState, seat: int | None) -> dict:
        return self.views_for(state, (seat,))[0]

    def views_for(self, state: MatchState, seats) -> list[dict]:
        """``view_for`` of several seats at once, sharing the public part (the platform's
        frames use it when a game has it: ``game.frames.frame_parts``)."""
        return views_for(state.hand, seats)

    def timeout_notes(self, state: MatchState) -> list[dict]:
        return timeout_notes(state)  # K-N7: a timeout is never silent

    def to_act(self, state: MatchState) -> tuple[int, ...]:
        hand = state.hand
        return () if hand is None or hand.over else (hand.turn,)

    def may_act(self, state: MatchState) -> tuple[int, ...]:
        hand = state.hand
        if hand is None or hand.over:
            return ()
        # claimants in seat order after the turn (K-C5 decides between them)
        claimants = [(hand.turn + k) % SEATS for k in range(1, SEATS)]
        return (hand.turn, *(s for s in claimants if can_claim(hand, s)))

    def on_timeout(self, state: MatchState, seat: int, now: float) -> list[dict]:
        return self._recorded(state, apply(state.hand, seat, {"type": "timeout"}))  # K-N7

    def bot_pace(self, state: MatchState) -> float:
        hand = state.hand
        return 0.8 if hand is not None and hand.phase == "take" else 1.3

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

    def replay_snapshot(self, state: MatchState) -> dict:
        """One step of a replay: the whole table and every rack as faces (never an id),
        the hand's task, starter, indicator and okey, and what the last move named
        (``move``: its tile, group or groups)."""
        hand = state.hand
        thrown = hand.thrown
        entry = hand.log[-1] if hand.log else {}
        return {
            "task_no": hand.task_no,
            "starter": hand.starter,
            "indicator": face_name(face_of(hand.indicator)),
            "okey": face_name(hand.okey),
            "turn": None if hand.over else hand.turn,
            "phase": hand.phase,
            "deck": len(hand.deck),
            "thrown": face_name(face_of(thrown)) if thrown is not None else None,
            "thrower": hand.thrower() if thrown is not None else None,
            "claimable": bool(hand.claimable and thrown is not None and not hand.over),
            "racks": [[_faces(seg) for seg in rack.segments()] for rack in hand.racks],
            "counts": [rack.count() for rack in hand.racks],
            "table": [{"owner": g.owner, "kind": g.kind, "tiles": _faces(g.tiles)}
                      for g in hand.table],  # fmt: skip
            "discards": [_faces(d) for d in hand.discards],
            "opened": list(hand.opened),
            "penalties": list(hand.penalties),
            "over": hand.over,
            "finisher": hand.finisher,
            "scores": list(hand.scores) if hand.scores is not None else None,
            "lines": [dict(x) for x in hand.score_lines] if hand.score_lines else None,
            "move": {k: entry[k] for k in ("tile", "group", "groups") if k in entry},
        }


def _faces(tiles) -> list[str]:
    return [face_name(face_of(t)) for t in tiles]


GAME = KutGame()
