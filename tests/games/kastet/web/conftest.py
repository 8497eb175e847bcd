"""The game's web tests use the rooms layer's fixtures (tests/game/conftest.py)."""

from tests.game.conftest import _game_settings, players  # noqa: F401  (fixtures)
