"""Fault injection for the live tests (``test_faults.py``): a private ``redis-server``
that can be killed, shut down and restarted, a private PostgreSQL cluster that can be
stopped and started (``initdb``/``pg_ctl``), a TCP proxy in front of PostgreSQL that can
be cut, a table driver that keeps playing through faults (reconnecting, resyncing and
retrying with the version, so no move is ever applied twice), and ``Duties``: the
tables that only the Celery worker and beat move, one for each thing a fault must not
stop (bot moves, a turn timer, the next hand, an e-mail).

Nothing here touches the shared Redis, the shared PostgreSQL server's other databases or
another run's processes: the Redis servers and the PostgreSQL cluster are this test's own
(free ports, no persistence: a Redis restart loses every key, the worst case), and the
proxy only carries this test's own processes' database connections.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import glob
import json
import os
import random
import shutil
import subprocess
import tempfile
import threading
import time
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import quote

from django.db import transaction
from django.utils import timezone
from websockets.protocol import State

from game import runner, services
from game.models import Match, MatchAction, MatchSeat, MoveNotice
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
                if self._client(socket_timeout=1).ping():
                    return time.monotonic() - began
            except redis.RedisError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not start: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def shutdown(self) -> None:
        """``SHUTDOWN NOSAVE``: the server closes every client and exits (a restart by
        its operator, as in issue 27's report); nothing is kept."""
        import redis

        try:
            self._client(socket_timeout=5).shutdown(nosave=True)
        except redis.ConnectionError:
            pass  # it closes our connection as it goes
        self.proc.wait(timeout=10)

    def _client(self, **options):
        """A client that tries once (redis-py 8 retries a failed command with backoff
        by default: seconds lost on a server that is down on purpose)."""
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        return redis.Redis(port=self.port, retry=Retry(NoBackoff(), 0), **options)

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


# --- a PostgreSQL cluster of the test's own ----------------------------------------------


def _pg_bin() -> str | None:
    """The newest installed PostgreSQL's programs (Debian: /usr/lib/postgresql/N/bin)."""
    found = glob.glob("/usr/lib/postgresql/*/bin/pg_ctl")
    found.sort(key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    if found:
        return os.path.dirname(found[-1])
    ctl = shutil.which("pg_ctl")
    return os.path.dirname(ctl) if ctl else None


PG_BIN = _pg_bin()


class PostgresCluster:
    """A PostgreSQL cluster of this test's own (``initdb``, ``pg_ctl``) on a free port of
    127.0.0.1, trust authentication, in a temporary folder; ``stop`` and ``start`` it at
    will, ``destroy`` removes it.  The tools refuse to run as root: as root they run as
    the ``postgres`` user (``runuser``), which owns the folder.  The server carries this
    run's ``KUT_LIVE_OWNER``: if the run is killed, the next one reaps it."""

    def __init__(self):
        if PG_BIN is None:
            raise RuntimeError("no PostgreSQL server programs (initdb, pg_ctl) installed")
        # not under pytest's tmp folder: that one is private to root (mode 0700)
        self.dir = Path(tempfile.mkdtemp(prefix="kut-faults-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "postgres.log"
        self.port = free_port()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.dir, "postgres", "postgres")
        self.running = False

    def url(self, name: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def _run(self, tool: str, *args: str) -> float:
        argv = [os.path.join(PG_BIN, tool), *args]
        if self.as_root:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        env = {**os.environ, orphans.OWNER_VAR: orphans.owner()}
        began = time.monotonic()
        done = subprocess.run(argv, cwd=self.dir, env=env, capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=120)  # fmt: skip
        if done.returncode:
            raise RuntimeError(f"{tool} failed:\n{done.stdout}{done.stderr}\n{self.log_tail()}")
        return time.monotonic() - began

    def init(self) -> float:
        return self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                         "-E", "UTF8", "--no-locale", "--no-sync")  # fmt: skip

    def start(self) -> float:
        """Start and wait until it accepts connections; the seconds that took.  (fsync is
        off: nothing here survives a crash of the machine, and it need not.)"""
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} "
                   "-c fsync=off -c full_page_writes=off")  # fmt: skip
        took = self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options,
                         "-w", "-t", "60", "start")  # fmt: skip
        self.running = True
        return took

    def stop(self, mode: str = "fast") -> float:
        """``pg_ctl stop -m fast``: every session is ended, the server shuts down."""
        took = self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")
        self.running = False
        return took

    def create_database(self, name: str) -> None:
        import psycopg

        with psycopg.connect(host="127.0.0.1", port=self.port, user="postgres",
                             dbname="postgres", autocommit=True) as conn:  # fmt: skip
            conn.execute(f'CREATE DATABASE "{name}"')

    def destroy(self) -> None:
        if self.running:
            try:
                self.stop("immediate")
            except (RuntimeError, subprocess.TimeoutExpired):
                pass
        shutil.rmtree(self.dir, ignore_errors=True)

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no server log)"


@contextmanager
def default_database(url: str):
    """This process's ORM (the ``default`` connection) on the database at ``url`` for the
    block, e.g. the test's own cluster.  Without a pool: Django keeps its pools per
    alias, and the shared server's must not serve this one."""
    import dj_database_url
    from django.db import connections

    old = connections.settings["default"]
    parsed = dj_database_url.parse(url)
    new = {**old, **{key: parsed[key] for key in ("NAME", "USER", "PASSWORD", "HOST", "PORT")}}
    new["OPTIONS"] = {k: v for k, v in old.get("OPTIONS", {}).items() if k != "pool"}
    connections["default"].close()
    connections.settings["default"] = new
    del connections["default"]  # the next use connects with the new settings
    try:
        yield
    finally:
        connections["default"].close()
        connections.settings["default"] = old
        del connections["default"]


# --- what only the worker and beat do --------------------------------------------------


def sent_mails(folder: Path) -> list:
    """The e-mails Django's file backend wrote to ``folder`` (``EMAIL_FILE_PATH``)."""
    out = []
    for path in sorted(Path(folder).glob("*.log")):
        for chunk in path.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
            if chunk.strip():
                message = email.message_from_bytes(chunk.strip(), policy=email.policy.default)
                message.sent_at = datetime.fromtimestamp(path.stat().st_mtime, tz=UTC)
                out.append(message)
    return out


def check_worker_log(match_id: int) -> Match:
    """A match the worker may still be playing: its log's versions are 1…n and the log
    replays to the stored state.  Read under the match's row lock (the one the service
    path takes), so the row, the log and the replay are one snapshot."""
    from game.engine import registry

    with transaction.atomic():
        m = Match.objects.select_for_update().get(pk=match_id)
        versions = list(m.actions.order_by("version").values_list("version", flat=True))
        assert versions == list(range(1, m.version + 1)), f"match {m.pk}: versions not 1…n"
        spec = registry.get(m.game)
        replayed = spec.to_dict(services.match_replay(m))
        assert replayed == spec.to_dict(spec.from_dict(m.state)), f"match {m.pk}: replay ≠ state"
    return m


class Duties:
    """Tables that only the Celery worker and beat move (issue 27), one for each thing a
    fault must not stop; the test moves none of them after ``arm``:

    * ``bots``: tables of three bots and an away player (a bot stands in, K-N7), played
      move after move by the worker's bot tasks, each scheduled with its countdown (the
      human pace, ``KUT_BOT_DELAY_SECONDS``): the load, and the bot moves;
    * ``timer``: a human on turn who never moves: beat's sweep must time the turn out
      (K-N6);
    * ``between``: a hand just over (played here, by bots for every seat): the sweep must
      deal the next hand when the pause ends (K-M4);
    * ``kelimeki``: a two-player Kelimeki game whose move clock runs out: the sweep
      forfeits the seat on turn (W-E6) and beat's ``move_mail`` e-mails its player (W-L4)
      through the worker's e-mail backend (files in ``mail_dir``).

    ``arm(due)`` makes the turn, the pause and the move clock run out at ``due``
    (deadlines are data); until then they are far off.  The caller disables
    ``runner.kick`` in this process: the worker's sweep starts the bot tables."""

    FAR = timedelta(minutes=10)
    USERS = 5  # besides one per bot table: the timer's human, the between table's, two players

    def __init__(self, users: list, mail_dir: Path, bots: int = 3, seed: str = "duty"):
        from lobby import services as lobby

        assert runner.kick.__module__ != runner.__name__, "disable runner.kick first"
        assert len(users) == bots + self.USERS, len(users)
        self.mail_dir = Path(mail_dir)
        now = timezone.now()
        self.bots = []
        for i in range(bots):
            m = services.match_create(game="kut", options={"tasks": 5}, users=[users[i], None, None, None], rated=True,
                                      seed=f"{seed}-bots-{i}")  # fmt: skip
            MatchSeat.objects.filter(match=m, seat=0).update(away=True)
            Match.objects.filter(pk=m.pk).update(bot_due=now - timedelta(seconds=5))
            self.bots.append(m.pk)
        human, resting, a, b = users[bots : bots + 4]
        self.timer = self._human_on_turn(human, seed)
        m = services.match_create(game="kut", options={"tasks": 5}, users=[resting, None, None, None], rated=True,
                                  seed=f"{seed}-between")  # fmt: skip
        MatchSeat.objects.filter(match=m, seat=0).update(away=True)
        runner.run_inline(m.pk)  # here, at once: every seat is played by a bot
        m.refresh_from_db()
        assert m.status == Match.Status.BETWEEN, m.status
        self.between = m.pk
        Match.objects.filter(pk=m.pk).update(deadline=timezone.now() + self.FAR)
        table = lobby.table_create(host=a, game="kelimeki", seat_count=2, private=True)
        lobby.invite_accept(lobby.invite_current(table).token, b)
        self.kelimeki = lobby.table_start(table.pk, a).pk
        Match.objects.filter(pk=self.kelimeki).update(deadline=timezone.now() + self.FAR)
        self.due: datetime | None = None
        self.forfeiter = None  # the Kelimeki player whose clock runs out

    def _human_on_turn(self, user, seed: str) -> int:
        for i in range(50):
            m = services.match_create(game="kut", options={"tasks": 5}, users=[user, None, None, None], rated=True,
                                      seed=f"{seed}-timer-{i}")  # fmt: skip
            if MatchState.from_dict(m.state).hand.turn == 0:
                Match.objects.filter(pk=m.pk).update(deadline=timezone.now() + self.FAR)
                return m.pk
            services.match_abort(m.pk)
        raise AssertionError("no seed where the human starts")

    @property
    def tables(self) -> list[int]:
        return [*self.bots, self.timer, self.between, self.kelimeki]

    def wait_moving(self, moves: int = 3, timeout: float = 60) -> None:
        """Until each bot table has made ``moves`` moves: the worker is playing them."""
        end = time.monotonic() + timeout
        while Match.objects.filter(pk__in=self.bots, version__lt=moves).exists():
            assert time.monotonic() < end, "the worker does not play the bot tables"
            time.sleep(0.1)

    def arm(self, due: datetime) -> None:
        """The human's turn, the pause between hands and the Kelimeki clock end at ``due``."""
        self.due = due
        k = Match.objects.get(pk=self.kelimeki)
        self.forfeiter = k.seats.get(seat=k.state["turn"]).user
        Match.objects.filter(pk__in=[self.timer, self.between, self.kelimeki]).update(deadline=due)

    def _first(self, match_id: int, since: datetime, **what) -> MatchAction | None:
        rows = MatchAction.objects.filter(match_id=match_id, created_at__gte=since, **what)
        return rows.order_by("version").first()

    def _look(self, since: datetime, found: dict) -> None:
        if "bot moves" not in found:
            firsts = [self._first(pk, since, actor=MatchAction.Actor.BOT) for pk in self.bots]
            if all(firsts):
                found["bot moves"] = max(a.created_at for a in firsts)  # every table's first
        if "turn timer" not in found:
            act = self._first(self.timer, since, actor=MatchAction.Actor.TIMER, kind="timeout")
            if act:
                found["turn timer"] = act.created_at
        if "next hand" not in found:
            act = self._first(self.between, since, kind="next_hand")
            if act:
                found["next hand"] = act.created_at
        if "move clock" not in found:
            act = self._first(self.kelimeki, since, actor=MatchAction.Actor.TIMER)
            if act:
                found["move clock"] = act.created_at
        if "e-mail" not in found and "move clock" in found:
            notice = MoveNotice.objects.filter(match_id=self.kelimeki,
                                               kind=MoveNotice.Kind.FORFEIT).exists()  # fmt: skip
            to = [m for m in sent_mails(self.mail_dir) if self.forfeiter.email in m["To"]]
            if notice and to:
                assert len(to) == 1, [m["Subject"] for m in to]  # once (W-L4)
                found["e-mail"] = to[0].sent_at

    def wait(self, since: datetime, bound: float, worker) -> dict[str, float]:
        """Wait until the worker has done every duty since ``since`` (when the service
        came back): each within ``bound`` seconds; returns how long each took: the bot
        moves (every table's first) after ``since``, the timer, the next hand and the
        forfeit after their deadline (``due``, or ``since`` if that is later), the
        e-mail after the forfeit."""
        assert self.due is not None, "arm() first"
        start = max(since, self.due)
        found: dict[str, datetime] = {}
        end = time.monotonic() + bound + max(0.0, (self.due - timezone.now()).total_seconds())
        while True:
            self._look(since, found)
            if len(found) == 5 or time.monotonic() > end:
                break
            time.sleep(0.2)
        missing = [d for d in ("bot moves", "turn timer", "next hand", "move clock", "e-mail")
                   if d not in found]  # fmt: skip
        late = {d: (t - (since if d == "bot moves" else start)).total_seconds()
                for d, t in found.items()}  # fmt: skip
        assert not missing, (
            f"not done within {bound:.0f} s after the fault: {missing} (done: {late}); "
            f"processes running: {worker.running()}\n--- worker log (tail) ---\n"
            f"{worker.log()[-4000:]}\n--- beat log (tail) ---\n{worker.beat_log()[-1500:]}"
        )
        for duty in ("turn timer", "next hand", "move clock"):  # never before its time
            assert found[duty] >= self.due - timedelta(seconds=0.1), (duty, found[duty], self.due)
        late["e-mail"] = (found["e-mail"] - found["move clock"]).total_seconds()
        assert all(v <= bound for v in late.values()), late
        return {d: round(v, 1) for d, v in late.items()}

    def check_logs(self) -> None:
        for pk in self.tables:
            check_worker_log(pk)

    def stop(self) -> None:
        """Abort the tables (the worker would play them on through the teardown's flush)
        and let its last transaction end."""
        Match.objects.filter(pk__in=self.tables).update(status=Match.Status.ABORTED,
                                                        bot_due=None, deadline=None)  # fmt: skip
        time.sleep(1.0)
