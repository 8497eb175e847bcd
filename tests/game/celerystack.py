"""A real Celery worker with embedded beat, as a subprocess, for live tests.

``celery -A kut_site worker -B --pool=solo`` runs against the pytest test database
(``DATABASE_URL`` built from the test connection's settings) and either Redis or
kombu's filesystem broker, with its own beat schedule file, its own queue (so that no
other worker on the same Redis takes its tasks) and short game timings.  The worker runs
in its own process group; ``stop()`` ends that group (beat's child process included).
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
    """One worker + embedded beat.  Use as a context manager or call start()/stop()."""

    def __init__(self, workdir: Path, database: str, redis_url: str | None, **extra_env):
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.queue = f"kut-test-{uuid.uuid4().hex[:12]}"
        self.log_path = self.workdir / "worker.log"
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
        self.proc: subprocess.Popen | None = None
        self._log = None
        self.startup_seconds: float | None = None

    # -- lifecycle ---------------------------------------------------------------------

    def start(self, timeout: float = 90.0) -> CeleryStack:
        argv = [
            sys.executable, "-m", "celery", "-A", "kut_site", "worker", "-B",
            "--pool=solo", "-l", "info",
            "-s", str(self.workdir / "celerybeat-schedule"),
            "-n", f"{self.queue}@%h",
            "--without-mingle", "--without-gossip",
        ]  # fmt: skip
        self._log = open(self.log_path, "ab")  # noqa: SIM115 - closed in stop()
        offset = self._log.tell()  # a restart: look only at this run's lines
        self.proc = subprocess.Popen(
            argv, cwd=ROOT, env=self.env, stdout=self._log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True, preexec_fn=orphans.die_with_parent,
        )  # fmt: skip
        began = time.monotonic()
        deadline = began + timeout
        while time.monotonic() < deadline:
            text = self.log(offset)
            if " ready." in text and "beat: Starting" in text:
                self.startup_seconds = time.monotonic() - began
                return self
            if self.proc.poll() is not None:
                self.stop()
                raise RuntimeError(f"the Celery worker exited at start:\n{text[-4000:]}")
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the Celery worker was not ready in {timeout:.0f} s:\n{self.log()}")

    def stop(self, grace: float = 4.0) -> None:
        """SIGTERM (warm shutdown) to the whole group, SIGKILL after ``grace`` s."""
        proc, self.proc = self.proc, None
        if proc is not None:
            self._signal(proc.pid, signal.SIGTERM)  # warm shutdown of worker and beat
            try:
                proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
            end = time.monotonic() + 1
            while self._alive(proc.pid) and time.monotonic() < end:
                time.sleep(0.05)
            self._signal(proc.pid, signal.SIGKILL)  # whatever is left of the group
            if proc.poll() is None:
                proc.wait(timeout=10)
        if self._log is not None:
            self._log.close()
            self._log = None

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
        """Crash the worker (SIGKILL, no warm shutdown)."""
        proc, self.proc = self.proc, None
        if proc is not None:
            self._signal(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> CeleryStack:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
        self.purge()

    # -- helpers ------------------------------------------------------------------------

    def log(self, offset: int = 0) -> str:
        """The worker's output so far (from byte ``offset``)."""
        try:
            return self.log_path.read_bytes()[offset:].decode(errors="replace")
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
