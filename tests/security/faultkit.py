"""Fault injection for the live tests (``test_faults.py``): a private ``redis-server``
that can be killed and restarted, a TCP proxy in front of PostgreSQL that can be cut,
and a table driver that keeps playing through faults (reconnecting, resyncing and
retrying with the version, so no move is ever applied twice).

Nothing here touches the shared Redis or another run's processes: the Redis server is
this test's own (a free port, no persistence: a restart loses every key, the worst
case), and the proxy only carries this test's own processes' database connections.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import threading
import time
from pathlib import Path
from urllib.parse import quote

from websockets.protocol import State

from game import services
from game.models import Match, MatchAction
from games.kut.engine import bots
from games.kut.engine.match import MatchState
from tests import orphans
from tests.game.livestack import FrameError, Player, free_port


class RedisServer:
    """``redis-server`` on a free port, no persistence; ``restart`` = SIGKILL + start."""

    def __init__(self, workdir: Path):
        self.dir = Path(workdir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.log = self.dir / "redis.log"

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 20) -> float:
        began = time.monotonic()
        with open(self.log, "a") as log:
            self.proc = subprocess.Popen(
                ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                 "--save", "", "--appendonly", "no", "--dir", str(self.dir)],
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True, preexec_fn=orphans.die_with_parent,
            )  # fmt: skip
        import redis

        while time.monotonic() - began < timeout:
            try:
                if redis.Redis(port=self.port, socket_timeout=1).ping():
                    return time.monotonic() - began
            except redis.RedisError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not start: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.kill()


class TcpProxy:
    """A TCP proxy (its own thread and event loop) from a free local port to
    ``target``.  ``cut()`` resets every open connection and refuses new ones until
    ``restore()``: to the processes behind it, the database is unreachable."""

    def __init__(self, host: str, port: int):
        self.target = (host, port)
        self.port = free_port()
        self.up = True
        self.links: set = set()
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), daemon=True)
        self.thread.start()
        ready.wait(10)

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(
            asyncio.start_server(self._handle, "127.0.0.1", self.port)
        )
        ready.set()
        self.loop.run_forever()

    async def _handle(self, reader, writer) -> None:
        if not self.up:
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        link = (writer, up_writer)
        self.links.add(link)
        try:
            await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))
        finally:
            self.links.discard(link)
            for w in link:
                w.transport.abort()

    @staticmethod
    async def _pipe(reader, writer) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.transport.abort()

    def _call(self, fn) -> None:
        async def run():
            fn()

        asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)

    def cut(self) -> None:
        def cut():
            self.up = False
            for link in list(self.links):
                for w in link:
                    w.transport.abort()

        self._call(cut)

    def restore(self) -> None:
        def restore():
            self.up = True

        self._call(restore)

    def close(self) -> None:
        def close():
            self.server.close()
            for link in list(self.links):
                for w in link:
                    w.transport.abort()

        self._call(close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def database_url_via(proxy: TcpProxy) -> str:
    """The test database's URL with the proxy as its host."""
    from django.db import connection

    s = connection.settings_dict
    auth = quote(s["USER"] or "", safe="")
    if s.get("PASSWORD"):
        auth += ":" + quote(s["PASSWORD"], safe="")
    return f"postgres://{auth}@127.0.0.1:{proxy.port}/{quote(s['NAME'], safe='')}"


def stored(match_id: int) -> tuple[Match, MatchState]:
    m = Match.objects.get(pk=match_id)
    return m, MatchState.from_dict(m.state)


class Driver:
    """Plays the human seats of a match over real sockets to one daphne, whatever
    happens to the services: a closed socket is opened again, a silent one asked for a
    snapshot, a refused move tried again with the current version.  ``sent`` holds
    every move the log shows as applied from here, with its version."""

    def __init__(self, run, match_id: int, cookies: list[str], server, rng_seed: int = 5):
        self.run = run
        self.match_id = match_id
        self.cookies = cookies
        self.server = server
        self.rng = random.Random(rng_seed)
        self.players: dict[int, Player | None] = {s: None for s in range(4)}
        self.sent: list[tuple[int, int, dict]] = []
        self.old: list[Player] = []
        self.errors: list[dict] = []  # error frames received (all sockets)
        self.attempts: dict[int, list] = {}  # version sent at -> [(seat, action)]

    # -- sockets -------------------------------------------------------------------------
    @staticmethod
    def alive(p: Player | None) -> bool:
        return p is not None and p.ws.state is State.OPEN

    def player(self, seat: int) -> Player | None:
        """This seat's open socket, opened (again) if needed; None if that fails now."""
        p = self.players[seat]
        if self.alive(p):
            return p
        if p is not None:
            self.old.append(p)
            self.errors += p.errors
        try:
            p = self.run(asyncio.wait_for(
                Player.open(self.server, self.match_id, self.cookies[seat], seat), 5))  # fmt: skip
            self.run(asyncio.wait_for(p.recv(5), 6))  # the snapshot on connect
        except Exception:  # the server, its Redis or its database is down right now
            self.players[seat] = None
            return None
        self.players[seat] = p
        return p

    def connect_all(self, seats=range(4), timeout: float = 30) -> None:
        end = time.monotonic() + timeout
        for seat in seats:
            while self.player(seat) is None:
                assert time.monotonic() < end, f"seat {seat} could not connect"
                time.sleep(0.2)

    def current(self, p: Player, version: int, timeout: float = 4) -> bool:
        """Bring ``p`` to ``version`` (asking for a snapshot when it is behind)."""
        try:
            if p.version < version:
                self.run(p.send({"type": "sync"}))
            self.run(asyncio.wait_for(p.until_version(version, fail_on_error=False), timeout))
            return True
        except (TimeoutError, FrameError, OSError, Exception):
            return False

    def close(self) -> None:
        async def close_all():
            for p in [*self.players.values(), *self.old]:
                if p is not None:
                    try:
                        await asyncio.wait_for(p.close(), 5)
                    except Exception:
                        pass

        self.run(close_all())

    # -- moves --------------------------------------------------------------------------
    def act(self, timeout: float = 60, next_hand: bool = True) -> float | None:
        """One move of the human seat on turn, applied exactly once; returns the seconds
        it took (from the first try), or None if the match is not being played."""
        began = time.monotonic()
        end = began + timeout
        while time.monotonic() < end:
            m, ms = stored(self.match_id)
            if m.status == Match.Status.BETWEEN and next_hand:
                services.match_next_hand(m.pk, m.version, force=True)
                continue
            if m.status != Match.Status.PLAYING:
                return None
            hand = ms.hand
            seat = hand.turn
            if m.seats.get(seat=seat).bot_controlled:
                time.sleep(0.1)
                continue
            p = self.player(seat)
            if p is None or not self.current(p, m.version):
                time.sleep(0.2)
                continue
            action = bots.choose(p.latest["hand"], "normal", self.rng) or {"type": "timeout"}
            errors = len(p.errors)
            self.attempts.setdefault(m.version, []).append((seat, json.loads(json.dumps(action))))
            try:
                self.run(p.act(action, m.version))
            except Exception:
                continue
            outcome = self._outcome(p, m.version, errors)
            if outcome is None:
                continue  # refused (e.g. the database was down): try again
            row = MatchAction.objects.filter(match_id=m.pk, version=m.version + 1).first()
            if (
                row
                and (row.seat, row.actor) == (seat, MatchAction.Actor.HUMAN)
                and (row.payload == json.loads(json.dumps(action)))
            ):
                self.sent.append((m.version + 1, seat, action))
                return time.monotonic() - began
            # a timer or a bot moved first: take the new state and go on
        raise AssertionError(f"no move applied in {timeout} s")

    def _outcome(self, p: Player, version: int, errors: int) -> bool | None:
        """After sending at ``version``: True when the version moved, None when the
        move was refused (an error frame) or nothing happened for 5 s."""
        end = time.monotonic() + 5
        while time.monotonic() < end:
            if Match.objects.filter(pk=self.match_id, version__gt=version).exists():
                return True
            try:
                self.run(asyncio.wait_for(p.recv(0.2), 0.3))
            except Exception:
                if not self.alive(p):
                    return None
            if len(p.errors) > errors:
                return None
        return None

    def play(self, moves: int, timeout: float = 120) -> None:
        end = time.monotonic() + timeout
        for _ in range(moves):
            if self.act(max(1.0, end - time.monotonic())) is None:
                return

    def check_log(self) -> Match:
        """Versions contiguous; every move applied from here logged once, as sent;
        the log replays to the stored state."""
        m, ms = stored(self.match_id)
        rows = {a.version: a for a in MatchAction.objects.filter(match_id=m.pk)}
        assert sorted(rows) == list(range(1, m.version + 1)), "log versions not contiguous"
        for version, seat, action in self.sent:
            row = rows[version]
            assert (row.seat, row.actor) == (seat, MatchAction.Actor.HUMAN)
            assert row.payload == json.loads(json.dumps(action))
        for row in rows.values():  # nothing human that was not sent from here
            if row.actor == MatchAction.Actor.HUMAN:
                assert (row.seat, row.payload) in self.attempts.get(row.version - 1, []), row
        assert services.match_replay(m).to_dict() == ms.to_dict()
        return m
