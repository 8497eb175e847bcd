"""Fixtures for the lobby: players, logged-in clients, lobby sockets, finished matches."""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator

from accounts.models import User
from tests.clients import client_for  # noqa: F401 - the tests here import it from this conftest

PASSWORD = "kirmizi-yedi-okey-42"


@pytest.fixture(autouse=True)
def _lobby_settings(settings):
    settings.KUT_BOTS_INLINE = True
    settings.KUT_BOT_DELAY_SECONDS = 0
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", "testserver"]
    settings.KUT_INVITE_MAX_AGE_SECONDS = 7 * 24 * 3600
    settings.KUT_LEAVER_THRESHOLD = 3
    settings.KUT_LEAVER_WINDOW_DAYS = 7
    settings.KUT_LEAVER_BAN_SECONDS = 7200


def make_user(name: str) -> User:
    return User.objects.create_user(username=name, email=f"{name}@example.com", password=PASSWORD)


@pytest.fixture
def players(db):
    """Six players: ali (usually the host), then ayse, can, deniz, ece, fatma."""
    return [make_user(n) for n in ("ali", "ayse", "can", "deniz", "ece", "fatma")]


def session_cookie(user) -> str:
    return client_for(user).cookies["sessionid"].value


async def ws_connect(path: str, cookie: str | None, origin: str = "http://localhost"):
    from kut_site.asgi import application

    headers = [(b"origin", origin.encode()), (b"host", b"localhost")]
    if cookie:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await comm.connect(timeout=10)
    return comm, connected, code


async def ws_receive(comm, timeout: float = 10) -> dict:
    return json.loads(await comm.receive_from(timeout=timeout))
