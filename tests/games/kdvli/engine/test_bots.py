"""KDVli bots (P-1, V-H3): they act from a view only, play legal moves, and the hard
bot counts exactly (V-S2) and finishes the way that pays (V-S1)."""

from __future__ import annotations

import random

from game.engine.fair import SeededRNG
from games.kdvli.engine import GAME, bots
from games.kdvli.engine.hand import apply
from games.kdvli.engine.match import Match
from games.kdvli.engine.replay import load_scenario
from tests.games.kdvli.engine.helpers import scenario

RUNS14 = "R1 R2 R3 R4 B7 B8 B9 K11 K12 K13 Y11 R11 B11 K1"


def view_of(s: dict, seat: int) -> dict:
    hand, _ = load_scenario(s)
    return GAME.view_for(Match(GAME.clean_options({}), hand), seat)


def test_p_1_bots_get_a_view_without_other_racks():
    """V-H3: the view a bot gets holds no other seat's tiles; a bot given only that view
    plays a legal move."""
    m = GAME.new_match({}, 4, SeededRNG(1))
    seat = GAME.to_act(m)[0]
    view = GAME.view_for(m, seat)
    assert "racks" not in view and "deck" not in view
    for level in bots.LEVELS:
        action = bots.choose(view, level, random.Random(2))
        before = GAME.to_dict(m)
        GAME.apply(m, seat, action, 0.0)
        m = GAME.from_dict(before)


def test_every_level_finishes_a_complete_rack():
    s = scenario({0: RUNS14 + " Y13"})
    for level in bots.LEVELS:
        a = bots.choose(view_of(s, 0), level, random.Random(1))
        assert a["type"] == "finish", level


def test_hard_finishes_with_the_okey_when_it_can():
    """V-S1, V-F4: with Y13 and the real okey Y6 left over, hard puts the okey on the
    indicator (M = 2) rather than Y13 (the okey then stands in a group)."""
    s = scenario({0: RUNS14 + " Y6"})
    a = bots.choose(view_of(s, 0), "hard", random.Random(1))
    hand, _ = load_scenario(s)
    apply(hand, 0, a)
    assert hand.multiplier == 2


def test_hard_finishes_on_pairs_when_that_pays_more():
    """V-S1: a rack that can finish both ways: hard takes the pairs finish (M × 2)."""
    both = "R1 R1 R2 R2 R3 R3 B7 B7 B8 B8 B9 B9 K5 K5 Y12"
    s = scenario({0: both})
    a = bots.choose(view_of(s, 0), "hard", random.Random(1))
    hand, _ = load_scenario(s)
    apply(hand, 0, a)
    assert hand.finish_kind == "pairs" and hand.multiplier == 2
    a = bots.choose(view_of(s, 0), "normal", random.Random(1))
    hand, _ = load_scenario(s)
    apply(hand, 0, a)
    assert hand.finisher == 0


def test_hard_keeps_groups_and_throws_the_loose_tile():
    s = scenario({0: "R3 R4 R5 Y9 B9 K9 K1 K2 K3 B11 B12 B13 R7 Y1 Y13"})
    a = bots.choose(view_of(s, 0), "hard", random.Random(1))
    hand, _ = load_scenario(s)
    tile = next(t for t in hand.racks[0].tiles() if hand.ids[t] == a["tile_id"])
    from games.okey.engine.tiles import face_name, face_of

    assert a["type"] == "discard" and face_name(face_of(tile)) == "Y13"


def test_bots_never_throw_a_real_okey_when_another_tile_is_left():
    s = scenario({0: "Y6"})
    for level in bots.LEVELS:
        for seed in range(5):
            a = bots.choose(view_of(s, 0), level, random.Random(seed))
            hand, _ = load_scenario(s)
            if a["type"] == "discard":
                tile = next(t for t in hand.racks[0].tiles() if hand.ids[t] == a["tile_id"])
                assert tile // 2 != 19  # Y6 is face 18 + 1 = 19


def test_hard_takes_the_thrown_tile_that_completes_its_rack():
    s = scenario({0: "K1", 1: "R1 R2 R3 R4 B7 B8 B9 K11 K12 K13 Y11 R11 B11 Y13"}, deck="B2 K6")
    hand, _ = load_scenario(s)
    k1 = next(t for t in hand.racks[0].tiles() if t // 2 == 39)
    apply(hand, 0, {"type": "discard", "tile_id": hand.ids[k1]})
    view = GAME.view_for(Match(GAME.clean_options({}), hand), 1)
    assert bots.choose(view, "hard", random.Random(1)) == {"type": "take_discard"}


def test_easy_takes_the_thrown_tile_only_when_it_finishes_with_it():
    """Easy draws from the deck, but takes the thrown tile that completes its rack on
    runs (V-N1, V-F1): without that, four easy bots never finished a hand before the
    deck ran out (V-E1)."""
    s = scenario({0: "K1", 1: "R1 R2 R3 R4 B7 B8 B9 K11 K12 K13 Y11 R11 B11 Y13"}, deck="B2 K6")
    hand, _ = load_scenario(s)
    k1 = next(t for t in hand.racks[0].tiles() if t // 2 == 39)
    apply(hand, 0, {"type": "discard", "tile_id": hand.ids[k1]})
    view = GAME.view_for(Match(GAME.clean_options({}), hand), 1)
    assert bots.choose(view, "easy", random.Random(1)) == {"type": "take_discard"}
    # A thrown tile that only helps (no finish) is left: easy draws.
    s = scenario({0: "R5", 1: "R1 R2 R3 B7 B8 K11 K12 K13 Y11 R11 B11 Y13 Y2 B5"}, deck="B2 K6")
    hand, _ = load_scenario(s)
    r5 = next(t for t in hand.racks[0].tiles() if t // 2 == 4)
    apply(hand, 0, {"type": "discard", "tile_id": hand.ids[r5]})
    view = GAME.view_for(Match(GAME.clean_options({}), hand), 1)
    assert bots.choose(view, "easy", random.Random(1)) == {"type": "draw"}


def test_easy_keeps_its_runs_and_sets_and_throws_a_left_over_tile():
    """Easy never breaks a run or set it holds (V-G1, V-G2): whatever its random choice,
    the tile thrown is one of the left-over tiles Y1, Y13, R7 (not the costliest one
    every time, as normal does)."""
    s = scenario({0: "R3 R4 R5 Y9 B9 K9 K1 K2 K3 B11 B12 B13 R7 Y1 Y13"})
    hand, _ = load_scenario(s)
    from games.okey.engine.tiles import face_name, face_of

    thrown = set()
    for seed in range(40):
        a = bots.choose(view_of(s, 0), "easy", random.Random(seed))
        assert a["type"] == "discard"
        tile = next(t for t in hand.racks[0].tiles() if hand.ids[t] == a["tile_id"])
        thrown.add(face_name(face_of(tile)))
    assert thrown == {"Y1", "Y13", "R7"}
    assert bots.choose(view_of(s, 0), "normal", random.Random(1))["type"] == "discard"


def test_easy_never_finishes_on_pairs():
    """Easy finishes on runs only: with seven pairs and no runs finish it throws."""
    pairs = "R1 R1 R5 R5 Y9 Y9 B3 B3 B12 B12 K7 K7 K10 K10 Y2"
    s = scenario({0: pairs})
    assert bots.choose(view_of(s, 0), "easy", random.Random(1))["type"] == "discard"
    assert bots.choose(view_of(s, 0), "normal", random.Random(1))["type"] == "finish"
