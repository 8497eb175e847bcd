"""The decisions kut.md gained in issue 15 (found by checking random hands against an
independent implementation; the engine already followed them): K-G6 for a küt of four
with two okeys, K-G7 (one natural tile and two okeys), the order İşle uses (K-L7) and
K-N7's tie-break."""

from __future__ import annotations

import json

from games.kut.engine.replay import load_scenario, run_scenario
from games.kut.engine.transitions import timeout_discard_choice
from games.okey.engine.groups import KUT, RUN, classify, kut_values
from games.okey.engine.tiles import face_name, face_of, parse_face
from tests.games.kut.engine.scenario_cases import OK, a, build, pass_turn

F = parse_face
OKEY = "K13"  # indicator K12


def faces(*names):
    return [F(n) for n in names]


def _table(result: dict) -> list[tuple[str, list, list]]:
    return [(g["kind"], g["tiles"], g["values"]) for g in result["table"]]


# --- K-G6 ------------------------------------------------------------------------------


def test_k_g6_a_kut_of_four_with_two_okeys_takes_the_missing_colours_in_order():
    """Decision K-G6: when a küt's okeys cover every missing colour they are decided,
    taking the missing colours in the order red, yellow, blue, black, by position."""
    ok = F(OKEY)
    assert kut_values(faces("Y5", OKEY, "K5", OKEY), ok) == faces("Y5", "R5", "K5", "B5")
    assert kut_values(faces(OKEY, OKEY, "B5", "R5"), ok) == faces("Y5", "K5", "B5", "R5")
    # a küt of three with two okeys and three colours missing stays undecided
    assert kut_values(faces(OKEY, "B5", OKEY), ok) == [None, F("B5"), None]


def test_k_g6_an_opening_kut_of_four_with_two_okeys_is_decided_on_the_table():
    scenario = build(
        "k_g6_open", ["K-G6"], {0: [OKEY, "Y5", OKEY, "K5", "B1"]}, tasks=5, task=1,
        actions=[a(0, "open", groups=[[OKEY, "Y5", OKEY, "K5"]])], expect={},
    )  # fmt: skip
    result = run_scenario(scenario)
    assert result["results"] == [OK]
    assert _table(result) == [("kut", [OKEY, "Y5", OKEY, "K5"], ["R5", "Y5", "B5", "K5"])]


# --- K-G7 ------------------------------------------------------------------------------


def test_k_g7_one_natural_tile_and_two_okeys_read_as_a_run_and_as_a_kut():
    ok = F(OKEY)
    readings = dict(classify(faces("R5", OKEY, OKEY), ok))
    assert readings[RUN] == faces("R5", "R6", "R7")  # in the order given
    assert readings[KUT] == [F("R5"), None, None]
    assert dict(classify(faces(OKEY, OKEY, "R5"), ok))[RUN] == faces("R3", "R4", "R5")


def test_k_g7_in_an_opening_the_task_decides_the_reading():
    group = ["R5", OKEY, OKEY]
    for task, kind, values in ((1, "kut", ["R5", None, None]), (2, "run", ["R5", "R6", "R7"])):
        scenario = build("k_g7_open", ["K-G7"], {0: group + ["B1"]}, tasks=12, task=task,
                         actions=[a(0, "open", groups=[group])], expect={})  # fmt: skip
        result = run_scenario(scenario)
        assert result["results"] == [OK], (task, result["results"])
        assert _table(result) == [(kind, group, values)], task


def test_k_g7_in_new_groups_it_is_a_run():
    """Yan Yana Aç after the küt-of-three opening: the same three tiles make a run."""
    scenario = build(
        "k_g7_new", ["K-G7"],
        {0: ["R9", "Y9", "B9", "Y1", "Y5", OKEY, OKEY], 1: ["B2"], 2: ["B3"], 3: ["B4"]},
        tasks=12, task=1, deck=["B11", "B12", "Y12", "K2"],
        actions=[
            a(0, "open", groups=[["R9", "Y9", "B9"]]), a(0, "discard", tile="Y1"),
            *pass_turn(1, "B11"), *pass_turn(2, "B12"), *pass_turn(3, "Y12"),
            a(0, "draw"), a(0, "new_groups", groups=[["Y5", OKEY, OKEY]]),
        ],
        expect={},
    )  # fmt: skip
    result = run_scenario(scenario)
    assert all(r["ok"] for r in result["results"]), result["results"]
    assert _table(result)[1] == ("run", ["Y5", OKEY, OKEY], ["Y5", "Y6", "Y7"])


# --- K-L7 ------------------------------------------------------------------------------


def test_k_l7_isle_lays_off_natural_tiles_in_face_order_then_the_okeys():
    """Decision K-L7: natural tiles first, in face order (not the rack's), each to the
    first group in table order that takes it; then the okeys held before the press, a
    run's right end before its left."""
    scenario = build(
        "k_l7", ["K-L7"],
        {0: ["R7", "R8", "R9", "Y1", "R10", "R6", OKEY, "K1"], 1: ["B2"], 2: ["B3"],
         3: ["B4"]},
        tasks=12, task=2, deck=["B11", "B12", "Y12", "K2"],
        actions=[
            a(0, "open", groups=[["R7", "R8", "R9"]]), a(0, "discard", tile="Y1"),
            *pass_turn(1, "B11"), *pass_turn(2, "B12"), *pass_turn(3, "Y12"),
            a(0, "draw"), a(0, "auto_lay_off"),
        ],
        expect={},
    )  # fmt: skip
    hand, _ = load_scenario(scenario)
    rack = hand.racks[0]
    # the rack puts R10 before R6: the order İşle uses is not the rack's
    assert [c for c in rack.cells if c is not None].index(
        next(t for t in rack.tiles() if t >> 1 == F("R10"))
    ) < [c for c in rack.cells if c is not None].index(
        next(t for t in rack.tiles() if t >> 1 == F("R6"))
    )
    result = run_scenario(scenario)
    assert all(r["ok"] for r in result["results"]), result["results"]
    assert _table(result) == [
        ("run", ["R6", "R7", "R8", "R9", "R10", OKEY], ["R6", "R7", "R8", "R9", "R10", "R11"])
    ]


def test_k_l7_an_okey_exchange_with_one_tile_left():
    """K-L7 adds every tile it can, okey exchanges included, respecting K-N4: with one
    tile left an exchange is still made (the okey comes back, the rack keeps a tile),
    as the manual lay-off makes it.  Found by an audit: İşle once refused it."""
    scenario = json.loads(KL7_SCENARIO)
    result = run_scenario(scenario)
    assert all(r["ok"] for r in result["results"]), result["results"]
    assert result["racks"][0] == ["K2"]  # R8 took the okey's place; the okey is back
    assert ["R5", "R6", "R7", "R8"] in [g["tiles"] for g in result["table"]]


KL7_SCENARIO = """{"game": "kut", "tasks": 8, "task": 2, "starter": 0, "indicator": "K1",
 "racks": [["R5", "R6", "R7", "K2", "R8", "Y1", "Y2", "Y3", "B1", "B2", "B3", "K5", "K6",
            "K7", "R13"],
           ["Y13", "B9", "R2", "K9", "Y12", "R5", "K6", "R11", "R6", "Y8", "Y11", "K3", "Y2",
            "Y8"],
           ["B2", "K11", "B5", "K5", "R1", "B10", "R13", "Y9", "Y5", "R12", "K10", "K10", "R3",
            "R7"],
           ["B6", "B7", "Y10", "B7", "B5", "B12", "B3", "B11", "B1", "B8", "Y10", "R3", "R11",
            "K11"]],
 "deck": ["Y13", "Y12", "B13", "K8", "K1", "B11", "Y7", "Y6", "B10"],
 "actions": [{"seat": 0, "type": "open", "groups": [["R5", "R6", "R7", "K2"]]},
  {"seat": 0, "type": "discard", "tile": "R13"}, {"seat": 1, "type": "draw"},
  {"seat": 1, "type": "discard", "tile": "Y13"}, {"seat": 2, "type": "draw"},
  {"seat": 2, "type": "discard", "tile": "Y12"}, {"seat": 3, "type": "draw"},
  {"seat": 3, "type": "discard", "tile": "B13"}, {"seat": 0, "type": "draw"},
  {"seat": 0, "type": "new_groups", "groups": [["Y1", "Y2", "Y3"], ["B1", "B2", "B3"],
                                               ["K5", "K6", "K7"]]},
  {"seat": 0, "type": "lay_off", "tile": "K8", "group": 3},
  {"seat": 0, "type": "auto_lay_off"}]}"""


# --- K-N7 ------------------------------------------------------------------------------


def _choice(indicator: str, rack: list[str]) -> str:
    assert len(rack) == 15  # the whole rack: no filler tiles
    scenario = build("k_n7", ["K-N7"], {0: rack}, indicator=indicator, actions=[], expect={})
    hand, _ = load_scenario(scenario)
    hand.taken = None
    return face_name(face_of(timeout_discard_choice(hand, 0)))


LOW = ["R1", "R2", "R3", "Y2", "Y3", "B2", "B3", "K2", "K3", "R4", "Y4"]


def test_k_n7_tie_break_red_yellow_blue_black_then_the_fake_okey():
    """Decision K-N7: the highest-numbered tile that is not a real okey; ties go to the
    first in the order red, yellow, blue, black, fake; a real okey only if nothing else
    is left."""
    # okey K13 (a real okey, never chosen while anything else is left): Y13 before B13
    assert _choice("K12", ["K13", "B13", "Y13", "B4", *LOW]) == "Y13"
    assert _choice("K12", ["K13", "B13", "K12", "R12", *LOW]) == "B13"
    # okey B13: the fake okey counts as a 13 but comes after black
    assert _choice("B12", ["F", "K13", "K4", "B4", *LOW]) == "K13"
    assert _choice("B12", ["F", "B13", "Y12", "K4", *LOW]) == "F"
