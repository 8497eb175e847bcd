"""The replay command's contract for King (king-scenario.md): exit 0 with per-action
results and every documented output field; exit 2 with one line on standard error for
each malformed scenario listed there."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.engine import cli

from .helpers import BY_SUIT, choose, play, scenario
from .test_rules import ROUND

ROOT = Path(__file__).resolve().parents[4]
BASE = scenario(ROUND, [choose(1, "koz", "D"), *play(1, "KS", "QS"), {"seat": 3,
                "type": "timeout"}], chooser=1,
                chosen=[["kiz_almaz"], [], ["koz"], ["rifki"]])  # fmt: skip


def run_proc(stdin: str, *args):
    return subprocess.run(
        [sys.executable, "-m", "game.engine.replay", *(args or ("-",))],
        cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def run_main(tmp_path, data, capsys) -> tuple[int, str, str]:
    p = tmp_path / "s.json"
    p.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    code = cli.main("replay", [str(p)])
    out, err = capsys.readouterr()
    return code, out, err


def test_output_fields_through_the_command():
    proc = run_proc(json.dumps(BASE))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert list(out) == [
        "results",
        "contract",
        "trump",
        "tricks",
        "over",
        "turn",
        "hands",
        "scores",
        "chosen",
        "quota",
    ]
    assert out["results"] == [{"ok": True}] * 4
    assert out["contract"] == "koz" and out["trump"] == "D"
    assert out["tricks"] == [{"leader": 1, "cards": ["KS", "QS", "3S"], "winner": None}]
    assert out["over"] is False and out["turn"] == 0 and out["scores"] is None
    assert out["hands"][1] == [
        "9S",
        "5S",
        "AH",
        "TH",
        "6H",
        "2H",
        "JC",
        "7C",
        "3C",
        "QD",
        "8D",
        "4D",
    ]
    assert out["chosen"] == [["kiz_almaz"], ["koz"], ["koz"], ["rifki"]]
    assert out["quota"] == {
        "ceza": [2, 3, 3, 2],
        "koz": [2, 1, 1, 2],
        "contracts": {
            "el_almaz": 2,
            "kupa_almaz": 2,
            "erkek_almaz": 2,
            "kiz_almaz": 1,
            "rifki": 1,
            "son_iki": 2,
        },
    }


def test_reads_a_file_and_rejections_exit_zero(tmp_path, capsys):
    s = copy.deepcopy(BASE)
    s["actions"] = [*play(1, "KS"), choose(2, "el_almaz"), choose(1, "koz", "S"), *play(1, "KS")]
    code, out, err = run_main(tmp_path, s, capsys)
    assert code == 0 and err == ""
    res = json.loads(out)
    assert [r.get("error") for r in res["results"]] == [
        "not_chosen",
        "not_your_turn",
        None,
        "trump_not_broken",
    ]
    assert res["contract"] == "koz" and res["turn"] == 1


def test_defaults_length_20_no_choices_no_actions(tmp_path, capsys):
    code, out, _ = run_main(tmp_path, {"game": "king", "chooser": 2, "hands": BY_SUIT}, capsys)
    res = json.loads(out)
    assert code == 0 and res["results"] == [] and res["turn"] == 2 and res["contract"] is None
    assert res["quota"]["ceza"] == [3] * 4 and res["quota"]["koz"] == [2] * 4
    assert res["tricks"] == [] and res["chosen"] == [[], [], [], []]


def _with(**changes):
    s = copy.deepcopy(BASE)
    for k, v in changes.items():
        if v is ...:
            s.pop(k, None)
        else:
            s[k] = v
    return s


def _hands(f):
    h = copy.deepcopy(ROUND)
    f(h)
    return h


def _act(a):
    return _with(actions=[a])


MALFORMED = {
    "bad_json": "{not json",
    "not_an_object": "[1, 2]",
    "length_5": _with(length=5),
    "length_string": _with(length="20"),
    "length_true": _with(length=True),
    "length_float": _with(length=20.0),
    "chooser_missing": _with(chooser=...),
    "chooser_4": _with(chooser=4),
    "chooser_float": _with(chooser=1.0),
    "hands_three": _with(hands=ROUND[:3]),
    "hands_not_list": _with(hands="AS"),
    "hand_12_cards": _with(hands=_hands(lambda h: h[0].pop())),
    "hand_bad_card": _with(hands=_hands(lambda h: h[0].__setitem__(0, "10S"))),
    "hand_lower_case": _with(hands=_hands(lambda h: h[0].__setitem__(0, "as"))),
    "card_twice": _with(hands=_hands(lambda h: h[1].__setitem__(0, "AS"))),
    "chosen_not_four": _with(chosen=[[], [], []]),
    "chosen_unknown_id": _with(chosen=[["kiz"], [], ["koz"], ["rifki"]]),
    "chosen_koz_with_suit": _with(chosen=[["kiz_almaz"], [], ["koz_S"], ["rifki"]]),
    "chosen_wrong_counts": _with(chosen=[["kiz_almaz"], ["koz"], [], ["rifki"]]),
    "chosen_too_many_koz": _with(
        chooser=0,
        chosen=[
            ["koz", "koz", "koz"],
            ["el_almaz", "kupa_almaz", "koz"],
            ["erkek_almaz", "kiz_almaz", "koz"],
            ["rifki", "son_iki", "koz"],
        ],
    ),
    "chosen_too_many_ceza": _with(
        chooser=0,
        chosen=[
            ["el_almaz", "kupa_almaz", "erkek_almaz", "kiz_almaz"],
            ["koz"] * 2 + ["rifki"] * 2,
            ["koz", "koz", "son_iki", "son_iki"],
            ["koz", "koz", "el_almaz", "kupa_almaz"],
        ],
    ),
    "chosen_penalty_thrice": _with(
        chooser=0,
        chosen=[["rifki", "koz"], ["rifki", "koz"], ["rifki", "koz"], ["koz", "el_almaz"]],
    ),
    "chosen_full_match": _with(length=4, chooser=0, chosen=[["koz"], ["koz"], ["koz"], ["koz"]]),
    "actions_not_list": _with(actions={"seat": 1}),
    "action_not_object": _act("play"),
    "action_no_seat": _act({"type": "timeout"}),
    "action_seat_4": _act({"seat": 4, "type": "timeout"}),
    "action_seat_string": _act({"seat": "1", "type": "timeout"}),
    "action_unknown_type": _act({"seat": 1, "type": "pass"}),
    "choose_unknown_contract": _act({"seat": 1, "type": "choose", "contract": "king"}),
    "koz_without_trump": _act({"seat": 1, "type": "choose", "contract": "koz"}),
    "koz_bad_trump": _act({"seat": 1, "type": "choose", "contract": "koz", "trump": "h"}),
    "penalty_with_trump": _act({"seat": 1, "type": "choose", "contract": "rifki", "trump": "H"}),
    "play_no_card": _act({"seat": 1, "type": "play"}),
    "play_bad_card": _act({"seat": 1, "type": "play", "card": "H10"}),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_exits_2_with_one_line(name, tmp_path, capsys):
    code, out, err = run_main(tmp_path, MALFORMED[name], capsys)
    assert code == 2 and out == ""
    assert err.endswith("\n") and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(("malformed scenario: ", "bad JSON"))


def test_malformed_through_the_command_no_traceback():
    for name in ("bad_json", "chosen_wrong_counts", "koz_without_trump", "card_twice"):
        data = MALFORMED[name]
        proc = run_proc(data if isinstance(data, str) else json.dumps(data))
        assert proc.returncode == 2 and proc.stdout == "", name
        assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, name


def test_penalty_with_null_trump_is_fine(tmp_path, capsys):
    code, out, _ = run_main(tmp_path, _act({"seat": 1, "type": "choose", "contract": "rifki",
                                            "trump": None}), capsys)  # fmt: skip
    assert code == 0 and json.loads(out)["results"] == [{"ok": True}]


def test_a_card_in_notation_not_held_is_rejected_not_malformed(tmp_path, capsys):
    code, out, _ = run_main(tmp_path, _with(actions=[choose(1, "koz", "D"), *play(1, "AS")]),
                            capsys)  # fmt: skip
    assert code == 0 and json.loads(out)["results"][1] == {"ok": False, "error": "not_in_hand"}
