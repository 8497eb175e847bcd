"""Issue 31: the analysis's CPU per hand and per match through the site (README,
"On the site"): matches played by bots through the services (``finished_match``), each
analysed by ``game.analysis.analyse_match`` as the worker does, timed with the thread's
CPU clock; the per-hand figures are the stored ``HandAnalysis.cpu_ms``.  Not a test (the
file name keeps it out of the suite); run it on purpose::

    DEBUG=1 python -m pytest -p no:cacheprovider tests/analysis/measure.py -s
"""

from __future__ import annotations

import time

import pytest

from game import analysis
from game.engine.stats import percentile
from game.models import HandAnalysis
from tests.analysis.matches import OPTIONS, TEST_OPTIONS, finished_match
from tests.history.conftest import make_user

# game, matches, its options: the longest King, a whole Kelimeki game with the full bag
RUNS = [("kut", 3, {}), ("kdvli", 3, {}), ("king", 3, {"length": 20}), ("kastet", 6, {}),
        ("kelimeki", 12, {})]  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize("game,n,options", RUNS)
def test_measure(game, n, options, monkeypatch):
    monkeypatch.setitem(TEST_OPTIONS, game, None)
    monkeypatch.setitem(OPTIONS, game, options)
    per_hand, per_match = [], []
    for i in range(n):
        match = finished_match(game, make_user(f"measure_{game}_{i}"), seed=f"measure-{game}-{i}")
        start = time.thread_time()
        analysis.analyse_match(match.pk)
        per_match.append((time.thread_time() - start) * 1000)
        per_hand += [r.cpu_ms for r in HandAnalysis.objects.filter(match=match)]
    print(f"\n{game}: {n} matches, {len(per_hand)} hands; CPU per hand p50 "
          f"{percentile(per_hand, 0.5):.0f} p99 {percentile(per_hand, 0.99):.0f} max {max(per_hand)} ms;"
          f" per match p50 {percentile(per_match, 0.5):.0f} max {max(per_match):.0f} ms")  # fmt: skip
