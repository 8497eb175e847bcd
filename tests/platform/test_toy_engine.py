"""The test-suite toy game meets the Game protocol on its own (the platform tests then
host it without touching a platform module)."""

import json

from game.engine import protocol
from tests.engine.test_protocol import play_through_protocol
from tests.toygame.engine import GAME


def test_toy_game_meets_the_protocol():
    assert isinstance(GAME, protocol.Game)
    state = play_through_protocol(GAME, {"hands": 3}, 2, seed=3, level="hard")
    result = GAME.match_result(state)
    assert result.hands == 3 and sum(result.totals) >= 3
    assert GAME.view_for(state, 0).get("secret") is not None
    assert "secret" not in GAME.view_for(state, None)


def _fresh(hands=3, seed=1):
    import random

    return GAME.new_match({"hands": hands}, 2, random.Random(seed))


def test_o_r1_seats_start_in_turn_and_o_r2_a_move_adds_one_to_three():
    import random

    import pytest

    from game.engine.errors import EngineError

    state = _fresh()
    assert state["hand"]["turn"] == 0  # O-R1: seat 0 starts hand 1
    for bad in ({"type": "add", "n": 4}, {"type": "add", "n": True}, {"type": "x"}):
        before = json.dumps(state, sort_keys=True)
        with pytest.raises(EngineError):  # O-R2: refused, nothing changes
            GAME.apply(state, 0, bad, 0.0)
        assert json.dumps(state, sort_keys=True) == before
    with pytest.raises(EngineError):
        GAME.apply(state, 1, {"type": "add", "n": 1}, 0.0)  # not seat 1's turn
    GAME.apply(state, 0, {"type": "add", "n": 3}, 0.0)
    assert state["hand"]["count"] == 3 and state["hand"]["turn"] == 1
    while not GAME.hand_over(state):
        GAME.apply(state, state["hand"]["turn"], {"type": "add", "n": 3}, 0.0)
    GAME.start_next_hand(state, random.Random(2))
    assert state["hand"]["turn"] == 1  # O-R1: seat 1 starts hand 2


def test_o_r3_the_hands_winner_scores_one_plus_the_bonus_and_o_r4_the_bonus_is_hidden():
    state = _fresh()
    secret = list(state["hand"]["secret"])
    assert all(b in (1, 2, 3) for b in secret)  # O-R4
    assert GAME.view_for(state, 0)["secret"] == secret[0] and "secrets" not in GAME.view_for(
        state, 1
    )
    for n in (3, 3, 3, 1):  # seat 1 brings the count to 10
        GAME.apply(state, state["hand"]["turn"], {"type": "add", "n": n}, 0.0)
    assert state["hand"]["winner"] == 1
    assert state["results"][0]["scores"] == [0, 1 + secret[1]]  # O-R3
    assert GAME.view_for(state, 0)["secrets"] == secret  # revealed after the hand (O-R4)


def test_o_r5_a_match_is_one_or_three_hands_and_o_r6_a_timeout_adds_one():
    import pytest

    from game.engine.protocol import InputError

    for hands in (1, 3):
        assert GAME.clean_options({"hands": hands}) == {"hands": hands}  # O-R5
    with pytest.raises(InputError):
        GAME.clean_options({"hands": 2})
    state = _fresh(hands=1)
    GAME.on_timeout(state, 0, 0.0)
    assert state["hand"]["count"] == 1 and state["hand"]["turn"] == 1  # O-R6
    while not GAME.match_over(state):
        GAME.apply(state, state["hand"]["turn"], {"type": "add", "n": 3}, 0.0)
    result = GAME.match_result(state)
    assert result.hands == 1 and result.places[state["hand"]["winner"]] == 1  # O-R5


def test_o_r7_a_hands_scenario_replays_to_the_same_end():
    import pytest

    from game.engine.protocol import InputError
    from tests.toygame.engine.replay import run_scenario

    state = _fresh(hands=1, seed=5)
    GAME.on_timeout(state, 0, 0.0)
    while not GAME.hand_over(state):
        GAME.apply(state, state["hand"]["turn"], {"type": "add", "n": 2}, 0.0)
    scenario = json.loads(json.dumps(GAME.export_hand(state)))
    out = run_scenario(scenario)
    assert all(r["ok"] for r in out["results"]) and out["over"]
    assert out["scores"] == state["results"][0]["scores"] and out["count"] == state["hand"]["count"]
    scenario["moves"][0] = [1, 1]  # out of turn: reported, not applied
    assert run_scenario(scenario)["results"][0] == {"ok": False, "code": "not_your_turn"}
    for bad in ({"game": "kut"}, {**scenario, "first": 2}, {**scenario, "secret": [1]}):
        with pytest.raises(InputError):
            run_scenario(bad)
