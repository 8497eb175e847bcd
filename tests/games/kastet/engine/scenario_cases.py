"""Golden Kastet scenarios (kastet-scenario.md), worked out by hand from kastet.md.

Each case is a scenario plus ``expect`` (output fields, as the spec defines them) and
``rules`` (the rule ids it exercises).  ``python -m tests.games.kastet.engine.scenario_cases``
writes them to ``scenarios/*.json``; a test keeps the files and this source identical.
Positions use small racks (S-N5 allows 1 to 22) so that every expected field can be
checked by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent / "scenarios"
OK = {"ok": True}


def err(code: str) -> dict:
    return {"ok": False, "error": code}


def run(*tiles: str) -> dict:
    """A run of naturals as the output shows it (values = the tiles)."""
    return {"kind": "run", "tiles": list(tiles), "values": list(tiles)}


def kut(*tiles: str, values=None) -> dict:
    return {"kind": "kut", "tiles": list(tiles), "values": list(values or tiles)}


def seq(colour: str, a: int, b: int) -> list[str]:
    return [f"{colour}{n}" for n in range(a, b + 1)]


def case(name, rules, racks, actions, expect, *, indicator="R7", starter=0, deck=(),
         table=(), pairs=(), partners=None):  # fmt: skip
    c = {"name": name, "rules": rules, "game": "kastet", "starter": starter,
         "indicator": indicator, "racks": racks, "deck": list(deck),
         "table": [list(g) for g in table], "pairs": [list(p) for p in pairs],
         "actions": actions, "expect": expect}  # fmt: skip
    if partners is not None:
        c["partners"] = partners
    return c


def lay(seat, *groups, pairs=None) -> dict:
    a = {"seat": seat, "type": "lay", "table": [list(g) for g in groups]}
    if pairs is not None:
        a["pairs"] = [list(p) for p in pairs]
    return a


def act(seat, kind) -> dict:
    return {"seat": seat, "type": kind}


# The seed page's examples (S-L2) and a full first round.
SEED = case(
    "seed_examples_rearrange_the_table",
    ["S-L1", "S-L2", "S-A3", "S-N1", "S-N3", "S-M1", "S-L4"],
    [["K5", "K6", "K7", "K8", "Y1"], ["R5", "B5", "Y2"], ["K7", "Y3"], ["K9", "Y4"]],
    [
        lay(0, ["K5", "K6", "K7", "K8"]),
        act(0, "pass"),
        lay(1, ["K6", "K7", "K8"], ["R5", "B5", "K5"]),  # the table's K5 joins a set
        act(1, "pass"),
        lay(2, ["R5", "B5", "K5"], ["K6", "K7", "K8", "K9"]),  # K9 is not seat 2's
        lay(2, ["K6", "K7", "K8"], ["R5", "B5", "K5", "K7"]),  # K7 in a set of 5s
        act(2, "draw"),
        lay(3, ["R5", "B5", "K5"], ["K6", "K7", "K8", "K9"]),
        act(3, "pass"),
    ],
    {
        "results": [
            OK,
            OK,
            OK,
            OK,
            err("tiles_not_in_rack"),
            err("invalid_group"),
            OK,
            OK,
            OK,
        ],  # fmt: skip
        "over": False,
        "turn": 0,
        "deck_count": 0,
        "racks": [["Y1"], ["Y2"], ["Y3", "K7", "K13"], ["Y4"]],
        "table": [kut("R5", "B5", "K5"), run("K6", "K7", "K8", "K9")],
        "pairs": [],
        "finisher": None,
        "blocked": False,
        "scores": None,
        "team_scores": None,
    },
    deck=["K13"],
)

SPLIT = case(
    "seed_split_a_run_to_lay_one_tile",
    ["S-L2", "S-A3"],
    [["K7", "R1"], ["Y1"], ["B1"], ["K1"]],
    [lay(0, ["K5", "K6", "K7"], ["K7", "K8", "K9"]), act(0, "pass")],
    {
        "results": [OK, OK],
        "turn": 1,
        "racks": [["R1"], ["Y1"], ["B1"], ["K1"]],
        "table": [run("K5", "K6", "K7"), run("K7", "K8", "K9")],
    },  # fmt: skip
    table=[seq("K", 5, 9)],
    deck=["B2"],
)

REFUSED = case(
    "refused_layouts_change_nothing",
    ["S-L1", "S-L2", "S-L3", "S-G1", "S-V4"],
    [["R4", "Y9", "B9", "K9", "R12", "R13"], ["Y1"], ["B1"], ["K1"]],
    [
        lay(0),  # the table's tiles left out
        lay(0, ["R1", "R2", "R3", "R4"], ["R12", "R13", "Y9"]),
        lay(0, ["R1", "R2", "R3"]),  # a pure rearrangement is no lay
        lay(0, ["R1", "R2", "R3"], ["Y9", "B9", "Y9"]),  # one Y9 only
        lay(0, ["R1", "R2", "R3", "R4"], ["R12", "R13", "R1"]),  # 12-13-1 is no run
        lay(0, ["R1", "R2"], ["R3", "R4"], ["Y9", "B9", "K9"]),  # runs of two
        lay(0, ["R1", "R2", "R3", "R4"], ["Y9", "B9", "K9"]),
    ],
    {
        "results": [
            err("table_tile_missing"),
            err("invalid_group"),
            err("nothing_laid"),
            err("tiles_not_in_rack"),
            err("tiles_not_in_rack"),
            err("invalid_group"),
            OK,
        ],  # fmt: skip
        "turn": 0,
        "racks": [["R12", "R13"], ["Y1"], ["B1"], ["K1"]],
        "table": [run("R1", "R2", "R3", "R4"), kut("Y9", "B9", "K9")],
    },
    table=[["R1", "R2", "R3"]],
    deck=["B2"],
)

RUNS = case(
    "runs_one_is_only_low",
    ["S-G1"],
    [["R11", "R12", "R13", "Y1", "Y2", "Y3", "B12", "B13", "B1"], ["Y5"], ["B5"], ["K5"]],
    [
        lay(0, ["B12", "B13", "B1"]),
        lay(0, ["R13", "R12", "R11"]),  # runs are given in ascending order
        lay(0, ["R11", "R12", "R13"], ["Y1", "Y2", "Y3"]),
    ],
    {
        "results": [err("invalid_group"), err("invalid_group"), OK],
        "racks": [["B1", "B12", "B13"], ["Y5"], ["B5"], ["K5"]],
        "table": [run("R11", "R12", "R13"), run("Y1", "Y2", "Y3")],
    },  # fmt: skip
    deck=["K2"],
)

SETS = case(
    "sets_need_different_colours",
    ["S-G2"],
    [["B5", "B5", "R5", "Y5", "K5", "R6", "Y6", "B6", "K6", "R7"], ["Y1"], ["B1"], ["K1"]],
    [
        lay(0, ["B5", "B5", "R5"]),
        lay(0, ["R5", "Y5", "B5", "K5", "B5"]),  # a set has at most four
        lay(0, ["R5", "Y5", "B5", "K5"], ["R6", "Y6", "B6"]),
    ],
    {
        "results": [err("invalid_group"), err("invalid_group"), OK],
        "racks": [["R7", "B5", "K6"], ["Y1"], ["B1"], ["K1"]],
        "table": [kut("R5", "Y5", "B5", "K5"), kut("R6", "Y6", "B6")],
    },  # fmt: skip
    deck=["K2"],
)

# indicator R7: the real okey is R8 (S-T3); both copies are wild.
OKEYS = case(
    "real_okey_values_in_runs_and_sets",
    ["S-T2", "S-T3", "S-G4", "S-G6"],
    [
        ["Y8", "Y9", "R8", "R8", "K1", "K2", "R5", "B5", "K5", "R6", "K6"],
        ["Y1"],
        ["B1"],
        ["K7"],
    ],  # fmt: skip
    [
        lay(0, ["Y8", "Y9", "R8"], ["R8", "K1", "K2"]),  # an okey before 1 is outside 1-13
        lay(0, ["Y8", "Y9", "R8"], ["K1", "R8", "K2"]),  # no gap to fill
        lay(0, ["R8", "Y8", "Y9"], ["R5", "B5", "K5", "R8"], ["R6", "K6", "Y6"]),
        lay(0, ["R8", "Y8", "Y9"], ["R5", "R8", "B5", "K5"]),
        act(0, "pass"),
    ],
    {
        "results": [
            err("invalid_group"),
            err("invalid_group"),
            err("tiles_not_in_rack"),
            OK,
            OK,
        ],  # fmt: skip
        "turn": 1,
        "racks": [["R6", "K1", "K2", "K6"], ["Y1"], ["B1"], ["K7"]],
        "table": [
            {"kind": "run", "tiles": ["R8", "Y8", "Y9"], "values": ["Y7", "Y8", "Y9"]},
            kut("R5", "R8", "B5", "K5", values=["R5", "Y5", "B5", "K5"]),
        ],
    },  # fmt: skip
    deck=["K3"],
)

UNDECIDED = case(
    "set_okey_undecided",
    ["S-G6", "S-G2", "S-L3"],
    [["R6", "R8", "K6", "B2", "R8", "Y13", "B13", "K13"], ["K2"], ["B1"], ["K1"]],
    [
        lay(0, ["R6", "R8", "K6"]),
        lay(0, ["R6", "R8", "K6"], ["B2", "R8", "Y13"]),
        lay(0, ["R6", "R8", "K6"], ["R8", "B2", "Y13"]),
        lay(0, ["R6", "R8", "K6"], ["B2", "R8", "Y13", "B13", "K13"]),
    ],
    {
        "results": [OK, err("invalid_group"), err("invalid_group"), err("invalid_group")],
        "racks": [["R8", "Y13", "B2", "B13", "K13"], ["K2"], ["B1"], ["K1"]],
        "table": [kut("R6", "R8", "K6", values=["R6", None, "K6"])],
    },  # fmt: skip
    deck=["K3"],
)

DOUBLE = case(
    "one_natural_two_okeys_is_a_run",
    ["S-G7", "S-G4", "S-G6"],
    [["B2", "R8", "R8", "K13", "Y13", "B13"], ["K2"], ["B1"], ["K1"]],
    [
        lay(0, ["B2", "R8", "R8"], ["K13", "Y13", "B13"]),
        act(0, "pass"),
        act(1, "draw"),
    ],  # fmt: skip
    {
        "results": [OK, OK, err("hand_over")],
        "turn": None,
        "deck_count": 1,
        "racks": [[], ["K2"], ["B1"], ["K1"]],
        "table": [
            {"kind": "run", "tiles": ["B2", "R8", "R8"], "values": ["B2", "B3", "B4"]},
            kut("K13", "Y13", "B13"),
        ],
        "over": True,
        "finisher": 0,
        "scores": [-50, 2, 1, 1],
    },  # fmt: skip
    deck=["K3"],
)

# S-G5 in the pair area: two real okeys never; F F yes; F and a real okey no.
SET13 = case(
    "thirteen_and_two_okeys_is_a_set",
    ["S-G7", "S-G6", "S-G5"],
    [["K13", "R8", "R8", "Y1"], ["K2"], ["B1"], ["K1"]],
    [lay(0, ["K13", "R8", "R8"])],
    {
        "results": [OK],
        "racks": [["Y1"], ["K2"], ["B1"], ["K1"]],
        "table": [{"kind": "kut", "tiles": ["K13", "R8", "R8"], "values": ["K13", None, None]}],
    },  # fmt: skip
    deck=["K3"],
)

# indicator B2: the real okey is B3 and each F is a B3 (S-T4).
FAKE = case(
    "fake_okey_is_the_okey_face_not_wild",
    ["S-T4", "S-T3", "S-G4"],
    [["B1", "B2", "F", "R9", "R10", "F", "B4", "B5", "B3"], ["K2"], ["Y1"], ["K1"]],
    [
        lay(0, ["F", "R9", "R10"]),
        lay(0, ["B1", "B2", "F"], ["F", "B4", "B5"]),
        lay(0, ["B1", "B2", "F"], ["F", "B4", "B5"], ["R9", "R10", "B3"]),
    ],
    {
        "results": [err("invalid_group"), OK, OK],
        "racks": [[], ["K2"], ["Y1"], ["K1"]],
        "table": [
            {"kind": "run", "tiles": ["B1", "B2", "F"], "values": ["B1", "B2", "B3"]},
            {"kind": "run", "tiles": ["F", "B4", "B5"], "values": ["B3", "B4", "B5"]},
            {"kind": "run", "tiles": ["R9", "R10", "B3"], "values": ["R9", "R10", "R11"]},
        ],
    },  # fmt: skip
    indicator="B2",
    deck=["K3"],
)

THIRTEEN = case(
    "indicator_thirteen_makes_one_the_okey",
    ["S-T3", "S-G4"],
    [["K1", "R12", "R13", "Y5"], ["K2"], ["Y1"], ["B7"]],
    [lay(0, ["R12", "R13", "K1"]), lay(0, ["K1", "R12", "R13"])],
    {
        "results": [err("invalid_group"), OK],
        "table": [{"kind": "run", "tiles": ["K1", "R12", "R13"], "values": ["R11", "R12", "R13"]}],
    },  # fmt: skip
    indicator="K13",
    deck=["K3"],
)

ANY_TILE = case(
    "okey_stands_for_a_tile_whose_copies_are_in_play",
    ["S-G4", "S-S3"],
    [["K1", "K2", "R8", "Y4"], ["K3", "K3"], ["Y1"], ["B7"]],
    [lay(0, ["K1", "K2", "R8"]), act(0, "pass"), act(1, "draw")],
    {
        "results": [OK, OK, OK],
        "table": [{"kind": "run", "tiles": ["K1", "K2", "R8"], "values": ["K1", "K2", "K3"]}],
        "racks": [["Y4"], ["K3", "K3", "K4"], ["Y1"], ["B7"]],
    },  # fmt: skip
    deck=["K4"],
)

OKEY_BACK = case(
    "a_table_okey_moves_only_within_the_run_area",
    ["S-A4", "S-L2", "S-G4"],
    [["R6", "K3", "K4"], ["Y1"], ["B1"], ["B7"]],
    [
        lay(0, ["R5", "R6", "R7"], ["K3", "K4"]),  # the okey may not go back to the rack
        lay(0, ["R5", "R6", "R7"], ["K3", "K4", "R8"]),
        act(0, "pass"),
    ],
    {
        "results": [err("table_tile_missing"), OK, OK],
        "turn": None,
        "finisher": 0,
        "racks": [[], ["Y1"], ["B1"], ["B7"]],
        "over": True,
        "scores": [-50, 1, 1, 7],
        "table": [
            run("R5", "R6", "R7"),
            {"kind": "run", "tiles": ["K3", "K4", "R8"], "values": ["K3", "K4", "K5"]},
        ],
    },
    table=[["R5", "R8", "R7"]],
    deck=["K9"],
)

# --- the pair area (S-L5, S-L6) on a table of 24 runs: both copies of R, Y, B 1-12 -----
T24 = [seq(c, a, a + 2) for c in "RYB" for _ in range(2) for a in (1, 4, 7, 10)]
T25 = T24 + [["K1", "K2", "K3"]]
T26 = T25 + [["K4", "K5", "K6"]]
T25_MERGED = [seq("R", 1, 6)] + T24[2:8] + T24[8:] + [["K1", "K2", "K3"], seq("K", 4, 10)]
T26_LAST = T25_MERGED + [["K1", "K2", "K3"]]

PAIRS = case(
    "pairs_only_when_all_26_slots_are_full_and_then_frozen",
    ["S-L5", "S-L6", "S-G3", "S-A1", "S-A2", "S-G5"],
    [
        ["K4", "K5", "K6", "R13", "R13", "Y13", "K13", "F", "F", "B13"],
        ["K7", "K8", "K9", "K10", "K11"],
        ["K1", "K2", "K3", "K5"],
        ["B13", "Y13", "K12"],
    ],
    [
        lay(0, *T25, pairs=[["R13", "R13"]]),
        lay(0, *T26, pairs=[["Y13", "B13"]]),
        lay(0, *T26, pairs=[["K13", "K13"]]),  # seat 0 holds one real okey
        lay(0, *T26, pairs=[["F", "K13"]]),
        lay(0, *T26, pairs=[["R13", "R13"], ["Y13", "K13"], ["F", "F"]]),
        act(0, "pass"),
        lay(1, *T26, ["K7", "K8", "K9"]),  # 27 groups
        lay(1, *T25_MERGED),  # the run area drops to 25 groups: the pairs stay
        act(1, "pass"),
        lay(2, *T26_LAST, pairs=[["R13", "R13"]]),  # pair tiles never move again
        lay(2, *T25_MERGED, ["R13", "K1", "K2", "K3"]),  # nor join a run-area group
        lay(2, *T26_LAST),
        act(2, "pass"),
        lay(3, *T26_LAST, pairs=[["Y13", "K12"]]),
        lay(3, *T26_LAST, pairs=[["B13", "B13"]]),
        act(3, "draw"),
    ],
    {
        "results": [
            err("pairs_need_26_groups"),
            err("invalid_pair"),
            err("tiles_not_in_rack"),
            err("invalid_pair"),
            OK,
            OK,
            err("too_many_groups"),
            OK,
            OK,
            err("tiles_not_in_rack"),
            err("tiles_not_in_rack"),
            OK,
            OK,
            err("invalid_pair"),
            err("tiles_not_in_rack"),
            OK,
        ],  # fmt: skip
        "over": False,
        "turn": 0,
        "deck_count": 0,
        "racks": [["B13"], ["K11"], ["K5"], ["Y13", "B13", "K4", "K12"]],
        "table": [run(*g) for g in T26_LAST],
        "pairs": [
            {"kind": "pair", "tiles": ["R13", "R13"], "values": ["R13", "R13"]},
            {"kind": "pair", "tiles": ["Y13", "K13"], "values": ["Y13", "Y13"]},
            {"kind": "pair", "tiles": ["F", "F"], "values": ["K13", "K13"]},
        ],
    },
    indicator="K12",
    table=T25,
    deck=["K4"],
)

POSITION_PAIRS = case(
    "a_position_with_pairs_and_fewer_than_26_groups",
    ["S-L6", "S-L5"],
    [["R1", "R1", "Y4"], ["K2"], ["B1"], ["K1"]],
    [
        lay(0, ["R5", "R6", "R7", "R8"], pairs=[["R1", "R1"]]),
        lay(0, ["R5", "R6", "R7", "R8"], ["Y4", "Y5", "Y6"]),
    ],  # fmt: skip
    {
        "results": [err("pairs_need_26_groups"), err("tiles_not_in_rack")],
        "racks": [["R1", "R1", "Y4"], ["K2"], ["B1"], ["K1"]],
        "table": [run("R5", "R6", "R7")],
        "pairs": [
            {"kind": "pair", "tiles": ["Y5", "R8"], "values": ["Y5", "Y5"]},
            {"kind": "pair", "tiles": ["Y6", "Y6"], "values": ["Y6", "Y6"]},
        ],
    },  # fmt: skip
    table=[["R5", "R6", "R7"]],
    pairs=[["Y5", "R8"], ["Y6", "Y6"]],
    deck=["K9"],
)

DRAW_PASS = case(
    "draw_or_lay_never_both_and_the_22_tile_limit",
    ["S-N1", "S-N2", "S-N4", "S-N5", "S-U2", "S-E1", "S-D3"],
    [seq("R", 1, 11) + seq("Y", 1, 11), ["B1", "B2", "B3", "K9"], ["B5", "B6", "B7"], ["K1"]],
    [
        act(0, "draw"),
        act(0, "pass"),  # 22 tiles: Pas without a lay
        act(1, "pass"),  # could draw: must lay or draw
        lay(1, ["B1", "B2", "B3"]),
        act(1, "draw"),  # laid this turn
        act(1, "undo"),
        act(1, "draw"),  # every lay undone: the draw is allowed again
        act(0, "draw"),
        act(2, "draw"),
        act(3, "draw"),
        act(0, "draw"),
        act(0, "pass"),
        act(1, "draw"),
        act(1, "pass"),  # the deck is empty: Pas without a lay
    ],
    {
        "results": [
            err("rack_full"),
            OK,
            err("must_lay_or_draw"),
            OK,
            err("already_laid"),
            OK,
            OK,
            err("not_your_turn"),
            OK,
            OK,
            err("rack_full"),
            OK,
            err("deck_empty"),
            OK,
        ],  # fmt: skip
        "over": False,
        "turn": 2,
        "deck_count": 0,
        "racks": [
            seq("R", 1, 11) + seq("Y", 1, 11),
            ["B1", "B2", "B3", "K5", "K9"],
            ["B5", "B6", "B7", "K6"],
            ["K1", "K7"],
        ],  # fmt: skip
        "table": [],
        "finisher": None,
        "blocked": False,
        "scores": None,
    },
    deck=["K5", "K6", "K7"],
)

BLOCKED = case(
    "blocked_hand_every_rack_scores",
    ["S-E1", "S-E2", "S-S2", "S-S3", "S-S4", "S-N4"],
    [["R1", "R5", "F"], ["B3", "K13"], ["Y2", "Y9"], ["K1"]],
    [
        act(1, "pass"),
        act(2, "pass"),
        act(3, "pass"),
        act(0, "draw"),
        act(0, "pass"),
        act(1, "pass"),
    ],  # fmt: skip
    {
        "results": [OK, OK, OK, err("deck_empty"), OK, err("hand_over")],
        "over": True,
        "turn": None,
        "finisher": None,
        "blocked": True,
        "scores": [9, 16, 11, 1],
        "team_scores": None,
        "racks": [["R1", "R5", "F"], ["B3", "K13"], ["Y2", "Y9"], ["K1"]],
    },
    indicator="B2",
    starter=1,
)

RESET = case(
    "a_lay_restarts_the_blocked_count",
    ["S-E2", "S-E1"],
    [["K1"], ["K2"], ["R1", "R2", "R3", "Y5"], ["K3"]],
    [
        act(0, "pass"),
        act(1, "pass"),
        lay(2, ["R1", "R2", "R3"]),
        act(2, "pass"),
        act(3, "pass"),
        act(0, "pass"),
        act(1, "pass"),
        act(2, "pass"),
        act(3, "pass"),
    ],
    {
        "results": [OK] * 8 + [err("hand_over")],
        "over": True,
        "blocked": True,
        "finisher": None,
        "scores": [1, 2, 5, 3],
        "turn": None,
    },  # fmt: skip
)

FINISH = case(
    "finish_with_an_empty_rack_and_pas",
    ["S-F1", "S-L7", "S-S1", "S-S2", "S-S3", "S-U1", "S-N3"],
    [["R1", "R2", "R3"], ["F", "B3", "K13"], ["Y5", "Y5"], ["K7"]],
    [
        lay(0, ["R1", "R2", "R3"]),
        act(0, "undo"),
        lay(0, ["R1", "R2", "R3"]),
        act(0, "pass"),
        act(1, "draw"),
    ],  # fmt: skip
    {
        "results": [OK, OK, OK, OK, err("hand_over")],
        "over": True,
        "turn": None,
        "finisher": 0,
        "blocked": False,
        "scores": [-50, 19, 10, 7],
        "team_scores": None,
        "racks": [[], ["B3", "K13", "F"], ["Y5", "Y5"], ["K7"]],
        "deck_count": 1,
        "table": [run("R1", "R2", "R3")],
    },  # fmt: skip
    indicator="B2",
    deck=["K9"],
)

PARTNERS = case(
    "partners_add_their_scores",
    ["S-M3", "S-S5", "S-S1"],
    [["R1", "R2", "R3"], ["F", "B3", "K13"], ["Y5", "Y5"], ["K7"]],
    [lay(0, ["R1", "R2", "R3"]), act(0, "pass")],
    {
        "results": [OK, OK],
        "over": True,
        "finisher": 0,
        "scores": [-50, 19, 10, 7],
        "team_scores": [-40, 26],
    },  # fmt: skip
    indicator="B2",
    deck=["K9"],
    partners=True,
)

TIMEOUT = case(
    "timeout_completes_the_turn",
    ["S-N7", "S-F1", "S-E1"],
    [["R1", "R2", "R3", "Y7"], ["K1"], ["Y9", "Y10"], ["B5", "B6", "B7"]],
    [
        act(1, "timeout"),  # not seat 1's turn
        lay(0, ["R1", "R2", "R3"]),
        act(0, "timeout"),  # a standing lay: Pas, the lay stands
        act(1, "timeout"),  # no lay: it draws
        act(2, "timeout"),  # the deck is empty: Pas
        lay(3, ["R1", "R2", "R3"], ["B5", "B6", "B7"]),
        act(3, "timeout"),  # an empty rack: the Pas finishes
    ],
    {
        "results": [err("not_your_turn"), OK, OK, OK, OK, OK, OK],
        "over": True,
        "finisher": 3,
        "scores": [7, 10, 19, -50],
        "deck_count": 0,
        "racks": [["Y7"], ["K1", "K9"], ["Y9", "Y10"], []],
        "table": [run("R1", "R2", "R3"), run("B5", "B6", "B7")],
    },  # fmt: skip
    deck=["K9"],
)

UNDO = case(
    "undo_one_lay_at_a_time_within_the_turn",
    ["S-U1", "S-U2", "S-U3", "S-L1"],
    [["R1", "R2", "R3", "R4", "Y9"], ["K1", "K2", "K3"], ["Y1"], ["B1"]],
    [
        lay(0, ["R1", "R2", "R3"]),
        lay(0, ["R1", "R2", "R3", "R4"]),  # a second lay move in the same turn
        act(0, "undo"),
        act(0, "undo"),
        act(0, "undo"),
        lay(0, ["R1", "R2", "R3", "R4"]),
        act(0, "pass"),
        act(1, "undo"),  # nothing of an earlier turn
        act(1, "draw"),
        act(1, "undo"),  # a draw cannot be undone: the turn has passed
        act(2, "undo"),
    ],
    {
        "results": [
            OK,
            OK,
            OK,
            OK,
            err("nothing_to_undo"),
            OK,
            OK,
            err("nothing_to_undo"),
            OK,
            err("not_your_turn"),
            err("nothing_to_undo"),
        ],  # fmt: skip
        "turn": 2,
        "over": False,
        "racks": [["Y9"], ["K1", "K2", "K3", "K9"], ["Y1"], ["B1"]],
        "table": [run("R1", "R2", "R3", "R4")],
        "deck_count": 1,
    },  # fmt: skip
    deck=["K9", "K10"],
)

CASES = [SEED, SPLIT, REFUSED, RUNS, SETS, OKEYS, UNDECIDED, DOUBLE, SET13, FAKE, THIRTEEN,
         ANY_TILE, OKEY_BACK, PAIRS, POSITION_PAIRS, DRAW_PASS, BLOCKED, RESET, FINISH,
         PARTNERS, TIMEOUT, UNDO]  # fmt: skip


def write() -> None:
    HERE.mkdir(exist_ok=True)
    for c in CASES:
        text = json.dumps(c, ensure_ascii=False, indent=1) + "\n"
        (HERE / f"{c['name']}.json").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write()
