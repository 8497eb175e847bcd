"""KDVli behind the Game protocol (game/engine/protocol.py): whole matches played only
through the protocol's methods, with JSON round trips in between; the registry line."""

from __future__ import annotations

import json
import random

import pytest

from game.engine import protocol, registry
from game.engine.errors import EngineError
from game.engine.fair import SeededRNG
from games.kdvli.engine import GAME


def test_game_meets_the_protocol_and_is_registered():
    assert isinstance(GAME, protocol.Game)
    assert registry.get("kdvli") is GAME
    assert GAME.key == "kdvli" and GAME.seat_counts == (4,) and GAME.partners
    assert GAME.lower_is_better


@pytest.mark.parametrize("partners", [False, True])
def test_a_whole_match_through_the_protocol_only(partners):
    rng = random.Random(7)
    state = GAME.new_match({"hands": 3, "partners": partners}, 4, SeededRNG(21 + partners))
    levels = ["hard", "normal", "easy", "hard"]
    k = 0
    timeouts = 0
    while not GAME.match_over(state):
        if GAME.hand_over(state):
            assert GAME.to_act(state) == ()
            GAME.start_next_hand(state, SeededRNG(500 + k))
            k += 1
            continue
        seat = GAME.may_act(state)[0]
        assert GAME.to_act(state) == (seat,)
        if rng.random() < 0.03:
            GAME.on_timeout(state, seat, 0.0)  # V-N6 through the protocol
            timeouts += 1
        else:
            view = json.loads(json.dumps(GAME.view_for(state, seat)))
            GAME.apply(state, seat, GAME.bot_choose(view, levels[seat], rng), 0.0)
        state = GAME.from_dict(json.loads(json.dumps(GAME.to_dict(state))))
    res = GAME.match_result(state)
    hands = GAME.hand_results(state)
    assert res.hands == 3 == len(hands)
    assert res.totals == [sum(h.scores[s] for h in hands) for s in range(4)]
    if partners:
        assert res.detail["team_totals"] == [res.totals[0] + res.totals[2],
                                             res.totals[1] + res.totals[3]]  # fmt: skip
        assert res.places[0] == res.places[2] and res.places[1] == res.places[3]
    scen = GAME.export_hand(state)
    assert scen["game"] == "kdvli"


def test_exported_hand_replays_to_the_same_result():
    from games.kdvli.engine.replay import run_scenario

    rng = random.Random(3)
    state = GAME.new_match({"hands": 3}, 4, SeededRNG(99))
    while not GAME.hand_over(state):
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, GAME.bot_choose(GAME.view_for(state, seat), "hard", rng), 0.0)
    out = run_scenario(GAME.export_hand(state))
    assert all(r["ok"] for r in out["results"])
    assert out["scores"] == state.hand.scores and out["void"] == state.hand.void


def test_refused_actions_raise_typed_errors_and_change_nothing():
    state = GAME.new_match({}, 4, SeededRNG(5))
    before = GAME.to_dict(state)
    other = (GAME.to_act(state)[0] + 1) % 4
    for seat, action in (
        (other, {"type": "draw"}),
        (GAME.to_act(state)[0], {"type": "x"}),
        (9, {"type": "draw"}),
        (0, "junk"),
        (GAME.to_act(state)[0], {"type": "discard", "tile_id": "nope"}),
    ):
        with pytest.raises(EngineError) as exc:
            GAME.apply(state, seat, action, 0.0)
        assert exc.value.code.replace("_", "").isalpha()
    assert GAME.to_dict(state) == before


def test_bots_return_none_when_it_is_not_their_turn():
    state = GAME.new_match({}, 4, SeededRNG(6))
    other = (GAME.to_act(state)[0] + 2) % 4
    for level in protocol.BOT_LEVELS:
        assert GAME.bot_choose(GAME.view_for(state, other), level, random.Random(1)) is None
