"""The platform tests run on the toy game, registered for the whole suite by its one
line in tests/settings.py; no platform module names it."""

from __future__ import annotations

import pytest

from game.engine import registry
from tests.game.conftest import _game_settings, players  # noqa: F401  (fixtures)


@pytest.fixture(autouse=True)
def toy_registered():
    return registry.GAMES["toy"]
