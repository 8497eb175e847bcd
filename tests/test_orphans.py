"""The test harness reaps what killed runs left (tests/orphans.py): a site process whose
pytest is gone is killed; one whose pytest still runs (another run beside this one) is
left alone."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from tests import orphans


def _sleeper(owner: str) -> subprocess.Popen:
    env = dict(os.environ, **{orphans.OWNER_VAR: owner})
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], env=env)


def _gone_owner() -> str:
    """The owner value of a process that has exited."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    value = f"{proc.pid}:{orphans._start_time(proc.pid)}"
    proc.wait()
    return value


def test_a_dead_runs_process_is_reaped_and_a_live_runs_is_not():
    orphan = _sleeper(_gone_owner())
    ours = _sleeper(orphans.owner())
    reused = _sleeper(f"{os.getpid()}:1")  # our pid, another start time: a reused pid
    try:
        time.sleep(0.3)  # the children have exec'd: /proc/<pid>/environ is theirs
        killed = orphans.reap()
        assert orphan.pid in killed and reused.pid in killed
        assert ours.pid not in killed
        assert orphan.wait(timeout=10) == -9 and reused.wait(timeout=10) == -9
        assert ours.poll() is None
    finally:
        for proc in (orphan, ours, reused):
            proc.kill()
            proc.wait()


def test_a_child_dies_with_its_parent():
    """``die_with_parent`` (PR_SET_PDEATHSIG): the grandchild goes when its parent does."""
    code = (
        "import subprocess, sys\n"
        "from tests import orphans\n"
        "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'],"
        " preexec_fn=orphans.die_with_parent)\n"
        "print(p.pid, flush=True)\n"
    )
    from tests.conftest import ROOT

    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    pid = int(out.stdout.split()[0])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and orphans._start_time(pid) is not None:
        time.sleep(0.05)
    state = orphans._start_time(pid)
    if state is not None:  # a zombie until init reaps it counts as dead
        with open(f"/proc/{pid}/stat") as f:
            assert f.read().rsplit(")", 1)[1].split()[0] == "Z"
