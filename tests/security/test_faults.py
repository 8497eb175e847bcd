"""Faults (issue 11): Redis restarted mid-hand, the database unreachable for a few
seconds, a daphne process killed, the Celery worker killed mid-task — each time play
resumes, no accepted move is lost or applied twice (the log's versions are contiguous,
every move seen applied is logged once, the log replays to the state) and timers still
fire.  Each test prints how long recovery took ("[faults] …").

The stack is this module's own: a private ``redis-server`` (restarted at will), a TCP
proxy in front of PostgreSQL (cut at will), one daphne process and one Celery worker
with beat, both reaching the database through the proxy and sharing the private Redis.
Four real websocket clients play the human seats (``faultkit.Driver``).
"""

from __future__ import annotations

import asyncio
import shutil
import time
from datetime import timedelta

import pytest
from django.db import transaction

from game import runner, services
from game.models import Match, MatchAction, MatchSeat
from games.kut.engine import bots
from games.kut.engine.match import MatchState
from tests.game.celerystack import CeleryStack
from tests.game.conftest import session_cookie

pytest.register_assert_rewrite("tests.game.livestack", "tests.security.faultkit")
from tests.game.livestack import (  # noqa: E402
    CHANNEL_PREFIX,
    Daphne,
    requires_services,
    site_env,
)
from tests.security.faultkit import (  # noqa: E402
    Driver,
    RedisServer,
    TcpProxy,
    database_url_via,
    stored,
)

pytest_plugins = ["tests.game.livestack"]  # ws_loop
pytestmark = [
    requires_services,
    pytest.mark.skipif(not shutil.which("redis-server"), reason="needs the redis-server "
                       "binary (apt-get install redis-server) for a Redis of its own"),
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]  # fmt: skip

TURN = 3  # seconds per turn in the rated matches here
# Seconds the database is unreachable.  A request that needs the database waits at most
# DB_POOL_TIMEOUT (2 s) for a pooled connection, then gets its error; the socket handles
# its messages one after the other, so the move's and the snapshot's errors take up to
# twice that: the outage lasts long enough for both to fall inside it.
OUTAGE = 6.0


class Stack:
    pass


@pytest.fixture(scope="module")
def stack(django_db_setup, tmp_path_factory):
    from django.db import connection

    s = Stack()
    work = tmp_path_factory.mktemp("faults")
    settings_dict = connection.settings_dict
    s.redis = RedisServer(work / "redis")
    s.redis.start()
    s.proxy = TcpProxy(settings_dict["HOST"] or "127.0.0.1", int(settings_dict["PORT"] or 5432))
    database = database_url_via(s.proxy)
    env = site_env(database)
    env.update(REDIS_URL=s.redis.url, KUT_TURN_SECONDS=str(TURN), KUT_NEXT_HAND_SECONDS="1")
    s.daphne = Daphne("faults", env, work)
    s.worker = CeleryStack(work / "celery", database, s.redis.url, KUT_TURN_SECONDS=TURN,
                           KUT_CHANNEL_PREFIX=CHANNEL_PREFIX)  # fmt: skip
    try:
        s.daphne.start()
        s.worker.start()
        yield s
    finally:
        s.worker.stop()
        s.daphne.stop()
        s.proxy.close()
        s.redis.stop()


@pytest.fixture
def table(stack, players, ws_loop, settings):
    """A match of the four players (``request.param``-free: each test makes its own)."""
    settings.KUT_TURN_SECONDS = TURN
    drivers = []

    def make(seed: str, rated: bool) -> Driver:
        m = services.match_create(
            game="kut", options={"tasks": 5}, users=players, rated=rated, seed=seed
        )
        d = Driver(ws_loop.run_until_complete, m.pk, [session_cookie(u) for u in players],
                   stack.daphne)  # fmt: skip
        drivers.append(d)
        d.connect_all()
        return d

    yield make
    for d in drivers:
        d.close()


def _all_current(d: Driver, timeout: float = 30) -> None:
    m, _ = stored(d.match_id)
    end = time.monotonic() + timeout
    for seat in range(4):
        while True:
            p = d.player(seat)
            if p is not None and d.current(p, m.version, 4):
                break
            assert time.monotonic() < end, f"seat {seat} never saw version {m.version}"
            time.sleep(0.2)


def test_redis_restarted_mid_hand(stack, table):
    """The channel layer's Redis is killed and started again empty mid-hand: sockets
    whose consumer lost Redis are closed and open again, the others ask for a snapshot;
    the next move is applied once and every seat sees it."""
    d = table("fault-redis", rated=False)
    d.play(6)
    killed = time.monotonic()
    stack.redis.kill()
    time.sleep(1.0)
    stack.redis.start()
    up = time.monotonic() - killed
    d.act(timeout=90)
    applied = time.monotonic() - killed
    _all_current(d)
    everyone = time.monotonic() - killed
    d.play(6)
    d.check_log()
    print(f"\n[faults] redis restart: down {up:.1f} s; first move applied "
          f"{applied:.1f} s after the kill, all four seats current after {everyone:.1f} s")  # fmt: skip


def test_database_unreachable_for_a_few_seconds(stack, table):
    """PostgreSQL is cut off for a few seconds (every connection reset, new ones
    refused): moves and snapshot requests in the meantime get an error frame and the
    sockets stay open; afterwards play resumes, and the turn timer still fires."""
    d = table("fault-db", rated=True)
    d.play(4)
    m, ms = stored(d.match_id)
    seat = ms.hand.turn
    p = d.player(seat)
    assert d.current(p, m.version)
    action = bots.choose(p.latest["hand"], "normal", d.rng) or {"type": "timeout"}
    cut = time.monotonic()
    stack.proxy.cut()
    try:
        errors = len(p.errors)
        d.run(p.act(action, m.version))
        d.run(p.send({"type": "sync"}))
        while len(p.errors) < errors + 2 and time.monotonic() - cut < OUTAGE:
            try:
                d.run(asyncio.wait_for(p.recv(0.5), 1))
            except TimeoutError:
                pass
        during = [e["code"] for e in p.errors[errors:]]
        assert during[:2] == ["server_error", "server_error"], during
        assert d.alive(p), "a socket was closed while the database was down"
        time.sleep(max(0.0, OUTAGE - (time.monotonic() - cut)))
    finally:
        stack.proxy.restore()
    restored = time.monotonic()
    # the move refused during the outage was never applied (a timer may have moved since)
    after = MatchAction.objects.filter(match_id=d.match_id, version=m.version + 1).first()
    assert after is None or after.actor != MatchAction.Actor.HUMAN
    d.act(timeout=90)
    recovery = time.monotonic() - restored
    # timers still fire: leave the next turn alone (the worker's beat sweep completes it)
    m, ms = stored(d.match_id)
    deadline = m.deadline
    end = time.monotonic() + TURN + 30
    timer = None
    while time.monotonic() < end and timer is None:
        timer = MatchAction.objects.filter(match_id=d.match_id, version__gt=m.version,
                                           actor=MatchAction.Actor.TIMER).first()  # fmt: skip
        time.sleep(0.1)
    assert timer is not None, "the turn timer did not fire after the outage"
    late = (timer.created_at - deadline).total_seconds()
    assert -0.1 <= late <= 3.0, late
    d.play(4)
    d.check_log()
    print(f"\n[faults] database unreachable {OUTAGE:.0f} s: 2 error frames, sockets open; "
          f"first move applied {recovery:.1f} s after it came back; the next idle turn "
          f"timed out {late:.2f} s after its deadline")  # fmt: skip


def test_a_killed_daphne_is_started_again_and_play_resumes(stack, table):
    """SIGKILL the daphne process mid-hand (tests/game/test_multiprocess.py covers the
    same with two processes); start it again on its port: the clients reconnect and
    the hand goes on."""
    d = table("fault-daphne", rated=False)
    d.play(4)
    killed = time.monotonic()
    stack.daphne.kill()
    start = stack.daphne.start()
    d.act(timeout=90)
    applied = time.monotonic() - killed
    _all_current(d)
    everyone = time.monotonic() - killed
    d.play(4)
    d.check_log()
    print(f"\n[faults] daphne killed: restarted in {start:.1f} s; first move applied "
          f"{applied:.1f} s after the kill, all four seats current after {everyone:.1f} s")  # fmt: skip


def test_the_worker_killed_mid_task_and_started_again(stack, players, settings, monkeypatch):
    """Three bots and an away player (a bot stands in): the worker plays move after
    move; it is SIGKILLed (worker and beat) while doing so and started again.  The
    move it was making is either committed or not at all, the lost task is made up by
    the beat sweep, and no move is applied twice."""
    settings.KUT_TURN_SECONDS = TURN
    settings.KUT_BOTS_INLINE = False
    monkeypatch.setattr(runner, "kick", lambda match_id: None)  # the worker's sweep starts
    m = services.match_create(game="kut", options={"tasks": 5}, users=[players[0], None, None, None], rated=True,
                              seed="fault-worker")  # fmt: skip
    MatchSeat.objects.filter(match=m, seat=0).update(away=True)
    Match.objects.filter(pk=m.pk).update(bot_due=m.created_at - timedelta(seconds=5))

    def version() -> int:
        return Match.objects.get(pk=m.pk).version

    end = time.monotonic() + 60
    while version() < 12:
        assert time.monotonic() < end, "the worker does not play"
        time.sleep(0.05)
    killed = time.monotonic()
    stack.worker.kill()
    at_kill = version()
    time.sleep(1.0)
    still = version()
    assert still - at_kill <= 1  # at most the move being committed at the kill
    stack.worker.start()
    ready = time.monotonic() - killed
    while version() <= still:
        assert time.monotonic() - killed < 90, "no move after the worker came back"
        time.sleep(0.05)
    moved = time.monotonic() - killed
    target = version() + 10
    while version() < target and Match.objects.get(pk=m.pk).running:
        time.sleep(0.05)
    # The worker is still playing: read the row, the log and the replay under the
    # match's row lock (the one the service path takes), so all three are one snapshot.
    with transaction.atomic():
        m = Match.objects.select_for_update().get(pk=m.pk)
        versions = list(m.actions.order_by("version").values_list("version", flat=True))
        assert versions == list(range(1, m.version + 1))
        assert services.match_replay(m).to_dict() == MatchState.from_dict(m.state).to_dict()
    # The worker would play on through the test database's flush at teardown: stop the
    # match and let its last transaction end first.
    Match.objects.filter(pk=m.pk).update(status=Match.Status.ABORTED, bot_due=None)
    time.sleep(1.0)
    print(f"\n[faults] worker killed mid-task: ready again {ready:.1f} s after the kill, "
          f"first move {moved:.1f} s after it")  # fmt: skip
