"""The production stack, started locally for a load run.

* PostgreSQL: a database of its own (default ``kut_load``) on the server of
  ``DATABASE_URL`` (default ``postgres://postgres@127.0.0.1:5432/test``), created when
  missing and migrated, so that the tests' database is never touched;
* Redis: ``REDIS_URL`` (default ``redis://127.0.0.1:6379/0``) with its database number
  replaced by ``--redis-db`` (default 9), so that channel-layer groups and Celery queues
  of other runs on the same Redis never mix with ours;
* N daphne processes (``python -m daphne -b 127.0.0.1 -p PORT APP``), each on its own
  port, with ``DEBUG=0``, a per-run ``SECRET_KEY`` and ``ALLOWED_HOSTS``;
* one Celery worker (``--pool=solo``, its own queue; ``tools.load.celery_bots``: the
  bots' decisions timed into ``<tag>-bots.txt`` next to the logs) and exactly one beat.

``ProcStats`` reads CPU time and memory from ``/proc`` (no psutil needed).
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
GAME_APP = "kut_site.asgi:application"
ECHO_APP = "tools.load.echo_app:application"
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def with_path(url: str, path: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + path, parts.query, parts.fragment))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Config:
    daphnes: int = 1
    db_name: str = "kut_load"
    redis_db: int = 9
    db_pool_max_size: int = 10  # DB_POOL_MAX_SIZE: PostgreSQL connections per process
    asgi_threads: int = 0  # daphne's thread pool (ASGI_THREADS); 0: Python's default
    log_dir: Path = ROOT / "var" / "load"
    rated: bool = False
    database_url: str = field(default="")
    redis_url: str = field(default="")
    profile: str = ""  # "py-spy": profile every daphne over the measured window

    def __post_init__(self):
        base_db = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
        base_redis = os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
        if not base_db.startswith(("postgres://", "postgresql://")):
            raise SystemExit(f"the load stack needs PostgreSQL, not {base_db!r}")
        self.database_url = with_path(base_db, self.db_name)
        self.redis_url = with_path(base_redis, str(self.redis_db))
        self.server_url = base_db
        self.log_dir = Path(self.log_dir)
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.secret_key = secrets.token_urlsafe(50)

    def env(self) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("CELERY_", "KUT_", "DJANGO_")) and k not in _SITE
        }
        # cached bytecode: a process starts in seconds, not tens of seconds, here
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.update(
            DJANGO_SETTINGS_MODULE="kut_site.settings",
            DATABASE_URL=self.database_url,
            REDIS_URL=self.redis_url,
            SECRET_KEY=self.secret_key,
            DEBUG="0",
            ALLOWED_HOSTS="127.0.0.1,localhost",
            DB_POOL_MAX_SIZE=str(self.db_pool_max_size),
            **({"ASGI_THREADS": str(self.asgi_threads)} if self.asgi_threads else {}),
            LOG_LEVEL="WARNING",
            KUT_VAR_DIR=str(self.log_dir / "var"),
            KUT_CELERY_QUEUE=f"kut-load-{self.db_name}",
            KUT_BOTS_INLINE="0",
            KUT_NEXT_HAND_SECONDS="1",
            # test tables have no turn timer (P-3); rated ones get a long one
            KUT_TURN_SECONDS="3600",
            PYTHONUNBUFFERED="1",
            PYTHONPATH=str(ROOT),
        )
        return env


_SITE = {
    "ASGI_THREADS", "DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS", "DB_CONN_MAX_AGE", "DB_POOL", "DB_POOL_MAX_SIZE", "LOG_LEVEL",
}  # fmt: skip


def prepare_database(cfg: Config) -> None:
    """Create the load database when missing, then migrate it."""
    import psycopg

    server = with_path(cfg.server_url, "postgres")
    with psycopg.connect(server, autocommit=True) as conn:
        exists = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (cfg.db_name,)
        ).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{cfg.db_name}"')
    manage(cfg, ["migrate", "--noinput", "-v", "0"], timeout=300)


def manage(cfg: Config, args: list[str], timeout: float = 600) -> str:
    """``manage.py ARGS`` with the load environment; returns stdout (fails loudly)."""
    proc = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=cfg.env(), capture_output=True,
        text=True, timeout=timeout,
    )  # fmt: skip
    if proc.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{proc.stderr[-4000:]}")
    return proc.stdout


class Proc:
    """One child process in its own session, logging to a file."""

    def __init__(self, name: str, argv: list[str], env: dict, log_dir: Path):
        self.name = name
        self.argv = argv
        self.log_path = log_dir / f"{name}.log"
        self._log = open(self.log_path, "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def log_tail(self, n: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""

    def stop(self, sig=signal.SIGTERM, grace: float = 15.0) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, sig)  # the process group we created
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.proc.wait(timeout=10)
        self._log.close()


class Stack:
    """Celery worker + beat and N daphne processes of one ASGI app."""

    def __init__(self, cfg: Config, app: str = GAME_APP, celery: bool = True, tag: str = "game"):
        self.cfg = cfg
        self.app = app
        self.celery = celery
        self.tag = tag
        self.daphnes: list[Proc] = []
        self.ports: list[int] = []
        self.workers: list[Proc] = []
        self.bot_log = cfg.log_dir / f"{tag}-bots.txt"  # tools.load.celery_bots

    def start(self, timeout: float = 90.0) -> None:
        env = self.cfg.env()
        log_dir = self.cfg.log_dir
        if self.celery:
            queue = env["KUT_CELERY_QUEUE"]
            self.bot_log.unlink(missing_ok=True)
            env = dict(env, LOAD_BOT_LOG=str(self.bot_log))
            self.workers.append(Proc(f"{self.tag}-celery-worker", [
                sys.executable, "-m", "tools.load.celery_bots", "-A", "kut_site", "worker",
                "--pool=solo",
                "-Q", queue, "-n", f"{queue}@%h", "--without-mingle", "--without-gossip",
                "-l", "INFO",
            ], env, log_dir))  # fmt: skip
            self.workers.append(Proc(f"{self.tag}-celery-beat", [
                sys.executable, "-m", "celery", "-A", "kut_site", "beat", "-l", "WARNING",
                "-s", str(log_dir / "celerybeat-schedule"),
            ], env, log_dir))  # fmt: skip
        for i in range(self.cfg.daphnes):
            port = free_port()
            argv = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), self.app]
            self.daphnes.append(Proc(f"{self.tag}-daphne-{i}", argv, env, log_dir))
            self.ports.append(port)
        deadline = time.monotonic() + timeout
        for proc, port in zip(self.daphnes, self.ports):
            self._wait_healthy(proc, port, deadline)
        if self.celery:
            self._wait_log(self.workers[0], " ready.", deadline)

    def _wait_healthy(self, proc: Proc, port: int, deadline: float) -> None:
        url = f"http://127.0.0.1:{port}/healthz"
        while True:
            if not proc.alive():
                raise RuntimeError(f"{proc.name} exited at start:\n{proc.log_tail()}")
            try:
                with urllib.request.urlopen(url, timeout=5) as resp:
                    if resp.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{proc.name} not healthy in time:\n{proc.log_tail()}")
            time.sleep(0.2)

    def _wait_log(self, proc: Proc, text: str, deadline: float) -> None:
        while text not in proc.log_path.read_text(errors="replace"):
            if not proc.alive():
                raise RuntimeError(f"{proc.name} exited at start:\n{proc.log_tail()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{proc.name} not ready in time:\n{proc.log_tail()}")
            time.sleep(0.2)

    def ws_urls(self) -> list[str]:
        return [f"ws://127.0.0.1:{p}" for p in self.ports]

    def server_pids(self) -> dict[str, list[int]]:
        """The processes whose CPU and memory we report (py-spy: its daphne child)."""
        return {"daphne": [p.pid for p in self.daphnes], "celery": [w.pid for w in self.workers]}

    def profile(self, seconds: float) -> list[subprocess.Popen]:
        """py-spy attached to every daphne for ``seconds`` (the measured window only):
        on-CPU samples (``--gil``) of all threads, as collapsed stacks next to the logs."""
        spy = str(Path(sys.executable).parent / "py-spy")
        procs = []
        for i, p in enumerate(self.daphnes):
            out = self.cfg.log_dir / f"{self.tag}-daphne-{i}.pyspy.txt"
            procs.append(subprocess.Popen(
                [spy, "record", "--pid", str(p.pid), "--duration", str(int(seconds)),
                 "--rate", "250", "--threads", "--gil", "--nonblocking", "--format", "raw",
                 "-o", str(out)],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            ))  # fmt: skip
        return procs

    def log_problems(self) -> dict:
        """ERROR/CRITICAL log lines of our processes (exceptions inside daphne, failed
        tasks) and WARNING lines, counted per process, with a few samples."""
        errors, warnings, samples = 0, 0, []
        for p in self.daphnes + self.workers:
            try:
                lines = p.log_path.read_text(errors="replace").splitlines()
            except OSError:
                continue
            for line in lines:
                # a group send that found a full channel dropped a frame (channels-redis
                # says so at INFO): an error of the run like any other
                if " ERROR " in line or " CRITICAL " in line or "over capacity" in line:
                    errors += 1
                    if len(samples) < 5:
                        samples.append(f"{p.name}: {line[:300]}")
                elif " WARNING " in line:
                    warnings += 1
        return {"server_errors": errors, "server_warnings": warnings, "samples": samples}

    def dead(self) -> list[str]:
        return [p.name for p in self.daphnes + self.workers if not p.alive()]

    def stop(self) -> None:
        for p in self.daphnes:
            p.stop()
        for p in self.workers:
            p.stop()


# --- /proc sampling ----------------------------------------------------------------------


def proc_ticks(pid: int) -> tuple[int, int]:
    """(utime + stime, cutime + cstime) in clock ticks; (0, 0) when the process is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0, 0
    fields = stat[stat.rindex(")") + 2 :].split()
    return int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])


def proc_rss(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0


def machine_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs from /proc/stat."""
    parts = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = parts[3] + parts[4]
    total = sum(parts[:8])
    return total - idle, total


def pids_named(name: str, contains: str = "") -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            comm = (d / "comm").read_text().strip()
            if comm != name:
                continue
            if contains and contains not in (d / "cmdline").read_text().replace("\0", " "):
                continue
            out.append(int(d.name))
        except OSError:
            continue
    return out


class ProcStats:
    """CPU seconds and memory of process groups over a measured window.

    ``daphne``/``celery``: our processes.  ``postgres``: the backends serving our load
    database (sampled every half second, since short-lived connections come and go) —
    the server-wide figure would include other users' work.  ``redis``: the whole
    ``redis-server`` (shared).  ``machine``: all CPUs, everything running."""

    def __init__(self, groups: dict[str, list[int]], db_name: str):
        self.groups = groups
        self.db_name = db_name
        self.t0 = self.t1 = 0.0
        self.start_ticks: dict[str, int] = {}
        self.end_ticks: dict[str, int] = {}
        self.pg_seen: dict[int, tuple[int, int]] = {}  # pid -> (first, last) ticks
        self.rss_peak: dict[str, int] = {}
        self.machine0 = self.machine1 = (0, 0)
        self.load0 = self.load1 = (0.0, 0.0, 0.0)

    def _group_ticks(self, pids) -> int:
        return sum(proc_ticks(p)[0] for p in pids)

    def rss(self, group: str) -> int:
        return sum(proc_rss(p) for p in self.groups.get(group, []))

    def sample_pg(self) -> None:
        for pid in pids_named("postgres", f" {self.db_name} "):
            t = proc_ticks(pid)[0]
            first = self.pg_seen.get(pid, (t, t))[0]
            self.pg_seen[pid] = (first, t)
        for g in self.groups:
            self.rss_peak[g] = max(self.rss_peak.get(g, 0), self.rss(g))

    def begin(self) -> None:
        self.groups["redis"] = pids_named("redis-server")
        self.t0 = time.monotonic()
        self.start_ticks = {g: self._group_ticks(p) for g, p in self.groups.items()}
        self.machine0 = machine_ticks()
        self.load0 = os.getloadavg()
        self.pg_seen = {}
        self.sample_pg()

    def end(self) -> None:
        self.sample_pg()
        self.t1 = time.monotonic()
        self.end_ticks = {g: self._group_ticks(p) for g, p in self.groups.items()}
        self.machine1 = machine_ticks()
        self.load1 = os.getloadavg()

    def report(self) -> dict:
        secs = max(1e-9, self.t1 - self.t0)
        cpu = {
            g: round(100.0 * (self.end_ticks[g] - self.start_ticks[g]) / CLK_TCK / secs, 1)
            for g in self.groups
        }
        pg = sum(last - first for first, last in self.pg_seen.values())
        cpu["postgres_load_db"] = round(100.0 * pg / CLK_TCK / secs, 1)
        busy = self.machine1[0] - self.machine0[0]
        total = max(1, self.machine1[1] - self.machine0[1])
        return {
            "cpu_percent_of_one_core": cpu,
            "machine_busy_percent": round(100.0 * busy / total, 1),
            "rss_mb_peak": {g: round(v / 2**20, 1) for g, v in self.rss_peak.items()},
            "loadavg_before": [round(x, 2) for x in self.load0],
            "loadavg_after": [round(x, 2) for x in self.load1],
        }
