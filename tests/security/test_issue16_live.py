"""Issue 16's attacks against the real stack: a daphne process of its own (``python -m
daphne``, ``--proxy-headers``) on the test database (PostgreSQL) and Redis.

Its PostgreSQL connections carry an ``application_name`` and its Redis connections a
client name of this run, so the server's own counts (``pg_stat_activity``, ``CLIENT
LIST``) show exactly this process's connections.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import threading
import time
import urllib.request
import uuid

import psycopg
import pytest
import redis
from django.test import Client
from websockets.exceptions import ConnectionClosed, InvalidStatus

from game import services
from game.models import Match, MatchAction
from games.kut.engine import bots
from kut_site.sockets import KEEP_IDLE_CONNECTIONS
from tests.game.conftest import session_cookie
from tests.security.conftest import make_user

pytest.register_assert_rewrite("tests.game.livestack")
from tests.game.livestack import (  # noqa: E402 (after the rewrite registration)
    _REDIS_URL,
    FRAME_TIMEOUT,
    Daphne,
    FrameError,
    Player,
    live_database_url,
    requires_services,
    site_env,
)

pytest_plugins = ["tests.game.livestack"]  # private_layer, ws_loop
pytestmark = [requires_services, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

TAG = f"kut-i16-{uuid.uuid4().hex[:8]}"
POOL_MAX = 4  # DB_POOL_MAX_SIZE of the process under attack
SOCKETS_PER_USER = 6
REQUEST_SECONDS = 2  # KUT_HTTP_REQUEST_SECONDS
_direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _with_query(url: str, **params: str) -> str:
    sep = "&" if "?" in url else "?"
    return url + sep + "&".join(f"{k}={v}" for k, v in params.items())


@pytest.fixture(scope="module")
def own_daphne(django_db_setup, tmp_path_factory):
    env = site_env(_with_query(live_database_url(), application_name=TAG))
    env.update(
        REDIS_URL=_with_query(_REDIS_URL, client_name=TAG),
        DB_POOL_MIN_SIZE="1",
        DB_POOL_MAX_SIZE=str(POOL_MAX),
        KUT_SOCKETS_PER_USER=str(SOCKETS_PER_USER),
        KUT_HTTP_REQUEST_SECONDS=str(REQUEST_SECONDS),
        KUT_TURN_SECONDS="45",
        KUT_TRUSTED_PROXIES="1",  # the test plays the one proxy, appending 127.0.0.1
        KUT_LOGIN_FAILURES_PER_IP="8",  # (20 by default; fewer slow hashes here)
        KUT_LOGIN_FAILURES_PER_USERNAME="5",
        KUT_CACHE_PREFIX=TAG,  # counters of its own (user ids repeat from run to run)
    )
    d = Daphne("i16", env, tmp_path_factory.mktemp("daphne-i16"), extra_args=("--proxy-headers",))
    d.start()
    try:
        yield d
    finally:
        d.stop()


@pytest.fixture
def site(own_daphne, private_layer):
    if not own_daphne.running:
        own_daphne.start()
    return own_daphne


def _pg_count() -> int:
    with psycopg.connect(live_database_url(), autocommit=True) as conn:
        return conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [TAG]
        ).fetchone()[0]


def _redis_count() -> int:
    client = redis.Redis.from_url(_REDIS_URL)
    try:
        return sum(1 for c in client.client_list() if c.get("name") == TAG)
    finally:
        client.close()


class _Sampler(threading.Thread):
    """Samples this process's PostgreSQL connection count every 50 ms."""

    def __init__(self):
        super().__init__(daemon=True)
        self.samples: list[int] = []
        self.stop = threading.Event()

    def run(self):
        with psycopg.connect(live_database_url(), autocommit=True) as conn:
            while not self.stop.is_set():
                row = conn.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [TAG]
                ).fetchone()
                self.samples.append(row[0])
                time.sleep(0.05)


def _get(site: Daphne, path: str, cookie: str | None = None, headers=None) -> int:
    req = urllib.request.Request(f"http://127.0.0.1:{site.port}{path}", headers=headers or {})
    if cookie:
        req.add_header("Cookie", f"sessionid={cookie}")
    try:
        with _direct.open(req, timeout=30) as resp:
            resp.read()
            return resp.status
    except urllib.error.HTTPError as exc:
        return exc.code


async def _all(*coros):
    return await asyncio.gather(*coros)


def _human_vs_bots(user, seed: str, rated: bool = False) -> Match:
    return services.match_create(
        game="kut", options={"tasks": 5}, users=[user, None, None, None], rated=rated, seed=seed
    )


async def _play(p: Player, moves: int, rng: random.Random, stats: dict) -> None:
    """Play ``moves`` of ``p``'s own turns from its frames, as the table's script does:
    versioned, and on ``stale_version`` once more on the snapshot that follows."""
    made = 0
    while made < moves:
        frame = p.latest
        hand = frame["hand"] if frame else None
        action = None
        if frame and frame["match"]["status"] == "playing" and hand and not hand.get("over"):
            action = bots.choose(hand, "normal", rng)
        if action is None:
            try:
                await p.recv(3.0)
            except TimeoutError:
                p.syncs += 1
                await p.send({"type": "sync"})
            continue
        version = frame["version"]
        errors = len(p.errors)
        await p.act(action, version)
        deadline = time.monotonic() + FRAME_TIMEOUT
        while p.version <= version and len(p.errors) == errors:
            if time.monotonic() > deadline:
                raise FrameError(f"seat {p.seat}: no answer to {action} at {version}")
            try:
                await p.recv(3.0)
            except TimeoutError:
                p.syncs += 1
                await p.send({"type": "sync"})
        if len(p.errors) > errors:
            code = p.errors[-1]["code"]
            stats.setdefault(p.seat, []).append(code)
            assert code == "stale_version", p.errors[-1]
            await p.until_version(version + 1, fail_on_error=False)  # the snapshot
            continue
        made += 1


# --- 1. the connection leak ------------------------------------------------------------------


def test_http_requests_and_socket_moves_stay_within_the_pool(site, players, ws_loop):
    """Issue 16 item 1: with Django's persistent connections every HTTP request under
    daphne left a PostgreSQL connection open.  100 page requests (8 at a time) and a
    socket playing moves and asking for snapshots: the process never holds more than
    its pool (``DB_POOL_MAX_SIZE``), sampled throughout and after."""
    run = ws_loop.run_until_complete
    m = _human_vs_bots(players[0], "live-22")
    cookie = session_cookie(players[0])
    sampler = _Sampler()
    sampler.start()
    statuses: list[int] = []
    try:
        paths = ["/healthz", "/lobby/", f"/match/{m.pk}/", "/"] * 25

        def fetch(chunk):
            for path in chunk:
                statuses.append(_get(site, path, cookie))

        threads = [threading.Thread(target=fetch, args=(paths[i::8],)) for i in range(8)]
        for t in threads:
            t.start()
        p = run(Player.open(site, m.pk, cookie, 0))
        run(p.until_version(0))
        run(_play(p, 8, random.Random(3), {}))
        for _ in range(10):
            run(p.send({"type": "sync"}))
        run(p.send({"type": "ping"}))
        run(p.until_pong(p.pongs + 1))
        for t in threads:
            t.join(timeout=120)
        run(p.close())
    finally:
        sampler.stop.set()
        sampler.join(timeout=10)
    assert statuses.count(200) == 100, sorted(set(statuses))
    assert MatchAction.objects.filter(match=m, actor="human").count() >= 8
    assert sampler.samples and max(sampler.samples) <= POOL_MAX, max(sampler.samples)
    assert max(sampler.samples) >= 1  # the sampler did see this process's connections
    time.sleep(1.0)
    assert _pg_count() <= POOL_MAX


# --- 2. layout spam cannot freeze a table ------------------------------------------------------


def test_layout_spam_every_105_ms_freezes_nobody(site, players, ws_loop):
    """Issue 16 item 2: seat 0 toggles a rack separator every 105 ms (under the
    per-socket limit, unversioned, as the table's script sends layout moves) while it and
    seat 1 play their turns and two bots play theirs.  Every move of seat 1 is accepted
    (a stale refusal only where a bot's claim really moved the table on), the bots keep
    moving, seat 1 never gets a frame of seat 0's layout, the shared versions of the log
    stay contiguous and the replay rebuilds the state."""
    run = ws_loop.run_until_complete
    m = services.match_create(game="kut", options={"tasks": 5}, users=[players[0], players[1], None, None], rated=True,
                              seed="live-33")  # fmt: skip
    cookies = [session_cookie(players[0]), session_cookie(players[1])]
    spammer = run(Player.open(site, m.pk, cookies[0], 0))
    other = run(Player.open(site, m.pk, cookies[1], 1))
    run(spammer.until_version(0))
    run(other.until_version(0))
    start_version = Match.objects.get(pk=m.pk).version
    stop = asyncio.Event()
    sent = [0]
    seen = len(other.frames)

    async def spam():
        while not stop.is_set():
            await spammer.ws.send(json.dumps(
                {"type": "action", "action": {"type": "separator", "at": 8}}))  # fmt: skip
            sent[0] += 1
            await asyncio.sleep(0.105)

    stats: dict = {}

    async def scenario():
        task = asyncio.create_task(spam())
        try:
            await asyncio.gather(
                _play(other, 6, random.Random(1), stats),
                _play(spammer, 6, random.Random(2), stats),
            )
        finally:
            stop.set()
            await task

    started = time.monotonic()
    run(scenario())
    seconds = time.monotonic() - started
    frames_before = len(other.frames)
    run(asyncio.sleep(1.0))
    m.refresh_from_db()
    log = MatchAction.objects.filter(match=m)
    layouts = log.filter(kind="separator", seat=0)
    assert sent[0] >= 9 * seconds * 0.8 and layouts.count() >= sent[0] - 5, (sent, seconds)
    assert not [e for e in spammer.errors if e["code"] == "rate_limited"]
    # the attacker's layout moved no shared version: only real moves did
    shared = list(
        log.filter(layout_version=0).order_by("version").values_list("version", flat=True)
    )
    assert shared == list(range(1, m.version + 1))
    assert (
        m.version - start_version == log.filter(layout_version=0, version__gt=start_version).count()
    )
    # seat 1's moves were accepted; a refusal only when a bot's claim moved the table
    claims = log.filter(kind="claim", actor="bot").count()
    assert len(stats.get(1, [])) <= claims, (stats, claims)
    assert log.filter(seat=1, actor="human", layout_version=0).count() >= 6
    assert log.filter(actor="bot").count() >= 6  # the bots kept moving
    assert not log.filter(kind="timeout").exists()  # nobody timed out
    # seat 1 got one frame per shared version (and the snapshots it asked for or got
    # after a refusal), none of seat 0's ~100 layout changes
    versions = [f["version"] for f in other.frames[seen:]]
    again = other.syncs + len(stats.get(1, []))
    assert len(versions) - len(set(versions)) <= again, (len(versions), len(set(versions)), again)
    assert len(other.frames) == frames_before  # nothing more arrived afterwards either
    # the spammer saw its own layout changes, counted on its seat
    assert m.seats.get(seat=0).layout_version == layouts.count()
    assert max(f["layout"] for f in spammer.frames) >= layouts.count() - 10
    assert services.match_replay(m).to_dict() == m.state
    run(spammer.close())
    run(other.close())


# --- 4. a player who left has left --------------------------------------------------------------


def test_leaving_closes_the_seats_socket_at_once(site, players, ws_loop):
    """Issue 16 item 4: after POST /match/<id>/leave/ (made here, in another process
    than the daphne holding the socket) the leaver's open socket is told and closed at
    once; it gets none of the bot's frames, and nothing from that seat is applied."""
    run = ws_loop.run_until_complete
    m = services.match_create(
        game="kut", options={"tasks": 5}, users=players, rated=False, seed="live-22"
    )
    cookie = session_cookie(players[2])
    p = run(Player.open(site, m.pk, cookie, 2))
    run(p.until_version(0))
    client = Client(enforce_csrf_checks=False)
    client.force_login(players[2])
    left_at = time.monotonic()
    assert client.post(f"/match/{m.pk}/leave/").status_code == 302

    async def until_closed():
        while True:
            try:
                await p.recv(FRAME_TIMEOUT)
            except ConnectionClosed as exc:
                return exc

    closed = run(until_closed())
    assert time.monotonic() - left_at < 5
    assert closed.rcvd is not None and closed.rcvd.code == 4010
    assert p.errors and p.errors[-1]["code"] == "left"
    m.refresh_from_db()
    # no frame after the leave: nothing with the bot's rack reached the leaver
    assert all(f["version"] < m.version for f in p.frames)
    with pytest.raises(services.ServiceError) as exc:
        services.match_apply_action(m.pk, 2, {"type": "separator", "at": 3}, None)
    assert exc.value.code == "left"
    # a new socket of the leaver is not seated any more (no watchers at this table)
    with pytest.raises(InvalidStatus):
        run(Player.open(site, m.pk, cookie, 2))


# --- 7. one user cannot exhaust the server ---------------------------------------------------


def test_one_user_cannot_open_more_than_the_limit_and_closed_sockets_free_everything(
    site, players, ws_loop
):
    """Issue 16 item 7: one account opening sockets: the first ``KUT_SOCKETS_PER_USER``
    are accepted, the next refused (in the handshake); closing one frees a place; a ping
    burst is answered; after all close, the process's Redis connections are back near
    where they were (channels-redis keeps every connection a burst opened)."""
    run = ws_loop.run_until_complete
    watcher = players[3]
    m = services.match_create(game="kut", options={"tasks": 5}, users=[players[0], None, None, None], rated=False,
                              watchers_allowed=True, seed="live-22")  # fmt: skip
    cookie = session_cookie(watcher)
    crowd_users = [*players[:3], *(make_user(f"kalabalik{i}") for i in range(3))]
    others = [session_cookie(u) for u in crowd_users]
    redis_before = _redis_count()

    async def open_watch(c):
        ws = await Player.open(site, m.pk, c, None)
        return ws

    socks = run(_all(*(open_watch(cookie) for _ in range(SOCKETS_PER_USER))))
    with pytest.raises(InvalidStatus) as refused:
        run(open_watch(cookie))
    assert refused.value.response.status_code == 403
    # a burst of other users' sockets at once (the pool of the layer grows)
    crowd = run(_all(*(open_watch(c) for c in others for _ in range(SOCKETS_PER_USER))))
    run(socks[0].close())
    time.sleep(0.3)
    again = run(open_watch(cookie))  # the closed one's place is free
    for _ in range(30):
        run(again.ws.send('{"type":"ping"}'))
    run(again.until_pong(30))
    run(_all(*(s.close() for s in [*socks[1:], again, *crowd])))
    time.sleep(1.0)
    # left: the layer's few idle ones, one per thread of the sync pool (the counters'
    # client), the fan-out's subscriber and publisher; not one per socket of the burst
    bound = redis_before + KEEP_IDLE_CONNECTIONS + min(32, (os.cpu_count() or 1) + 4) + 2
    assert len(crowd) > bound - redis_before
    assert _redis_count() <= bound, (_redis_count(), redis_before)
    # and the count is free again: all the places can be taken once more
    socks = run(_all(*(open_watch(cookie) for _ in range(SOCKETS_PER_USER))))
    run(_all(*(s.close() for s in socks)))


# --- 5. the login throttle counts the real address ------------------------------------------


def _login_attempts(site: Daphne, attempts: list[tuple[str, str, str]]) -> list[int]:
    """POST the login form (with its CSRF token) once per (username, password,
    X-Forwarded-For); the status codes."""
    import http.cookiejar
    import re
    import urllib.parse

    jar = http.cookiejar.CookieJar()

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None  # a 302 is the answer: a successful login

    opener = urllib.request.build_opener(
        urllib.request.ProxyHandler({}), urllib.request.HTTPCookieProcessor(jar), NoRedirect()
    )
    url = f"http://127.0.0.1:{site.port}/accounts/login/"
    with opener.open(url, timeout=30) as resp:
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', resp.read()).group(1)
    codes = []
    for username, password, forwarded in attempts:
        data = urllib.parse.urlencode({"username": username, "password": password,
                                       "csrfmiddlewaretoken": token.decode()}).encode()  # fmt: skip
        req = urllib.request.Request(url, data=data, headers={"X-Forwarded-For": forwarded})
        try:
            with opener.open(req, timeout=30) as resp:
                codes.append(resp.status)
        except urllib.error.HTTPError as exc:
            codes.append(exc.code)
    return codes


def test_rotating_forwarded_addresses_do_not_escape_the_login_throttle(site, players):
    """Issue 16 item 5: daphne with ``--proxy-headers`` took the client's own leftmost
    X-Forwarded-For entry as its address: 30 failed logins with rotating values were
    all evaluated.  With KUT_TRUSTED_PROXIES=1 the address the proxy appended counts:
    after its 8 failures (KUT_LOGIN_FAILURES_PER_IP here) every further attempt is refused (429), whatever the client put
    in front; the owner logs in from another real address."""
    wrong = [(f"yok{i}", "yanlis", f"203.0.113.{i}, 127.0.0.1") for i in range(14)]
    codes = _login_attempts(site, wrong)
    assert codes[:8] == [200] * 8 and codes[8:] == [429] * 6, codes
    # the same, with the attacker's own "…, 127.0.0.1" in front: still the real one
    codes = _login_attempts(site, [("yok", "yanlis", "127.0.0.9, 127.0.0.1")])
    assert codes == [429]
    # another real address (what the proxy appended) is not throttled (the password
    # hashed as the site hashes it: the tests' own hasher is not the site's)
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    hasher = PBKDF2PasswordHasher()
    players[0].password = hasher.encode("kirmizi-yedi-okey-42", hasher.salt())
    players[0].save(update_fields=["password"])
    owner = [(players[0].username, "kirmizi-yedi-okey-42", "127.0.0.1, 10.0.0.8")]
    assert _login_attempts(site, owner) == [302]


def test_daphne_proxy_headers_without_trusted_proxies_do_not_rotate_the_throttle(
    django_db_setup, tmp_path_factory
):
    """Issue 27 item 6: daphne with ``--proxy-headers`` and ``KUT_TRUSTED_PROXIES=0``
    filled ``REMOTE_ADDR`` from the client's own leftmost X-Forwarded-For entry, so
    rotating it escaped the per-address login throttle (the README only called this a
    misconfiguration).  The site now keeps the socket's peer as the address whatever
    daphne's flags (``kut_site.peer``): after 8 failures every further attempt is
    refused, whatever the client writes in the header."""
    tag = f"{TAG}-p0"
    env = site_env(live_database_url())
    env.update(
        REDIS_URL=_REDIS_URL,
        KUT_TRUSTED_PROXIES="0",
        KUT_LOGIN_FAILURES_PER_IP="8",
        KUT_LOGIN_FAILURES_PER_USERNAME="50",  # the address is what is tested
        KUT_CACHE_PREFIX=tag,
    )
    d = Daphne("i27p", env, tmp_path_factory.mktemp("daphne-i27p"), extra_args=("--proxy-headers",))
    d.start()
    try:
        wrong = [("yok", "yanlis", f"198.51.100.{i}") for i in range(12)]
        codes = _login_attempts(d, wrong)
    finally:
        d.stop()
    assert codes[:8] == [200] * 8 and codes[8:] == [429] * 4, codes


# --- 8. slow HTTP clients ------------------------------------------------------------------------


def test_a_partial_request_head_is_cut_off(site):
    """Issue 16 item 8: a client that sends its request head a byte at a time (each
    byte well inside Twisted's idle timeout, which every byte restarts) is cut off once
    ``KUT_HTTP_REQUEST_SECONDS`` have passed without a whole request; a normal client on
    a kept-alive connection is served as before."""
    conns = []
    started = time.monotonic()
    for _ in range(20):
        s = socket.create_connection(("127.0.0.1", site.port), timeout=30)
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        conns.append(s)
    closed_at = {}
    while len(closed_at) < len(conns) and time.monotonic() - started < REQUEST_SECONDS + 8:
        for i, s in enumerate(conns):
            if i in closed_at:
                continue
            try:
                s.sendall(b"a")
                s.settimeout(0.01)
                if s.recv(1) == b"":
                    closed_at[i] = time.monotonic() - started
            except (BlockingIOError, TimeoutError):
                pass
            except OSError:
                closed_at[i] = time.monotonic() - started
        time.sleep(0.3)
    for s in conns:
        s.close()
    assert len(closed_at) == len(conns), f"{len(conns) - len(closed_at)} slow clients still open"
    assert max(closed_at.values()) < REQUEST_SECONDS + 5
    # a whole request is served, also a second one on the same connection after a pause
    s = socket.create_connection(("127.0.0.1", site.port), timeout=10)
    try:
        for _ in range(2):
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            data = b""
            while b"\r\n\r\n" not in data:
                data += s.recv(4096)
            assert data.startswith(b"HTTP/1.1 200"), data[:100]
            time.sleep(REQUEST_SECONDS / 2)
    finally:
        s.close()
