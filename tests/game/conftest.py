"""Fixtures for the rooms layer: players, matches, authenticated websocket clients."""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

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
            username=f"oyuncu{i}", email=f"o{i}@example.com", password="kirmizi-yedi-okey-42"
        )  # fmt: skip
        for i in range(4)
    ]


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def connect(match_id: int, cookie: str | None, origin: str = "http://localhost",
                  query: str = ""):  # fmt: skip
    from kut_site.asgi import application

    headers = [(b"origin", origin.encode()), (b"host", b"localhost")]
    if cookie:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    path = f"/ws/match/{match_id}/" + (f"?{query}" if query else "")
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await comm.connect(timeout=10)
    return comm, connected, code


async def receive(comm, timeout: float = 10) -> dict:
    return json.loads(await comm.receive_from(timeout=timeout))
