"""A plain minimax for King end positions, written from king.md alone (no pruning, no
equivalent cards, no transposition table; a cache of finished sub-positions only keeps
four-trick positions fast): the reference for the analysis's double dummy.

The value of a position for seat ``me`` is the points ``me`` takes from there to the end
of the hand when ``me`` plays to take the most and the three others play together
against it (the analysis's paranoid double dummy)."""

from __future__ import annotations

from functools import lru_cache

from games.king.engine.cards import HEARTS, KH
from games.king.engine.rules import legal_cards

PENALTY = {  # section 6: points per penalty card taken
    "kupa_almaz": lambda c: -30 if c // 13 == HEARTS else 0,  # G-S2
    "erkek_almaz": lambda c: -60 if c % 13 in (1, 3) else 0,  # G-S3: kings, jacks
    "kiz_almaz": lambda c: -100 if c % 13 == 2 else 0,  # G-S4: queens
    "rifki": lambda c: -320 if c == KH else 0,  # G-S5
}


def points(contract: str, cards, no: int) -> int:
    """What the winner of trick ``no`` (1-based) takes (section 6)."""
    if contract == "el_almaz":
        return -50  # G-S1
    if contract == "son_iki":
        return -180 if no >= 12 else 0  # G-S6
    if contract == "koz":
        return 50  # G-S7
    return sum(PENALTY[contract](c) for c in cards)


def winner(cards, trump) -> int:
    """G-P3, from scratch: the highest trump if one was played, else the highest card of
    the led suit (a smaller card int is a higher rank)."""
    trumps = [c for c in cards if trump is not None and c // 13 == trump]
    pool = trumps or [c for c in cards if c // 13 == cards[0] // 13]
    return cards.index(min(pool))


def penalty_left(contract: str, cards) -> bool:
    return contract not in PENALTY or any(PENALTY[contract](c) for c in cards)


def value(hands, trick, leader: int, done: int, contract: str, trump, me: int) -> int:
    """``hands``: four collections of card ints; ``trick``: the cards on the table."""
    return _value(tuple(frozenset(h) for h in hands), tuple(trick), leader, done,
                  contract, trump, me)  # fmt: skip


@lru_cache(maxsize=None)
def _value(hands, trick, leader, done, contract, trump, me) -> int:
    held = set().union(*hands)
    if not trick:
        if done == 13 or not penalty_left(contract, held):  # G-P9
            return 0
    gone = set(range(52)) - held - set(trick)  # played in earlier tricks
    seat = (leader + len(trick)) % 4
    legal = legal_cards(sorted(hands[seat]), list(trick), contract, trump,
                        any(c // 13 == HEARTS for c in gone),
                        trump is not None and any(c // 13 == trump for c in gone))  # fmt: skip
    values = [card_value(hands, trick, leader, done, contract, trump, me, c) for c in legal]
    return max(values) if seat == me else min(values)


def card_value(hands, trick, leader, done, contract, trump, me, c) -> int:
    """The value for ``me`` after the seat to play plays ``c``."""
    hands = tuple(frozenset(h) for h in hands)
    seat = (leader + len(trick)) % 4
    after = tuple(h - {c} if s == seat else h for s, h in enumerate(hands))
    cards = (*trick, c)
    if len(cards) < 4:
        return _value(after, cards, leader, done, contract, trump, me)
    w = (leader + winner(cards, trump)) % 4
    gain = points(contract, cards, done + 1) if w == me else 0
    return gain + _value(after, (), w, done + 1, contract, trump, me)
