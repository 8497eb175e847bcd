"""The match around the hands (kastet.md section 3): options, starters, totals."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from game.engine.errors import RuleError
from game.engine.protocol import InputError
from games.kastet.engine.deal import new_hand
from games.kastet.engine.rules import apply as apply_to_hand
from games.kastet.engine.state import SEATS, HandState, _copy
from games.okey.engine.tiles import face_name, face_of

HAND_COUNTS = (1, 3, 5, 7, 9, 11)  # S-M2
DEFAULT_HANDS = 5
MOVE_SECONDS = (30, 300)  # S-M2 (portal rule)
DEFAULT_MOVE_SECONDS = 60
NEXT_HAND_SECONDS = 10  # S-M4


def clean_options(options: Mapping[str, Any]) -> dict:
    """S-M2: hands 1–11 (odd), individual or partners, rated or test, move time."""
    if not isinstance(options, Mapping):
        raise InputError("options must be an object")
    unknown = set(options) - {"hands", "partners", "rated", "move_seconds"}
    if unknown:
        raise InputError(f"unknown Kastet option {sorted(unknown)[0]!r}")
    hands = options.get("hands", DEFAULT_HANDS)
    if isinstance(hands, bool) or hands not in HAND_COUNTS:
        raise InputError(f"'hands' must be one of {HAND_COUNTS}, not {hands!r}")
    out = {"hands": hands}
    for key, default in (("partners", False), ("rated", True)):
        v = options.get(key, default)
        if not isinstance(v, bool):
            raise InputError(f"'{key}' must be true or false")
        out[key] = v
    secs = options.get("move_seconds", DEFAULT_MOVE_SECONDS)
    lo, hi = MOVE_SECONDS
    if isinstance(secs, bool) or not isinstance(secs, int) or not lo <= secs <= hi:
        raise InputError(f"'move_seconds' must be a whole number {lo}..{hi}, not {secs!r}")
    out["move_seconds"] = secs
    return out


class MatchState:
    __slots__ = ("hands", "partners", "rated", "move_seconds", "first_starter", "hand_no",
                 "totals", "results", "hand", "over")  # fmt: skip

    def __init__(self, options: dict, first_starter: int):
        self.hands = options["hands"]
        self.partners = options["partners"]
        self.rated = options["rated"]
        self.move_seconds = options["move_seconds"]
        self.first_starter = first_starter  # S-M6
        self.hand_no = 0
        self.totals = [0] * SEATS
        # each finished hand: scores, finisher, blocked, the racks left (S-M4, S-V3)
        self.results: list[dict] = []
        self.hand: HandState | None = None
        self.over = False

    def options(self) -> dict:
        return {"hands": self.hands, "partners": self.partners, "rated": self.rated,
                "move_seconds": self.move_seconds}  # fmt: skip

    def starter_of(self, hand_no: int) -> int:
        """S-M6: each following hand is started by the next seat to the right."""
        return (self.first_starter + hand_no - 1) % SEATS

    def deal(self, rng: random.Random) -> None:
        self.hand_no += 1
        self.hand = new_hand(self.starter_of(self.hand_no), rng, self.hand_no, self.partners)

    def to_dict(self) -> dict:
        return {"options": self.options(), "first_starter": self.first_starter,
                "hand_no": self.hand_no, "totals": list(self.totals),
                "results": _copy(self.results),
                "hand": self.hand.to_dict() if self.hand is not None else None,
                "over": self.over}  # fmt: skip

    @classmethod
    def from_dict(cls, d: dict) -> MatchState:
        m = cls(d["options"], d["first_starter"])
        m.hand_no = d["hand_no"]
        m.totals = list(d["totals"])
        m.results = _copy(d["results"])
        m.hand = HandState.from_dict(d["hand"]) if d["hand"] is not None else None
        m.over = d["over"]
        return m


def new_match(options: dict, rng: random.Random) -> MatchState:
    """S-M6: the first starter is drawn with the RNG; hand 1 is dealt."""
    m = MatchState(clean_options(options), rng.randrange(SEATS))
    m.deal(rng)
    return m


def apply(m: MatchState, seat: int, action: dict) -> list[dict]:
    if m.over:
        raise RuleError("match_over")
    hand = m.hand
    events = apply_to_hand(hand, seat, action)
    if hand.over and len(m.results) < m.hand_no:  # S-M4, S-M5: score the hand
        m.results.append({
            "scores": list(hand.scores), "finisher": hand.finisher, "blocked": hand.blocked,
            "racks": [[face_name(face_of(t)) for t in sorted(hand.rack_tiles(s),
                       key=face_of)] for s in range(SEATS)],
        })  # fmt: skip
        m.totals = [t + s for t, s in zip(m.totals, hand.scores)]
        if m.hand_no >= m.hands:
            m.over = True
            events.append({"type": "match_over", "totals": list(m.totals)})
    return events


def start_next_hand(m: MatchState, rng: random.Random) -> list[dict]:
    if m.over:
        raise RuleError("match_over")
    if not m.hand.over:
        raise RuleError("hand_not_over")
    m.deal(rng)
    return [{"type": "hand_start", "hand_no": m.hand_no, "starter": m.hand.starter}]
