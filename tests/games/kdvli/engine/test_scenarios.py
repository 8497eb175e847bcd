"""Golden KDVli scenario files run through the replay command (kdvli-scenario.md).

Each file in ``scenarios/`` is a scenario plus ``expect`` (fields worked out by hand
from kdvli.md, see ``scenario_cases.py``; ``null`` inside a list = not asserted) and
``rules``.  The files are read by ``game.engine.cli.main("replay", [path])``, the
command's own main (a subprocess run is in ``test_replay_cli.py``).
"""

from __future__ import annotations

import json

import pytest

from game.engine.cli import main
from tests.games.kdvli.engine.scenario_cases import CASES, HERE

FILES = sorted(HERE.glob("*.json"))
TYPES = ("draw", "take_discard", "discard", "finish", "show_indicator", "timeout")


def test_files_match_their_source():
    on_disk = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in FILES}
    assert on_disk == {c["name"]: c for c in CASES}
    assert len(FILES) >= 12


def test_every_action_type_is_accepted_and_rejected_somewhere():
    accepted, rejected = set(), set()
    for c in CASES:
        for action, res in zip(c["actions"], c["expect"].get("results", [])):
            (accepted if res["ok"] else rejected).add(action["type"])
    assert accepted == set(TYPES)
    assert rejected >= set(TYPES) - {"timeout"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_scenario(path, capsys):
    assert main("replay", [str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    expect = json.loads(path.read_text(encoding="utf-8"))["expect"]
    for key, want in expect.items():
        got = out[key]
        if isinstance(want, list) and None in want:
            assert len(got) == len(want)
            for w, g in zip(want, got):
                assert w is None or w == g, (key, want, got)
        else:
            assert got == want, key
    # V-S3: scores follow points, the multiplier and the bonuses once finished
    if out["finisher"] is not None:
        m = out["multiplier"]
        for s in range(4):
            base = -50 * m if s == out["finisher"] else out["points"][s] * m
            assert out["scores"][s] == base + out["bonuses"][s]
