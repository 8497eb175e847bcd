"""Fixtures for King's served tests: bots inline, players."""

from __future__ import annotations

import pytest

from accounts.models import User


@pytest.fixture(autouse=True)
def _game_settings(settings):
    settings.KUT_BOTS_INLINE = True
    settings.KUT_BOT_DELAY_SECONDS = 0
    settings.KUT_NEXT_HAND_SECONDS = 10
    settings.KUT_TURN_SECONDS = 45
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", "testserver"]


@pytest.fixture
def players(db):
    return [
        User.objects.create_user(
            username=f"kral{i}", email=f"k{i}@example.com", password="kupa-papazi-rifki-42"
        )  # fmt: skip
        for i in range(4)
    ]
