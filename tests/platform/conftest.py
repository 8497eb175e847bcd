"""Register the toy game for the platform tests — in the registry's table only, as a
new game's one line would; no platform module is changed."""

from __future__ import annotations

import pytest

from game.engine import registry
from tests.game.conftest import _game_settings, players  # noqa: F401  (fixtures)


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch):
    entry = registry.GameEntry("toy", "tests.platform.toygame")
    monkeypatch.setitem(registry.GAMES, "toy", entry)
    return entry
