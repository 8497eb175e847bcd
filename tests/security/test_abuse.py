"""Abuse (issue 11): floods on one socket and from several sockets of one user, log-in
guessing, foreign websocket origins, session fixation, cross-site requests, and a
second tab at the same seat (over real sockets and two daphne processes)."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from game import consumers, services
from game.models import Match
from games.kut.engine.match import MatchState
from tests.game.conftest import connect, receive, session_cookie
from tests.security.conftest import PASSWORD, make_user
from tests.security.urlscan import paths, routes

# --- socket floods --------------------------------------------------------------------------


def _match(users, seed="abuse"):
    m = services.match_create(game="kut", options={"tasks": 5}, users=users, rated=False, seed=seed)
    return m.pk


async def _replies(comm, n: int) -> list[dict]:
    """The next ``n`` answers (error or pong) of a socket; state frames are skipped."""
    out = []
    while len(out) < n:
        frame = await receive(comm, timeout=20)
        if frame["type"] != "state":
            out.append(frame)
    return out


@sync_to_async
def _version(match_id):
    return Match.objects.get(pk=match_id).version


@sync_to_async
def _changes(match_id, seat):
    """The shared version and the seat's private layout changes (issue 16: a layout
    move raises only the latter)."""
    m = Match.objects.get(pk=match_id)
    return m.version, m.seats.get(seat=seat).layout_version


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_flood_on_one_socket_is_limited_and_nothing_limited_is_applied(players):
    """40 pings at once: the burst of 30 is answered, the rest refused with
    ``rate_limited``; moves sent while the bucket is empty are refused and change
    nothing; a second later the socket works again."""
    mid = await sync_to_async(_match)(players)
    cookie = await sync_to_async(session_cookie)(players[1])
    comm, ok, _ = await connect(mid, cookie)
    assert ok
    await receive(comm)
    before = await _changes(mid, 1)
    move = json.dumps({"type": "action", "action": {"type": "separator", "at": 2}})
    for _ in range(40):
        await comm.send_to(text_data='{"type":"ping"}')
    for _ in range(5):
        await comm.send_to(text_data=move)  # legal at any time, but the bucket is empty
    answers = await _replies(comm, 45)
    kinds = [a.get("code") or a["type"] for a in answers]
    assert kinds.count("pong") <= 31 and kinds.count("rate_limited") >= 14, kinds
    assert kinds[-5:] == ["rate_limited"] * 5, kinds
    assert all(a["message"] for a in answers if a["type"] == "error")
    assert await _changes(mid, 1) == before  # nothing refused was applied
    await asyncio.sleep(1.0)  # ten tokens back
    await comm.send_to(text_data=move)
    await comm.send_to(text_data='{"type":"ping"}')
    assert [a["type"] for a in await _replies(comm, 1)] == ["pong"]
    assert await _changes(mid, 1) == (before[0], before[1] + 1)  # private: layout only
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_one_user_flooding_from_several_sockets_is_limited(monkeypatch, isolated_cache):
    """Four sockets of one player (seated at four tables), each within its own limit
    (30 messages at once), 120 moves in all: the per-user limit (100 per window, the
    counter in the shared cache) refuses exactly 20.  Another player is not affected."""
    monkeypatch.setattr(consumers, "USER_RATE_WINDOW", 3600)  # one window for the test
    flooder, other = await sync_to_async(lambda: (make_user("taskin"), make_user("sakin")))()
    fills = [await sync_to_async(make_user)(f"dolgu{i}") for i in range(3)]
    mids = [await sync_to_async(_match)([flooder, *fills], seed=f"flood{i}") for i in range(4)]
    cookie = await sync_to_async(session_cookie)(flooder)
    comms = []
    for mid in mids:
        comm, ok, _ = await connect(mid, cookie)
        assert ok
        await receive(comm)
        comms.append(comm)
    msg = json.dumps({"type": "action", "action": {"type": "arrange"}})
    for _ in range(30):
        for comm in comms:
            await comm.send_to(text_data=msg)
    codes = []
    await asyncio.sleep(0.5)  # a few tokens back on each socket for the pings
    for comm in comms:
        await comm.send_to(text_data='{"type":"ping"}')
        while True:
            frame = await receive(comm, timeout=30)
            if frame["type"] == "pong":
                break
            if frame["type"] == "error":
                codes.append(frame["code"])
    assert codes.count("rate_limited") == 20, codes
    # another player at the same table still plays: the limit is per user
    other_mid = await sync_to_async(_match)([other, *fills], seed="flood-other")
    comm, ok, _ = await connect(other_mid, await sync_to_async(session_cookie)(other))
    await receive(comm)
    await comm.send_to(text_data=msg)
    await comm.send_to(text_data='{"type":"ping"}')
    assert [f["type"] for f in await _replies(comm, 1)] == ["pong"]
    for c in [*comms, comm]:
        await c.disconnect()


def test_the_user_counter_fails_open_when_the_cache_is_down(monkeypatch, settings):
    """A store outage must not stop every game: the per-socket limit still holds."""
    import redis
    from django.core import cache as cache_module

    from kut_site import counters, redis_client

    class Down:
        def incr(self, *a, **k):
            raise ConnectionError("cache down")

        add = incr

    monkeypatch.setattr(cache_module, "cache", Down())  # the embedded store
    # and a Redis that does not answer (nothing listens on port 1)
    down = redis.Redis(port=1, socket_connect_timeout=0.5)
    monkeypatch.setitem(redis_client._clients, "redis://127.0.0.1:1/0", down)
    for url in ("", "redis://127.0.0.1:1/0"):
        settings.REDIS_URL = url
        with pytest.raises((ConnectionError, redis.ConnectionError)):
            counters.hit("anything", 5)
        assert consumers.user_request_allowed(1) is True


def test_the_shared_counter_counts_within_a_window_and_starts_again(monkeypatch, isolated_cache):
    """One hit, one count, on whichever store this run uses (Redis in CI); the next
    window starts from one."""
    from kut_site import counters

    now = [7200.0]
    monkeypatch.setattr(counters.time, "time", lambda: now[0])
    assert [counters.hit("probe", 3600) for _ in range(3)] == [1, 2, 3]
    assert counters.hit("other", 3600) == 1
    now[0] += 3600
    assert counters.hit("probe", 3600) == 1


# --- logins -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_log_in_guessing_is_throttled_per_name_and_per_address(settings):
    settings.KUT_LOGIN_FAILURES_PER_USERNAME = 5
    settings.KUT_LOGIN_FAILURES_PER_IP = 20
    settings.KUT_LOGIN_WINDOW_SECONDS = 2
    make_user("hedef")
    url = reverse("accounts:login")
    client = Client()
    for _ in range(5):
        assert client.post(url, {"username": "hedef", "password": "yanlis"}).status_code == 200
    locked = client.post(url, {"username": "hedef", "password": PASSWORD})
    assert locked.status_code == 429 and "_auth_user_id" not in client.session
    assert locked.context["form"].non_field_errors()  # it says why
    # other names from the same address, until the address's own limit
    for i in range(15):
        client.post(url, {"username": f"yok{i}", "password": "yanlis"})
    assert client.post(url, {"username": "yok99", "password": "x"}).status_code == 429
    time.sleep(2.2)  # the window passes: the right password works again
    assert client.post(url, {"username": "hedef", "password": PASSWORD}).status_code == 302


# --- websocket origins --------------------------------------------------------------------

BAD_ORIGINS = [
    "http://evil.example", "http://localhost.evil.example", "http://evil.example#localhost",
    "http://localhost@evil.example", "null", "file://", "http://127.0.0.1.nip.io",
    "ws://evil.example", "http://[::ffff:7f00:1]", "",
]  # fmt: skip


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_websockets_refuse_foreign_origins(players):
    from channels.testing import WebsocketCommunicator

    from kut_site.asgi import application

    mid = await sync_to_async(_match)(players)
    cookie = await sync_to_async(session_cookie)(players[0])
    for path in (f"/ws/match/{mid}/", "/ws/lobby/"):
        for origin in BAD_ORIGINS:
            comm, ok, _ = await connect(mid, cookie, origin=origin) if "match" in path else \
                await _lobby(path, cookie, origin)  # fmt: skip
            assert not ok, (path, origin)
        # no Origin header at all
        headers = [(b"host", b"localhost"), (b"cookie", f"sessionid={cookie}".encode())]
        comm = WebsocketCommunicator(application, path, headers=headers)
        ok, _ = await comm.connect(timeout=10)
        assert not ok, (path, "no origin")
        for origin in ("http://localhost", "http://localhost:8000", "https://127.0.0.1"):
            comm, ok, _ = await connect(mid, cookie, origin=origin) if "match" in path else \
                await _lobby(path, cookie, origin)  # fmt: skip
            assert ok, (path, origin, _)
            await comm.disconnect()


async def _lobby(path, cookie, origin):
    from channels.testing import WebsocketCommunicator

    from kut_site.asgi import application

    headers = [(b"origin", origin.encode()), (b"host", b"localhost"),
               (b"cookie", f"sessionid={cookie}".encode())]  # fmt: skip
    comm = WebsocketCommunicator(application, path, headers=headers)
    ok, code = await comm.connect(timeout=10)
    return comm, ok, code


# --- sessions and CSRF ---------------------------------------------------------------------


def _store(settings):
    from importlib import import_module

    return import_module(settings.SESSION_ENGINE).SessionStore()


@pytest.mark.django_db
def test_logging_in_rotates_the_session_key_and_logging_out_ends_it(settings):
    """Session fixation: a key planted before the log-in never becomes a logged-in one."""
    make_user("sabit")
    client = Client()
    session = client.session
    session["planted"] = "by an attacker"
    session.save()
    old_key = session.session_key
    client.cookies[settings.SESSION_COOKIE_NAME] = old_key
    response = client.post(reverse("accounts:login"), {"username": "sabit", "password": PASSWORD})
    assert response.status_code == 302
    new_key = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert new_key != old_key
    assert not _store(settings).exists(old_key)
    attacker = Client()
    attacker.cookies[settings.SESSION_COOKIE_NAME] = old_key
    assert attacker.get(reverse("accounts:profile")).status_code == 302  # not logged in
    cookie = response.cookies[settings.SESSION_COOKIE_NAME]
    assert cookie["httponly"] and cookie["samesite"].lower() == "lax"
    client.post(reverse("accounts:logout"))
    assert not _store(settings).exists(new_key)
    again = Client()
    again.cookies[settings.SESSION_COOKIE_NAME] = new_key
    assert again.get(reverse("accounts:profile")).status_code == 302


@pytest.mark.django_db
def test_signing_up_rotates_the_session_key_too(settings):
    client = Client()
    session = client.session
    session["planted"] = "x"
    session.save()
    old_key = session.session_key
    client.cookies[settings.SESSION_COOKIE_NAME] = old_key
    response = client.post(reverse("accounts:signup"), {
        "username": "yenioyuncu", "email": "yeni@example.com", "password1": PASSWORD,
        "password2": PASSWORD})  # fmt: skip
    assert response.status_code == 302
    assert client.cookies[settings.SESSION_COOKIE_NAME].value != old_key


def _resolvable(name: str, conv: str) -> list[str]:
    """A value with which the path resolves (CSRF is checked before the view runs)."""
    return ["accounts"] if conv.startswith("regex:auth") else ["1"]


@pytest.mark.django_db
def test_every_post_without_a_csrf_token_is_refused():
    """Every URL pattern of the site (the admin's too), POSTed by a logged-in staff
    member without the token, with a wrong one, and from a foreign origin: 403."""
    staff = make_user("csrfstaff", is_staff=True, is_superuser=True)
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.force_login(staff)
    client.get(reverse("accounts:profile"))  # a csrftoken cookie, as a browser has
    token = client.cookies["csrftoken"].value
    refused = []
    checked = 0
    for route in routes():
        path = paths(route, _resolvable)[0]
        for headers, data in (({}, {}), ({}, {"csrfmiddlewaretoken": "x" * 64}),
                              ({"HTTP_ORIGIN": "http://evil.example",
                                "HTTP_X_CSRFTOKEN": token}, {})):  # fmt: skip
            response = client.post(path, data, **headers)
            checked += 1
            if response.status_code != 403:
                refused.append(f"{path} ({route}) {headers or data}: {response.status_code}")
    assert not refused, "answered without a valid CSRF token:\n" + "\n".join(refused)
    assert checked > 200
    # and with the token from the same origin, a POST goes through
    ok = client.post(reverse("accounts:profile"), {"display_name": "Yeni ad"},
                     HTTP_X_CSRFTOKEN=token)  # fmt: skip
    assert ok.status_code == 302


# --- a second tab, over real sockets ----------------------------------------------------------

pytest.register_assert_rewrite("tests.game.livestack")
from tests.game.livestack import Player, requires_services  # noqa: E402

pytest_plugins = ["tests.game.livestack"]


@requires_services
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_second_tab_on_another_process_replaces_the_first(daphnes, players, ws_loop):
    """Seat 0 opens the table on daphne A, then again on daphne B: the first socket is
    told why (``replaced``) and closed with 4009; the second plays on; only one is
    active, and the player is never shown as offline."""
    run = ws_loop.run_until_complete
    m = services.match_create(
        game="kut", options={"tasks": 5}, users=players, rated=False, seed="second-tab"
    )
    cookie = session_cookie(players[0])
    first = run(Player.open(daphnes.a, m.pk, cookie, 0))
    run(first.until_version(m.version))
    second = run(Player.open(daphnes.b, m.pk, cookie, 0))
    run(second.until_version(m.version))

    async def replaced():
        while not first.errors:
            await first.recv(20)
        await asyncio.wait_for(first.ws.wait_closed(), 20)

    run(replaced())
    assert first.errors[0]["code"] == "replaced" and first.errors[0]["message"]
    assert first.ws.close_code == 4009
    hand = MatchState.from_dict(Match.objects.get(pk=m.pk).state).hand
    if hand.turn == 0:  # the new tab plays
        from games.kut.engine import bots

        view = second.latest["hand"]
        action = bots.choose(view, "normal", __import__("random").Random(1))
        run(second.act(action, m.version))
        run(second.until_version(m.version + 1))
    assert m.seats.get(seat=0).connected
    run(second.close())
