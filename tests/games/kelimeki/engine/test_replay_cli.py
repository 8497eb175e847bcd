"""The replay command for ``"game": "kelimeki"``: every malformed input listed in
kelimeki-scenario.md exits 2 with one line on standard error, never a traceback."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.kelimeki.engine.replay import ScenarioError, run_scenario

ROOT = Path(__file__).resolve().parents[4]
GOOD = {
    "game": "kelimeki",
    "players": 2,
    "racks": [["K", "A", "R"], ["E", "V"]],
    "bag": ["A"],
    "words": ["kar"],
    "actions": [
        {"seat": 0, "type": "play", "placements": [{"row": 0, "col": 0, "letter": "K"}]},
        {"seat": 0, "type": "exchange", "letters": ["A"]},
        {"seat": 1, "type": "pass"},
        {"seat": 0, "type": "timeout"},
    ],
}


def bad(**changes):
    d = copy.deepcopy(GOOD)
    for k, v in changes.items():
        if v is ...:
            d.pop(k)
        else:
            d[k] = v
    return d


def act(**fields):
    return bad(actions=[{"seat": 0, "type": "play",
                         "placements": [{"row": 0, "col": 0, "letter": "K"}]} | fields])  # fmt: skip


def place(**fields):
    return bad(actions=[{"seat": 0, "type": "play",
                         "placements": [{"row": 0, "col": 0, "letter": "K"} | fields]}])  # fmt: skip


MALFORMED = {
    "not_an_object": [1, 2],
    "game_missing": bad(game=...),
    "game_wrong": bad(game="kut2"),
    "players_3": bad(players=3),
    "players_string": bad(players="2"),
    "players_bool": bad(players=True),
    "players_a_float": bad(players=2.0),  # once a traceback, not exit 2
    "starter_out_of_range": bad(starter=2),
    "starter_not_int": bad(starter=0.5),
    "racks_wrong_count": bad(racks=[["A"]]),
    "racks_not_list": bad(racks="KAR"),
    "rack_empty": bad(racks=[[], ["E"]]),
    "rack_eight": bad(racks=[["A"] * 8, ["E"]]),
    "unknown_tile": bad(racks=[["Q"], ["E"]]),
    "lower_case_tile": bad(racks=[["k"], ["E"]]),
    "bag_unknown_tile": bad(bag=["X"]),
    "bag_not_list": bad(bag="A"),
    "too_many_copies": bad(racks=[["J"], ["E"]], bag=["J"]),
    "three_jokers": bad(racks=[["*", "*"], ["E"]], bag=["*"]),
    "word_one_letter": bad(words=["a"]),
    "word_outside_letters": bad(words=["kar", "quiz"]),
    "word_hyphen": bad(words=["e-posta"]),
    "word_not_string": bad(words=[3]),
    "words_not_list": bad(words="kar"),
    "unknown_action_type": bad(actions=[{"seat": 0, "type": "shuffle"}]),
    "action_not_object": bad(actions=["pass"]),
    "actions_not_list": bad(actions={"seat": 0}),
    "seat_out_of_range": bad(actions=[{"seat": 2, "type": "pass"}]),
    "seat_missing": bad(actions=[{"type": "pass"}]),
    "seat_bool": bad(actions=[{"seat": True, "type": "pass"}]),
    "placement_row_missing": bad(
        actions=[{"seat": 0, "type": "play", "placements": [{"col": 0, "letter": "K"}]}]
    ),
    "placement_row_string": place(row="0"),
    "placement_col_float": place(col=1.0),
    "placement_joker_letter": place(letter="*"),
    "placement_unknown_letter": place(letter="Q"),
    "placement_lower_letter": place(letter="k"),
    "placement_joker_not_bool": place(joker="yes"),
    "placements_not_list": act(placements={"row": 0}),
    "letters_not_list": bad(actions=[{"seat": 0, "type": "exchange", "letters": "A"}]),
    "letters_unknown_tile": bad(actions=[{"seat": 0, "type": "exchange", "letters": ["Q"]}]),
    # a tile is one of W-T1's 30, not a piece of their string (once a traceback: KeyError)
    "rack_two_letters": bad(racks=[["AB", "K"], ["E"]]),
    "rack_empty_name": bad(racks=[[""], ["E"]]),
    "bag_letter_and_joker": bad(bag=["Z*"]),
    "letters_two_letters": bad(actions=[{"seat": 0, "type": "exchange", "letters": ["AB"]}]),
    "letters_empty_name": bad(actions=[{"seat": 0, "type": "exchange", "letters": [""]}]),
}


def test_good_scenario_runs():
    out = run_scenario(GOOD)
    assert [r["ok"] for r in out["results"]] == [False, True, True, True]
    assert out["forfeited"] == [True, False] and out["ranks"] == [None, 1]


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_is_a_scenario_error(name):
    with pytest.raises(ScenarioError):
        run_scenario(MALFORMED[name])


def run_cli(text: str):
    return subprocess.run([sys.executable, "-m", "game.engine.replay", "-"], input=text,
                          cwd=ROOT, capture_output=True, text=True, timeout=60)  # fmt: skip


@pytest.mark.parametrize(
    "name",
    ["players_3", "rack_eight", "word_hyphen", "placement_joker_letter", "seat_out_of_range",
     "rack_two_letters"],  # fmt: skip
)
def test_malformed_through_the_command_exits_2_with_one_line(name):
    proc = run_cli(json.dumps(MALFORMED[name], ensure_ascii=False))
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr


def test_bad_json_exits_2():
    proc = run_cli('{"game": "kelimeki", ')
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1


def test_good_scenario_through_the_command():
    proc = run_cli(json.dumps(GOOD))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["results"][0] == {"ok": False, "error": "no_word"}
    assert out["klig"] == [-2, 2] and out["over"] is True


def test_missing_placements_or_letters_are_a_rule_matter():
    """Not in the format's malformed list, so answered per action (no_tiles)."""
    out = run_scenario(bad(actions=[{"seat": 0, "type": "play"},
                                    {"seat": 0, "type": "exchange"}]))  # fmt: skip
    assert out["results"] == [{"ok": False, "error": "no_tiles"}] * 2
