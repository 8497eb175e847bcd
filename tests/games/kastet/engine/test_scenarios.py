"""Golden Kastet scenario files run through the replay command (kastet-scenario.md).

Each file in ``scenarios/`` is a scenario plus ``expect`` (fields worked out by hand from
kastet.md, see ``scenario_cases.py``) and ``rules`` (the rule ids it exercises).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.games.kastet.engine.scenario_cases import CASES, HERE

ROOT = Path(__file__).resolve().parents[4]
FILES = sorted(HERE.glob("*.json"))
ACTION_TYPES = ("lay", "draw", "pass", "undo", "timeout")


def test_files_match_their_source():
    """The JSON files are exactly what scenario_cases.py writes."""
    on_disk = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in FILES}
    assert on_disk == {c["name"]: c for c in CASES}
    assert len(FILES) >= 20


def test_every_action_type_is_accepted_and_rejected_somewhere():
    accepted, rejected = set(), set()
    for c in CASES:
        for action, res in zip(c["actions"], c["expect"].get("results", [])):
            (accepted if res["ok"] else rejected).add(action["type"])
    assert accepted >= set(ACTION_TYPES), set(ACTION_TYPES) - accepted
    assert rejected >= set(ACTION_TYPES), set(ACTION_TYPES) - rejected


def test_every_scoring_rule_has_a_scored_scenario():
    scored = set()
    for c in CASES:
        if c["expect"].get("scores"):
            scored.update(c["rules"])
    assert {"S-S1", "S-S2", "S-S3", "S-S4", "S-S5", "S-E2", "S-F1"} <= scored


def _run_all() -> dict[str, dict]:
    """One subprocess for all files (the command is also run per file in
    test_replay_cli): keeps the suite fast on a shared machine."""
    code = (
        "import json, sys\n"
        "from game.engine.cli import main\n"
        "for p in sys.argv[1:]:\n"
        "    main('replay', [p])\n"
    )
    proc = subprocess.run([sys.executable, "-c", code, *map(str, FILES)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    outs = [json.loads(line) for line in proc.stdout.splitlines()]
    return {p.stem: o for p, o in zip(FILES, outs)}


@pytest.fixture(scope="module")
def outputs():
    return _run_all()


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_scenario(path, outputs):
    case = json.loads(path.read_text(encoding="utf-8"))
    out = outputs[path.stem]
    assert len(out["results"]) == len(case["actions"])
    for key, want in case["expect"].items():
        assert out[key] == want, f"{path.stem}: {key}"
