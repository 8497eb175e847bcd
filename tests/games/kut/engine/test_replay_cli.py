"""The replay command's contract (kut-scenario.md): exit 0 with per-action results,
exit 2 with one line on stderr for a malformed scenario."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.games.kut.engine.scenario_cases import CASES

ROOT = Path(__file__).resolve().parents[4]
BASE = next(c for c in CASES if c["name"] == "turn_basics")


def run(stdin: str, *args):
    return subprocess.run(
        [sys.executable, "-m", "game.engine.replay", *(args or ("-",))],
        cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def scenario(**changes):
    s = copy.deepcopy(BASE)
    s.update(changes)
    return s


def test_output_fields_and_rejections_exit_zero():
    proc = run(json.dumps(scenario()))
    assert proc.returncode == 0
    out = json.loads(proc.stdout)
    assert set(out) == {"results", "over", "turn", "deck_count", "racks", "table",
                        "discards", "opened", "penalties", "finisher", "scores"}  # fmt: skip
    assert out["results"][0] == {"ok": False, "error": "first_turn_no_take"}
    # racks are sorted by colour R, Y, B, K then F, and by number
    order = "RYBKF"
    for rack in out["racks"]:
        keys = [(order.index(t[0]), int(t[1:] or 0)) for t in rack]
        assert keys == sorted(keys)


def test_reads_a_file(tmp_path):
    p = tmp_path / "s.json"
    p.write_text(json.dumps(scenario()), encoding="utf-8")
    proc = run("", str(p))
    assert proc.returncode == 0 and json.loads(proc.stdout)["turn"] == 3


def _third_copy():
    s = scenario()
    s["racks"][1][0] = "R13"
    s["racks"][2][0] = "R13"  # with seat 0's R13: three
    return s


def _indicator_copy():
    s = scenario(indicator="Y1")  # the indicator is a copy too (K-T3): three with these
    s["racks"][3][0] = "Y1"
    s["racks"][2][0] = "Y1"
    return s


def _bad_action():
    s = scenario()
    s["actions"] = [{"seat": 0, "type": "fly"}]
    return s


def _bad_action_tile():
    s = scenario()
    s["actions"] = [{"seat": 0, "type": "discard", "tile": "Q9"}]
    return s


def _short_rack():
    s = scenario()
    s["racks"][2] = s["racks"][2][:13]
    return s


def _starter_rack():
    s = scenario(starter=1)
    return s


MALFORMED = {
    "bad_json": "{not json",
    "not_an_object": "[1, 2]",
    "unknown_tile_in_rack": json.dumps(scenario(racks=[["X5"] * 15] + BASE["racks"][1:])),
    "unknown_tile_in_deck": json.dumps(scenario(deck=["R14"])),
    "third_copy": json.dumps(_third_copy()),
    "third_copy_with_indicator": json.dumps(_indicator_copy()),
    "three_fakes": json.dumps(scenario(deck=["F", "F", "F"])),
    "wrong_rack_size": json.dumps(_short_rack()),
    "starter_needs_fifteen": json.dumps(_starter_rack()),
    "unknown_action_type": json.dumps(_bad_action()),
    "unknown_tile_in_action": json.dumps(_bad_action_tile()),
    "bad_tasks": json.dumps(scenario(tasks=7)),
    "tasks_not_a_number": json.dumps(scenario(tasks=[])),  # once a TypeError trace
    "tasks_an_object": json.dumps(scenario(tasks={})),
    "bad_task_number": json.dumps(scenario(task=9)),
    "fake_indicator": json.dumps(scenario(indicator="F")),
    "missing_indicator": json.dumps({k: v for k, v in BASE.items() if k != "indicator"}),
    "bad_seat": json.dumps(scenario(actions=[{"seat": 4, "type": "draw"}])),
    "three_racks": json.dumps(scenario(racks=BASE["racks"][:3])),
    # nested deeper than Python's parser goes (a RecursionError once gave a traceback)
    "nested_too_deeply": "[" * 100_000,
    "a_field_nested_too_deeply": '{"game": "king", "chooser": ' + "[" * 990 + "]" * 990 + "}",
    "a_tile_nested_too_deeply": json.dumps(scenario(deck=[])).replace(
        '"deck": []', '"deck": ' + "[" * 990 + "]" * 990
    ),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_scenarios_exit_2_with_one_line(name):
    proc = run(MALFORMED[name])
    assert proc.returncode == 2, proc.stdout
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0], proc.stderr
    assert "Traceback" not in proc.stderr


def test_missing_file_exits_2():
    proc = run("", "/nonexistent/scenario.json")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1


def test_draw_from_an_empty_deck_is_a_rejection_not_a_crash():
    """K-D4: 'deck may be empty only if no action draws' — a draw then is refused."""
    s = scenario(deck=[], actions=[{"seat": 0, "type": "discard", "tile": "R13"},
                                   {"seat": 1, "type": "draw"}])  # fmt: skip
    proc = run(json.dumps(s))
    assert proc.returncode == 0
    out = json.loads(proc.stdout)
    # with an empty deck the starter's discard already ends the hand (K-D4)
    assert out["results"][0] == {"ok": True} and out["over"] is True
    assert out["results"][1] == {"ok": False, "error": "hand_over"}
