"""Hypothesis properties over seeded Kastet hands of bot play mixed with random
refused actions, undos and timeouts: the 106 tiles are conserved, a refused action
changes nothing, views never leak, the state round-trips, every hand ends, and an
exported hand replays to the same end."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine.errors import EngineError
from game.engine.fair import SeededRNG
from games.kastet.engine.bots import choose
from games.kastet.engine.deal import new_hand
from games.kastet.engine.replay import export_scenario, result_of, run_scenario
from games.kastet.engine.rules import apply
from games.kastet.engine.state import HandState
from games.kastet.engine.views import view_for
from games.okey.engine.tiles import NUM_TILES, face_name, face_of

GAMES = settings(max_examples=4, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow,
                                        HealthCheck.function_scoped_fixture])  # fmt: skip
seeds = st.integers(min_value=0, max_value=2**63 - 1)
LEVELS = ("easy", "normal", "hard")


def dump(hand: HandState) -> str:
    return json.dumps(hand.to_dict(), sort_keys=True)


def junk_action(hand: HandState, seat: int, rng: random.Random) -> dict:
    """Something usually illegal: a scrambled table, a tile of someone else, a stray
    pair, an out-of-turn move."""
    table = [[face_name(face_of(t)) for t in g] for g in hand.table]
    mine = [face_name(face_of(t)) for t in hand.rack_tiles(seat)]
    kind = rng.randrange(6)
    if kind == 0 and table:
        flat = [t for g in table for t in g] + mine[:1]
        rng.shuffle(flat)
        return {"type": "lay", "table": [flat[i : i + 3] for i in range(0, len(flat), 3)]}
    if kind == 1:
        other = (seat + 1) % 4
        theirs = [hand.ids[t] for t in hand.rack_tiles(other)][:3]
        return {"type": "lay", "table": table + [theirs]}
    if kind == 2:
        return {"type": "lay", "table": table, "pairs": [mine[:2]]}
    if kind == 3:
        return {"type": "lay", "table": table[1:] + [mine[:3]]}
    return {"type": rng.choice(["undo", "pass", "draw", "discard"])}


def play(seed: int, check, every: int = 1) -> HandState:
    rng = random.Random(seed)
    hand = new_hand(rng.randrange(4), SeededRNG(seed), partners=rng.random() < 0.5)
    levels = [rng.choice(LEVELS) for _ in range(4)]
    steps = 0
    while not hand.over:
        seat = hand.turn
        r = rng.random()
        if r < 0.25:
            actor = seat if rng.random() < 0.7 else rng.randrange(4)
            action = junk_action(hand, actor, rng)
        elif r < 0.28:
            actor, action = seat, {"type": "timeout"}
        else:
            view = json.loads(json.dumps(view_for(hand, seat)))
            actor, action = seat, choose(view, levels[seat], rng)
            if action["type"] == "pass" and hand.undo and rng.random() < 0.2:
                action = {"type": "undo"}
        before = dump(hand)
        try:
            apply(hand, actor, action)
        except EngineError:
            assert dump(hand) == before, action  # a refused action changes nothing
        if steps % every == 0 or hand.over:
            check(hand)
        steps += 1
        assert steps < 3000, "a hand did not end"
    return hand


def conserved(hand: HandState) -> None:
    assert sorted(hand.all_tiles()) == list(range(NUM_TILES))


@pytest.mark.usefixtures("small_budget")
@GAMES
@given(seeds)
def test_tiles_conserved_refusals_change_nothing_and_hands_end(seed):
    hand = play(seed, conserved)
    assert hand.scores is not None and (hand.finisher is not None or hand.blocked)


def no_leak(hand: HandState) -> None:
    conserved(hand)
    deck_ids = {hand.ids[t] for t in hand.deck}
    for seat in (0, 1, 2, 3, None):
        text = json.dumps(view_for(hand, seat))
        hidden = set(deck_ids)
        if not hand.over:
            for s in range(4):
                if s != seat:
                    hidden |= {hand.ids[t] for t in hand.rack_tiles(s)}
        assert not any(i in text for i in hidden)
        assert hand.ids[hand.indicator] not in text  # the indicator shows by face only


@pytest.mark.usefixtures("small_budget")
@GAMES
@given(seeds)
def test_views_never_leak(seed):
    play(seed, no_leak, every=2)


def round_trip(hand: HandState) -> None:
    d = hand.to_dict()
    assert HandState.from_dict(json.loads(json.dumps(d))).to_dict() == d


@pytest.mark.usefixtures("small_budget")
@GAMES
@given(seeds)
def test_round_trip_and_export_replays(seed):
    hand = play(seed, round_trip, every=3)
    out = run_scenario(json.loads(json.dumps(export_scenario(hand))))
    assert all(r["ok"] for r in out["results"])
    want = result_of(hand, out["results"])
    assert out == want
