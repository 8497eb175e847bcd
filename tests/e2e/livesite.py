"""The real KÜT stack for the browser tests.

pytest-django's ``live_server`` is a WSGI thread: it cannot serve the match socket.  The
``live_site`` fixture starts the site as ``scripts/run`` does — daphne plus one Celery
worker with embedded beat (``-B --pool=solo``) — as subprocesses that share the test
database of this pytest run:

* SQLite (the embedded default): the test database is a file (``TEST["NAME"]`` in
  ``kut_site/settings.py``), handed to the subprocesses as a ``sqlite:///`` URL with the
  same connection options; the channel layer is in-memory and the Celery broker is the
  filesystem transport in a temporary ``KUT_VAR_DIR``;
* the worker consumes the site's queue and the analysis queue (issue 31);
* PostgreSQL (``DATABASE_URL``): the ``test_…`` database, with ``REDIS_URL`` for the
  channel layer and the broker (a queue of its own, ``KUT_CELERY_QUEUE``).

Timings are short: the next hand after ``KUT_NEXT_HAND_SECONDS=1``, 12-second turns at
rated tables (test tables have no timer), bots inline right
after each commit, and ``KUT_TEST_SEEDS=1`` so that the practice form accepts a fixed
deal.  Tests that use it need committed data: request ``transactional_db``.

kombu's filesystem transport writes a message file in two steps (create, then write)
while the worker may already move and read it: the worker then reads an empty file and
dies with ``JSONDecodeError`` (seen here within a minute, beat sends a sweep every
second).  Until the site's Celery app writes those files atomically, the worker started
here does (``_ATOMIC_FILESYSTEM_PUT``: write a hidden temporary file, then rename).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import pytest

from kut_site import queues
from tests import orphans
from tests.conftest import ROOT
from tests.game.livestack import free_port

START_TIMEOUT = 120.0

# Variables the site reads; the subprocesses get ours, never the caller's shell's.
SITE_VARS = {
    "DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS", "KUT_BOTS_INLINE", "KUT_BOT_DELAY_SECONDS", "KUT_TURN_SECONDS",
    "KUT_NEXT_HAND_SECONDS", "KUT_VAR_DIR", "KUT_TEST_SEEDS", "KUT_CELERY_QUEUE",
    "KUT_CHANNEL_PREFIX", "KUT_CLAIM_WINDOW_SECONDS", "KUT_CACHE_PREFIX", "KUT_SOCKETS_PER_USER",
    "KUT_TRUSTED_PROXIES", "KUT_ANALYSIS", "KUT_ANALYSIS_QUEUE", "KUT_ANALYSIS_MAX_HANDS",
    "DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE", "LOG_LEVEL",
    "SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
}  # fmt: skip


def shared_database_url() -> str:
    """A URL for the database this pytest run is using now (after ``django_db_setup``)."""
    from django.db import connection

    s = connection.settings_dict
    engine = s["ENGINE"]
    if engine == "django.db.backends.sqlite3":
        name = str(s["NAME"])
        if name == ":memory:" or name.startswith("file:memorydb"):
            raise RuntimeError("the browser tests need a file-based SQLite test database")
        options = s.get("OPTIONS", {})
        query = "&".join(
            f"{key}={quote(str(options[key]), safe='')}"
            for key in ("timeout", "transaction_mode", "init_command")
            if key in options
        )
        return f"sqlite:///{Path(name).resolve()}" + (f"?{query}" if query else "")
    if engine == "django.db.backends.postgresql":
        auth = quote(s["USER"] or "", safe="")
        if s.get("PASSWORD"):
            auth += ":" + quote(s["PASSWORD"], safe="")
        host = s["HOST"] or "127.0.0.1"
        port = f":{s['PORT']}" if s.get("PORT") else ""
        return f"postgres://{auth}@{host}{port}/{quote(s['NAME'], safe='')}"
    raise RuntimeError(f"the browser tests cannot share a {engine} database")


_ATOMIC_FILESYSTEM_PUT = """
import os, sys, uuid
from time import monotonic
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

def _put(self, queue, payload, **kwargs):
    name = "{}_{}.{}.msg".format(int(round(monotonic() * 1000)), uuid.uuid4(), queue)
    final = os.path.join(self.data_folder_out, name)
    temp = os.path.join(self.data_folder_out, "." + name + ".tmp")  # not read as a message
    with open(temp, "wb") as f:
        f.write(str_to_bytes(dumps(payload)))
    os.replace(temp, final)

filesystem.Channel._put = _put
from celery.__main__ import main
sys.argv = ["celery", *sys.argv[1:]]
sys.exit(main())
"""


@dataclass
class LiveSite:
    url: str
    var_dir: Path
    procs: dict[str, subprocess.Popen] = field(default_factory=dict)

    def log_path(self, name: str) -> Path:
        return self.var_dir / f"{name}.log"

    def log_tail(self, lines: int = 40) -> str:
        out = []
        for name in self.procs:
            try:
                text = self.log_path(name).read_text(errors="replace").splitlines()[-lines:]
            except OSError:
                text = ["(no log)"]
            out.append(f"--- {name} ---\n" + "\n".join(text))
        return "\n".join(out)

    def start(self, name: str, argv: list[str], env: dict[str, str]) -> None:
        with self.log_path(name).open("ab") as log:
            self.procs[name] = subprocess.Popen(
                argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True,
                preexec_fn=orphans.die_with_parent,  # no orphans: tests/orphans.py
            )  # fmt: skip

    def check(self) -> None:
        for name, proc in self.procs.items():
            if proc.poll() is not None:
                raise RuntimeError(f"{name} exited ({proc.returncode}):\n{self.log_tail()}")

    def stop(self) -> None:
        """SIGTERM each process group (beat's child included), SIGKILL what is left."""
        for proc in self.procs.values():
            _signal_group(proc, signal.SIGTERM)
        deadline = time.monotonic() + 20
        for proc in self.procs.values():
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            _signal_group(proc, signal.SIGKILL)
            if proc.poll() is None:
                proc.wait(timeout=10)


def _signal_group(proc: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def site_env(var_dir: Path, overrides: dict[str, str] | None = None) -> dict[str, str]:
    from django.conf import settings

    env = {
        k: v for k, v in os.environ.items() if k not in SITE_VARS and not k.startswith("CELERY_")
    }
    env.update(
        DJANGO_SETTINGS_MODULE="kut_site.settings",
        DATABASE_URL=shared_database_url(),
        SECRET_KEY=settings.SECRET_KEY,  # sessions made by the tests must verify
        DEBUG="1",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        KUT_VAR_DIR=str(var_dir),
        KUT_BOTS_INLINE="1",
        KUT_BOT_DELAY_SECONDS="0",
        KUT_NEXT_HAND_SECONDS="1",
        KUT_TURN_SECONDS="12",  # rated tables only: test tables have no move timer
        KUT_TEST_SEEDS="1",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    env[orphans.OWNER_VAR] = orphans.owner()
    env.update(overrides or {})
    redis_url = os.environ.get("REDIS_URL", "")
    if redis_url:
        env["REDIS_URL"] = redis_url
        run = uuid.uuid4().hex[:12]
        env["KUT_CELERY_QUEUE"] = f"kut-e2e-{run}"  # our worker takes only our tasks
        env["KUT_CHANNEL_PREFIX"] = f"kut-e2e-{run}"  # and our groups are our own
        env["KUT_CACHE_PREFIX"] = f"kut-e2e-{run}"  # and our counters (sign-ups, sockets)
    return env


def start_site(var_dir: Path, overrides: dict[str, str] | None = None) -> LiveSite:
    port = free_port()
    env = site_env(var_dir, overrides)
    (var_dir / "celery").mkdir(parents=True, exist_ok=True)
    site = LiveSite(f"http://127.0.0.1:{port}", var_dir)
    python = sys.executable
    site.start(
        "daphne",
        [python, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "kut_site.asgi:application"],
        env,
    )
    site.start(
        "celery",
        [
            python, "-c", _ATOMIC_FILESYSTEM_PUT, "-A", "kut_site", "worker", "-B",
            "--pool=solo", "--loglevel=WARNING", "--schedule", str(var_dir / "celerybeat-schedule"),
            "-Q", queues.worker_queues(env),  # the site's queue and the analysis (issue 31)
        ],
        env,
    )  # fmt: skip
    deadline = time.monotonic() + START_TIMEOUT
    try:
        while True:
            site.check()
            try:
                with urllib.request.urlopen(site.url + "/healthz", timeout=5) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"the site was not healthy in {START_TIMEOUT} s:\n{site.log_tail()}"
                )
            time.sleep(0.3)
    except BaseException:
        site.stop()
        raise
    return site


def remove_stale_test_databases(max_age: float = 3600.0) -> None:
    """A file-based SQLite test database (``kut-test-<pid>.sqlite3`` and its WAL files)
    outlives a test run that was killed: remove those of processes that are gone."""
    from django.conf import settings

    name = Path(str(settings.DATABASES["default"].get("TEST", {}).get("NAME") or ""))
    if not name.name.startswith("kut-test-"):
        return
    now = time.time()
    for path in name.parent.glob("kut-test-*.sqlite3*"):
        pid = path.name.removeprefix("kut-test-").split(".", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
            continue  # still running
        except ProcessLookupError:
            pass
        except PermissionError:
            continue
        try:
            if now - path.stat().st_mtime > max_age:
                path.unlink()
        except OSError:
            pass


@pytest.fixture(scope="session")
def live_site(request, django_db_setup, django_db_blocker, tmp_path_factory):
    """daphne + a Celery worker (with beat) on the shared test database, stopped at the
    end of the session; their logs are printed when a test failed."""
    remove_stale_test_databases()
    with django_db_blocker.unblock():
        site = start_site(tmp_path_factory.mktemp("kut-live"))
    try:
        yield site
    finally:
        site.stop()
        if request.session.testsfailed:
            print(f"\nlive site logs ({site.var_dir}):\n{site.log_tail()}")


# Bots at the human pace of a real table (issue 15): a short base think time keeps the
# test quick, the claim window (K-C1, K-C5) is the site's default 2.5 s.
PACED = {"KUT_BOT_DELAY_SECONDS": "0.3", "KUT_CLAIM_WINDOW_SECONDS": "2.5"}


@pytest.fixture
def paced_site(request, django_db_setup, django_db_blocker, tmp_path_factory):
    """A second live site on the same test database whose bots think (``PACED``): the
    embedded set-up's paced bots run on the web process's timer threads.

    Started for the test that asks for it and stopped after it: two sites on one
    database each sweep every table in it, and their channel prefixes differ, so a
    timeout or bot move that one site's worker makes at the other's table is never
    pushed to that table's browsers (and paced and fast bots take turns at it).  A CI
    run failed so: the paced worker won the race for ``live_site``'s timeouts."""
    remove_stale_test_databases()
    with django_db_blocker.unblock():
        site = start_site(tmp_path_factory.mktemp("kut-paced"), PACED)
    try:
        yield site
    finally:
        site.stop()
        if request.session.testsfailed:
            print(f"\npaced site logs ({site.var_dir}):\n{site.log_tail()}")
