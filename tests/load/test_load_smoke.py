"""CI smoke run of the load harness (issue 10): a correctness check, not a timing one.

``python -m tools.load.run`` starts the production stack (a daphne process, a Celery
worker and beat, PostgreSQL database ``kut_load_ci``, Redis database 10 — never the
tests' own), drives 10 test tables of four scripted websocket clients at saturation for
20 s, then compares every client's acknowledged actions with the ``MatchAction`` log.
The test fails on any lost or duplicated action, any skipped or doubled version, any
error frame, disconnect or unacknowledged action.  Latencies are printed, never asserted.
"""

from __future__ import annotations

import pytest

from tests.load.harness import NEEDS_SERVICES, assert_nothing_lost, run_harness

pytestmark = [pytest.mark.slow, NEEDS_SERVICES]


def test_ten_tables_for_twenty_seconds_lose_and_double_nothing(tmp_path):
    report, proc = run_harness(tmp_path, [
        "--tables", "10", "--seconds", "20", "--warmup", "2", "--mode", "saturation",
        "--daphne", "1", "--db-name", "kut_load_ci", "--redis-db", "10",
    ])  # fmt: skip
    assert report["game"]["actions_measured"] > 0, "no action was played"
    assert_nothing_lost(report, proc)
