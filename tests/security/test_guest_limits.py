"""Issue 27: a visitor's work is bounded (``game.limits``).  Items 3, 4 and 9 of the
attack: guests flooded the CPU with moves, created 500 games (and sessions) in 8.3 s,
previewed 1,000 plays in 5.5 s, and a player opened 100 recorded games against the AI
in 2.9 s.  Each limit here is refused with a clear Turkish message and changes nothing;
the counters are the shared ones (Redis with ``REDIS_URL``), each test in a namespace of
its own (``isolated_cache``)."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from game import consumers, services
from game.models import Match
from lobby.models import Table
from tests.game.conftest import connect, receive
from tests.game.test_consumer import next_error
from tests.games.kelimeki.web.test_guests import cookie, post_json, preview_url, start
from tests.security.conftest import make_user

GAMES_LIMITED = "Kısa sürede çok sayıda oyun başlattın"
PREVIEWS_LIMITED = "Kısa sürede çok sayıda puan hesabı istedin"


def new_game(client: Client, **fields):
    data = {"level": "easy", "players": "2", **fields}
    return client.post(reverse("kelimeki:solo_new"), data)


def guest_matches() -> list[int]:
    return list(
        Match.objects.filter(kind=Match.Kind.GUEST).order_by("pk").values_list("pk", flat=True)
    )


@pytest.mark.django_db
def test_new_games_are_limited_per_session(settings, isolated_cache):
    settings.KUT_GUEST_GAMES_PER_SESSION, settings.KUT_GUEST_GAMES_PER_IP = 3, 10**6
    client = Client(HTTP_ACCEPT_LANGUAGE="tr")
    for _ in range(3):
        assert new_game(client).status_code == 302
    kept = guest_matches()
    assert len(kept) == 1  # each new game replaced the one before
    state = Match.objects.get(pk=kept[0]).state
    refused = new_game(client)
    assert refused.status_code == 429
    html = refused.content.decode()
    assert GAMES_LIMITED in html and f'data-match="{kept[0]}"' in html  # the game goes on
    assert guest_matches() == kept and Match.objects.get(pk=kept[0]).state == state
    assert new_game(Client()).status_code == 302  # another visitor is not limited


@pytest.mark.django_db
def test_new_games_are_limited_per_client_address(settings, isolated_cache):
    """Dropping the cookie does not escape it: the address counts (behind one proxy,
    the address it appended, never what the client put in X-Forwarded-For)."""
    settings.KUT_GUEST_GAMES_PER_SESSION, settings.KUT_GUEST_GAMES_PER_IP = 10**6, 4
    settings.KUT_TRUSTED_PROXIES = 1
    for n in range(4):
        client = Client(HTTP_X_FORWARDED_FOR=f"10.0.0.{n}, 203.0.113.7")
        assert new_game(client).status_code == 302
    before, sessions = guest_matches(), Session.objects.count()
    assert len(before) == 4 and sessions == 4
    refused = new_game(
        Client(HTTP_ACCEPT_LANGUAGE="tr", HTTP_X_FORWARDED_FOR="10.9.9.9, 203.0.113.7")
    )
    assert refused.status_code == 429 and GAMES_LIMITED in refused.content.decode()
    assert guest_matches() == before and Session.objects.count() == sessions  # no row either
    assert new_game(Client(HTTP_X_FORWARDED_FOR="203.0.113.8")).status_code == 302


@pytest.mark.django_db
def test_previews_are_limited_per_session_and_per_address(settings, isolated_cache):
    """W-M7's preview: 1,000 in 5.5 s before; now per visitor and per address."""
    settings.KUT_PREVIEWS_PER_SESSION, settings.KUT_PREVIEWS_PER_IP = 5, 8
    client = Client(HTTP_ACCEPT_LANGUAGE="tr")
    match = start(client)
    body = {"placements": [{"row": 7, "col": 7, "letter": "A"}]}
    for _ in range(5):
        status, answer = post_json(client, preview_url(match), body)
        assert status == 200 and "ok" in answer
    status, answer = post_json(client, preview_url(match), body)
    assert status == 429 and answer["type"] == "error" and answer["code"] == "rate_limited"
    assert PREVIEWS_LIMITED in answer["message"]
    # a second guest at the same address: 2 more previews in all for the address
    other = Client(HTTP_ACCEPT_LANGUAGE="tr")
    theirs = start(other)
    answers = [post_json(other, preview_url(theirs), body)[0] for _ in range(4)]
    assert answers == [200, 200, 429, 429]
    stored = Match.objects.get(pk=match.pk)
    assert (stored.version, stored.state) == (match.version, match.state)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_guests_moves_are_limited_per_guest_and_per_address(settings, monkeypatch,
                                                                    isolated_cache):  # fmt: skip
    """The match socket's per-visitor limit counts a guest under their guest identity
    (and their sockets, ``KUT_SOCKETS_PER_USER``); all guests of one address together
    have ``KUT_GUEST_SOCKET_REQUESTS_PER_IP``.  Nothing refused is applied."""
    monkeypatch.setattr(consumers, "USER_RATE_LIMIT", 5)
    monkeypatch.setattr(consumers, "USER_RATE_WINDOW", 3600)  # one window for the test
    settings.KUT_GUEST_SOCKET_WINDOW_SECONDS = 3600
    client = Client()
    match = await sync_to_async(start)(client)
    comm, ok, _ = await connect(match.pk, cookie(client))
    assert ok
    frame = await receive(comm)
    version = frame["version"]
    for _ in range(8):  # the first applies (and the AI answers), the rest are stale
        await comm.send_to(text_data=json.dumps({"type": "action", "action": {"type": "pass"},
                                                 "version": version}))  # fmt: skip
    codes = [(await next_error(comm))["code"] for _ in range(7)]
    assert codes.count("rate_limited") == 3 and codes.count("stale_version") == 4, codes
    stored = await sync_to_async(Match.objects.get)(pk=match.pk)
    assert stored.version == version + 2  # the guest's pass and the AI's answer only
    # the same guest's sockets count under their identity
    settings.KUT_SOCKETS_PER_USER = 1
    second, ok, code = await connect(match.pk, cookie(client))
    assert not ok and code == 4029
    await comm.disconnect()
    # per address: two guests, 6 requests for the address in all (counted afresh)
    settings.CACHES = {**settings.CACHES, "default": {**settings.CACHES["default"],
                       "KEY_PREFIX": settings.CACHES["default"]["KEY_PREFIX"] + "-ip"}}  # fmt: skip
    monkeypatch.setattr(consumers, "USER_RATE_LIMIT", 10**6)
    settings.KUT_SOCKETS_PER_USER = 8
    settings.KUT_GUEST_SOCKET_REQUESTS_PER_IP = 6
    codes = []
    for guest in (Client(), Client()):
        theirs = await sync_to_async(start)(guest)
        sock, ok, _ = await connect(theirs.pk, cookie(guest))
        assert ok
        await receive(sock)
        stale = {"type": "action", "action": {"type": "pass"}, "version": 10**6}
        for _ in range(4):  # moves that reach the service (and are refused there)
            await sock.send_to(text_data=json.dumps(stale))
            codes.append((await next_error(sock))["code"])
        await sock.disconnect()
    assert codes == ["stale_version"] * 6 + ["rate_limited"] * 2, codes


@pytest.mark.django_db
def test_recorded_games_against_the_ai_are_limited_per_player(settings, isolated_cache):
    """Item 9: at most KUT_AI_GAMES_RUNNING_PER_USER recorded games against the AI at
    once (W-X4 allows several) and KUT_AI_GAMES_PER_USER started per window."""
    settings.KUT_AI_GAMES_RUNNING_PER_USER, settings.KUT_AI_GAMES_PER_USER = 2, 10**6
    player = make_user("yapayci")
    client = Client(HTTP_ACCEPT_LANGUAGE="tr")
    client.force_login(player)
    started = []
    for _ in range(2):
        response = new_game(client, record="klig")
        assert response.status_code == 302
        started.append(int(response.url.rstrip("/").split("/")[-1]))
    tables = Table.objects.count()
    refused = new_game(client, record="klig")
    assert refused.status_code == 429
    assert "Yapay Zekaya karşı süren 2 oyunun var" in refused.content.decode()
    assert Table.objects.count() == tables and Match.objects.count() == 2
    services.match_leave(started[0], player)  # W-E6: one of them is given up
    assert new_game(client, record="klig").status_code == 302
    # per window
    settings.KUT_AI_GAMES_RUNNING_PER_USER, settings.KUT_AI_GAMES_PER_USER = 10**6, 3
    refused = new_game(client, record="klig")
    assert refused.status_code == 429
    assert "Yapay Zekaya karşı kısa sürede çok sayıda oyun başlattın" in refused.content.decode()
    assert Match.objects.count() == 3
    # a practice game is unrecorded: the recorded games' limits do not count it
    assert new_game(client, record="unrecorded").status_code == 302
