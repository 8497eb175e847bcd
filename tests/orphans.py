"""No site process outlives the pytest run that started it.

The live sites of the browser tests (``tests.e2e.livesite``) and the daphne stack of the
socket tests (``tests.game.livestack``) run daphne and a Celery worker with beat on the
test database.  On PostgreSQL that database has the same name in every run
(``test_<name>``): a worker left behind by a run that was killed keeps sweeping it —
applying timeouts and bot moves to the *next* run's matches and announcing them on its
own, dead, channel prefix, so that run's tables never hear of them (found 1 December
2026: the K-N7 away test failed on PostgreSQL after killed runs, never on SQLite, whose
test database is a file per run).  Or it holds a connection and the next run cannot
drop the database at all.

Two guards: every child gets ``PR_SET_PDEATHSIG`` (the kernel kills it when pytest
dies), and every process a site starts carries ``KUT_LIVE_OWNER`` (the pid and start
time of the pytest that owns it), so that a run reaps, before it sets up its database,
what an earlier run left — beat's own child process included, which the kernel guard
does not reach.
"""

from __future__ import annotations

import os
import signal

OWNER_VAR = "KUT_LIVE_OWNER"

try:  # loaded here, not in the forked child (no imports between fork and exec)
    import ctypes

    _prctl = ctypes.CDLL(None, use_errno=True).prctl
except (OSError, AttributeError):  # not Linux
    _prctl = None


def die_with_parent() -> None:
    """``preexec_fn`` of a child: SIGKILL it if pytest itself dies."""
    if _prctl is not None:
        _prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _start_time(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (``/proc/<pid>/stat`` field
    22), which tells a live process from a later one that reused its pid."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read().decode(errors="replace")
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]


def owner() -> str:
    """The value of ``KUT_LIVE_OWNER`` for the processes this run starts."""
    pid = os.getpid()
    return f"{pid}:{_start_time(pid) or '?'}"


def _alive(value: str) -> bool:
    pid, _, started = value.partition(":")
    try:
        return _start_time(int(pid)) == started
    except ValueError:
        return False


def _owner_of(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            env = f.read().split(b"\0")
    except OSError:
        return None
    prefix = OWNER_VAR.encode() + b"="
    for item in env:
        if item.startswith(prefix):
            return item[len(prefix) :].decode(errors="replace")
    return None


def reap() -> list[int]:
    """SIGKILL every process started for a pytest run that is no longer running; the
    pids killed."""
    if not os.path.isdir("/proc"):
        return []
    killed = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        value = _owner_of(int(entry))
        if value is None or _alive(value):
            continue
        try:
            os.kill(int(entry), signal.SIGKILL)
            killed.append(int(entry))
        except (ProcessLookupError, PermissionError):
            pass
    return killed
