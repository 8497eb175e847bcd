"""The AI (kelimeki issue item 3, P-1): the strongest level finds the best-scoring
legal play, tax and zones included; levels differ; the lexicon is fast."""

from __future__ import annotations

import itertools
import json
import random
import time
import timeit

from game.engine.errors import RuleError
from games.kelimeki.engine import GAME, bots, rules
from games.kelimeki.engine.alphabet import LETTERS
from games.kelimeki.engine.lexicon import Lexicon, lexicon_for
from games.kelimeki.engine.movegen import Position, generate
from tests.games.kelimeki.engine.helpers import make_state


def brute_force_best(state, seat, cells_to_try, max_tiles=2):
    """The best kept score over every placement of up to ``max_tiles`` rack tiles on
    the given cells, checked by the rules themselves."""
    best = None
    rack = state.racks[seat]
    for n in range(1, max_tiles + 1):
        for cells in itertools.permutations(cells_to_try, n):
            for tiles in itertools.permutations(rack, n):
                letters = [LETTERS if t == "*" else [t] for t in tiles]
                for chosen in itertools.product(*letters):
                    placements = [rules.Placement(r, c, ch, t == "*")
                                  for (r, c), ch, t in zip(cells, chosen, tiles)]  # fmt: skip
                    try:
                        res = rules.preview(state, seat, placements)
                    except RuleError:
                        continue
                    kept = res.shares[seat]
                    best = kept if best is None else max(best, kept)
    return best


def test_hard_finds_the_best_play_tax_included():
    """A small position: the hard bot's play keeps as much as the best of an
    exhaustive search (one and two tiles), where the highest raw play pays tax."""
    words = ["ev", "eve", "ve", "ze", "ez", "zev", "en", "ne", "ek"]
    st = make_state(2, racks=[["Z", "N", "K"], ["A"]], rows={10: "..........EV..."},
                    placer=1, first_done=[True, True], words=words)  # fmt: skip
    st.zone[11 * 15 + 11] = 1
    cells = [(r, c) for r in range(8, 13) for c in range(8, 14)
             if st.cells[r * 15 + c] is None]  # fmt: skip
    best = brute_force_best(st, 0, cells, max_tiles=2)
    view = GAME.view_for(st, 0)
    action = bots.choose(view, "hard", random.Random(1))
    placements = [rules.Placement(p["row"], p["col"], p["letter"], p["joker"])
                  for p in action["placements"]]  # fmt: skip
    assert rules.preview(st, 0, placements).shares[0] == best
    moves = generate(Position.from_view(view), lexicon_for(words))
    assert max(m.kept for m in moves) == best
    assert any(m.touched for m in moves)  # some plays pay tax: the choice weighs it


def test_first_play_must_cover_home_and_levels_are_ordered():
    state = GAME.new_match({}, 2, random.Random(21))
    seat = state.turn
    view = GAME.view_for(state, seat)
    moves = generate(Position.from_view(view), lexicon_for(None))
    assert moves and all(any(i == state.home(seat) for i, _, _ in m.cells) for m in moves)
    kept = {}
    for level in ("easy", "normal", "hard"):
        pts = []
        for k in range(6):
            a = bots.choose(view, level, random.Random(k))
            pts.append(rules.preview(state, seat, [
                rules.Placement(p["row"], p["col"], p["letter"], p["joker"])
                for p in a["placements"]]).shares[seat])  # fmt: skip
        kept[level] = sum(pts) / len(pts)
    assert kept["easy"] < kept["normal"] < kept["hard"] == max(m.kept for m in moves)


def test_bot_sees_only_its_view():
    """P-1: the bot's choice depends on nothing hidden: the same view gives the same
    action whatever the other racks and the bag hold."""
    state = GAME.new_match({}, 2, random.Random(4))
    seat = state.turn
    view = json.loads(json.dumps(GAME.view_for(state, seat)))
    assert "bag" not in view and "racks" not in view
    a = GAME.bot_choose(view, "hard", random.Random(1))
    state.racks[1 - seat], state.bag[:7] = state.bag[:7], state.racks[1 - seat]
    assert GAME.bot_choose(json.loads(json.dumps(GAME.view_for(state, seat))), "hard",
                           random.Random(1)) == a  # fmt: skip


def test_no_play_exchanges_or_passes():
    st = make_state(2, racks=[["Ğ", "J"], ["A"]], bag=["A", "B"], words=["ev"])
    a = bots.choose(GAME.view_for(st, 0), "hard", random.Random(1))
    assert (
        a["type"] == "exchange"
        and sorted(a["letters"]) == ["J", "Ğ"]
        or a == {"type": "exchange", "letters": ["J", "Ğ"]}
    )
    st.bag = []
    assert bots.choose(GAME.view_for(st, 0), "hard", random.Random(1)) == {"type": "pass"}


def test_hard_decision_with_two_jokers_is_within_a_second():
    """Two jokers are the generator's hard case (tens of thousands of plays); this
    five-tile rack takes about 0.2 s of CPU, the issue's budget is 1 s (the bench
    command measures p99 over whole games and the full seven-tile worst case)."""
    st = make_state(2, racks=[["*", "*", "A", "E", "R"], ["A"]],
                    rows={7: "....KALEM......"}, placer=1,
                    first_done=[True, True])  # fmt: skip
    view = GAME.view_for(st, 0)
    lexicon_for(None).trie  # noqa: B018 - built once per process
    t0 = time.process_time()
    action = bots.choose(view, "hard", random.Random(1))
    assert time.process_time() - t0 < 1.0
    assert action["type"] == "play"


def test_lookup_is_microseconds():
    """W-D3's contains(): a hash lookup; well under 5 µs each even on a busy machine."""
    lex = lexicon_for(None)
    n = 20000
    secs = timeit.timeit(lambda: lex.contains("ARKADAŞ"), number=n)
    assert secs / n < 5e-6
    assert Lexicon(["a"]).words == frozenset()
