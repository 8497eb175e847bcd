"""``GAME`` meets the platform's Game protocol; whole matches through the protocol
only, with to_dict/from_dict round trips in between (ENGINE-BRIEF item 3)."""

from __future__ import annotations

import functools
import json
import random

import pytest

from game.engine import protocol, registry
from game.engine.errors import RuleError
from games.kelimeki.engine import GAME


def test_game_meets_the_protocol_and_is_registered():
    assert isinstance(GAME, protocol.Game)
    assert registry.get("kelimeki") is GAME
    assert GAME.key == "kelimeki" and GAME.seat_counts == (2, 4) and not GAME.partners
    with pytest.raises(protocol.InputError):
        GAME.new_match({}, 3, random.Random(1))
    with pytest.raises(protocol.InputError):
        GAME.clean_options({"tasks": 5})


@pytest.mark.parametrize(
    "seats,levels,seed", [(2, ("hard", "easy"), 11), (4, ("normal", "easy", "hard", "easy"), 12)]
)
def test_whole_match_through_the_protocol(seats, levels, seed):
    """new_match → loop {may_act/bot_choose/apply} → match_over/match_result, with a
    JSON round trip of the state after every action."""
    rng = random.Random(seed)
    state = GAME.new_match(GAME.clean_options({"vs_ai": True}), seats, rng)
    actions = 0
    while not GAME.match_over(state):
        (seat,) = GAME.may_act(state)
        assert GAME.to_act(state) == (seat,)
        view = json.loads(json.dumps(GAME.view_for(state, seat)))
        action = GAME.bot_choose(view, levels[seat], rng)
        assert GAME.bot_choose(GAME.view_for(state, (seat + 1) % seats), "hard", rng) is None
        GAME.apply(state, seat, action, 1000.0 + actions)
        state = GAME.from_dict(json.loads(json.dumps(GAME.to_dict(state))))
        actions += 1
        assert actions < 500
    assert GAME.hand_over(state) and GAME.to_act(state) == ()
    result = GAME.match_result(state)
    assert result.totals == state.scores and result.hands == 1
    assert len(GAME.hand_results(state)) == 1
    with pytest.raises(RuleError):
        GAME.start_next_hand(state, rng)
    watcher = GAME.view_for(state, None)
    assert watcher["over"] and watcher["ranks"] is not None


def test_timeouts_through_the_protocol():
    """on_timeout forfeits the seat to move (W-E6); a 2-player game then ends."""
    rng = random.Random(3)
    state = GAME.new_match({}, 2, rng)
    seat = state.turn
    with pytest.raises(RuleError):
        GAME.on_timeout(state, 1 - seat, 0.0)
    events = GAME.on_timeout(state, seat, 0.0)
    assert events[0] == {"type": "forfeit", "seat": seat} and GAME.match_over(state)
    assert GAME.match_result(state).places[1 - seat] == 1


def test_view_has_what_the_table_needs():
    """Own rack, others' counts, bag count, board, zones, layout, scores, turn, hints."""
    state = GAME.new_match({}, 4, random.Random(5))
    v = GAME.view_for(state, state.turn)
    for key in ("rack", "rack_counts", "bag_count", "unseen", "board", "zones", "layout",
                "homes", "scores", "turn", "passes", "forfeited", "first_done",
                "max_exchange", "last"):  # fmt: skip
        assert key in v
    assert v["max_exchange"] == 7 and len(v["layout"]) == 15


def test_bad_actions_are_refused_cleanly():
    state = GAME.new_match({}, 2, random.Random(6))
    before = GAME.to_dict(state)
    for bad in ({"type": "play"}, {"type": "play", "placements": [{"row": "a"}]},
                {"type": "exchange", "letters": "AB"}, {"type": "fly"}, "pass",
                {"type": "exchange", "letters": ["AB"]}, {"type": "exchange", "letters": [""]}):  # fmt: skip
        with pytest.raises(Exception) as exc:
            GAME.apply(state, state.turn, bad, 0.0)
        assert getattr(exc.value, "code", None)
        if isinstance(bad, dict) and isinstance(bad.get("letters"), list):
            assert exc.value.code == "bad_action"  # not a piece of W-T1's string
    with pytest.raises(RuleError):
        GAME.apply(state, 7, {"type": "pass"}, 0.0)
    assert GAME.to_dict(state) == before


def test_export_hand_is_a_scenario():
    from games.kelimeki.engine.replay import run_scenario

    state = GAME.new_match({}, 2, random.Random(8))
    out = run_scenario(GAME.export_hand(state))
    assert out["bag_count"] == 86 and out["turn"] == state.turn


def test_seed_and_action_log_reproduce_the_state():
    """Determinism: the same seed and the same actions give the same state, exchanges'
    random places included (they come from the match's own secret, never ``random``)."""

    def run(seed):
        rng = random.Random(seed)
        state = GAME.new_match({}, 2, rng)
        log = []
        for _ in range(12):
            if state.over:
                break
            seat = state.turn
            if len(log) % 3 == 1 and state.bag:
                action = {"type": "exchange", "letters": state.racks[seat][:2]}
            else:
                action = GAME.bot_choose(GAME.view_for(state, seat), "normal", rng)
            GAME.apply(state, seat, action, 0.0)
            log.append((seat, action))
        return state, log

    a, log = run(77)
    b = GAME.new_match({}, 2, random.Random(77))
    for seat, action in log:
        GAME.apply(b, seat, action, 0.0)
    assert GAME.to_dict(a) == GAME.to_dict(b)


def test_the_shipped_list_is_built_once_when_many_threads_ask_at_once(monkeypatch):
    """Issue 30: a server's request threads all ask for the word list at their first
    move; one builds it, the others wait for that one."""
    import threading

    from games.kelimeki.engine import lexicon

    monkeypatch.setattr(lexicon, "_shipped", functools.lru_cache(maxsize=1)(lexicon._shipped.__wrapped__))
    built = []
    real = lexicon.Lexicon

    class Counting(real):
        __slots__ = ()

        def __init__(self, *args, **kwargs):
            built.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(lexicon, "Lexicon", Counting)
    got = []
    threads = [threading.Thread(target=lambda: got.append(lexicon.shipped())) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(built) == 1 and len({id(x) for x in got}) == 1 and len(got) == 6
