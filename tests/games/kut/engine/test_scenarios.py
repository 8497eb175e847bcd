"""Golden scenario files run through the replay command (kut-scenario.md).

Each file in ``scenarios/`` is a scenario plus ``expect`` (fields worked out by hand
from kut.md, see ``scenario_cases.py``) and ``rules`` (the rule ids it exercises).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.games.kut.engine.scenario_cases import CASES, HERE

ROOT = Path(__file__).resolve().parents[4]
FILES = sorted(HERE.glob("*.json"))
ACTION_TYPES = ("take_discard", "draw", "claim", "open", "new_groups", "lay_off",
                "auto_lay_off", "undo", "discard", "timeout")  # fmt: skip


def test_there_are_enough_golden_files():
    assert len(FILES) >= 40


def test_files_match_their_source():
    """The JSON files are exactly what scenario_cases.py writes."""
    on_disk = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in FILES}
    assert on_disk == {c["name"]: c for c in CASES}


def test_every_action_type_is_accepted_and_rejected_somewhere():
    accepted, rejected = set(), set()
    for c in CASES:
        results = c["expect"].get("results", [])
        for action, res in zip(c["actions"], results):
            (accepted if res["ok"] else rejected).add(action["type"])
    assert accepted >= set(ACTION_TYPES), set(ACTION_TYPES) - accepted
    assert rejected >= set(ACTION_TYPES), set(ACTION_TYPES) - rejected


def test_every_scoring_rule_has_a_scored_scenario():
    scored = set()
    for c in CASES:
        if c["expect"].get("scores") or c["expect"].get("penalties"):
            scored.update(c["rules"])
    assert {"K-S1", "K-S2", "K-S3", "K-S4", "K-S5", "K-S6"} <= scored


def _run(path: Path) -> dict:
    proc = subprocess.run(
        [sys.executable, "-m", "game.engine.replay", str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_scenario(path):
    case = json.loads(path.read_text(encoding="utf-8"))
    out = _run(path)
    assert len(out["results"]) == len(case["actions"])
    for key, want in case["expect"].items():
        assert out[key] == want, f"{path.stem}: {key}"
