"""CI smoke run of the load harness (issue 10): a correctness check, not a timing one.

``python -m tools.load.run`` starts the production stack (a daphne process, a Celery
worker and beat, PostgreSQL database ``kut_load_ci``, Redis database 10 — never the
tests' own), drives 10 test tables of four scripted websocket clients at saturation for
20 s, then compares every client's acknowledged actions with the ``MatchAction`` log.
The test fails on any lost or duplicated action, any skipped or doubled version, any
error frame, disconnect or unacknowledged action.  Latencies are printed, never asserted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

_DB = os.environ.get("DATABASE_URL", "")
_REDIS = os.environ.get("REDIS_URL", "")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not (_DB.startswith(("postgres://", "postgresql://")) and _REDIS),
        reason="the load smoke run needs PostgreSQL and Redis: set DATABASE_URL=postgres://… "
        "and REDIS_URL=redis://… (.ci/run does)",
    ),
]


def test_ten_tables_for_twenty_seconds_lose_and_double_nothing(tmp_path):
    out = tmp_path / "report.json"
    cmd = [
        sys.executable, "-m", "tools.load.run", "--tables", "10", "--seconds", "20",
        "--warmup", "2", "--mode", "saturation", "--daphne", "1",
        "--db-name", "kut_load_ci", "--redis-db", "10",
        "--log-dir", str(tmp_path / "logs"), "--json", str(out),
    ]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    print(proc.stdout[-6000:])
    logs = "\n".join(
        f"--- {p.name}\n" + "\n".join(p.read_text(errors="replace").splitlines()[-15:])
        for p in sorted((tmp_path / "logs").glob("*.log"))
    )
    assert out.exists(), f"no report (exit {proc.returncode}):\n{proc.stderr[-4000:]}\n{logs}"
    report = json.loads(out.read_text())
    game, check = report["game"], report["check"]
    assert game["actions_measured"] > 0, "no action was played"
    assert check["acked_actions"] == check["stored_human_actions"], check["problems"]
    for key in ("lost", "duplicated", "ack_missing", "refused_but_stored", "version_gaps",
                "non_human_actions"):  # fmt: skip
        assert check[key] == 0, f"{key}: {check['problems']}"
    assert game["errors"] == {}, game["errors"]
    for key in ("disconnects", "connect_failures", "ack_timeouts", "unacked_at_end"):
        assert game[key] == 0, f"{key}: {game[key]}"
    assert game["server_log"]["server_errors"] == 0, game["server_log"]["samples"]
    assert report["ok"] and proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
