"""The word list and its lookup structures (kelimeki.md W-D1…W-D4).

A :class:`Lexicon` answers ``contains(word)`` on canonical (W-D2-folded) words from a
frozen set — a hash lookup, well under a microsecond — and, for the AI's move
generation, walks a letter DAWG built on first use (``trie``): a trie of nested dicts
(the key ``"$"`` marking a word's end) whose equal subtrees are shared.  The shipped list is loaded once per
process (``shipped()``); a scenario's own ``words`` replace it for that game (W-D4).
"""

from __future__ import annotations

import gc
import gzip
import threading
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from games.kelimeki.engine.alphabet import fold, playable

WORDS_FILE = Path(__file__).with_name("data") / "words.txt.gz"
END = "$"


class Lexicon:
    __slots__ = ("_freeze", "_trie", "words")

    def __init__(self, words: Iterable[str], freeze: bool = False):
        """``words`` in any case; folded by W-D2, entries that cannot be played
        (fewer than 2 letters, a character outside W-T1) dropped (W-D2).  ``freeze``:
        the DAWG lives as long as the process (the shipped list), so once built it
        goes to the garbage collector's permanent generation (``gc.freeze``)."""
        self.words: frozenset[str] = frozenset(w for w in map(fold, words) if playable(w))
        self._trie: dict | None = None
        self._freeze = freeze

    def contains(self, word: str) -> bool:
        """Is this canonical word an entry (W-D1)?  One interface for every list (W-D3)."""
        return word in self.words

    __contains__ = contains

    def __len__(self) -> int:
        return len(self.words)

    @property
    def trie(self) -> dict:
        if self._trie is None:
            root: dict = {}
            for word in sorted(self.words):  # the same trie, in the same order, in every process
                node = root
                for ch in word:
                    nxt = node.get(ch)
                    if nxt is None:
                        nxt = node[ch] = {}
                    node = nxt
                node[END] = True
            self._trie = _minimise(root, {})
            if self._freeze:
                # Some 60,000 dicts that never die: a full collection would walk them
                # all, a pause of up to 0.1 s in the middle of a bot's move.
                gc.collect()
                gc.freeze()
        return self._trie


def _minimise(node: dict, seen: dict) -> dict:
    """Share equal subtrees (the trie becomes a DAWG: about a fifth of the nodes).
    Read-only afterwards; walks see the same dicts as before."""
    for ch, child in node.items():
        if ch != END:
            node[ch] = _minimise(child, seen)
    key = tuple(sorted((ch, id(c) if ch != END else 0) for ch, c in node.items()))
    return seen.setdefault(key, node)


def read_word_file(path: Path) -> list[str]:
    """A UTF-8 word file (gzip if named ``*.gz``): one word a line, ``#`` comment
    lines and blank lines ignored (W-D3)."""
    raw = path.read_bytes()
    if path.suffix == ".gz":
        raw = gzip.decompress(raw)
    out = []
    for line in raw.decode("utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            out.append(line)
    return out


_SHIPPED_LOCK = threading.Lock()


def shipped() -> Lexicon:
    """The shipped word list (data/README.md), loaded once per process — by one thread:
    a server's request threads all ask for it at their first Kelimeki move, and without
    the lock each of them read and folded the 45,000 words (0.2 s of CPU each; issue 30's
    load profile found up to six builds at once in one daphne process)."""
    with _SHIPPED_LOCK:
        return _shipped()


@lru_cache(maxsize=1)
def _shipped() -> Lexicon:
    return Lexicon(read_word_file(WORDS_FILE), freeze=True)


@lru_cache(maxsize=64)
def _custom(words: tuple[str, ...]) -> Lexicon:
    return Lexicon(words)


def lexicon_for(words: list[str] | None) -> Lexicon:
    """The game's lexicon: its own ``words`` list when it has one (W-D4), else shipped."""
    return shipped() if words is None else _custom(tuple(words))
