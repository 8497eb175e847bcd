"""Golden King scenario files run through the replay command (king-scenario.md).

Each file in ``scenarios/`` is a scenario plus ``expect`` (fields worked out by hand
from king.md, see ``cases.py``) and ``rules`` (the rule ids it exercises).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .cases import CASES, HERE

ROOT = Path(__file__).resolve().parents[4]
FILES = sorted(HERE.glob("*.json"))


def test_files_match_their_source():
    """The JSON files are exactly what cases.py writes."""
    on_disk = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in FILES}
    assert on_disk == {c["name"]: json.loads(json.dumps(c)) for c in CASES}
    assert len(FILES) >= 15


def test_every_contract_is_scored_by_a_golden_file():
    scored = {c["contract"] if "contract" in c else c["actions"][0].get("contract")
              for c in CASES if c["expect"].get("scores")}  # fmt: skip
    assert scored >= {
        "el_almaz",
        "kupa_almaz",
        "erkek_almaz",
        "kiz_almaz",
        "rifki",
        "son_iki",
        "koz",
    }


@pytest.fixture(scope="module")
def outputs() -> dict[str, dict]:
    """Every golden file through ``python -m game.engine.replay FILE`` (one process per
    file, as the command is used)."""
    out = {}
    for path in FILES:
        proc = subprocess.run([sys.executable, "-m", "game.engine.replay", str(path)],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        out[path.stem] = json.loads(proc.stdout)
    return out


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_scenario(path, outputs):
    case = json.loads(path.read_text(encoding="utf-8"))
    out = outputs[path.stem]
    assert len(out["results"]) == len(case["actions"])
    for key, want in case["expect"].items():
        assert out[key] == want, f"{path.stem}: {key}"
