"""Fixtures for King's served tests: bots inline, players (the rooms layer's own)."""

from tests.game.conftest import _game_settings, players  # noqa: F401  (fixtures)
