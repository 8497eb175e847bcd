"""The 52-card deck and its notation (king.md section 1).

A card is an ``int`` 0..51: ``suit * 13 + rank``, suits in the display order ``S H C D``
(G-C3) and ranks from the ace down (``A K Q J T 9 … 2``).  So sorting ints is the
display order of G-C3, and a card's strength inside its suit is ``12 - rank``.
"""

from __future__ import annotations

SUITS = "SHCD"  # G-C3: spades, hearts, clubs, diamonds
RANKS = "AKQJT98765432"  # G-C1: high to low
SPADES, HEARTS, CLUBS, DIAMONDS = range(4)
DECK = tuple(range(52))  # G-C1: no jokers

NAMES = tuple(r + s for s in SUITS for r in RANKS)
_BY_NAME = {n: i for i, n in enumerate(NAMES)}


class NotationError(ValueError):
    """Not a card in G-C2 notation."""


def card(name: str) -> int:
    """G-C2: exactly two upper-case characters, rank then suit (``AS``, ``TH``, ``2D``)."""
    c = _BY_NAME.get(name) if isinstance(name, str) else None
    if c is None:
        raise NotationError(f"{name!r} is not a card (rank A K Q J T 9..2, suit S H C D)")
    return c


def name(c: int) -> str:
    return NAMES[c]


def suit_of(c: int) -> int:
    return c // 13


def rank_of(c: int) -> int:
    """0 = ace … 12 = two."""
    return c % 13


def strength(c: int) -> int:
    """2 = 0 … ace = 12: higher wins inside a suit (G-C1)."""
    return 12 - c % 13


def names(cards) -> list[str]:
    """Card names in the display order of G-C3."""
    return [NAMES[c] for c in sorted(cards)]


def suit_letter(s: int | None) -> str | None:
    return None if s is None else SUITS[s]


def suit_index(letter: str) -> int:
    if not isinstance(letter, str) or len(letter) != 1 or letter not in SUITS:
        raise NotationError(f"{letter!r} is not a suit (S, H, C or D)")
    return SUITS.index(letter)


# G-C4 named cards
KH = card("KH")  # the Rıfkı
AH = card("AH")
KINGS = frozenset(s * 13 + 1 for s in range(4))
QUEENS = frozenset(s * 13 + 2 for s in range(4))
JACKS = frozenset(s * 13 + 3 for s in range(4))
MEN = KINGS | JACKS  # erkek
HEART_CARDS = frozenset(range(13, 26))  # kupa
