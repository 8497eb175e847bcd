"""Fixtures for the security and reliability tests (issue 11).

In-process sockets (``WebsocketCommunicator`` through ``kut_site.asgi.application``) use
a channel-layer prefix of this run's own, so that other test runs on the same Redis
(same match ids, same group names) never exchange frames with these sockets; login and
rate-limit counters live in a cache namespace of each test's own.
"""

from __future__ import annotations

import copy
import uuid

import pytest

from accounts.models import User

PASSWORD = "kirmizi-yedi-okey-42"
PREFIX = f"kut-sec-{uuid.uuid4().hex[:10]}"


def private_layers(layers: dict) -> dict:
    """``CHANNEL_LAYERS`` with this run's own prefix (Redis; the in-memory layer has
    none)."""
    layers = copy.deepcopy(layers)
    if "prefix" in layers["default"].get("CONFIG", {}):
        layers["default"]["CONFIG"]["prefix"] = PREFIX
    return layers


GAME_SETTINGS = {
    "KUT_BOTS_INLINE": True,
    "KUT_BOT_DELAY_SECONDS": 0,
    "KUT_NEXT_HAND_SECONDS": 10,
    "KUT_TURN_SECONDS": 45,
    "ALLOWED_HOSTS": ["localhost", "127.0.0.1", "testserver"],
}


@pytest.fixture(autouse=True)
def _security_settings(settings, isolated_cache):
    for name, value in GAME_SETTINGS.items():
        setattr(settings, name, value)
    # channels drops its cached layers on this change
    settings.CHANNEL_LAYERS = private_layers(settings.CHANNEL_LAYERS)


def make_user(name: str, **extra) -> User:
    return User.objects.create_user(
        username=name, email=f"{name}@example.com", password=PASSWORD, **extra
    )


@pytest.fixture
def players(db):
    return [make_user(f"oyuncu{i}") for i in range(4)]
