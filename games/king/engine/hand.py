"""One hand of King: its state, the legal cards, the transitions and the scores
(king.md sections 3–6).

``HandState`` is one deal, from the choice (section 4) through the tricks (section 5)
to the scores (section 6).  ``apply(hand, seat, action)`` plays one action or raises an
``EngineError`` and changes nothing (every check happens before the first change).
"""

from __future__ import annotations

from game.engine.errors import ActionFormatError, RuleError
from games.king.engine.cards import (
    HEARTS,
    NotationError,
    card,
    name,
    names,
    suit_index,
    suit_letter,
)
from games.king.engine.contracts import CONTRACTS, EARLY_END, KOZ, PENALTY_CARDS, refusal
from games.king.engine.rules import (
    TRICKS,
    legal_cards,
    refusal_code,
    score_tricks,
    timeout_card,
    timeout_contract,
    trick_winner_index,
)

ACTION_TYPES = ("choose", "play", "timeout")


# --- the state ----------------------------------------------------------------------


class HandState:
    __slots__ = (
        "length", "chooser", "chosen", "deal", "hands", "contract", "trump", "tricks",
        "leader", "trick", "turn", "over", "hearts_broken", "trumps_broken", "scores",
        "log", "fair",
    )  # fmt: skip

    def __init__(self, length: int, chooser: int, chosen: list[list[str]],
                 deal: list[list[int]]):  # fmt: skip
        self.length = length
        self.chooser = chooser
        self.chosen = [list(c) for c in chosen]  # the match's choices before this hand
        self.deal = [sorted(h) for h in deal]  # G-D1: 13 cards each
        self.hands = [sorted(h) for h in deal]  # cards not yet played
        self.contract: str | None = None
        self.trump: int | None = None
        self.tricks: list[tuple[int, list[int], int]] = []  # (leader, cards, winner)
        self.leader = chooser  # G-P1
        self.trick: list[int] = []  # the trick in progress, from its leader
        self.turn = chooser  # G-H1: the chooser acts first
        self.over = False
        self.hearts_broken = False
        self.trumps_broken = False
        self.scores: list[int] | None = None
        self.log: list[dict] = []  # accepted actions, scenario form (export, take-back)
        self.fair: dict = {}  # P-2, G-V2: {"salt", "commitment"} of a shuffled deal

    # -- derived ---------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return "over" if self.over else ("choose" if self.contract is None else "play")

    def chosen_after(self) -> list[list[str]]:
        """The match's choices with this hand's appended once chosen."""
        out = [list(c) for c in self.chosen]
        if self.contract is not None:
            out[self.chooser].append(self.contract)
        return out

    def legal(self, seat: int) -> list[int]:
        if self.over or self.contract is None or seat != self.turn:
            return []
        return legal_cards(self.hands[seat], self.trick, self.contract, self.trump,
                           self.hearts_broken, self.trumps_broken)  # fmt: skip

    def taken(self) -> list[list[int]]:
        """Each seat's cards in the tricks it took."""
        out: list[list[int]] = [[], [], [], []]
        for _, cards, w in self.tricks:
            out[w].extend(cards)
        return out

    def running_scores(self) -> list[int]:
        if self.contract is None:
            return [0, 0, 0, 0]
        return score_tricks(self.contract, self.tricks)

    # -- JSON ------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "length": self.length,
            "chooser": self.chooser,
            "chosen": [list(c) for c in self.chosen],
            "deal": [names(h) for h in self.deal],
            "hands": [names(h) for h in self.hands],
            "contract": self.contract,
            "trump": suit_letter(self.trump),
            "tricks": [[ld, [name(c) for c in cs], w] for ld, cs, w in self.tricks],
            "leader": self.leader,
            "trick": [name(c) for c in self.trick],
            "turn": self.turn,
            "over": self.over,
            "hearts_broken": self.hearts_broken,
            "trumps_broken": self.trumps_broken,
            "scores": None if self.scores is None else list(self.scores),
            "log": [dict(a) for a in self.log],
            "fair": dict(self.fair),
        }

    @classmethod
    def from_dict(cls, d: dict) -> HandState:
        h = cls(d["length"], d["chooser"], d["chosen"], [[card(c) for c in x] for x in d["deal"]])
        h.hands = [[card(c) for c in x] for x in d["hands"]]
        h.contract = d["contract"]
        h.trump = None if d["trump"] is None else suit_index(d["trump"])
        h.tricks = [(ld, [card(c) for c in cs], w) for ld, cs, w in d["tricks"]]
        h.leader = d["leader"]
        h.trick = [card(c) for c in d["trick"]]
        h.turn = d["turn"]
        h.over = d["over"]
        h.hearts_broken = d["hearts_broken"]
        h.trumps_broken = d["trumps_broken"]
        h.scores = None if d["scores"] is None else list(d["scores"])
        h.log = [dict(a) for a in d["log"]]
        h.fair = dict(d.get("fair") or {})  # a hand stored before P-2's commitment: none
        return h


# --- transitions --------------------------------------------------------------------


def parse_action(action) -> dict:
    """Check an action's shape (ActionFormatError) and return it in engine terms:
    ``{"type", "contract", "trump"}`` (trump a suit index) or ``{"type", "card"}``."""
    if not isinstance(action, dict):
        raise ActionFormatError("bad_action", "an action is an object")
    kind = action.get("type")
    if kind not in ACTION_TYPES:
        raise ActionFormatError("unknown_action", f"no action type {kind!r}")
    if kind == "choose":
        contract = action.get("contract")
        if contract not in CONTRACTS:
            raise ActionFormatError("unknown_contract", f"no contract {contract!r}")
        trump = action.get("trump")
        if contract == KOZ:
            try:
                t = suit_index(trump)
            except NotationError:
                raise ActionFormatError(
                    "bad_trump", "koz needs a trump suit S, H, C or D"
                ) from None
            return {"type": "choose", "contract": contract, "trump": t}
        if trump is not None:
            raise ActionFormatError("bad_trump", "only koz names a trump suit")
        return {"type": "choose", "contract": contract, "trump": None}
    if kind == "play":
        try:
            return {"type": "play", "card": card(action.get("card"))}
        except NotationError as exc:
            raise ActionFormatError("bad_card", str(exc)) from None
    return {"type": "timeout"}


def _check_seat(seat) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise ActionFormatError("bad_seat", f"no seat {seat!r}")


def apply(hand: HandState, seat: int, action: dict) -> list[dict]:
    """Play one action for ``seat``; returns events or raises and changes nothing."""
    _check_seat(seat)
    a = parse_action(action)
    if hand.over:
        raise RuleError("hand_over")
    if a["type"] == "timeout":
        if seat != hand.turn:
            raise RuleError("not_your_turn")
        if hand.contract is None:
            contract, trump = timeout_contract(hand.length, hand.chosen, seat, hand.hands[seat])
            events = _choose(hand, seat, contract, trump)
        else:
            events = _play(hand, seat, timeout_card(hand.legal(seat)))
        hand.log[-1] = {"seat": seat, "type": "timeout"}
        return [{"type": "timeout", "seat": seat}, *events]
    if a["type"] == "choose":
        if hand.contract is not None:
            raise RuleError("already_chosen")
        if seat != hand.chooser:
            raise RuleError("not_your_turn")
        why = refusal(hand.length, hand.chosen, seat, a["contract"])
        if why:
            raise RuleError(why)  # G-H7
        return _choose(hand, seat, a["contract"], a["trump"])
    if hand.contract is None:
        raise RuleError("not_chosen")  # G-H1
    if seat != hand.turn:
        raise RuleError("not_your_turn")
    why = refusal_code(hand.hands[seat], hand.trick, hand.contract, hand.trump,
                       hand.hearts_broken, hand.trumps_broken, a["card"])  # fmt: skip
    if why:
        raise RuleError(why)
    return _play(hand, seat, a["card"])


def _choose(hand: HandState, seat: int, contract: str, trump: int | None) -> list[dict]:
    hand.contract = contract
    hand.trump = trump
    hand.turn = hand.chooser  # G-P1: the chooser leads
    entry = {"seat": seat, "type": "choose", "contract": contract}
    if contract == KOZ:
        entry["trump"] = suit_letter(trump)
    hand.log.append(entry)
    return [{"type": "choose", "seat": seat, "contract": contract, "trump": suit_letter(trump)}]


def _play(hand: HandState, seat: int, c: int) -> list[dict]:
    hand.hands[seat].remove(c)
    hand.trick.append(c)
    hand.log.append({"seat": seat, "type": "play", "card": name(c)})
    events = [{"type": "play", "seat": seat, "card": name(c)}]
    if len(hand.trick) < 4:
        hand.turn = (seat + 1) % 4  # G-M1
        return events
    cards = hand.trick
    winner = (hand.leader + trick_winner_index(cards, hand.trump)) % 4
    hand.tricks.append((hand.leader, cards, winner))
    if any(x // 13 == HEARTS for x in cards):
        hand.hearts_broken = True  # G-P6
    if hand.trump is not None and any(x // 13 == hand.trump for x in cards):
        hand.trumps_broken = True  # G-P5
    hand.trick = []
    hand.leader = winner
    hand.turn = winner  # G-P1: the winner leads the next trick
    events.append({"type": "trick", "no": len(hand.tricks), "leader": hand.tricks[-1][0],
                   "cards": [name(x) for x in cards], "winner": winner})  # fmt: skip
    if len(hand.tricks) == TRICKS or _all_penalty_cards_taken(hand):  # G-P9
        hand.over = True
        hand.turn = None
        hand.scores = score_tricks(hand.contract, hand.tricks)
        events.append({"type": "hand_over", "scores": list(hand.scores),
                       "early": len(hand.tricks) < TRICKS})  # fmt: skip
    return events


def _all_penalty_cards_taken(hand: HandState) -> bool:
    if hand.contract not in EARLY_END:
        return False
    pen = PENALTY_CARDS[hand.contract]
    return sum(1 for _, cards, _ in hand.tricks for x in cards if x in pen) == len(pen)


def replay_log(hand: HandState, log: list[dict]) -> HandState:
    """A fresh hand with the same deal and history, with ``log`` applied (G-X4)."""
    h = HandState(hand.length, hand.chooser, hand.chosen, hand.deal)
    h.fair = dict(hand.fair)
    for entry in log:
        apply(h, entry["seat"], {k: v for k, v in entry.items() if k != "seat"})
    return h
