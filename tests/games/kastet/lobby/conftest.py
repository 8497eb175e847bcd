"""The game's lobby tests use the lobby's fixtures (tests/lobby/conftest.py)."""

from tests.lobby.conftest import _lobby_settings, players  # noqa: F401  (fixtures)
