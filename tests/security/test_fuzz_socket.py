"""The match socket under hypothesis-driven fuzzing (issue 11, "Bad input on the
socket"): a CI sample of the fuzzer in ``tests/security/fuzzkit.py``; the long run is
``python tools/fuzz_socket.py --frames 20000`` (README).

The consumer never crashes (every socket stays open and answers), every bad frame gets
one error frame, the version moves only on accepted frames (one per frame), the log
holds exactly those and replays to the state, and all 106 tiles stay accounted for.
"""

from __future__ import annotations

import asyncio
import os

import pytest

from tests.game.conftest import session_cookie
from tests.security.fuzzkit import Harness, close_loop, run_fuzz, unlimited_rates

pytestmark = [pytest.mark.django_db(transaction=True)]

CI_FRAMES = int(os.environ.get("KUT_FUZZ_FRAMES", "1200"))


def test_the_match_socket_survives_random_and_mutated_frames(players, monkeypatch):
    unlimited_rates(monkeypatch.setattr)
    cookies = [session_cookie(u) for u in players]
    loop = asyncio.new_event_loop()
    try:
        harness = Harness(players, cookies, loop, seed="ci-fuzz")
        stats = run_fuzz(harness, CI_FRAMES)
    finally:
        close_loop(loop)
    print(f"\n[fuzz] {stats.line()}")
    print(f"[fuzz] kinds: {dict(stats.kinds)}")
    print(f"[fuzz] error codes: {dict(stats.codes)}")
    assert stats.frames >= CI_FRAMES
    assert stats.crashes == 0 and stats.lost_tiles == 0
    # the sample really exercised both sides: moves went through and bad frames bounced
    assert stats.accepted > CI_FRAMES // 10
    assert stats.errors > CI_FRAMES // 3
    assert stats.hands >= 1
    for code in ("bad_json", "too_large", "bad_action", "not_your_turn", "tile_not_in_rack",
                 "unknown_message", "stale_version"):  # fmt: skip
        assert stats.codes[code] > 0, (code, stats.codes)
