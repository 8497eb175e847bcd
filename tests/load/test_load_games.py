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

import os

import pytest

from tests.load.harness import NEEDS_SERVICES, assert_nothing_lost, run_harness

pytestmark = [pytest.mark.slow, NEEDS_SERVICES]

GAMES = ("kut", "kdvli", "king", "kastet", "kelimeki")


def test_every_game_through_the_harness_loses_and_doubles_nothing(tmp_path):
    report, proc = run_harness(tmp_path, [
        "--game", "mix", "--tables", "12", "--seconds", "15", "--warmup", "2",
        "--mode", "saturation", "--daphne", "1",
        "--db-name", os.environ.get("LOAD_SMOKE_DB", "kut_load_ci"),
        "--redis-db", os.environ.get("LOAD_SMOKE_REDIS_DB", "10"),
    ])  # fmt: skip
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
    assert_nothing_lost(report, proc, client_keys=("choose_failures",))
