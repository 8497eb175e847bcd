"""CI smoke run of the load harness over every game (issue 30): a correctness check.

``python -m tools.load.run --game mix`` starts the production stack (a daphne process,
a Celery worker and beat, PostgreSQL database ``kut_load_ci``, Redis database 10 — never
the tests' own; ``LOAD_SMOKE_DB``/``LOAD_SMOKE_REDIS_DB`` name others) and drives 12 tables of the mix — KÜT 4, KDVli, King, Kastet and
Kelimeki 2 each (Kelimeki one table of two seats, one of four) — for 15 s: the humans'
sockets as fast as the rate limit lets them, one bot seat at every table but KÜT's
played by the server at its real pace.  Then every acknowledged action is compared with
the ``MatchAction`` log.  The test fails on any lost or duplicated action, any skipped
version, any error frame, disconnect or unacknowledged action, any game whose humans
or bots did not move.  Latencies are printed, never asserted.
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

GAMES = ("kut", "kdvli", "king", "kastet", "kelimeki")


def test_every_game_through_the_harness_loses_and_doubles_nothing(tmp_path):
    out = tmp_path / "report.json"
    cmd = [
        sys.executable, "-m", "tools.load.run", "--game", "mix", "--tables", "12",
        "--seconds", "15", "--warmup", "2", "--mode", "saturation", "--daphne", "1",
        "--db-name", os.environ.get("LOAD_SMOKE_DB", "kut_load_ci"),
        "--redis-db", os.environ.get("LOAD_SMOKE_REDIS_DB", "10"),
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
    assert sorted(game["games"]) == sorted(GAMES), game["games"].keys()
    assert {g: s["tables"] for g, s in game["games"].items()} == {
        "kut": 4, "kdvli": 2, "king": 2, "kastet": 2, "kelimeki": 2,
    }  # fmt: skip
    for key, stats in game["games"].items():
        assert stats["human_actions_per_second"] > 0, f"no human of {key} acted"
        if key != "kut":  # KÜT's tables are four humans, as in the KÜT runs
            assert (stats["bot_cpu_ms"] or {}).get("n", 0) > 0, f"no bot of {key} moved"
    assert check["bot_actions"] > 0
    assert check["acked_actions"] == check["stored_human_actions"], check["problems"]
    for key in ("lost", "duplicated", "ack_missing", "refused_but_stored", "version_gaps",
                "non_human_actions"):  # fmt: skip
        assert check[key] == 0, f"{key}: {check['problems']}"
    assert game["errors"] == {}, game["errors"]
    for key in ("disconnects", "connect_failures", "ack_timeouts", "unacked_at_end",
                "choose_failures"):  # fmt: skip
        assert game[key] == 0, f"{key}: {game[key]}"
    assert game["server_log"]["server_errors"] == 0, game["server_log"]["samples"]
    assert report["ok"] and proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
