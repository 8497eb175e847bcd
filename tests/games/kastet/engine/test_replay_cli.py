"""The replay command's contract for Kastet (kastet-scenario.md): exit 0 with every
documented field; a malformed scenario exits 2 with one line on stderr, no traceback."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.games.kastet.engine.scenario_cases import CASES

ROOT = Path(__file__).resolve().parents[4]
BASE = next(c for c in CASES if c["name"] == "seed_examples_rearrange_the_table")
FIELDS = {"results", "over", "turn", "deck_count", "racks", "table", "pairs", "finisher",
          "blocked", "scores", "team_scores"}  # fmt: skip


def run(stdin: str, *args, command="replay"):
    return subprocess.run(
        [sys.executable, "-m", f"game.engine.{command}", *(args or ("-",))],
        cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def scenario(**changes) -> dict:
    s = {k: copy.deepcopy(v) for k, v in BASE.items() if k not in ("name", "rules", "expect")}
    s.update(changes)
    return s


def test_output_has_exactly_the_documented_fields():
    proc = run(json.dumps(scenario()))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) == FIELDS
    order = "RYBKF"
    for rack in out["racks"]:  # sorted by colour R, Y, B, K then F, and by number
        keys = [(order.index(t[0]), int(t[1:] or 0)) for t in rack]
        assert keys == sorted(keys)
    for g in out["table"]:
        assert set(g) == {"kind", "tiles", "values"} and g["kind"] in ("run", "kut")


def test_reads_a_file(tmp_path):
    p = tmp_path / "s.json"
    p.write_text(json.dumps(scenario()), encoding="utf-8")
    proc = run("", str(p))
    assert proc.returncode == 0 and json.loads(proc.stdout)["turn"] == 0


def _with(path: tuple, value) -> str:
    s = scenario()
    target = s
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return json.dumps(s)


def _without(key: str) -> str:
    s = scenario()
    del s[key]
    return json.dumps(s)


MALFORMED = {
    "bad_json": "{not json",
    "not_an_object": "[1, 2]",
    "missing_starter": _without("starter"),
    "missing_indicator": _without("indicator"),
    "missing_racks": _without("racks"),
    "missing_deck": _without("deck"),
    "missing_actions": _without("actions"),
    "starter_wrong_type": _with(("starter",), "0"),
    "starter_out_of_range": _with(("starter",), 4),
    "partners_wrong_type": _with(("partners",), "yes"),
    "racks_wrong_type": _with(("racks",), "K5 K6"),
    "three_racks": _with(("racks",), BASE["racks"][:3]),
    "deck_wrong_type": _with(("deck",), "K13"),
    "actions_wrong_type": _with(("actions",), {}),
    "unknown_tile_in_rack": _with(("racks", 0, 0), "X5"),
    "unknown_tile_in_deck": _with(("deck",), ["R14"]),
    "unknown_tile_in_table": _with(("table",), [["R1", "R2", "Q3"]]),
    "unknown_tile_in_pairs": _with(("pairs",), [["R1", "R0"]]),
    "unknown_tile_in_action": _with(("actions", 0, "table"), [["K5", "K6", "K7", "Z8"]]),
    "unknown_tile_in_action_pairs": _with(("actions",), [
        {"seat": 0, "type": "lay", "table": [], "pairs": [["K5", "KK"]]}]),
    "tile_not_a_string": _with(("racks", 0, 0), 5),
    "third_copy": _with(("deck",), ["K5", "K5"]),
    "third_copy_with_indicator": _with(("racks", 1), ["R7", "R7", "Y2"]),
    "third_copy_on_the_table": _with(("table",), [["K4", "K5", "K6"], ["R5", "Y5", "K5"]]),
    "third_fake": _with(("deck",), ["F", "F", "F"]),
    "fake_indicator": _with(("indicator",), "F"),
    "empty_rack": _with(("racks", 3), []),
    "rack_of_23": _with(("racks", 3), [f"{c}{n}" for c in "RB" for n in range(1, 13)][:23]),
    "invalid_starting_group": _with(("table",), [["R1", "R2", "R4"]]),
    "pair_on_the_starting_table": _with(("table",), [["R1", "R1"]]),
    "invalid_starting_pair": _with(("pairs",), [["R1", "Y1"]]),
    "two_okeys_as_a_starting_pair": _with(("pairs",), [["R8", "R8"]]),
    "27_starting_groups": _with(("table",), [["R1", "R2", "R3"]] * 27),
    "table_wrong_type": _with(("table",), "R1 R2 R3"),
    # falsy, but not absent: not an empty table (they once read as "no table")
    "table_an_empty_object": _with(("table",), {}),
    "table_false": _with(("table",), False),
    "pairs_zero": _with(("pairs",), 0),
    "pairs_an_empty_string": _with(("pairs",), ""),
    "unknown_action_type": _with(("actions", 0, "type"), "fly"),
    "discard_is_no_kastet_action": _with(("actions", 0), {"seat": 0, "type": "discard",
                                                          "tile": "Y1"}),
    "seat_outside_0_3": _with(("actions", 0, "seat"), 4),
    "seat_missing": _with(("actions", 0), {"type": "draw"}),
    "lay_without_table": _with(("actions", 0), {"seat": 0, "type": "lay"}),
    "lay_table_wrong_type": _with(("actions", 0, "table"), ["K5", "K6", "K7"]),
    "action_not_an_object": _with(("actions", 0), "draw"),
    "wrong_game": _with(("game",), "kastets"),
}  # fmt: skip


def in_process(stdin: str, monkeypatch, capsys, command="replay") -> tuple[int, str, str]:
    """The command's main in this process (the same code ``python -m`` runs)."""
    import io

    from game.engine.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(command, ["-"])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_scenarios_exit_2_with_one_line(name, monkeypatch, capsys):
    code, out, err = in_process(MALFORMED[name], monkeypatch, capsys)
    assert code == 2, (name, out)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0], err
    assert "Traceback" not in err


@pytest.mark.parametrize("name", ["bad_json", "third_copy", "discard_is_no_kastet_action"])
def test_malformed_through_a_subprocess(name):
    proc = run(MALFORMED[name])
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


def test_missing_file_exits_2():
    proc = run("", "/nonexistent/kastet.json")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1


def test_a_rejected_action_is_reported_not_fatal():
    s = scenario(actions=[{"seat": 2, "type": "draw"}, {"seat": 0, "type": "undo"}])
    proc = run(json.dumps(s))
    assert proc.returncode == 0
    out = json.loads(proc.stdout)
    assert out["results"] == [{"ok": False, "error": "not_your_turn"},
                              {"ok": False, "error": "nothing_to_undo"}]  # fmt: skip
