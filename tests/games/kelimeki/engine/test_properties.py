"""Hypothesis properties of the Kelimeki engine: 100 tiles conserved, shares add up to
the play's points, a refused action changes nothing, views never leak, to_dict/from_dict
round-trips, generated plays score exactly as the rules do, bot games end."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine.errors import EngineError
from games.kelimeki.engine import GAME, rules
from games.kelimeki.engine.alphabet import COUNTS, JOKER, LETTERS
from games.kelimeki.engine.lexicon import lexicon_for
from games.kelimeki.engine.movegen import Position, generate

SETTINGS = settings(max_examples=6, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])  # fmt: skip


def all_tiles(state) -> Counter:
    c = Counter(state.bag)
    for r in state.racks:
        c.update(r)
    for i, ch in enumerate(state.cells):
        if ch is not None:
            c[JOKER if i in state.jokers else ch] += 1
    return c


def garbage_action(rng: random.Random, state) -> dict:
    """A random, usually illegal action (bad cells, letters, tiles, types)."""
    kind = rng.choice(["play", "play", "exchange", "bogus"])
    if kind == "play":
        rack = state.racks[state.turn] or ["A"]
        return {"type": "play", "placements": [
            {"row": rng.randrange(-1, 16), "col": rng.randrange(-1, 16),
             "letter": rng.choice(LETTERS + rng.choice(rack).replace("*", "A")),
             "joker": rng.random() < 0.2} for _ in range(rng.randint(0, 4))]}  # fmt: skip
    if kind == "exchange":
        return {"type": "exchange", "letters": rng.sample(list(LETTERS), rng.randint(0, 3))}
    return {"type": "dance"}


def leak_free(state, seat: int) -> None:
    """The seat's view does not change when the hidden tiles (other racks, bag order)
    are dealt differently — so it cannot hold them."""
    view = GAME.view_for(state, seat)
    assert "bag" not in view and "racks" not in view and "secret" not in view
    other = GAME.from_dict(GAME.to_dict(state))
    hidden = list(other.bag)
    for s in range(other.players):
        if s != seat:
            hidden += other.racks[s]
    random.Random(len(hidden)).shuffle(hidden)
    for s in range(other.players):
        if s != seat:
            other.racks[s], hidden = hidden[: len(other.racks[s])], hidden[len(other.racks[s]) :]
    other.bag = hidden
    other.secret ^= 0xFFFF
    assert GAME.view_for(other, seat) == view


@SETTINGS
@given(seed=st.integers(0, 10**6), seats=st.sampled_from((2, 4)))
def test_game_invariants(seed, seats):
    """Tiles conserved (100); refused actions change nothing; views never leak; the
    JSON round trip is exact; shares add up to the points of every play."""
    rng = random.Random(seed)
    state = GAME.new_match({}, seats, rng)
    for _ in range(10):
        if state.over:
            break
        seat = state.turn
        before = GAME.to_dict(state)
        bad = garbage_action(rng, state)
        try:
            GAME.apply(state, seat, bad, 0.0)
        except EngineError:
            assert GAME.to_dict(state) == before  # a refused action changes nothing
        else:  # a random action may be legal (a short word or an exchange)
            assert all_tiles(state) == Counter(COUNTS)
        wrong = (state.turn + 1) % seats
        snap = GAME.to_dict(state)
        try:
            GAME.apply(state, wrong, {"type": "pass"}, 0.0)
        except EngineError as exc:
            assert exc.code in ("not_your_turn", "game_over")
        assert GAME.to_dict(state) == snap
        if state.over:
            break
        seat = state.turn
        view = json.loads(json.dumps(GAME.view_for(state, seat)))
        action = GAME.bot_choose(view, rng.choice(("easy", "normal", "hard")), rng)
        scores = list(state.scores)
        events = GAME.apply(state, seat, action, 0.0)
        if events[0]["type"] == "play":
            e = events[0]
            assert sum(e["shares"]) == e["points"] and min(e["shares"]) >= 0
            gained = [a - b for a, b in zip(state.scores, scores)]
            if not state.over:
                assert gained == e["shares"]
        assert all_tiles(state) == Counter(COUNTS)
        for s in range(seats):
            leak_free(state, s)
        d = GAME.to_dict(state)
        assert GAME.to_dict(GAME.from_dict(json.loads(json.dumps(d)))) == d


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_generated_plays_score_as_the_rules_do(seed):
    """Every play the AI generates is legal and its points, tax and kept part are
    exactly what the rules give (so the strongest level's maximum is a true one)."""
    rng = random.Random(seed)
    state = GAME.new_match({}, rng.choice((2, 4)), rng)
    lex = lexicon_for(None)
    for _ in range(rng.randint(1, 8)):
        if state.over:
            return
        seat = state.turn
        GAME.apply(state, seat, GAME.bot_choose(GAME.view_for(state, seat), "hard", rng), 0.0)
    if state.over:
        return
    seat = state.turn
    moves = generate(Position.from_view(GAME.view_for(state, seat)), lex)
    for m in rng.sample(moves, min(60, len(moves))):
        res = rules.preview(state, seat, m.placements())
        assert res.points == m.points and res.shares[seat] == m.kept
        assert sum(res.shares) == res.points


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), seats=st.sampled_from((2, 4)))
def test_bot_games_always_end(seed, seats):
    """Bots only (easy, fast) play a whole game; it ends by W-E1 or W-E2 and the 100
    tiles are all still there."""
    rng = random.Random(seed)
    state = GAME.new_match({}, seats, rng)
    for _ in range(400):
        if state.over:
            break
        seat = state.turn
        GAME.apply(state, seat, GAME.bot_choose(GAME.view_for(state, seat), "easy", rng), 0.0)
    assert state.over and state.end in ("out", "passes")
    assert all_tiles(state) == Counter(COUNTS)
