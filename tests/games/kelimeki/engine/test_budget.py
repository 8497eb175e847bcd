"""Bounded AI (issue 30, item 4; P-7: the AI's move time): every level's decision is a
bounded amount of work — the move generator's search steps (``bots.BUDGETS``), not a
clock — and a budget only ever leaves plays out (W-M3…W-M6: every play it returns is
legal; with enough steps it finds them all)."""

from __future__ import annotations

import random

from games.kelimeki.engine import GAME, bots, movegen, rules
from games.kelimeki.engine.lexicon import lexicon_for
from games.kelimeki.engine.movegen import Position, generate
from tests.games.kelimeki.engine.helpers import make_state


def two_joker_view():
    """Both jokers in a seven-tile rack beside a word: the generator's costly case
    (about 100,000 steps to find every play)."""
    st = make_state(2, racks=[["*", "*", "A", "E", "R", "L", "K"], ["A"]],
                    rows={7: "....KALEM......"}, placer=1,
                    first_done=[True, True])  # fmt: skip
    return st, GAME.view_for(st, 0)


def test_a_budget_leaves_plays_out_and_never_adds_one():
    st, view = two_joker_view()
    lex = lexicon_for(None)
    every = generate(Position.from_view(view), lex)
    cut = generate(Position.from_view(view), lex, budget=5000)
    assert cut and len(cut) < len(every)
    # the cut search's plays are legal plays (W-M3…W-M6) worth what the rules say
    for m in cut[:: max(1, len(cut) // 40)]:
        res = rules.evaluate_play(st.cells, st.jokers, st.zone, st.forfeited, 0, True,
                                  st.home(0), st.racks[0], m.placements(), lex)  # fmt: skip
        assert res.points == m.points
    # the plays without jokers come first: all of them are in, and nothing else is
    # missing that a joker-free play could give
    assert {m for m in every if m.jokers == 0} <= set(cut)
    assert generate(Position.from_view(view), lex, budget=5000) == cut  # deterministic


def test_a_large_budget_finds_every_play_worth_having():
    """Every play but those that differ from a found one only in a joker's letter
    (a joker scores nothing, W-S1: the same points, the same tax)."""
    _st, view = two_joker_view()
    lex = lexicon_for(None)
    every = generate(Position.from_view(view), lex)
    full = generate(Position.from_view(view), lex, budget=10**7)

    def shape(m):
        return frozenset((i, "*" if j else ch) for i, ch, j in m.cells), m.kept

    assert {shape(m) for m in full} == {shape(m) for m in every}
    assert max(m.kept for m in full) == max(m.kept for m in every)


def test_each_level_decides_within_its_budget(monkeypatch):
    """The decision asks the generator for at most its level's steps, and the steps a
    search may take are counted (a cut search stops on its budget)."""
    _st, view = two_joker_view()
    asked = []
    real = movegen._generate

    def spy(pos, lex, passes, steps=None, found=None, one_joker_letter=False):
        start = None if steps is None else steps[0]
        try:
            return real(pos, lex, passes, steps, found, one_joker_letter)
        finally:
            asked.append((start, None if steps is None else steps[0]))

    monkeypatch.setattr(movegen, "_generate", spy)
    for level in ("easy", "normal", "hard"):
        asked.clear()
        action = bots.choose(view, level, random.Random(3))
        assert action["type"] == "play"
        ((start, left),) = asked
        assert start == bots.BUDGETS[level] and left >= -1
