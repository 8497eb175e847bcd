"""The Game protocol and the registry (issue "One site, five games"): KÜT plays whole
matches through the protocol alone, and the commands dispatch on ``"game"``."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from game.engine import protocol, registry
from game.engine.errors import EngineError


def play_through_protocol(game, options: dict, seats: int, seed: int, level="normal"):
    """Bots play a whole match using only protocol methods, with a JSON round trip of
    the state after every step (what the platform stores)."""
    rng = random.Random(seed)
    state = game.new_match(options, seats, rng)
    steps = 0
    while not game.match_over(state):
        steps += 1
        assert steps < 20_000, "a bot match must end"
        if game.hand_over(state):
            game.start_next_hand(state, rng)
        else:
            acted = False
            for seat in game.may_act(state):
                view = json.loads(json.dumps(game.view_for(state, seat)))
                action = game.bot_choose(view, level, rng)
                if action is None:
                    continue
                before = game.to_dict(state)
                try:
                    game.apply(state, seat, action, 0.0)
                except EngineError:
                    assert game.to_dict(state) == before  # a refused action changes nothing
                    continue
                acted = True
                break
            if not acted:
                game.on_timeout(state, game.to_act(state)[0], 0.0)
        state = game.from_dict(json.loads(json.dumps(game.to_dict(state))))
    return state


def test_kut_meets_the_protocol_and_plays_a_whole_match():
    game = registry.get("kut")
    assert isinstance(game, protocol.Game)
    assert game.seat_counts == (4,) and game.fixed_move_seconds  # K-N6
    state = play_through_protocol(game, {"tasks": 5}, 4, seed=7)
    result = game.match_result(state)
    assert result.hands == 5 == len(game.hand_results(state))  # K-M2
    assert result.totals == [sum(h.scores[s] for h in game.hand_results(state)) for s in range(4)]
    assert sorted(result.places)[0] == 1


def test_kut_options_are_checked():
    game = registry.get("kut")
    assert game.clean_options({}) == {"tasks": 8}
    for bad in ({"tasks": 7}, {"tasks": True}, {"tasks": 8, "board": 1}):
        with pytest.raises(protocol.InputError):
            game.clean_options(bad)


def test_places_share_ties():
    assert protocol.places_of([10, 5, 5, 20], lower_is_better=True) == [3, 1, 1, 4]
    assert protocol.places_of([10, 5, 5, 20], lower_is_better=False) == [2, 3, 3, 1]


def test_every_registered_game_names_its_package_and_commands():
    for key, entry in registry.GAMES.items():
        assert entry.key == key and entry.package == f"{registry.home(key)}.engine"
        assert "replay" in entry.commands


@pytest.mark.parametrize("command", ["replay", "solve", "rating"])
def test_commands_refuse_an_unknown_game_with_one_line(command):
    proc = subprocess.run(
        [sys.executable, "-m", f"game.engine.{command}", "-"],
        input=json.dumps({"game": "tavla"}), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "tavla" in proc.stderr
