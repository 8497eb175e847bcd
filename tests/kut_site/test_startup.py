"""The real start-up path: scripts/run's supervisor with daphne and a Celery worker."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.game.livestack import free_port

pytestmark = pytest.mark.slow

START_TIMEOUT = 90


def process_table() -> dict[int, tuple[int, str, str]]:
    """pid -> (parent pid, state, command line) for every process we can see."""
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        rest = stat[stat.rindex(")") + 2 :].split()
        table[int(entry.name)] = (int(rest[1]), rest[0], cmdline)
    return table


def descendants(pid: int) -> dict[int, str]:
    table = process_table()
    found: dict[int, str] = {}
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for child, (ppid, _state, cmdline) in table.items():
            if ppid == parent and child not in found:
                found[child] = cmdline
                frontier.append(child)
    return found


def running(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text()
    except OSError:
        return False
    return state[state.rindex(")") + 2] not in "ZX"


class Browser:
    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def get(self, path: str) -> tuple[int, str]:
        with self.opener.open(self.base + path, timeout=10) as response:
            return response.status, response.read().decode()

    def post_form(self, path: str, fields: dict[str, str]) -> tuple[int, str]:
        status, page = self.get(path)
        assert status == 200
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        data = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **fields}).encode()
        request = urllib.request.Request(
            self.base + path, data=data, headers={"Referer": self.base + path}
        )
        with self.opener.open(request, timeout=10) as response:
            return response.status, response.read().decode()


def wait_for_health(base: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"devstack exited early ({proc.returncode}):\n{log.read_text()}")
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=5) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.3)
    pytest.fail(f"the site did not become healthy in {START_TIMEOUT}s:\n{log.read_text()}")


def wait_for_log(log: Path, pattern: str, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if re.search(pattern, log.read_text(errors="replace")):
            return True
        time.sleep(0.3)
    return False


def test_devstack_serves_signs_up_and_stops_cleanly(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    dropped = {"DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    # A fresh SQLite database and broker folder in tmp; REDIS_URL is kept when set.
    env.update(PORT=str(port), KUT_VAR_DIR=str(tmp_path / "var"), DEBUG="1", PYTHONUNBUFFERED="1")
    # counters of its own (with REDIS_URL the sign-up throttle's counts outlive a run)
    env["KUT_CACHE_PREFIX"] = f"kut-startup-{port}-{os.getpid()}"
    log = tmp_path / "devstack.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "scripts/devstack.py"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for_health(base, proc, log)
        browser = Browser(base)
        for path in ("/", "/accounts/signup/", "/accounts/login/", "/lobby/"):
            status, _page = browser.get(path)
            assert status == 200, path
        status, page = browser.get("/static/vendor/htmx/htmx.min.js")
        assert status == 200 and "htmx" in page
        # a game's own file, from its home (games/okey/static/okey/, issue 28)
        status, page = browser.get("/static/okey/tiles.js")
        assert status == 200 and "export function tileHTML" in page

        password = "yesil-cuha-masa-2024"
        status, page = browser.post_form(
            "/accounts/signup/",
            {
                "username": "devstack_user",
                "email": "devstack@example.com",
                "password1": password,
                "password2": password,
            },
        )
        assert status == 200
        assert "Çıkış yap" in page, page  # signed up and logged in
        status, page = browser.get("/")
        assert "Çıkış yap" in page
        # Log out through the real form, then log back in.
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        request = urllib.request.Request(
            base + "/accounts/logout/",
            data=urllib.parse.urlencode({"csrfmiddlewaretoken": token}).encode(),
        )
        with browser.opener.open(request, timeout=10) as response:
            assert "Giriş yap" in response.read().decode()
        status, page = browser.post_form(
            "/accounts/login/", {"username": "devstack_user", "password": password}
        )
        assert status == 200 and "Çıkış yap" in page

        children = descendants(proc.pid)
        workers = [pid for pid, cmd in children.items() if "celery" in cmd and "worker" in cmd]
        assert workers, f"no celery worker among {children}"
        # issue 31: the one worker also consumes the analysis queue
        assert any("-Q" in children[p] and "analysis" in children[p] for p in workers), children
        assert all(running(pid) for pid in workers)
        assert wait_for_log(log, r"celery@\S+ ready", 60), log.read_text()
        assert all(running(pid) for pid in workers)
        assert proc.poll() is None
    except BaseException:
        print(log.read_text(errors="replace"))
        raise
    finally:
        children = descendants(proc.pid)
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            code = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    assert code == 0, log.read_text(errors="replace")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(running(pid) for pid in children):
        time.sleep(0.1)
    leftovers = {pid: cmd for pid, cmd in children.items() if running(pid)}
    assert not leftovers, f"children still running after stop: {leftovers}"
    assert {"daphne", "celery"} <= {
        name for cmd in children.values() for name in ("daphne", "celery") if name in cmd
    }
