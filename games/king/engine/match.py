"""The match around the hands (king.md sections 2, 8, 9): the rotating chooser, the
record of choices (the only quota state, G-Q1), totals, timeouts and take-back."""

from __future__ import annotations

import random

from game.engine.errors import RuleError
from game.engine.fair import commitment
from games.king.engine.cards import DECK, name, names, suit_letter
from games.king.engine.contracts import quota
from games.king.engine.hand import HandState

AWAY_AFTER_TIMEOUTS = 2  # G-T3
NEXT_HAND_SECONDS = 10  # G-M4
WARNING_SECONDS = 10  # G-T1


class MatchState:
    __slots__ = ("length", "first_chooser", "hand_no", "totals", "results", "hand",
                 "over", "timeouts", "take_back")  # fmt: skip

    def __init__(self, length: int, first_chooser: int, take_back: bool = False):
        self.length = length
        self.first_chooser = first_chooser  # G-M3
        self.hand_no = 0  # 1-based number of the current (or last) hand
        self.totals = [0, 0, 0, 0]
        self.results: list[dict] = []  # one per finished hand: the record of G-Q1
        self.hand: HandState | None = None
        self.over = False
        self.timeouts = [0, 0, 0, 0]  # consecutive timeouts per seat (G-T3)
        self.take_back = take_back  # G-X4: test tables only

    def chooser_of(self, hand_no: int) -> int:
        """G-M3: the chooser of hand n is (c1 + n - 1) mod 4."""
        return (self.first_chooser + hand_no - 1) % 4

    def chosen(self) -> list[list[str]]:
        """The contracts each seat chose so far (this hand's once chosen), G-Q1."""
        out: list[list[str]] = [[], [], [], []]
        for r in self.results:
            out[r["chooser"]].append(r["contract"])
        if self.hand is not None and not self.recorded():
            return self.hand.chosen_after()
        return out

    def quota(self) -> dict:
        return quota(self.length, self.chosen())

    def recorded(self) -> bool:
        return len(self.results) >= self.hand_no

    def away(self) -> list[bool]:
        return [t >= AWAY_AFTER_TIMEOUTS for t in self.timeouts]

    def to_dict(self) -> dict:
        return {
            "length": self.length,
            "first_chooser": self.first_chooser,
            "hand_no": self.hand_no,
            "totals": list(self.totals),
            "results": [dict(r) for r in self.results],
            "hand": None if self.hand is None else self.hand.to_dict(),
            "over": self.over,
            "timeouts": list(self.timeouts),
            "take_back": self.take_back,
        }

    @classmethod
    def from_dict(cls, d: dict) -> MatchState:
        m = cls(d["length"], d["first_chooser"], d["take_back"])
        m.hand_no = d["hand_no"]
        m.totals = list(d["totals"])
        m.results = [dict(r) for r in d["results"]]
        m.hand = None if d["hand"] is None else HandState.from_dict(d["hand"])
        m.over = d["over"]
        m.timeouts = list(d["timeouts"])
        return m


def deal(rng: random.Random) -> list[list[int]]:
    """G-D1: shuffle with the injected RNG, 13 cards to each seat."""
    deck = list(DECK)
    rng.shuffle(deck)
    return [sorted(deck[13 * s : 13 * s + 13]) for s in range(4)]


def deal_order(dealt: list[list[str]]) -> list[str]:
    """The order P-2's commitment covers: each seat's 13 cards by name (G-C3 order, as
    ``names`` gives them), in seat order — the deal is which cards each seat got; a King
    hand has no deck."""
    return [c for cards in dealt for c in cards]


def commit(hand: HandState, rng: random.Random) -> None:
    """P-2, G-V2: a secret salt from the deal's RNG and the commitment every seat sees
    from the start; the salt and the order are shown once the hand is over, so anyone
    can check the deal was fixed before the first card (``SECURITY.md``)."""
    salt = f"{rng.getrandbits(128):032x}"
    order = deal_order([names(h) for h in hand.deal])
    hand.fair = {"salt": salt, "commitment": commitment(order, salt)}


def recorded_check(result: dict) -> dict | None:
    """A recorded hand's P-2 check, its order rebuilt from the recorded deal (G-V2: kept
    in the match history); None for a hand recorded before deals were committed."""
    fair = result.get("fair")
    return {**fair, "order": deal_order(result["deal"])} if fair else None


def new_match(length: int, rng: random.Random, take_back: bool = False) -> MatchState:
    """G-M3: the first chooser drawn with the RNG; hand 1 dealt."""
    match = MatchState(length, rng.randrange(4), take_back)
    start_next_hand(match, rng)
    return match


def record_hand(match: MatchState) -> dict:
    """Write the finished hand into the record and the totals (G-S9, G-Q1); the match
    ends after its last hand (G-M6).  Idempotent."""
    hand = match.hand
    if hand is None or not hand.over:
        raise RuleError("hand_in_progress")
    if match.recorded():
        return match.results[-1]
    result = {
        "hand_no": match.hand_no,
        "chooser": hand.chooser,
        "contract": hand.contract,
        "trump": suit_letter(hand.trump),
        "scores": list(hand.scores),
        "tricks": [
            {"leader": ld, "cards": [name(c) for c in cs], "winner": w} for ld, cs, w in hand.tricks
        ],  # fmt: skip
        "deal": [names(h) for h in hand.deal],  # G-V2: revealed after the hand
    }
    if hand.fair:  # G-V2: with P-2's check, kept in the match history (recorded_check)
        result["fair"] = dict(hand.fair)
    match.results.append(result)
    match.totals = [t + s for t, s in zip(match.totals, hand.scores)]
    if match.hand_no >= match.length:
        match.over = True
    return result


def start_next_hand(match: MatchState, rng: random.Random) -> HandState:
    """Deal the next hand, chosen by the next seat to the right (G-M3, G-M4)."""
    if match.over:
        raise RuleError("match_over")
    if match.hand is not None:
        if not match.hand.over:
            raise RuleError("hand_in_progress")
        record_hand(match)
        if match.over:
            raise RuleError("match_over")
    chosen = match.chosen()
    match.hand_no += 1
    match.hand = HandState(match.length, match.chooser_of(match.hand_no), chosen, deal(rng))
    commit(match.hand, rng)
    return match.hand


def timeout_notes(match: MatchState) -> list[dict]:
    """What the timer did for each seat at its latest timeout of this hand (G-T2; issue
    29: a timeout is never silent): ``{"seat", "hand_no", "at", "kind"}`` plus, for
    ``kind`` "choose", the ``contract`` and ``trump`` chosen for the seat, for ``kind``
    "play", the ``card`` played for it.  ``at`` is the entry's place in the hand's log:
    the table shows each note once (and remembers it across a reload).  The note stays
    for the rest of the hand, also when a bot plays the away seat at once (G-T3) in the
    same step, so that no frame a player sees can miss it.  Public facts only: the
    contract and every card played are public as they happen (G-V3)."""
    hand = match.hand
    if hand is None:
        return []
    log = hand.log
    plays = [c for _, cs, _ in hand.tricks for c in cs] + list(hand.trick)
    latest: dict[int, int] = {}
    for at, entry in enumerate(log):
        if entry.get("type") == "timeout":
            latest[entry["seat"]] = at
    notes = []
    for seat, at in sorted(latest.items()):
        note = {"seat": seat, "hand_no": match.hand_no, "at": at}
        if at == 0:  # G-H1: the choice is the hand's first action
            note.update(kind="choose", contract=hand.contract, trump=suit_letter(hand.trump))
        else:  # every later entry of the log is one card, in the order played
            note.update(kind="play", card=name(plays[at - 1]))
        notes.append(note)
    return notes
