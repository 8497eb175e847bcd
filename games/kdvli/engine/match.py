"""A KDVli match: N finished hands (kdvli.md section 3, V-M1…V-M5)."""

from __future__ import annotations

import random

from game.engine.errors import RuleError
from game.engine.protocol import places_of
from games.kdvli.engine.hand import SEATS, Hand, new_hand, next_seat

HAND_COUNTS = (3, 5, 7, 9, 11)  # V-M2


class Match:
    __slots__ = ("options", "hand", "hand_no", "results", "voids", "recorded")

    def __init__(self, options: dict, hand: Hand):
        self.options = dict(options)
        self.hand = hand
        self.hand_no = 1  # V-M5: a void hand keeps its number
        self.results: list[dict] = []  # finished hands: {"hand_no", "scores", ...}
        self.voids = 0
        self.recorded = False

    @property
    def hands(self) -> int:
        return self.options["hands"]

    def totals(self) -> list[int]:
        """V-M4: each seat's sum of hand scores."""
        return [sum(r["scores"][s] for r in self.results) for s in range(SEATS)]

    def team_totals(self) -> list[int] | None:
        if not self.options.get("partners"):
            return None
        t = self.totals()
        return [t[0] + t[2], t[1] + t[3]]

    def over(self) -> bool:
        return len(self.results) >= self.hands

    def places(self) -> list[int]:
        """V-M4: lowest total first; in partners the team totals decide."""
        teams = self.team_totals()
        if teams is not None:
            tp = places_of(teams, lower_is_better=True)
            return [1 if tp[s % 2] == 1 else 3 for s in range(SEATS)]  # two seats per place
        return places_of(self.totals(), lower_is_better=True)

    def record(self) -> None:
        """Write a finished hand once (a void hand is counted apart, V-E2)."""
        h = self.hand
        if not h.over or self.recorded:
            return
        self.recorded = True
        if h.void:
            self.voids += 1
            return
        self.results.append({
            "hand_no": self.hand_no, "scores": list(h.scores), "finisher": h.finisher,
            "kind": h.finish_kind, "multiplier": h.multiplier, "bonuses": list(h.bonuses),
            "points": list(h.end_points),
        })  # fmt: skip

    def next_hand(self, rng: random.Random) -> None:
        """V-M3, V-M5: the next hand, by the next seat; a void hand is dealt again by the
        same starter with the same number."""
        if not self.hand.over:
            raise RuleError("hand_not_over")
        if self.over():
            raise RuleError("match_over")
        self.record()
        starter = self.hand.starter
        if not self.hand.void:
            starter = next_seat(starter)
            self.hand_no += 1
        old = self.hand
        self.hand = new_hand(starter, rng, bool(self.options.get("partners")))
        # V-N6: an away seat stays away (and timeouts stay consecutive) across hands
        self.hand.timeouts, self.hand.away = list(old.timeouts), list(old.away)
        self.recorded = False

    def to_dict(self) -> dict:
        return {"options": dict(self.options), "hand": self.hand.to_dict(),
                "hand_no": self.hand_no, "results": [dict(r) for r in self.results],
                "voids": self.voids, "recorded": self.recorded}  # fmt: skip

    @classmethod
    def from_dict(cls, d: dict) -> Match:
        m = cls(d["options"], Hand.from_dict(d["hand"]))
        m.hand_no, m.voids, m.recorded = d["hand_no"], d["voids"], d["recorded"]
        m.results = [dict(r) for r in d["results"]]
        return m


def new_match(options: dict, rng: random.Random) -> Match:
    """V-M5: the first starter is drawn with the (secure) RNG."""
    starter = rng.randrange(SEATS)
    return Match(options, new_hand(starter, rng, bool(options.get("partners"))))
