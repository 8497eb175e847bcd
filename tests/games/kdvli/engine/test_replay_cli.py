"""The KDVli commands' contract (kdvli-scenario.md): ``python -m game.engine.replay``
and ``python -m game.engine.solve`` with ``"game": "kdvli"`` exit 0 with the documented
fields; malformed input exits 2 with one line on standard error, never a traceback."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.engine.cli import main
from tests.games.kdvli.engine.scenario_cases import CASES

ROOT = Path(__file__).resolve().parents[4]
SPEC = next(c for c in CASES if c["name"] == "spec_example")
BASE = {k: v for k, v in SPEC.items() if k not in ("name", "rules", "note", "expect")}
FIELDS = {"results", "over", "void", "turn", "deck_count", "racks", "discards", "shown",
          "bonuses", "points", "finisher", "finish_tile", "finish_kind", "finish_groups",
          "multiplier", "scores", "team_scores"}  # fmt: skip
SOLVE_FIELDS = {"points", "runs_points", "groups", "left", "pairs_points", "pairs",
                "pairs_left", "counted"}  # fmt: skip


def command(name: str, stdin: str, *args):
    return subprocess.run(
        [sys.executable, "-m", f"game.engine.{name}", *(args or ("-",))],
        cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_replay_subprocess_gives_the_spec_output_exactly():
    proc = command("replay", json.dumps(BASE))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) == FIELDS
    assert out == SPEC["expect"]


def test_replay_reads_a_file(tmp_path):
    p = tmp_path / "s.json"
    p.write_text(json.dumps(BASE), encoding="utf-8")
    proc = command("replay", "", str(p))
    assert proc.returncode == 0 and json.loads(proc.stdout)["scores"] == [57, -75, 37, 46]


def test_solve_subprocess_gives_the_spec_output():
    q = {"game": "kdvli", "indicator": "Y5",
         "tiles": ["B12", "B13", "B1", "K3", "K4", "K5", "R6", "R6", "Y3"]}  # fmt: skip
    proc = command("solve", json.dumps(q))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) == SOLVE_FIELDS
    assert out == {"points": 15, "runs_points": 15,
                   "groups": [["B12", "B13", "B1"], ["K3", "K4", "K5"]],
                   "left": ["R6", "R6", "Y3"], "pairs_points": 41, "pairs": [["R6", "R6"]],
                   "pairs_left": ["B1", "B12", "B13", "K3", "K4", "K5", "Y3"],
                   "counted": "runs"}  # fmt: skip


def _bad(**changes):
    s = copy.deepcopy(BASE)
    for k, v in changes.items():
        if v is KeyError:
            s.pop(k)
        else:
            s[k] = v
    return s


def _rack(seat, i, tile):
    s = copy.deepcopy(BASE)
    s["racks"][seat][i] = tile
    return s


def _action(a):
    s = copy.deepcopy(BASE)
    s["actions"] = [a]
    return s


MALFORMED = {
    "bad_json": "{not json",
    "not_an_object": [],
    "other_game": _bad(game="chess"),
    "unknown_tile": _rack(0, 0, "G5"),
    "tile_not_text": _rack(0, 0, 7),
    "third_copy": _rack(3, 13, "R11"),
    "third_fake": _bad(deck=["F", "F", "F"]),
    "fake_indicator": _bad(indicator="F"),
    "starter_4": _bad(starter=4),
    "starter_bool": _bad(starter=True),
    "rack_size": _bad(racks=BASE["racks"][:3] + [BASE["racks"][3][:13]]),
    "three_racks": _bad(racks=BASE["racks"][:3]),
    "missing_indicator": _bad(indicator=KeyError),
    "missing_racks": _bad(racks=KeyError),
    "missing_deck": _bad(deck=KeyError),
    "missing_starter": _bad(starter=KeyError),
    "missing_actions": _bad(actions=KeyError),
    "deck_not_list": _bad(deck="Y6"),
    "partners_not_bool": _bad(partners="yes"),
    "actions_not_list": _bad(actions={}),
    "unknown_action": _action({"seat": 0, "type": "claim"}),
    "seat_5": _action({"seat": 5, "type": "draw"}),
    "seat_missing": _action({"type": "draw"}),
    "discard_without_tile": _action({"seat": 0, "type": "discard"}),
    "discard_bad_tile": _action({"seat": 0, "type": "discard", "tile": "X1"}),
    "finish_without_groups": _action({"seat": 0, "type": "finish", "tile": "K6"}),
    "finish_bad_group_tile": _action({"seat": 0, "type": "finish", "tile": "K6",
                                      "groups": [["R1", "Q"]]}),
    "action_not_object": _action("draw"),
    "draw_with_a_bad_tile_field": _action({"seat": 1, "type": "draw", "tile": "R14"}),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_scenarios_exit_2_with_one_line(name, capsys, tmp_path):
    data = MALFORMED[name]
    p = tmp_path / "s.json"
    p.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    assert main("replay", [str(p)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.strip() and "Traceback" not in err


def test_malformed_scenario_through_the_subprocess():
    proc = command("replay", json.dumps(MALFORMED["third_copy"]))
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and "third copy" in proc.stderr


SOLVE_BAD = {
    "no_indicator": {"game": "kdvli", "tiles": []},
    "fake_indicator": {"game": "kdvli", "indicator": "F", "tiles": []},
    "no_tiles": {"game": "kdvli", "indicator": "R1"},
    "tiles_not_list": {"game": "kdvli", "indicator": "R1", "tiles": "R2"},
    "too_many": {"game": "kdvli", "indicator": "R1", "tiles": ["R2"] * 2 + ["Y3"] * 2
                 + ["B4", "B5", "B6", "B7", "B8", "B9", "B10", "B11", "B12", "B13", "K1", "K2"]},
    "unknown_tile": {"game": "kdvli", "indicator": "R1", "tiles": ["Z3"]},
    "third_copy_with_indicator": {"game": "kdvli", "indicator": "R1", "tiles": ["R1", "R1"]},
    "third_fake": {"game": "kdvli", "indicator": "R1", "tiles": ["F", "F", "F"]},
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(SOLVE_BAD))
def test_malformed_solver_queries_exit_2(name, capsys, tmp_path):
    p = tmp_path / "q.json"
    p.write_text(json.dumps(SOLVE_BAD[name]), encoding="utf-8")
    assert main("solve", [str(p)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_solver_accepts_0_to_15_tiles(capsys, tmp_path):
    for tiles in ([], ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11",
                       "R12", "R13", "Y1", "Y2"]):  # fmt: skip
        p = tmp_path / "q.json"
        p.write_text(json.dumps({"game": "kdvli", "indicator": "K1", "tiles": tiles}))
        assert main("solve", [str(p)]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["points"] == (0 if not tiles else 3)
