"""A real Celery worker and beat, as subprocesses, for live tests.

By default ``celery -A kut_site worker -B --pool=solo`` (beat embedded: one light
process on 2 cores); ``separate_beat=True`` runs the README's production commands
instead, ``celery -A kut_site worker`` (prefork by default) and ``celery -A kut_site
beat``, as two processes (the fault tests: a crash must not take beat along with it, nor
hide behind it).  Either runs against the pytest test database (``DATABASE_URL`` built
from the test connection's settings) and either Redis or kombu's filesystem broker, with
its own beat schedule file, its own queue (so that no other worker on the same Redis
takes its tasks) and short game timings.  Each process runs in its own process group;
``stop()`` ends the groups (beat's child process and the prefork children included).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import quote

from tests import orphans

ROOT = Path(__file__).resolve().parents[2]

TIMINGS = {
    "KUT_TURN_SECONDS": "2",
    "KUT_NEXT_HAND_SECONDS": "1",
    "KUT_BOT_DELAY_SECONDS": "0",
    "KUT_BOTS_INLINE": "0",
}


def database_url(settings_dict: dict) -> str:
    """A ``DATABASE_URL`` for the database the test connection uses (PostgreSQL)."""
    if "postgresql" not in settings_dict["ENGINE"]:
        raise RuntimeError("the live Celery tests need PostgreSQL")
    user = quote(settings_dict.get("USER") or "", safe="")
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{quote(password, safe='')}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{quote(settings_dict['NAME'], safe='')}"


class CeleryStack:
    """One worker + beat (embedded, or a process of its own).  Use as a context manager
    or call start()/stop()."""

    def __init__(self, workdir: Path, database: str, redis_url: str | None, *,
                 separate_beat: bool = False, pool: str = "solo", concurrency: int | None = None,
                 **extra_env):  # fmt: skip
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.queue = f"kut-test-{uuid.uuid4().hex[:12]}"
        self.separate_beat = separate_beat
        self.pool = pool
        self.concurrency = concurrency
        self.log_path = self.workdir / "worker.log"
        self.beat_log_path = self.workdir / ("beat.log" if separate_beat else "worker.log")
        env = {k: v for k, v in os.environ.items() if not k.startswith("CELERY_")}
        for name in ("REDIS_URL", "DATABASE_URL", "KUT_VAR_DIR", "KUT_CELERY_QUEUE"):
            env.pop(name, None)
        env.update(TIMINGS)
        env.update(
            DJANGO_SETTINGS_MODULE="kut_site.settings",
            DATABASE_URL=database,
            DEBUG="1",
            KUT_VAR_DIR=str(self.workdir / "var"),  # filesystem broker folders, if used
            KUT_CELERY_QUEUE=self.queue,
            PYTHONUNBUFFERED="1",
        )
        if redis_url:
            env["REDIS_URL"] = redis_url
        env.update({k: str(v) for k, v in extra_env.items()})
        env[orphans.OWNER_VAR] = orphans.owner()  # reaped if this run is killed
        self.env = env
        self.procs: dict[str, subprocess.Popen] = {}  # "worker", "beat"
        self._logs: list = []
        self.startup_seconds: float | None = None

    @property
    def proc(self) -> subprocess.Popen | None:
        """The worker process (None when stopped)."""
        return self.procs.get("worker")

    def _argv(self, which: str) -> list[str]:
        schedule = str(self.workdir / "celerybeat-schedule")
        if which == "beat":
            return [sys.executable, "-m", "celery", "-A", "kut_site", "beat", "-l", "info",
                    "-s", schedule]  # fmt: skip
        argv = [sys.executable, "-m", "celery", "-A", "kut_site", "worker", "-l", "info",
                "-n", f"{self.queue}@%h", f"--pool={self.pool}"]  # fmt: skip
        if self.concurrency:
            argv.append(f"--concurrency={self.concurrency}")
        if not self.separate_beat:
            argv += ["-B", "-s", schedule, "--without-mingle", "--without-gossip"]
        return argv

    # -- lifecycle ---------------------------------------------------------------------

    def start(self, timeout: float = 90.0) -> CeleryStack:
        """Start the worker (and beat); wait until the worker is ready and beat runs."""
        which = ["worker", "beat"] if self.separate_beat else ["worker"]
        offsets = {}
        for name in which:
            path = self.beat_log_path if name == "beat" else self.log_path
            log = open(path, "ab")  # noqa: SIM115 - closed in stop()/kill()
            self._logs.append(log)
            offsets[name] = log.tell()  # a restart: look only at this run's lines
            self.procs[name] = subprocess.Popen(
                self._argv(name), cwd=ROOT, env=self.env, stdout=log,
                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
                preexec_fn=orphans.die_with_parent,
            )  # fmt: skip
        began = time.monotonic()
        deadline = began + timeout
        while time.monotonic() < deadline:
            worker = self.log(offsets["worker"])
            beat = self.beat_log(offsets.get("beat", offsets["worker"]))
            if " ready." in worker and "beat: Starting" in beat:
                self.startup_seconds = time.monotonic() - began
                return self
            for name, proc in self.procs.items():
                if proc.poll() is not None:
                    self.stop()
                    raise RuntimeError(f"the Celery {name} exited at start:\n"
                                       f"{worker[-3000:]}\n{beat[-2000:]}")  # fmt: skip
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the Celery worker was not ready in {timeout:.0f} s:\n{self.log()}")

    def stop(self, grace: float = 4.0) -> None:
        """SIGTERM (warm shutdown) to each whole group, SIGKILL after ``grace`` s."""
        procs, self.procs = list(self.procs.values()), {}
        for proc in procs:
            self._signal(proc.pid, signal.SIGTERM)  # warm shutdown of worker and beat
        end = time.monotonic() + grace
        for proc in procs:
            try:
                proc.wait(timeout=max(0.1, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
        end = time.monotonic() + 1
        while any(self._alive(p.pid) for p in procs) and time.monotonic() < end:
            time.sleep(0.05)
        for proc in procs:
            self._signal(proc.pid, signal.SIGKILL)  # whatever is left of the group
            if proc.poll() is None:
                proc.wait(timeout=10)
        self._close_logs()

    def running(self) -> dict[str, bool]:
        """Which of the processes still run (a worker that died says so here)."""
        return {name: proc.poll() is None for name, proc in self.procs.items()}

    def purge(self) -> None:
        """Drop this stack's queue from Redis (nothing else uses it)."""
        url = self.env.get("REDIS_URL")
        if not url:
            return
        import redis

        client = redis.Redis.from_url(url)
        try:
            client.delete(self.queue, *client.keys(f"*{self.queue}*"))
        finally:
            client.close()

    def kill(self) -> None:
        """Crash the worker and beat (SIGKILL, no warm shutdown)."""
        procs, self.procs = list(self.procs.values()), {}
        for proc in procs:
            self._signal(proc.pid, signal.SIGKILL)
        for proc in procs:
            proc.wait(timeout=10)
        self._close_logs()

    def _close_logs(self) -> None:
        for log in self._logs:
            log.close()
        self._logs = []

    def __enter__(self) -> CeleryStack:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
        self.purge()

    # -- helpers ------------------------------------------------------------------------

    def log(self, offset: int = 0) -> str:
        """The worker's output so far (from byte ``offset``)."""
        return self._read(self.log_path, offset)

    def beat_log(self, offset: int = 0) -> str:
        """Beat's output (the worker's, when beat is embedded)."""
        return self._read(self.beat_log_path, offset)

    @staticmethod
    def _read(path: Path, offset: int) -> str:
        try:
            return path.read_bytes()[offset:].decode(errors="replace")
        except FileNotFoundError:
            return ""

    @staticmethod
    def _signal(pgid: int, sig: int) -> None:
        try:
            os.killpg(pgid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    @staticmethod
    def _alive(pgid: int) -> bool:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
