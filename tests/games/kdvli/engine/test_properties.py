"""Hypothesis properties of the KDVli engine: the 106 tiles are conserved (V-T1), a
refused action changes nothing, views never leak another seat's tiles (V-H2), state
round-trips through to_dict/from_dict, and bot-versus-bot hands and whole matches always
end, at every bot level (easy, normal, hard and mixed tables)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine.errors import EngineError
from game.engine.fair import SeededRNG
from games.kdvli.engine import GAME
from games.kdvli.engine.hand import ACTION_TYPES, Hand, apply, new_hand
from games.kdvli.engine.simulate import MAX_ACTIONS, play_hand
from games.okey.engine.tiles import NUM_TILES, face_name, face_of

SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])  # fmt: skip


def all_tiles(hand: Hand) -> Counter:
    tiles = [hand.indicator, *hand.deck]
    for r in hand.racks:
        tiles += r.tiles()
    for d in hand.discards:
        tiles += d
    if hand.finish_tile is not None:
        tiles.append(hand.finish_tile)
    return Counter(tiles)


def random_action(hand: Hand, rng: random.Random) -> tuple[int, dict]:
    """Mostly sensible moves, often wrong ones (wrong seat, tiles not held, junk)."""
    seat = hand.turn if rng.random() < 0.8 else rng.randrange(4)
    kind = rng.choice(ACTION_TYPES + ("draw", "discard", "discard", "bogus"))
    tiles = hand.racks[seat].tiles()
    any_tile = rng.randrange(NUM_TILES)
    tile = rng.choice(tiles) if tiles and rng.random() < 0.8 else any_tile
    a: dict = {"type": kind}
    if kind in ("discard", "finish", "move"):
        if rng.random() < 0.5:
            a["tile_id"] = hand.ids[tile]
        else:
            a["tile"] = face_name(face_of(tile))
    if kind == "finish" and rng.random() < 0.5:
        rest = [face_name(face_of(t)) for t in tiles if t != tile]
        a["groups"] = [rest[i : i + 3] for i in range(0, len(rest), 3)]
    if kind == "move":
        a["to"] = rng.choice([0, 5, 31, 40, -1])
    if kind == "separator":
        a["at"] = rng.choice([0, 3, 15, 31, "x"])
    if kind == "arrange":
        a["how"] = rng.choice(["runs", "pairs", "x"])
    if kind == "layout":
        a["cells"] = [None] * 32
    return seat, a


@SETTINGS
@given(st.integers(0, 10**6), st.integers(0, 3))
def test_tiles_are_conserved_and_refusals_change_nothing(seed, starter):
    hand = new_hand(starter, SeededRNG(seed))
    hand.deck = hand.deck[-12:] + []  # short deck: reach the end (V-E1) often
    rng = random.Random(seed)
    removed = Counter(new_hand(starter, SeededRNG(seed)).deck[:-12])
    for _ in range(60):
        if hand.over:
            break
        seat, a = random_action(hand, rng)
        before = hand.to_dict()
        try:
            apply(hand, seat, a)
        except EngineError as exc:
            assert exc.code and hand.to_dict() == before, a
        assert all_tiles(hand) + removed == Counter(range(NUM_TILES))
        n = [r.count() for r in hand.racks]
        if not hand.over and not hand.may_play():
            assert all(c == 14 for c in n)  # V-N2: 14 between turns


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_views_never_leak_and_state_round_trips(seed):
    m = GAME.new_match({"hands": 3}, 4, SeededRNG(seed))
    rng = random.Random(seed)
    for _ in range(30):
        hand = m.hand
        if hand.over:
            break
        for seat in (0, 1, 2, 3, None):
            text = json.dumps(GAME.view_for(m, seat))
            hidden = list(hand.deck)
            for s in range(4):
                if s != seat:
                    hidden += hand.racks[s].tiles()
            for t in hidden:
                assert hand.ids[t] not in text
            assert "salt" not in text and "order" not in text
            if seat is not None:
                assert text.count('"points"') == 1  # only its own points (V-S5)
        seat = GAME.to_act(m)[0]
        action = GAME.bot_choose(GAME.view_for(m, seat), rng.choice(("easy", "hard")), rng)
        GAME.apply(m, seat, action, 0.0)
        data = json.loads(json.dumps(GAME.to_dict(m)))
        again = GAME.from_dict(data)
        assert GAME.to_dict(again) == data


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["easy", "normal", "hard"]))
def test_bot_hands_always_end(seed, level):
    hand = new_hand(seed % 4, SeededRNG(seed))
    levels = [level, "easy", "normal", "hard"]
    play_hand(hand, levels, random.Random(seed))
    assert hand.over and hand.scores is not None
    assert (hand.finisher is None) == hand.void


# A whole bot-only match at each level and on mixed tables.  Four easy bots finish about
# half their hands (the others are void, V-E1/V-E2, and dealt again, V-M5): 3 finished
# hands within 40 deals fails with a probability below 1e-9.  Before the easy bot kept
# its groups and took a thrown tile that finishes, such a table dealt void hands forever.
TABLES = {
    "easy": ["easy"] * 4,
    "normal": ["normal"] * 4,
    "hard": ["hard"] * 4,
    "mixed": ["hard", "normal", "easy", "normal"],
    "easy-hard": ["easy", "hard", "easy", "hard"],
}
MAX_DEALS = 40


@pytest.mark.parametrize("table", sorted(TABLES))
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.booleans())
def test_bot_only_matches_end_at_every_level(table, seed, partners):
    levels = TABLES[table]
    rng = random.Random(seed)
    m = GAME.new_match({"hands": 3, "partners": partners}, 4, SeededRNG(seed))
    deals = 1
    while not GAME.match_over(m):
        if GAME.hand_over(m):
            assert deals < MAX_DEALS, f"{table}: {deals} deals, {m.voids} void"
            GAME.start_next_hand(m, SeededRNG(seed * 7919 + deals))
            deals += 1
            continue
        hand = m.hand
        n = 0
        while not hand.over:  # one hand ends within the bound (simulate.MAX_ACTIONS)
            seat = GAME.to_act(m)[0]
            view = json.loads(json.dumps(GAME.view_for(m, seat)))
            GAME.apply(m, seat, GAME.bot_choose(view, levels[seat], rng), 0.0)
            n += 1
            assert n <= MAX_ACTIONS
    res = GAME.match_result(m)
    assert res.hands == 3 and len(GAME.hand_results(m)) == 3
    assert deals == 3 + m.voids


def test_four_easy_bots_finish_hands():
    """The regression of issue 18: a table of four easy bots finishes hands (it used to
    deal void hands forever, V-E1)."""
    rng = random.Random(5)
    finished = 0
    for i in range(12):
        hand = new_hand(i % 4, SeededRNG(1000 + i))
        play_hand(hand, ["easy"] * 4, rng)
        finished += not hand.void
    assert finished >= 3
