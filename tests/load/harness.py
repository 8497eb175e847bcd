"""Running the load harness (``python -m tools.load.run``) from a CI smoke test, and the
checks every smoke run makes: nothing lost, doubled or refused-but-stored, no gap, no
error frame, disconnect or unacknowledged action, no server error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

_DB = os.environ.get("DATABASE_URL", "")
_REDIS = os.environ.get("REDIS_URL", "")

NEEDS_SERVICES = pytest.mark.skipif(
    not (_DB.startswith(("postgres://", "postgresql://")) and _REDIS),
    reason="the load smoke run needs PostgreSQL and Redis: set DATABASE_URL=postgres://… "
    "and REDIS_URL=redis://… (.ci/run does)",
)


def run_harness(tmp_path: Path, args: list[str]) -> tuple[dict, subprocess.CompletedProcess]:
    """The harness run with ``args`` (its logs and JSON report under ``tmp_path``): the
    report and the finished process; its output is printed, its logs' tails shown when
    it wrote no report."""
    out = tmp_path / "report.json"
    cmd = [sys.executable, "-m", "tools.load.run", *args,
           "--log-dir", str(tmp_path / "logs"), "--json", str(out)]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    print(proc.stdout[-6000:])
    logs = "\n".join(
        f"--- {p.name}\n" + "\n".join(p.read_text(errors="replace").splitlines()[-15:])
        for p in sorted((tmp_path / "logs").glob("*.log"))
    )
    assert out.exists(), f"no report (exit {proc.returncode}):\n{proc.stderr[-4000:]}\n{logs}"
    return json.loads(out.read_text()), proc


def assert_nothing_lost(report: dict, proc: subprocess.CompletedProcess,
                        client_keys: tuple[str, ...] = ()) -> None:  # fmt: skip
    """Every acknowledged action stored once, and nothing went wrong (``client_keys``:
    more of the clients' counts that must be 0)."""
    game, check = report["game"], report["check"]
    assert check["acked_actions"] == check["stored_human_actions"], check["problems"]
    for key in ("lost", "duplicated", "ack_missing", "refused_but_stored", "version_gaps",
                "non_human_actions"):  # fmt: skip
        assert check[key] == 0, f"{key}: {check['problems']}"
    assert game["errors"] == {}, game["errors"]
    for key in ("disconnects", "connect_failures", "ack_timeouts", "unacked_at_end",
                *client_keys):  # fmt: skip
        assert game[key] == 0, f"{key}: {game[key]}"
    assert game["server_log"]["server_errors"] == 0, game["server_log"]["samples"]
    assert report["ok"] and proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
