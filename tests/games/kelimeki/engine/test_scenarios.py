"""Golden Kelimeki scenarios run through the replay command (kelimeki-scenario.md).

Each file in ``scenarios/`` is a scenario plus ``expect`` (fields worked out by hand,
see ``scenario_cases.py``) and ``rules`` (the rule ids it exercises).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.kelimeki.engine.replay import run_scenario
from tests.games.kelimeki.engine.scenario_cases import CASES, HERE

ROOT = Path(__file__).resolve().parents[4]
FILES = sorted(HERE.glob("*.json"))
FIELDS = ("results", "over", "turn", "bag_count", "racks", "scores", "passes",
          "forfeited", "board", "zones", "deducted", "ranks", "klig")  # fmt: skip


def test_files_match_their_source():
    on_disk = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in FILES}
    assert on_disk == {c["name"]: c for c in CASES}
    assert len(FILES) >= 15


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_scenario(path):
    case = json.loads(path.read_text(encoding="utf-8"))
    out = run_scenario(case)
    assert list(out) == list(FIELDS)  # every documented field, in the documented order
    for key, want in case["expect"].items():
        assert out[key] == want, f"{path.stem}: {key}"


def test_every_action_type_is_accepted_and_rejected_somewhere():
    accepted, rejected = set(), set()
    for c in CASES:
        for action, res in zip(c["actions"], c["expect"].get("results", [])):
            (accepted if res["ok"] else rejected).add(action["type"])
    kinds = {"play", "exchange", "pass", "timeout"}
    assert accepted >= kinds and rejected >= kinds


def test_every_play_rejection_code_is_in_a_golden_file():
    codes = {r["error"] for c in CASES for r in c["expect"].get("results", []) if not r["ok"]}
    assert codes >= {"game_over", "not_your_turn", "no_tiles", "tiles_not_in_rack",
                     "off_board", "duplicate_cell", "cell_occupied", "not_in_line", "gap",
                     "must_cover_home", "not_connected", "no_word", "invalid_word",
                     "bag_empty", "bag_too_small"}  # fmt: skip


def test_a_golden_file_through_the_command():
    """The real command, as the checker runs it: exit 0 and the same JSON."""
    path = HERE / "zones_and_tax.json"
    proc = subprocess.run([sys.executable, "-m", "game.engine.replay", str(path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    case = json.loads(path.read_text(encoding="utf-8"))
    for key, want in case["expect"].items():
        assert out[key] == want
