"""Every legal play of a position by brute force, independent of the move generator:
every set of empty cells that fills a stretch of one row or column (W-M3), every way to
put the rack's tiles on them (a joker as each of the 29 letters, W-T3), each checked and
scored by the rules themselves (``rules.evaluate_play``: W-M4…W-M7, W-S, W-Z5…W-Z7).

The reference for the analysis's best play, rank and count of plays (issue 31)."""

from __future__ import annotations

import itertools

from game.engine.errors import RuleError
from games.kelimeki.engine.alphabet import LETTERS
from games.kelimeki.engine.board import NEIGHBOURS, SIZE
from games.kelimeki.engine.lexicon import lexicon_for
from games.kelimeki.engine.rules import JOKER_FINISH, Placement, evaluate_play


def stretches(cells) -> set[tuple[int, ...]]:
    """The empty cells of every stretch [i, j] of every row and column."""
    out = set()
    for k in range(SIZE):
        for line in ([k * SIZE + j for j in range(SIZE)], [j * SIZE + k for j in range(SIZE)]):
            for i in range(SIZE):
                for j in range(i, SIZE):
                    empty = tuple(c for c in line[i : j + 1] if cells[c] is None)
                    if empty:
                        out.add(empty)
    return out


def all_plays(state, seat: int) -> dict[frozenset, int]:
    """Every legal play of ``seat`` on ``state`` (its placements as a set of (cell,
    letter, joker)) -> what it adds to the seat's score (kept after tax, W-Z6, plus the
    joker finish, W-E4)."""
    cells, rack = state.cells, list(state.racks[seat])
    home, first_done = state.home(seat), state.first_done[seat]
    lex = lexicon_for(state.words)
    out: dict[frozenset, int] = {}
    for empty in stretches(cells):
        if len(empty) > len(rack):
            continue
        if not first_done and cells[home] is None and home not in empty:
            continue  # W-M5 cannot hold (a quick skip; the rules would refuse it too)
        if first_done and not any(cells[n] is not None for c in empty for n in NEIGHBOURS[c]):
            continue  # W-M6 likewise
        for tiles in set(itertools.permutations(rack, len(empty))):
            choices = [LETTERS if t == "*" else (t,) for t in tiles]
            for letters in itertools.product(*choices):
                placements = [Placement(c // SIZE, c % SIZE, ch, t == "*")
                              for c, ch, t in zip(empty, letters, tiles)]  # fmt: skip
                try:
                    res = evaluate_play(cells, state.jokers, state.zone, state.forfeited, seat,
                                        first_done, home, rack, placements, lex)  # fmt: skip
                except RuleError:
                    continue
                bonus = 0
                if not state.bag and len(tiles) == len(rack) and all(t == "*" for t in tiles):
                    bonus = JOKER_FINISH * len(tiles)
                key = frozenset((p.row * SIZE + p.col, p.letter, p.joker) for p in placements)
                out[key] = res.shares[seat] + bonus
    return out
