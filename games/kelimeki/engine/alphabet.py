"""Letters, tiles, points and Turkish case folding (kelimeki.md W-T1, W-T2, W-D2)."""

from __future__ import annotations

import unicodedata

# W-T1: the 29 letters in their sort order; I (dotless) and İ (dotted) differ.
LETTERS = "ABCÇDEFGĞHIİJKLMNOÖPRSŞTUÜVYZ"
JOKER = "*"
TILES = LETTERS + JOKER
ORDER = {t: i for i, t in enumerate(TILES)}  # W-T1 order, the joker last
LETTER_SET = frozenset(LETTERS)
TILE_SET = frozenset(TILES)  # membership of one tile (TILES is a string: "AB" is in it)

# W-T2: copies in the bag and points per tile (100 tiles, 2 jokers worth 0).
COUNTS = dict(zip(TILES, (12, 2, 2, 2, 2, 8, 1, 1, 1, 1, 4, 7, 1, 7, 7, 4, 5, 3, 1, 1, 6, 3,
                          2, 5, 3, 2, 1, 2, 2, 2)))  # fmt: skip
POINTS = dict(zip(TILES, (1, 3, 4, 4, 3, 1, 7, 5, 8, 5, 2, 1, 10, 1, 1, 2, 1, 2, 7, 5, 1, 2,
                          4, 1, 2, 3, 7, 3, 4, 0)))  # fmt: skip
BAG_SIZE = 100
RACK_SIZE = 7

_SPECIAL_UPPER = {"i": "İ", "ı": "I", "â": "A", "Â": "A", "î": "İ", "Î": "İ", "û": "U",
                  "Û": "U"}  # fmt: skip


def fold(word: str) -> str:
    """The canonical form of a word (W-D2): NFC, Turkish upper case, circumflexes
    dropped.  The result may hold characters outside W-T1 (see :func:`playable`)."""
    text = unicodedata.normalize("NFC", word)
    out: list[str] = []
    before = ""
    for ch in text:
        if ch == "\u0307" and before in ("i", "I"):
            # a combining dot above after i or I (as written, W-D2): the dotted capital.
            # After anything else (ı, İ, another dot) it stays, and the word is unplayable.
            out[-1] = "İ"
        else:
            out.append(_SPECIAL_UPPER.get(ch) or ch.upper())
        before = ch
    return "".join(out)


def playable(canonical: str) -> bool:
    """A folded word that may be played: 2+ letters, all of W-T1 (W-D1, W-D2)."""
    return len(canonical) >= 2 and all(ch in LETTER_SET for ch in canonical)


def lower(letter: str) -> str:
    """A letter as a joker shows it on a printed board (W-T1): Turkish lower case."""
    return {"İ": "i", "I": "ı"}.get(letter, letter.lower())


def sort_tiles(tiles) -> list[str]:
    """Tiles in W-T1 order, the joker last."""
    return sorted(tiles, key=ORDER.__getitem__)
