"""The test-suite toy game meets the Game protocol on its own (the platform tests then
host it without touching a platform module)."""

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
