"""Hypothesis properties over random seeded games of random legal play (claims, undos
and timeouts included): tiles are conserved, views never leak, state round-trips,
every game ends, and an exported hand replays to the same result."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine.fair import SeededRNG
from games.kut.engine.deal import new_hand
from games.kut.engine.randomplay import play_random_hand, random_step
from games.kut.engine.replay import export_scenario, result_of, run_scenario
from games.kut.engine.state import HandState
from games.kut.engine.views import view_for
from games.okey.engine.tiles import NUM_TILES

GAMES = settings(max_examples=500, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
seeds = st.integers(min_value=0, max_value=2**63 - 1)


def _hand(seed: int) -> tuple[HandState, random.Random]:
    rng = random.Random(seed)
    tasks = rng.choice((5, 8, 12))
    hand = new_hand(tasks, rng.randint(1, tasks), rng.randrange(4), SeededRNG(seed))
    return hand, rng


def _steps(hand: HandState, rng: random.Random):
    budget = [3, -1, 0]
    n = 0
    while not hand.over:
        yield random_step(hand, rng, p_claim=0.35, p_timeout=0.03, p_undo=0.15,
                          undo_budget=budget)  # fmt: skip
        n += 1
        assert n < 5000, "a random game did not end"


def all_tiles(hand: HandState) -> list[int]:
    tiles = [hand.indicator, *hand.deck]
    for r in hand.racks:
        tiles += r.tiles()
    for d in hand.discards:
        tiles += d
    for g in hand.table:
        tiles += g.tiles
    return tiles


@GAMES
@given(seeds)
def test_all_106_tiles_are_accounted_for_after_every_action(seed):
    """K-T1: nothing is created or lost, whatever is played."""
    hand, rng = _hand(seed)
    assert sorted(all_tiles(hand)) == list(range(NUM_TILES))
    for _ in _steps(hand, rng):
        assert sorted(all_tiles(hand)) == list(range(NUM_TILES))


def _ids_in(obj, out: set) -> set:
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "id":
                out.add(v)
            else:
                _ids_in(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _ids_in(v, out)
    return out


def check_view_secrecy(hand: HandState, seat: int | None, view: dict) -> None:
    """A seat's view holds ids only of its own tiles and of public tiles; a watcher's
    no rack; nobody's the deck, the deal, the log or a seed."""
    public = {hand.indicator, *[t for d in hand.discards for t in d],
              *[t for g in hand.table for t in g.tiles]}  # fmt: skip
    if hand.thrown is not None:
        public.add(hand.thrown)
    allowed = {hand.ids[t] for t in public}
    if seat is not None:
        allowed |= {hand.ids[t] for t in hand.racks[seat].tiles()}
    seen = _ids_in(view, set())
    assert seen <= allowed
    text = json.dumps(view)
    for secret_key in ('"deck"', '"deal"', '"log"', '"seed"', '"ids"'):
        assert secret_key not in text
    if not hand.over:  # the shuffle commitment only; salt and order come after the hand
        assert set(view["fair"]) == {"commitment"}
    if seat is None:
        assert "rack" not in view
    else:
        # the number of faces shown equals the number of tiles this seat may see
        faces = text.count('"face"')
        # (the indicator is shown as plain text; the thrown tile twice: pile and "thrown")
        visible = len(hand.racks[seat].tiles()) + len(public) - 1 + (hand.thrown is not None)
        assert faces == visible


@GAMES
@given(seeds)
def test_views_never_leak(seed):
    hand, rng = _hand(seed)
    for i, _ in enumerate(_steps(hand, rng)):
        if i % 5 == 0 or hand.over:
            for seat in (0, 1, 2, 3, None):
                check_view_secrecy(hand, seat, view_for(hand, seat))


@GAMES
@given(seeds)
def test_state_round_trips(seed):
    hand, rng = _hand(seed)
    for i, _ in enumerate(_steps(hand, rng)):
        if i % 8 == 0 or hand.over:
            d = hand.to_dict()
            again = HandState.from_dict(json.loads(json.dumps(d)))
            assert again.to_dict() == d


@GAMES
@given(seeds)
def test_every_game_ends_and_replays_from_its_export(seed):
    hand, rng = _hand(seed)
    n = play_random_hand(hand, rng, p_claim=0.35, p_timeout=0.03, p_undo=0.15)
    assert hand.over and n > 0
    assert hand.scores is not None and len(hand.scores) == 4
    scenario = json.loads(json.dumps(export_scenario(hand)))
    out = run_scenario(scenario)
    assert all(r["ok"] for r in out["results"])
    assert out == result_of(hand, out["results"])
