"""A tiny two-seat game that lives only in the test suite (issue "One site, five games":
the platform must host a game it has never heard of).

*Onluk*: the seats take turns adding 1, 2 or 3 to a shared count; whoever brings it to
10 or more wins the hand and scores 1 + their secret bonus.  Each seat's bonus (1–3) is
dealt from the RNG and hidden from the other seat, so secrecy can be checked too.  Three
hands make a match; the higher total wins.  A timeout adds 1 for the seat.  The rules
with their ids are the home's ``rules.md``; a hand downloads as a scenario that
``python -m game.engine.replay`` replays (``replay.py``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from game.engine.errors import ActionFormatError, RuleError
from game.engine.protocol import HandResult, InputError, MatchResult, places_of

TARGET = 10


class ToyGame:
    key = "toy"
    name = "Onluk"
    seat_counts = (2,)
    partners = False
    lower_is_better = False
    default_move_seconds = 30
    fixed_move_seconds = False
    private_kinds = frozenset()

    def clean_options(self, options: Mapping[str, Any]) -> dict:
        hands = options.get("hands", 3)
        if isinstance(hands, bool) or hands not in (1, 3):
            raise InputError("a match has 1 or 3 hands")
        return {"hands": hands}

    def new_match(self, options: dict, seats: int, rng: random.Random) -> dict:
        if seats != 2:
            raise InputError("Onluk is played by two")
        state = {"hands": self.clean_options(options)["hands"], "hand_no": 0, "results": [],
                 "totals": [0, 0], "over": False}  # fmt: skip
        self._deal(state, rng)
        return state

    def _deal(self, state: dict, rng: random.Random) -> None:
        state["hand_no"] += 1
        first = (state["hand_no"] - 1) % 2  # O-R1: the seats start in turn
        state["hand"] = new_hand(first, [rng.randint(1, 3), rng.randint(1, 3)])

    def to_dict(self, state: dict) -> dict:
        return state

    def from_dict(self, data: dict) -> dict:
        return data

    def apply(self, state: dict, seat: int, action: dict, now: float) -> list[dict]:
        hand = state["hand"]
        if not isinstance(action, dict) or action.get("type") != "add":
            raise ActionFormatError("unknown_action")
        n = action.get("n")
        if isinstance(n, bool) or n not in (1, 2, 3):
            raise ActionFormatError("bad_action", "n is 1, 2 or 3")
        if hand["winner"] is not None:
            raise RuleError("hand_over")
        if seat != hand["turn"]:
            raise RuleError("not_your_turn")
        hand.pop("timeout", None)  # the seat acts again
        return self._add(state, seat, n)

    def _add(self, state: dict, seat: int, n: int) -> list[dict]:
        hand = state["hand"]
        hand["count"] += n
        hand["moves"].append([seat, n])  # for the hand's scenario (export_hand)
        events = [{"type": "added", "seat": seat, "n": n}]
        if hand["count"] >= TARGET:
            hand["winner"] = seat
            events.append({"type": "hand_won", "seat": seat})
            self._record(state)  # the protocol: a finished hand's result at once
        else:
            hand["turn"] = 1 - seat
        return events

    def log_form(self, action: dict) -> dict:
        return {"type": action["type"], "n": action["n"]}

    def view_for(self, state: dict, seat: int | None) -> dict:
        hand = state["hand"]
        view = {"me": seat, "count": hand["count"], "turn": self._turn(state),
                "hand_no": state["hand_no"], "totals": list(state["totals"]),
                "winner": hand["winner"]}  # fmt: skip
        if seat is not None:
            view["secret"] = hand["secret"][seat]
        if hand["winner"] is not None:
            view["secrets"] = list(hand["secret"])  # revealed after the hand
        return view

    def _turn(self, state: dict):
        hand = state["hand"]
        return None if hand["winner"] is not None else hand["turn"]

    def to_act(self, state: dict) -> tuple[int, ...]:
        turn = self._turn(state)
        return () if turn is None or state["over"] else (turn,)

    def turn_key(self, state: dict):
        return [state["hand_no"], state["hand"]["count"], self._turn(state)]

    def away_after_timeout(self, state: dict, seat: int) -> bool:
        return False

    def may_act(self, state: dict) -> tuple[int, ...]:
        return self.to_act(state)

    def on_timeout(self, state: dict, seat: int, now: float) -> list[dict]:
        if seat not in self.to_act(state):
            raise RuleError("not_your_turn")
        hand = state["hand"]
        hand["timeout"] = {
            "seat": seat,
            "hand_no": state["hand_no"],
            "at": hand["count"],
            "added": 1,
        }
        return self._add(state, seat, 1)

    def timeout_notes(self, state: dict) -> list[dict]:
        """What the timer did: added 1 for the seat (public: the count shows it)."""
        note = state["hand"].get("timeout")
        return [note] if note else []

    def bot_pace(self, state: dict) -> float:
        return 1.0

    def bot_choose(self, view: dict, level: str, rng: random.Random) -> dict | None:
        if view["turn"] != view["me"]:
            return None
        left = TARGET - view["count"]
        if level == "hard" and left % 4:
            return {"type": "add", "n": min(3, left % 4)}
        return {"type": "add", "n": min(3, max(1, left)) if left <= 3 else rng.randint(1, 3)}

    def hand_over(self, state: dict) -> bool:
        return state["hand"]["winner"] is not None

    def _record(self, state: dict) -> None:
        hand = state["hand"]
        if len(state["results"]) >= state["hand_no"]:
            return
        scores = [0, 0]
        scores[hand["winner"]] = 1 + hand["secret"][hand["winner"]]
        state["results"].append({"hand_no": state["hand_no"], "scores": scores})
        state["totals"] = [a + b for a, b in zip(state["totals"], scores)]
        if state["hand_no"] >= state["hands"]:
            state["over"] = True

    def start_next_hand(self, state: dict, rng: random.Random) -> list[dict]:
        if not self.hand_over(state):
            raise RuleError("hand_in_progress")
        if state["over"]:
            raise RuleError("match_over")
        self._deal(state, rng)
        return [{"type": "hand_started", "hand_no": state["hand_no"]}]

    def match_over(self, state: dict) -> bool:
        return state["over"]

    def hand_results(self, state: dict) -> list[HandResult]:
        return [HandResult(r["hand_no"], list(r["scores"])) for r in state["results"]]

    def match_result(self, state: dict) -> MatchResult:
        totals = list(state["totals"])
        return MatchResult(totals, places_of(totals, False), len(state["results"]))

    def export_hand(self, state: dict) -> dict:
        """The hand as its scenario (``replay.py``): who started, the bonuses dealt and
        every move in order (``[seat, n]``; a timeout's 1 too)."""
        hand = state["hand"]
        return {"game": "toy", "hand_no": state["hand_no"], "first": hand["first"],
                "secret": list(hand["secret"]), "moves": [list(m) for m in hand["moves"]]}  # fmt: skip


def new_hand(first: int, secret: list[int]) -> dict:
    return {"count": 0, "turn": first, "first": first, "winner": None, "secret": secret,
            "moves": []}  # fmt: skip


GAME = ToyGame()


class ToyRating:
    """P-9 for the tests: a game of the toy's kind with its own rating, registered as a
    second toy ("toyr"): 1000 to start; the winner +10, the loser −10 (a replacement
    loses nothing, a dropped player only loses); leaving costs 2 × the match's hands."""

    START = 1000

    def leave_cost(self, options: dict, completed_hands: int) -> int:
        return -2 * options["hands"]

    def match_changes(self, result, partners, players, options):
        out = []
        for seat, player in enumerate(players):
            if player is None or player["role"] == "left":
                out.append(None)
                continue
            change = 10 if result.places[seat] == 1 and result.places.count(1) == 1 else -10
            if player["role"] == "took_over":
                change = max(change, 0)
            if player["role"] == "dropped":
                change = min(change, 0)
            out.append(change)
        return out


class RatedToyGame(ToyGame):
    key = "toyr"
    rating = ToyRating()


RATED = RatedToyGame()


class HintedToyGame(RatedToyGame):
    """The protocol's optional hints (protocol.py), as Kelimeki uses them: no test tables
    (P-3), one ranking for every level (P-7), no leaving rules (P-5/P-13) and its own
    move clock (a day per move, 2 days with the "slow" option)."""

    key = "toyh"
    table_template = "kut/table.html"  # playable in the lobby
    practice_tables = False
    ranked_by_level = False
    leaving_rules = False

    def clean_options(self, options):
        cleaned = super().clean_options({k: v for k, v in options.items() if k != "slow"})
        cleaned["slow"] = bool(options.get("slow", False))
        return cleaned

    def move_seconds_for(self, options) -> int:
        return 2 * 86400 if options.get("slow") else 86400


HINTED = HintedToyGame()
