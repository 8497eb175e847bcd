"""Hypothesis properties over random seeded hands of random play (refused attempts,
timeouts and take-backs included): the 52 cards are conserved, each contract's hand
total holds, a refused action changes nothing, views never leak, state round-trips,
an exported hand replays to the same result, bot games end."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine.errors import EngineError
from games.king.engine import GAME
from games.king.engine.cards import NAMES, card, names
from games.king.engine.contracts import CONTRACTS, HAND_TOTAL, PENALTY_CARDS
from games.king.engine.match import MatchState
from games.king.engine.replay import export_scenario, result_of, run_scenario

PROPS = settings(max_examples=60, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
seeds = st.integers(min_value=0, max_value=2**63 - 1)


def _new(seed: int) -> tuple[MatchState, random.Random]:
    rng = random.Random(seed)
    length = rng.choice((4, 8, 12, 20))
    state = GAME.new_match({"length": length, "rated": False, "take_back": True}, 4, rng)
    # a random earlier history: play some hands quickly by timeouts
    for _ in range(rng.randrange(min(length, 6))):
        while not GAME.hand_over(state):
            GAME.on_timeout(state, GAME.to_act(state)[0], 0.0)
        GAME.start_next_hand(state, rng)
    return state, rng


def _random_action(state: MatchState, rng: random.Random) -> tuple[int, dict]:
    hand = state.hand
    r = rng.random()
    if r < 0.15:  # anything at all, from anyone
        seat = rng.randrange(4)
        kind = rng.choice(("choose", "play", "timeout", "take_back"))
        if kind == "choose":
            c = rng.choice(CONTRACTS)
            return seat, {"type": "choose", "contract": c,
                          **({"trump": rng.choice("SHCD")} if c == "koz" else {})}  # fmt: skip
        if kind == "play":
            return seat, {"type": "play", "card": rng.choice(NAMES)}
        return seat, {"type": kind}
    seat = hand.turn
    view = GAME.view_for(state, seat)
    if r < 0.2:
        return seat, {"type": "timeout"}
    if view["choice"]:
        ok = [o["contract"] for o in view["choice"]["options"] if o["allowed"]]
        c = rng.choice(ok)
        return seat, {"type": "choose", "contract": c,
                      **({"trump": rng.choice("SHCD")} if c == "koz" else {})}  # fmt: skip
    if rng.random() < 0.3:
        return seat, {"type": "play", "card": rng.choice(view["hand"])}  # maybe refused
    return seat, {"type": "play", "card": rng.choice(view["playable"])}


def _steps(state: MatchState, rng: random.Random):
    n = 0
    while not state.hand.over:
        seat, action = _random_action(state, rng)
        before = GAME.to_dict(state)
        try:
            GAME.apply(state, seat, action, float(n))
            yield True, before
        except EngineError:
            assert GAME.to_dict(state) == before, action  # a refused action changes nothing
            yield False, before
        n += 1
        assert n < 2000, "a random hand did not end"


def _all_cards(state: MatchState) -> list[int]:
    hand = state.hand
    out = [c for h in hand.hands for c in h] + list(hand.trick)
    for _, cards, _ in hand.tricks:
        out += cards
    return out


@PROPS
@given(seeds)
def test_52_cards_conserved_after_every_action(seed):
    """G-C1: nothing is created or lost, whatever is played."""
    state, rng = _new(seed)
    for _ in _steps(state, rng):
        assert sorted(_all_cards(state)) == list(range(52))
        assert all(len(state.hand.hands[s]) <= 13 for s in range(4))


@PROPS
@given(seeds)
def test_hand_total_of_each_contract(seed):
    """G-S8: a hand's four scores add up to its contract's total, early ends included;
    G-P9: only the four early contracts end before trick 13."""
    state, rng = _new(seed)
    for _ in _steps(state, rng):
        pass
    hand = state.hand
    assert sum(hand.scores) == HAND_TOTAL[hand.contract]
    if len(hand.tricks) < 13:
        assert hand.contract in ("kupa_almaz", "erkek_almaz", "kiz_almaz", "rifki")
    assert state.results[-1]["scores"] == hand.scores


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(seeds)
def test_views_never_leak_and_state_round_trips(seed):
    """G-V2, G-V5, P-1: no view holds another seat's unplayed cards, the deal (before the
    hand is over), the log or the seed; playable cards only for the seat to play;
    to_dict/from_dict round-trips exactly."""
    state, rng = _new(seed)
    for _ in _steps(state, rng):
        d = GAME.to_dict(state)
        assert GAME.to_dict(GAME.from_dict(json.loads(json.dumps(d)))) == d
        hand = state.hand
        for seat in (None, 0, 1, 2, 3):
            view = GAME.view_for(state, seat)
            # "lacks" names the penalty cards a seat showed it does not hold (G-P7,
            # G-P8): a deduction anyone at the table can make, never where a card is.
            for lacks in view.pop("lacks"):
                assert set(lacks) <= set(names(PENALTY_CARDS[hand.contract or "koz"]))
            text = json.dumps(view)
            assert '"log"' not in text and '"deal"' not in text or hand.over
            if hand.over:
                continue
            for other in range(4):
                if other == seat:
                    assert view["hand"] == names(hand.hands[seat])
                    continue
                for c in names(hand.hands[other]):
                    assert f'"{c}"' not in text, (seat, other, c)
            if seat != hand.turn:
                assert view["playable"] == []


@PROPS
@given(seeds)
def test_an_exported_hand_replays_to_the_same_result(seed):
    """king-scenario.md: the hand as a scenario file replays to the same state."""
    state, rng = _new(seed)
    for accepted, _ in _steps(state, rng):
        if accepted and rng.random() < 0.1:
            exported = export_scenario(state.hand)
            assert run_scenario(exported) == result_of(state.hand, [{"ok": True}] * len(
                exported["actions"]))  # fmt: skip
    exported = json.loads(json.dumps(GAME.export_hand(state)))
    out = run_scenario(exported)
    assert out["scores"] == state.hand.scores and out["over"]
    assert out["hands"] == [names(h) for h in state.hand.hands]
    assert [card(c) for c in out["tricks"][-1]["cards"]] == state.hand.tricks[-1][1]


@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(seeds)
def test_bot_hands_always_end(seed):
    """G-X3: bot-versus-bot hands end, with legal moves only."""
    state, rng = _new(seed)
    levels = [rng.choice(("easy", "normal")) for _ in range(4)]
    n = 0
    while not GAME.hand_over(state):
        (seat,) = GAME.to_act(state)
        view = json.loads(json.dumps(GAME.view_for(state, seat)))
        GAME.apply(state, seat, GAME.bot_choose(view, levels[seat], rng), 0.0)
        n += 1
        assert n <= 53
