#!/usr/bin/env python
"""Run the whole KÜT stack in the foreground: the start step of ``scripts/run``.

1. ``manage.py migrate`` (skip with ``--no-migrate``);
2. daphne on ``$HOST:$PORT`` (default 127.0.0.1:8000);
3. one Celery worker with embedded beat (``-B --pool=solo``), consuming the site's queue
   and the analysis queue (issue 31, ``kut_site.queues``). Without ``REDIS_URL`` it
   uses kombu's filesystem broker under ``var/celery/``, so no service is needed.

Ctrl-C or SIGTERM stops everything; if either child dies, the other is stopped too and
this exits non-zero. Each child runs in its own process group, which is signalled as a
whole so that nothing (e.g. beat's child process) is left behind.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kut_site import queues  # noqa: E402  (plain Python: no Django set-up)

STOP_GRACE_SECONDS = 15.0  # a Celery warm shutdown takes a few seconds


def log(message: str) -> None:
    print(f"[devstack] {message}", file=sys.stderr, flush=True)


def start(name: str, argv: list[str], env: dict[str, str]) -> subprocess.Popen:
    log(f"starting {name}: {' '.join(argv)}")
    return subprocess.Popen(argv, cwd=ROOT, env=env, start_new_session=True)


def signal_group(proc: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stop_all(children: dict[str, subprocess.Popen]) -> None:
    for proc in children.values():
        signal_group(proc, signal.SIGTERM)
    deadline = time.monotonic() + STOP_GRACE_SECONDS
    for name, proc in children.items():
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            log(f"{name} did not stop in time; killing it")
            signal_group(proc, signal.SIGKILL)
            proc.wait()
    # Grandchildren (beat's process) may outlive their parent briefly.
    while time.monotonic() < deadline and any(group_alive(p.pid) for p in children.values()):
        time.sleep(0.1)
    for proc in children.values():
        signal_group(proc, signal.SIGKILL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-migrate", action="store_true", help="skip manage.py migrate")
    args = parser.parse_args()

    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "kut_site.settings")
    env.setdefault("PYTHONUNBUFFERED", "1")
    host = env.get("HOST", "127.0.0.1")
    port = env.get("PORT", "8000")
    python = sys.executable

    var_dir = Path(env.get("KUT_VAR_DIR") or ROOT / "var")
    (var_dir / "celery").mkdir(parents=True, exist_ok=True)

    if not args.no_migrate:
        log("migrating the database")
        subprocess.run([python, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True)

    stopping = False

    def on_signal(signum, frame):  # noqa: ARG001
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)

    children: dict[str, subprocess.Popen] = {}
    children["daphne"] = start(
        "daphne",
        [python, "-m", "daphne", "-b", host, "-p", port, "kut_site.asgi:application"],
        env,
    )
    children["celery"] = start(
        "celery worker + beat",
        [
            python, "-m", "celery", "-A", "kut_site", "worker",
            "-B", "--pool=solo", "--loglevel=INFO", "-Q", queues.worker_queues(env),
            "--schedule", str(var_dir / "celerybeat-schedule"),
        ],
        env,
    )  # fmt: skip
    log(f"KÜT is starting at http://{host}:{port}/  (Ctrl-C stops everything)")

    exit_code = 0
    while not stopping:
        for name, proc in children.items():
            code = proc.poll()
            if code is not None:
                log(f"{name} exited with code {code}; stopping the rest")
                exit_code = code or 1
                stopping = True
                break
        time.sleep(0.2)

    log("stopping")
    stop_all(children)
    log("stopped")
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
