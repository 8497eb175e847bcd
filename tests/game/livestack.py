"""Real daphne processes and real websocket clients for the multi-process tests.

``Daphne`` starts ``daphne kut_site.asgi:application`` on a free port with the pytest
test database (PostgreSQL) and the Redis channel layer, waits for ``/healthz`` and is
stopped (or SIGKILLed) by its owner; ``Player`` is one seat's authenticated socket
(``websockets`` library) that keeps every frame it receives.

Test modules load the fixtures with ``pytest_plugins = ["tests.game.livestack"]``:
``daphnes`` (two processes, A and B, shared by the session), ``private_layer`` (this
run's own channel-layer prefix, so other runs on the same Redis never mix with it) and
``ws_loop``.  These tests need services shared by several processes: without
``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` they are skipped (``requires_services``).
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
from websockets.asyncio.client import connect as ws_connect

from tests import orphans
from tests.conftest import ROOT

_DB_URL = os.environ.get("DATABASE_URL", "")
_REDIS_URL = os.environ.get("REDIS_URL", "")
SERVICES = _DB_URL.startswith(("postgres://", "postgresql://")) and bool(_REDIS_URL)

requires_services = pytest.mark.skipif(
    not SERVICES,
    reason="needs PostgreSQL and Redis shared by several daphne processes: "
    "set DATABASE_URL=postgres://… and REDIS_URL=redis://… (.ci/run does)",
)

START_TIMEOUT = 60.0
FRAME_TIMEOUT = 20.0  # longest wait for one expected frame on this loaded machine
RESYNC_AFTER = 3.0  # no frame for this long while waiting: ask for a snapshot

# Site variables the daphne processes get from us, never from the caller's shell.
_SITE_VARS = {
    "DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS", "KUT_BOTS_INLINE", "KUT_BOT_DELAY_SECONDS",
    "KUT_TURN_SECONDS", "KUT_NEXT_HAND_SECONDS", "DJANGO_ALLOW_ASYNC_UNSAFE",
    "DJANGO_SETTINGS_MODULE", "LOG_LEVEL", "KUT_CHANNEL_PREFIX", "KUT_CACHE_PREFIX", "DB_CONN_MAX_AGE", "DB_POOL",
    "DB_POOL_MIN_SIZE", "DB_POOL_MAX_SIZE", "KUT_TRUSTED_PROXIES",
}  # fmt: skip

# Channel-layer keys of this test run: other runs on the same Redis (same match and
# user ids, same group names) must not deliver frames to these sockets, nor these to
# theirs.
CHANNEL_PREFIX = f"kut-live-{uuid.uuid4().hex[:10]}"

# Started with ``python -c`` for the deliberately broken variant: the same daphne, but
# ``game.rows.lock_match`` (and ``lock_match_with_seats``, the move's) reads the match row
# without ``select_for_update``.
_UNLOCKED_LAUNCHER = """
import sys
import django
django.setup()
from game import rows
from game.models import Match

# The service reads the row through game.rows (game/services/core.py): patch it there.
rows.lock_match = lambda match_id: Match.objects.filter(pk=match_id).first()
rows.lock_match_with_seats = lambda match_id: (rows.lock_match(match_id), None)
from daphne.cli import CommandLineInterface
sys.argv = ["daphne", *sys.argv[1:]]
CommandLineInterface.entrypoint()
"""


_direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never a proxy


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def live_database_url() -> str:
    """A URL for the database pytest-django is using now (``test_<name>``)."""
    from django.db import connection

    s = connection.settings_dict
    if s["ENGINE"] != "django.db.backends.postgresql":
        raise RuntimeError(f"the live stack needs PostgreSQL, not {s['ENGINE']}")
    auth = quote(s["USER"] or "", safe="")
    if s.get("PASSWORD"):
        auth += ":" + quote(s["PASSWORD"], safe="")
    host = s["HOST"] or "127.0.0.1"
    port = f":{s['PORT']}" if s.get("PORT") else ""
    return f"postgres://{auth}@{host}{port}/{quote(s['NAME'], safe='')}"


def site_env(database_url: str) -> dict[str, str]:
    from django.conf import settings

    env = {k: v for k, v in os.environ.items() if k not in _SITE_VARS}
    env.update(
        DJANGO_SETTINGS_MODULE="kut_site.settings",
        DATABASE_URL=database_url,
        REDIS_URL=_REDIS_URL,
        SECRET_KEY=settings.SECRET_KEY,  # sessions made by the tests must verify
        DEBUG="1",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        KUT_BOTS_INLINE="1",
        KUT_BOT_DELAY_SECONDS="0",
        LOG_LEVEL="WARNING",
        KUT_CHANNEL_PREFIX=CHANNEL_PREFIX,
        PYTHONUNBUFFERED="1",
    )
    env[orphans.OWNER_VAR] = orphans.owner()
    return env


class Daphne:
    """One daphne process on a fixed port; ``start`` again after ``kill`` restarts it
    on the same port."""

    def __init__(self, name: str, env: dict[str, str], log_dir: Path, unlocked: bool = False,
                 extra_args: tuple[str, ...] = ()):  # fmt: skip
        self.extra_args = list(extra_args)  # daphne options (before the application)
        self.name = name
        self.env = env
        self.port = free_port()
        self.log_path = log_dir / f"daphne-{name}.log"
        self.unlocked = unlocked
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def spawn(self) -> None:
        assert self.proc is None or self.proc.poll() is not None, "already running"
        args = ["-b", "127.0.0.1", "-p", str(self.port), *self.extra_args,
                "kut_site.asgi:application"]  # fmt: skip
        if self.unlocked:
            cmd = [sys.executable, "-c", _UNLOCKED_LAUNCHER, *args]
        else:
            cmd = [sys.executable, "-m", "daphne", *args]
        with open(self.log_path, "a") as log:
            log.write(f"--- start {self.starts + 1}: {' '.join(cmd[:2])} … port {self.port}\n")
            log.flush()
            self.proc = subprocess.Popen(
                cmd, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True,
                preexec_fn=orphans.die_with_parent,
            )  # fmt: skip
        self.starts += 1
        self.spawned = time.monotonic()

    def wait_ready(self, timeout: float = START_TIMEOUT) -> float:
        """Wait until ``/healthz`` answers 200 (database and channel layer reachable);
        returns the seconds since the spawn."""
        url = f"http://127.0.0.1:{self.port}/healthz"
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daphne {self.name} exited early:\n{self.log_tail()}")
            try:
                with _direct.open(url, timeout=5) as resp:
                    if resp.status == 200:
                        return time.monotonic() - self.spawned
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            if time.monotonic() - self.spawned > timeout:
                self.stop()
                raise RuntimeError(f"daphne {self.name} not healthy in {timeout} s:\n"
                                   f"{self.log_tail()}")  # fmt: skip
            time.sleep(0.2)

    def start(self) -> float:
        self.spawn()
        return self.wait_ready()

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL: no disconnect handlers, no clean shutdown (a crashed server)."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text().splitlines()[-lines:])
        except OSError:
            return "(no log)"


class Stack:
    """Two daphne processes, A and B, sharing the test database and Redis."""

    def __init__(self, log_dir: Path):
        env = site_env(live_database_url())
        self.a = Daphne("A", env, log_dir)
        self.b = Daphne("B", env, log_dir)
        self.start_seconds: list[float] = []

    def start(self) -> None:
        """Start whichever of A and B is not running, side by side."""
        down = [d for d in (self.a, self.b) if not d.running]
        for d in down:
            d.spawn()
        try:
            self.start_seconds = [d.wait_ready() for d in down]
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        for d in (self.a, self.b):
            if d.running:
                d.proc.terminate()
        for d in (self.a, self.b):
            d.stop()

    def logs(self) -> str:
        return "\n".join(f"[{d.name}]\n{d.log_tail()}" for d in (self.a, self.b))


@pytest.fixture(scope="session")
def daphne_stack(django_db_setup, tmp_path_factory):
    """Two daphne processes (the real ``python -m daphne``) on the test database, shared
    for the whole session (test modules load this file with ``pytest_plugins``) and
    stopped at its end, before pytest-django drops the test database.  Tests take it
    through ``daphnes``."""
    stack = Stack(tmp_path_factory.mktemp("daphne"))
    try:
        stack.start()
        yield stack
    finally:
        stack.stop()


# --- clients --------------------------------------------------------------------------


class FrameError(AssertionError):
    pass


SEND_RATE = 8.0  # a little under game.consumers.RATE_PER_SECOND / RATE_BURST
SEND_BURST = 20.0
# ... and under its per-user limit across all of a user's sockets (USER_RATE_LIMIT per
# USER_RATE_WINDOW-second window: 100 per 5 s): at most 10 + 16 x 5 = 90 in any window.
USER_SEND_RATE = 16.0
USER_SEND_BURST = 10.0
_user_buckets: dict[str, list[float]] = {}  # session cookie -> [tokens, stamp]
_user_lock = threading.Lock()  # the race tests play from several threads


def _reserve(bucket: list[float], rate: float, burst: float) -> float:
    """Take a token from ``bucket`` (going into debt if need be); the seconds to wait."""
    now = time.monotonic()
    bucket[0] = min(burst, bucket[0] + (now - bucket[1]) * rate) - 1
    bucket[1] = now
    return max(0.0, -bucket[0] / rate)


class Player:
    """One seat's socket.  ``frames`` keeps every state frame (parsed) with its raw
    text in ``raw``; ``latest`` is the newest by version (older versions are ignored,
    as the protocol says); ``errors`` keeps error frames."""

    def __init__(self, ws, seat: int, server: Daphne):
        self.ws = ws
        self.seat = seat
        self.server = server
        self.frames: list[dict] = []
        self.raw: list[str] = []
        self.errors: list[dict] = []
        self.pongs = 0
        self.latest: dict | None = None
        self.syncs = 0
        self.bucket = [SEND_BURST, time.monotonic()]  # ``send``'s pacing
        self.cookie: str | None = None  # the user's session: pacing across their sockets

    @classmethod
    async def open(cls, server: Daphne, match_id: int, cookie: str, seat: int) -> Player:
        ws = await ws_connect(
            f"{server.ws_base}/ws/match/{match_id}/",
            origin="http://127.0.0.1",
            additional_headers={"Cookie": f"sessionid={cookie}"},
            proxy=None,
            open_timeout=FRAME_TIMEOUT,
            compression=None,
        )  # fmt: skip
        player = cls(ws, seat, server)
        player.cookie = cookie
        return player

    @property
    def version(self) -> int:
        return self.latest["version"] if self.latest else -1

    async def recv(self, timeout: float) -> dict:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        frame = json.loads(text)
        kind = frame.get("type")
        if kind == "state":
            if frame["me"] != self.seat:
                raise FrameError(f"seat {self.seat} got a frame for seat {frame['me']}")
            self.frames.append(frame)
            self.raw.append(text)
            if frame["version"] >= self.version:
                self.latest = frame
        elif kind == "error":
            self.errors.append(frame)
        elif kind == "pong":
            self.pongs += 1
        return frame

    async def until_version(self, version: int, *, fail_on_error: bool = True) -> dict:
        """Read until a state frame of at least ``version``.  A silent socket is asked
        for a snapshot (frames may be dropped by the channel layer)."""
        deadline = time.monotonic() + FRAME_TIMEOUT
        errors = len(self.errors)
        while self.version < version:
            left = deadline - time.monotonic()
            if left <= 0:
                raise FrameError(
                    f"seat {self.seat} on {self.server.name}: no frame for version "
                    f"{version} (latest {self.version}, errors {self.errors})"
                )  # fmt: skip
            try:
                await self.recv(min(RESYNC_AFTER, left))
            except TimeoutError:
                self.syncs += 1
                await self.send({"type": "sync"})
            if fail_on_error and len(self.errors) > errors:
                raise FrameError(f"seat {self.seat}: {self.errors[-1]}")
        return self.latest

    async def until_pong(self, pongs: int) -> None:
        deadline = time.monotonic() + FRAME_TIMEOUT
        while self.pongs < pongs:
            await self.recv(max(0.01, deadline - time.monotonic()))

    async def send(self, message: dict) -> None:
        """Sends keep under the server's per-socket flood limit (game.consumers: 10 a
        second, bursts of 30), as a human must: a scripted player answering as fast as
        the server does would otherwise be refused with rate_limited."""
        wait = _reserve(self.bucket, SEND_RATE, SEND_BURST)
        if self.cookie is not None:
            with _user_lock:
                bucket = _user_buckets.setdefault(self.cookie, [USER_SEND_BURST, time.monotonic()])
                wait = max(wait, _reserve(bucket, USER_SEND_RATE, USER_SEND_BURST))
        if wait > 0:
            await asyncio.sleep(wait)
        await self.ws.send(json.dumps(message))

    async def act(self, action: dict, version: int | None) -> None:
        msg: dict = {"type": "action", "action": action}
        if version is not None:
            msg["version"] = version
        await self.send(msg)

    async def close(self) -> None:
        await self.ws.close()


async def open_players(match_id: int, cookies: list[str], servers: list[Daphne],
                       seats=range(4)) -> dict[int, Player]:  # fmt: skip
    """Connect ``seats`` (seat i through ``servers[i]``) and read each first snapshot."""
    players = {}
    for seat in seats:
        players[seat] = await Player.open(servers[seat], match_id, cookies[seat], seat)
    for p in players.values():
        await p.until_version(0)
    return players


async def wait_all(players, version: int) -> None:
    await asyncio.gather(*(p.until_version(version) for p in players))


async def close_all(players) -> None:
    await asyncio.gather(*(p.close() for p in players), return_exceptions=True)


@pytest.fixture
def private_layer(settings):
    """This process's channel layer under the run's own prefix, as the daphnes'."""
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    layers["default"]["CONFIG"]["prefix"] = CHANNEL_PREFIX
    settings.CHANNEL_LAYERS = layers  # channels drops its cached layers on this change


@pytest.fixture
def daphnes(daphne_stack, private_layer):
    """The shared stack with both processes up (one an earlier test killed is started
    again on its port)."""
    daphne_stack.start()
    return daphne_stack


@pytest.fixture
def ws_loop():
    """The sockets live in this event loop; the ORM runs in the test's own thread
    between ``run_until_complete`` calls (never inside a running loop)."""
    lp = asyncio.new_event_loop()
    yield lp
    lp.close()
