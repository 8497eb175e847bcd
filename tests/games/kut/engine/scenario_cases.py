"""Golden scenario cases (kut-scenario.md), the source of ``scenarios/*.json``.

Each case is a scenario plus ``expect``: fields of the replay output worked out by hand
from kut.md (a subset match: every key given must be equal).  Racks not written out in
full are topped up with *filler* tiles that form no group with the named ones, so
filler never changes what a case is about.

    python -m tests.games.kut.engine.scenario_cases --write     # regenerate the JSON files
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent / "scenarios"

# Filler: faces far apart (no runs, at most two colours per number among them).
FILLER = [
    "Y1", "B4", "Y7", "B10", "R13", "K3", "R6", "K9", "Y12", "B2", "Y5", "B8",
    "R11", "K1", "R4", "K7", "Y10", "B13", "Y3", "B6", "K11", "R2", "K5", "R9",
    "Y13", "B11",
]  # fmt: skip
# ...then every other face, spread out, for the rest of the deal.
FILLER += sorted(
    (f"{c}{n}" for c in "RYBK" for n in range(1, 14) if f"{c}{n}" not in FILLER),
    key=lambda f: ((int(f[1:]) * 5) % 13, f[0]),
)


def _count(faces):
    c: dict[str, int] = {}
    for f in faces:
        c[f] = c.get(f, 0) + 1
    return c


def _okey_name(indicator: str) -> str:
    n = int(indicator[1:])
    return f"{indicator[0]}{1 if n == 13 else n + 1}"


def build(name, rules, racks, *, actions, expect, tasks=8, task=1, starter=0,
          indicator="K12", deck=None, deck_len=20, note=""):  # fmt: skip
    """A scenario with racks topped up to 15/14 and a deck of ``deck_len`` tiles
    (``deck`` first, then filler)."""
    named = [indicator] + [t for r in racks.values() for t in r] + list(deck or [])
    used = _count(named)
    okey_like = {"F", _okey_name(indicator)}
    pool = []
    for f in FILLER * 2:
        if f in okey_like:
            continue
        if used.get(f, 0) < 2:
            used[f] = used.get(f, 0) + 1
            pool.append(f)
    full = []
    for seat in range(4):
        r = list(racks.get(seat, []))
        want = 15 if seat == starter else 14
        while len(r) < want:
            r.append(pool.pop(0))
        full.append(r)
    d = list(deck or [])
    while len(d) < deck_len and pool:
        d.append(pool.pop(0))
    return {
        "name": name,
        "rules": rules,
        "note": note,
        "game": "kut",
        "tasks": tasks,
        "task": task,
        "starter": starter,
        "indicator": indicator,
        "racks": full,
        "deck": d,
        "actions": actions,
        "expect": expect,
    }


def a(seat, kind, **kw):
    return {"seat": seat, "type": kind, **kw}


OK = {"ok": True}


def err(code):
    return {"ok": False, "error": code}


def pass_turn(seat, tile, draw=True):
    """Draw (or not) and discard ``tile``."""
    return ([a(seat, "draw")] if draw else []) + [a(seat, "discard", tile=tile)]


CASES = []


def case(**kw):
    CASES.append(build(**kw))


# ---------------------------------------------------------------- turn basics
case(
    name="turn_basics",
    rules=["K-D3", "K-N1", "K-N2", "K-N3", "K-M1"],
    note="The starter discards without taking; the next seat to the right takes the "
    "thrown tile or draws, never both; out-of-turn actions are refused.",
    racks={0: ["R13"], 1: [], 2: [], 3: []},
    deck=["B12", "Y11", "R10"],
    actions=[
        a(0, "draw"),  # K-D3
        a(0, "take_discard"),  # K-D3
        a(1, "discard", tile="Y1"),  # not seat 1's turn
        a(0, "discard", tile="R13"),
        a(1, "discard", tile="R13"),  # must take first
        a(1, "take_discard"),
        a(1, "draw"),  # never both (K-N1)
        a(1, "discard", tile="R13"),
        a(2, "draw"),
        a(2, "discard", tile="B12"),
        a(3, "take_discard"),
    ],
    expect={
        "results": [err("first_turn_no_take"), err("first_turn_no_take"),
                    err("not_your_turn"), OK, err("must_take_first"), OK,
                    err("already_taken"), OK, OK, OK, OK],  # fmt: skip
        "turn": 3,
        "deck_count": 19,
        "discards": [[], ["R13"], [], []],
        "over": False,
    },
)

case(
    name="take_discard_needs_a_thrown_tile",
    rules=["K-N1", "K-D3"],
    racks={0: ["R13"], 1: ["B12"]},
    actions=[a(0, "discard", tile="R13"), a(1, "draw"), a(1, "discard", tile="B12"),
             a(2, "take_discard"), a(2, "undo"), a(2, "draw")],  # fmt: skip
    expect={"results": [OK, OK, OK, OK, OK, OK], "discards": [["R13"], ["B12"], [], []]},
)

# ---------------------------------------------------------------- opening
case(
    name="open_kut_of_four",
    rules=["K-O1", "K-O2", "K-O3", "K-G2", "K-M3"],
    racks={0: ["R5", "Y5", "B5", "K5", "R12"]},
    actions=[
        a(0, "open", groups=[["R5", "Y5", "B5", "K5"]]),
        a(0, "open", groups=[["R5", "Y5", "B5", "K5"]]),  # K-O3 once per hand
        a(0, "discard", tile="R12"),
    ],
    expect={
        "results": [OK, err("already_opened"), OK],
        "table": [{"owner": 0, "kind": "kut", "tiles": ["R5", "Y5", "B5", "K5"],
                   "values": ["R5", "Y5", "B5", "K5"]}],  # fmt: skip
        "opened": [True, False, False, False],
        "penalties": [0, 0, 0, 0],
    },
)

case(
    name="open_wrong_shape",
    rules=["K-O2", "K-G2", "K-O1"],
    note="Exact lengths, nothing else; two tiles of one colour never stand in a küt.",
    racks={0: ["R5", "Y5", "B5", "K5", "R6", "R7", "R8", "B12", "B12"]},
    actions=[
        a(0, "open", groups=[["R5", "Y5", "B5"]]),  # küt of 3, task wants 4
        a(0, "open", groups=[["R5", "Y5", "B5", "K5"], ["R6", "R7", "R8"]]),  # extra
        a(0, "open", groups=[["B12", "B12", "Y5", "R5"]]),  # two blue 12s
        a(0, "open", groups=[["R5", "Y5", "B5", "K5", "R6"]]),
        a(0, "open", groups=[["K5", "B5", "Y5", "R5"]]),
    ],
    expect={
        "results": [err("task_mismatch"), err("task_mismatch"), err("invalid_group"),
                    err("invalid_group"), OK],  # fmt: skip
        "table": [{"owner": 0, "kind": "kut", "tiles": ["K5", "B5", "Y5", "R5"],
                   "values": ["K5", "B5", "Y5", "R5"]}],  # fmt: skip
    },
)

case(
    name="run_one_is_low_only",
    rules=["K-G1", "K-G4"],
    task=2,
    racks={0: ["R12", "R13", "R1", "R2", "R10", "R11"]},
    actions=[
        a(0, "open", groups=[["R12", "R13", "R1", "R2"]]),
        a(0, "open", groups=[["R13", "R12", "R11", "R10"]]),  # descending
        a(0, "open", groups=[["R10", "R11", "R12", "R13"]]),
    ],
    expect={
        "results": [err("invalid_group"), err("invalid_group"), OK],
        "table": [{"owner": 0, "kind": "run", "tiles": ["R10", "R11", "R12", "R13"],
                   "values": ["R10", "R11", "R12", "R13"]}],  # fmt: skip
    },
)

case(
    name="okey_position_in_run",
    rules=["K-G4", "K-T4", "K-T5"],
    note="Indicator K12: the real okey is K13. Its position fixes its value.",
    task=2,
    racks={0: ["R9", "R10", "R11", "K13"], 1: ["Y4", "Y5", "Y6", "K13"]},
    actions=[
        a(0, "open", groups=[["R9", "R10", "R11", "K13"]]),
        a(0, "discard", tile="Y1"),
        a(1, "draw"),
        a(1, "open", groups=[["K13", "Y4", "Y5", "Y6"]]),
    ],
    expect={
        "results": [OK, OK, OK, OK],
        "table": [
            {"owner": 0, "kind": "run", "tiles": ["R9", "R10", "R11", "K13"],
             "values": ["R9", "R10", "R11", "R12"]},
            {"owner": 1, "kind": "run", "tiles": ["K13", "Y4", "Y5", "Y6"],
             "values": ["Y3", "Y4", "Y5", "Y6"]},
        ],  # fmt: skip
    },
)

case(
    name="okey_outside_the_numbers",
    rules=["K-G4", "K-G1"],
    task=2,
    racks={0: ["R11", "R12", "R13", "K13", "R10"]},
    actions=[
        a(0, "open", groups=[["R11", "R12", "R13", "K13"]]),  # okey would be R14
        a(0, "open", groups=[["K13", "R11", "R12", "R13"]]),
    ],
    expect={"results": [err("invalid_group"), OK],
            "table": [{"owner": 0, "kind": "run", "tiles": ["K13", "R11", "R12", "R13"],
                       "values": ["R10", "R11", "R12", "R13"]}]},  # fmt: skip
)

case(
    name="indicator_thirteen_wraps_to_one",
    rules=["K-T4", "K-T5", "K-G2"],
    indicator="R13",
    note="Indicator R13: the real okey is R1 (both copies).",
    racks={0: ["R1", "Y9", "B9", "K9"]},
    actions=[a(0, "open", groups=[["Y9", "R1", "B9", "K9"]])],
    expect={"results": [OK],
            "table": [{"owner": 0, "kind": "kut", "tiles": ["Y9", "R1", "B9", "K9"],
                       "values": ["Y9", "R9", "B9", "K9"]}]},  # fmt: skip
)

case(
    name="fake_okey_is_a_fixed_tile",
    rules=["K-T6", "K-T1", "K-G1", "K-G2"],
    indicator="B2",
    task=3,
    note="Indicator B2: real okey B3; each F is a plain B3.",
    racks={0: ["B1", "B2", "F", "B4", "R3", "Y3", "F", "K3"]},
    actions=[
        a(0, "open", groups=[["R3", "Y3", "F", "K3"], ["B1", "B2", "F", "B4"]]),
    ],
    expect={"results": [OK],
            "table": [
                {"owner": 0, "kind": "kut", "tiles": ["R3", "Y3", "F", "K3"],
                 "values": ["R3", "Y3", "B3", "K3"]},
                {"owner": 0, "kind": "run", "tiles": ["B1", "B2", "F", "B4"],
                 "values": ["B1", "B2", "B3", "B4"]},
            ]},  # fmt: skip
)

case(
    name="fake_okey_is_not_wild",
    rules=["K-T6", "K-G1"],
    indicator="B2",
    task=2,
    racks={0: ["R5", "R6", "F", "R8", "R7"]},
    actions=[a(0, "open", groups=[["R5", "R6", "F", "R8"]])],
    expect={"results": [err("invalid_group")], "opened": [False, False, False, False]},
)

case(
    name="pairs_task",
    rules=["K-G3", "K-O6", "K-M3"],
    task=7,
    note="Task 7 of 8: 5 pairs. F+F is a pair; a tile plus a real okey is a pair; F plus a "
    "real okey and two real okeys are not.",
    racks={0: ["R5", "R5", "Y7", "Y7", "F", "F", "B9", "K13", "K2", "K2", "K13", "B6"]},
    actions=[
        a(0, "open", groups=[["R5", "R5"], ["Y7", "Y7"], ["F", "K13"], ["B9", "K13"],
                             ["K2", "K2"]]),  # fmt: skip
        a(0, "open", groups=[["R5", "R5"], ["Y7", "Y7"], ["K13", "K13"], ["B9", "B6"],
                             ["K2", "K2"]]),  # fmt: skip
        a(0, "open", groups=[["R5", "R5"], ["Y7", "Y7"], ["F", "F"], ["B9", "K13"]]),
        a(0, "open", groups=[["R5", "R5"], ["Y7", "Y7"], ["F", "F"], ["B9", "K13"],
                             ["K2", "K2"]]),  # fmt: skip
    ],
    expect={"results": [err("invalid_group"), err("invalid_group"), err("task_mismatch"), OK],
            "table": [
                {"owner": 0, "kind": "pair", "tiles": ["R5", "R5"], "values": ["R5", "R5"]},
                {"owner": 0, "kind": "pair", "tiles": ["Y7", "Y7"], "values": ["Y7", "Y7"]},
                {"owner": 0, "kind": "pair", "tiles": ["F", "F"], "values": ["K13", "K13"]},
                {"owner": 0, "kind": "pair", "tiles": ["B9", "K13"], "values": ["B9", "B9"]},
                {"owner": 0, "kind": "pair", "tiles": ["K2", "K2"], "values": ["K2", "K2"]},
            ]},  # fmt: skip
)

case(
    name="five_task_kut_and_run",
    rules=["K-M3", "K-O2"],
    tasks=5,
    task=3,
    racks={0: ["R8", "Y8", "B8", "K8", "Y1", "Y2", "Y3", "Y4", "Y5"]},
    actions=[
        a(0, "open", groups=[["Y1", "Y2", "Y3", "Y4"], ["R8", "Y8", "B8", "K8"]]),
        a(0, "open", groups=[["Y1", "Y2", "Y3", "Y4", "Y5"], ["R8", "Y8", "B8", "K8"]]),
    ],
    expect={"results": [err("task_mismatch"), OK],
            "opened": [True, False, False, False]},  # fmt: skip
)

case(
    name="twelve_task_kut3_run4",
    rules=["K-M3", "K-G6"],
    tasks=12,
    task=6,
    racks={0: ["R6", "B6", "K13", "Y9", "Y10", "Y11", "Y12"]},
    actions=[a(0, "open", groups=[["R6", "B6", "K13"], ["Y9", "Y10", "Y11", "Y12"]])],
    expect={"results": [OK],
            "table": [
                {"owner": 0, "kind": "kut", "tiles": ["R6", "B6", "K13"],
                 "values": ["R6", "B6", None]},
                {"owner": 0, "kind": "run", "tiles": ["Y9", "Y10", "Y11", "Y12"],
                 "values": ["Y9", "Y10", "Y11", "Y12"]},
            ]},  # fmt: skip
)

case(
    name="two_kuts_both_copies",
    rules=["K-M3", "K-G2", "K-T1"],
    task=5,
    racks={0: ["R7", "Y7", "B7", "K7", "R7", "Y7", "B7", "K7"]},
    actions=[a(0, "open", groups=[["R7", "Y7", "B7", "K7"], ["K7", "B7", "Y7", "R7"]])],
    expect={"results": [OK], "opened": [True, False, False, False]},
)

case(
    name="open_tiles_must_be_in_rack",
    rules=["K-O5", "K-O1"],
    racks={0: ["R5", "Y5", "B5"]},
    actions=[a(0, "open", groups=[["R5", "Y5", "B5", "K5"]])],
    expect={"results": [err("tile_not_in_rack")], "opened": [False, False, False, False]},
)

# ---------------------------------------------------------------- laying off
LAYOFF_SETUP = [
    a(0, "open", groups=[["R4", "R5", "R6"]]),
    a(0, "discard", tile="Y1"),
    a(1, "draw"), a(1, "discard", tile="B12"),
    a(2, "draw"), a(2, "discard", tile="Y12"),
    a(3, "draw"), a(3, "discard", tile="Y11"),
    a(0, "draw"),
]  # fmt: skip

case(
    name="run_end_limits",
    rules=["K-L3", "K-L1", "K-O4"],
    tasks=12,
    task=2,
    note="Run 4-5-6: 2-3 on the left and 7-8 on the right this turn; 1 and 9 must wait.",
    racks={0: ["R4", "R5", "R6", "R3", "R2", "R1", "R7", "R8", "R9"], 1: ["B12"],
           2: ["Y12"], 3: ["Y11"]},  # fmt: skip
    deck=["B11", "K10", "R11", "K8", "K2"],
    actions=[
        a(0, "open", groups=[["R4", "R5", "R6"]]),
        a(0, "lay_off", tile="R7", group=0),  # K-O4: not in the opening turn
        a(0, "discard", tile="Y1"),
        a(1, "draw"), a(1, "discard", tile="B12"),
        a(2, "draw"), a(2, "discard", tile="Y12"),
        a(3, "draw"), a(3, "discard", tile="Y11"),
        a(0, "draw"),
        a(0, "lay_off", tile="R3", group=0),
        a(0, "lay_off", tile="R2", group=0),
        a(0, "lay_off", tile="R1", group=0),
        a(0, "lay_off", tile="R7", group=0),
        a(0, "lay_off", tile="R8", group=0),
        a(0, "lay_off", tile="R9", group=0),
        a(0, "discard", tile="K8"),
    ],
    expect={
        "results": [OK, err("opened_this_turn"), OK, OK, OK, OK, OK, OK, OK, OK, OK, OK,
                    err("lay_off_limit"), OK, OK, err("lay_off_limit"), OK],  # fmt: skip
        "table": [{"owner": 0, "kind": "run",
                   "tiles": ["R2", "R3", "R4", "R5", "R6", "R7", "R8"],
                   "values": ["R2", "R3", "R4", "R5", "R6", "R7", "R8"]}],  # fmt: skip
        "turn": 1,
    },
)

case(
    name="run_limit_resets_next_turn",
    rules=["K-L3"],
    tasks=12,
    task=2,
    racks={0: ["R4", "R5", "R6", "R3", "R2", "R1"], 1: ["B12"], 2: ["Y12"], 3: ["Y11"]},
    deck=["B11", "K10", "R11", "K8", "K2", "Y9", "Y8", "B1", "K12"],
    actions=LAYOFF_SETUP + [
        a(0, "lay_off", tile="R3", group=0),
        a(0, "lay_off", tile="R2", group=0),
        a(0, "discard", tile="K8"),
        a(1, "draw"), a(1, "discard", tile="K2"),
        a(2, "draw"), a(2, "discard", tile="Y9"),
        a(3, "draw"), a(3, "discard", tile="Y8"),
        a(0, "draw"),
        a(0, "lay_off", tile="R1", group=0),
    ],
    expect={"results": [OK] * 20,
            "table": [{"owner": 0, "kind": "run",
                       "tiles": ["R1", "R2", "R3", "R4", "R5", "R6"],
                       "values": ["R1", "R2", "R3", "R4", "R5", "R6"]}]},  # fmt: skip
)

case(
    name="okey_at_either_end_needs_end",
    rules=["K-L3", "K-T5"],
    tasks=12,
    task=2,
    racks={0: ["R4", "R5", "R6", "K13", "R7"], 1: ["B12"], 2: ["Y12"], 3: ["Y11"]},
    deck=["B11", "K10", "R11", "K8", "K2"],
    actions=LAYOFF_SETUP + [
        a(0, "lay_off", tile="K13", group=0),
        a(0, "lay_off", tile="K13", group=0, end="left"),
        a(0, "lay_off", tile="R7", group=0, end="left"),
        a(0, "lay_off", tile="R7", group=0),
    ],
    expect={"results": [OK] * 9 + [err("end_required"), OK, err("cannot_lay_off"), OK],
            "table": [{"owner": 0, "kind": "run", "tiles": ["K13", "R4", "R5", "R6", "R7"],
                       "values": ["R3", "R4", "R5", "R6", "R7"]}]},  # fmt: skip
)

case(
    name="okey_exchange_keeps_shape",
    rules=["K-L4", "K-G4"],
    task=2,
    note="R8 R9 okey + R10: the table reads R8 R9 R10 and the okey goes to the rack.",
    racks={0: ["R7", "R8", "R9", "K13", "R10"], 1: ["B12"], 2: ["Y12"], 3: ["Y11"]},
    deck=["B11", "K10", "R11", "K8", "K2"],
    actions=[
        a(0, "open", groups=[["R7", "R8", "R9", "K13"]]),
        a(0, "discard", tile="Y1"),
        a(1, "draw"), a(1, "discard", tile="B12"),
        a(2, "draw"), a(2, "discard", tile="Y12"),
        a(3, "draw"), a(3, "discard", tile="Y11"),
        a(0, "draw"),
        a(0, "lay_off", tile="R10", group=0),
    ],
    expect={"results": [OK] * 10,
            "table": [{"owner": 0, "kind": "run", "tiles": ["R7", "R8", "R9", "R10"],
                       "values": ["R7", "R8", "R9", "R10"]}]},  # fmt: skip
)

case(
    name="fake_okey_exchanges_a_real_okey",
    rules=["K-L4", "K-T6"],
    indicator="B2",
    task=2,
    note="Okey B3. A run B4 B5 B6 okey? No: B1 okey B3? The okey stands for B2... here the "
    "run Y5 Y6 Y7 B3(okey) is Y8; and the run R1 R2 B3(okey) R4 has the okey as R3.",
    racks={0: ["Y5", "Y6", "Y7", "B3", "Y8"], 1: ["B12"], 2: ["Y12"], 3: ["Y11"]},
    deck=["B11", "K10", "R11", "K8", "K2"],
    actions=[
        a(0, "open", groups=[["Y5", "Y6", "Y7", "B3"]]),
        a(0, "discard", tile="Y1"),
        a(1, "draw"), a(1, "discard", tile="B12"),
        a(2, "draw"), a(2, "discard", tile="Y12"),
        a(3, "draw"), a(3, "discard", tile="Y11"),
        a(0, "draw"),
        a(0, "lay_off", tile="Y8", group=0),
    ],
    expect={"results": [OK] * 10,
            "table": [{"owner": 0, "kind": "run", "tiles": ["Y5", "Y6", "Y7", "Y8"],
                       "values": ["Y5", "Y6", "Y7", "Y8"]}]},  # fmt: skip
)

case(
    name="undecided_kut_okey",
    rules=["K-L5", "K-G6", "K-L4", "K-L3"],
    tasks=12,
    task=1,
    note="R5 Y5 okey: the okey is undecided (null). B5 completes it to four (okey = K5); "
    "whoever then adds K5 takes the okey.",
    racks={0: ["R5", "Y5", "K13", "B5"], 1: ["R9", "Y9", "B9", "K5"], 2: ["Y12"],
           3: ["Y11"]},  # fmt: skip
    deck=["B11", "K10", "R11", "K8", "K2", "B1"],
    actions=[
        a(0, "open", groups=[["R5", "Y5", "K13"]]),
        a(0, "discard", tile="Y1"),
        a(1, "draw"), a(1, "open", groups=[["R9", "Y9", "B9"]]), a(1, "discard", tile="B11"),
        a(2, "draw"), a(2, "discard", tile="Y12"),
        a(3, "draw"), a(3, "discard", tile="Y11"),
        a(0, "draw"),
        a(0, "lay_off", tile="B5", group=0),
        a(0, "discard", tile="K8"),
        a(1, "draw"),
        a(1, "lay_off", tile="K5", group=0),
    ],
    expect={"results": [OK] * 14,
            "table": [
                {"owner": 0, "kind": "kut", "tiles": ["R5", "Y5", "K5", "B5"],
                 "values": ["R5", "Y5", "K5", "B5"]},
                {"owner": 1, "kind": "kut", "tiles": ["R9", "Y9", "B9"],
                 "values": ["R9", "Y9", "B9"]},
            ]},  # fmt: skip
)

case(
    name="okey_completes_kut_of_three",
    rules=["K-L3", "K-G2"],
    tasks=12,
    task=1,
    racks={0: ["R5", "Y5", "B5", "K13"], 1: ["B12"], 2: ["Y12"], 3: ["Y11"]},
    deck=["B11", "K10", "R11", "K8", "K2"],
    actions=[
        a(0, "open", groups=[["R5", "Y5", "B5"]]),
        a(0, "discard", tile="Y1"),
        a(1, "draw"), a(1, "discard", tile="B12"),
        a(2, "draw"), a(2, "discard", tile="Y12"),
        a(3, "draw"), a(3, "discard", tile="Y11"),
        a(0, "draw"),
        a(0, "lay_off", tile="K13", group=0),
    ],
    expect={"results": [OK] * 10,
            "table": [{"owner": 0, "kind": "kut", "tiles": ["R5", "Y5", "B5", "K13"],
                       "values": ["R5", "Y5", "B5", "K5"]}]},  # fmt: skip
)

case(
    name="pair_cannot_grow",
    rules=["K-L6", "K-L4", "K-O6"],
    task=7,
    racks={0: ["R5", "R5", "Y7", "Y7", "B9", "B9", "K2", "K2", "R6", "K13", "R6"],
           1: ["B12"], 2: ["Y12"], 3: ["Y11"]},  # fmt: skip
    deck=["B11", "K10", "R11", "K8", "Y9"],
    actions=[
        a(0, "open", groups=[["R5", "R5"], ["Y7", "Y7"], ["B9", "B9"], ["K2", "K2"],
                             ["R6", "K13"]]),  # fmt: skip
        a(0, "discard", tile="Y1"),
        a(1, "draw"), a(1, "discard", tile="B12"),
        a(2, "draw"), a(2, "discard", tile="Y12"),
        a(3, "draw"), a(3, "discard", tile="Y11"),
        a(0, "draw"),
        a(0, "lay_off", tile="K8", group=3),
        a(0, "lay_off", tile="K13", group=0, end="right"),
        a(0, "lay_off", tile="R6", group=4),  # exchange
    ],
    expect={"results": [OK] * 9 + [err("pair_cannot_grow"), err("tile_not_in_rack"), OK],
            "table": [
                {"owner": 0, "kind": "pair", "tiles": ["R5", "R5"], "values": ["R5", "R5"]},
                {"owner": 0, "kind": "pair", "tiles": ["Y7", "Y7"], "values": ["Y7", "Y7"]},
                {"owner": 0, "kind": "pair", "tiles": ["B9", "B9"], "values": ["B9", "B9"]},
                {"owner": 0, "kind": "pair", "tiles": ["K2", "K2"], "values": ["K2", "K2"]},
                {"owner": 0, "kind": "pair", "tiles": ["R6", "R6"], "values": ["R6", "R6"]},
            ]},  # fmt: skip
)

case(
    name="before_opening_no_lay_off",
    rules=["K-O3", "K-L1"],
    task=2,
    racks={0: ["R7", "R8", "R9", "R10"], 1: ["R11", "R6", "R12", "R13", "Y4"]},
    deck=["B11", "K10"],
    actions=[
        a(0, "open", groups=[["R7", "R8", "R9", "R10"]]),
        a(0, "discard", tile="Y1"),
        a(1, "draw"),
        a(1, "lay_off", tile="R11", group=0),
        a(1, "new_groups", groups=[["R11", "R12", "R13"]]),
    ],
    expect={"results": [OK, OK, OK, err("not_opened"), err("not_opened")]},
)

case(
    name="new_groups_after_opening",
    rules=["K-L1", "K-N2", "K-O6", "K-O4"],
    task=1,
    racks={0: ["R5", "Y5", "B5", "K5", "B1", "B2", "B3", "R10", "Y10", "K10", "Y4", "Y4"],
           1: ["B12"], 2: ["Y12"], 3: ["Y11"]},  # fmt: skip
    deck=["B11", "K10", "R11", "K8", "K2"],
    actions=[
        a(0, "open", groups=[["R5", "Y5", "B5", "K5"]]),
        a(0, "new_groups", groups=[["B1", "B2", "B3"]]),  # K-O4
        a(0, "discard", tile="Y1"),
        a(1, "draw"), a(1, "discard", tile="B12"),
        a(2, "draw"), a(2, "discard", tile="Y12"),
        a(3, "draw"), a(3, "discard", tile="Y11"),
        a(0, "draw"),
        a(0, "new_groups", groups=[["Y4", "Y4"]]),  # pairs only in the pairs hand
        a(0, "new_groups", groups=[["B1", "B2", "B3"], ["R10", "Y10", "K10"]]),
    ],
    expect={"results": [OK, err("opened_this_turn"), OK, OK, OK, OK, OK, OK, OK, OK,
                        err("pairs_not_allowed"), OK],  # fmt: skip
            "table": [
                {"owner": 0, "kind": "kut", "tiles": ["R5", "Y5", "B5", "K5"],
                 "values": ["R5", "Y5", "B5", "K5"]},
                {"owner": 0, "kind": "run", "tiles": ["B1", "B2", "B3"],
                 "values": ["B1", "B2", "B3"]},
                {"owner": 0, "kind": "kut", "tiles": ["R10", "Y10", "K10"],
                 "values": ["R10", "Y10", "K10"]},
            ]},  # fmt: skip
)

case(
    name="new_pairs_in_pairs_hand",
    rules=["K-O6", "K-G3"],
    task=7,
    racks={0: ["R5", "R5", "Y7", "Y7", "B9", "B9", "K2", "K2", "R6", "R6", "Y3", "Y3"],
           1: ["B12"], 2: ["Y12"], 3: ["Y11"]},  # fmt: skip
    deck=["B11", "K10", "R11", "K8", "Y9"],
    actions=[
        a(0, "open", groups=[["R5", "R5"], ["Y7", "Y7"], ["B9", "B9"], ["K2", "K2"],
                             ["R6", "R6"]]),  # fmt: skip
        a(0, "discard", tile="Y1"),
        a(1, "draw"), a(1, "discard", tile="B12"),
        a(2, "draw"), a(2, "discard", tile="Y12"),
        a(3, "draw"), a(3, "discard", tile="Y11"),
        a(0, "draw"),
        a(0, "new_groups", groups=[["Y3", "Y3"]]),
    ],
    expect={"results": [OK] * 10},
)

case(
    name="lay_off_errors",
    rules=["K-L1", "K-L3"],
    task=2,
    racks={0: ["R7", "R8", "R9", "R10", "Y3", "R11"], 1: ["B12"], 2: ["Y12"], 3: ["Y11"]},
    deck=["B11", "K10", "Y9", "K8", "K2"],
    actions=[
        a(0, "open", groups=[["R7", "R8", "R9", "R10"]]),
        a(0, "discard", tile="Y1"),
        a(1, "draw"), a(1, "discard", tile="B12"),
        a(2, "draw"), a(2, "discard", tile="Y12"),
        a(3, "draw"), a(3, "discard", tile="Y11"),
        a(0, "draw"),
        a(0, "lay_off", tile="Y3", group=0),
        a(0, "lay_off", tile="Y3", group=5),
        a(0, "lay_off", tile="R11", group=0, end="left"),
        a(0, "lay_off", tile="B1", group=0),
    ],
    expect={"results": [OK] * 9 + [err("cannot_lay_off"), err("no_such_group"),
                                   err("cannot_lay_off"), err("tile_not_in_rack")]},  # fmt: skip
)

# ---------------------------------------------------------------- claims
case(
    name="claim_rules",
    rules=["K-C1", "K-C2", "K-C3", "K-C4", "K-C5", "K-C6"],
    note="Seat 1 draws instead of taking R13 thrown by seat 0: seats 2 and 3 may claim; "
    "seat 0 (the thrower) and seat 1 (whose turn it is) may not; the first claim wins; "
    "the claimant gets R13 and the deck's top tile; turn order stays.",
    racks={0: ["R13"]},
    deck=["B12", "Y11", "R10", "K10"],
    actions=[
        a(2, "claim"),  # not yet: seat 1 has not drawn (K-C1)
        a(0, "discard", tile="R13"),
        a(2, "claim"),
        a(1, "draw"),
        a(1, "claim"),
        a(0, "claim"),
        a(3, "claim"),
        a(2, "claim"),
        a(1, "discard", tile="B12"),
        a(2, "draw"),
    ],
    expect={"results": [err("claim_not_open"), OK, err("claim_not_open"), OK,
                        err("claim_own_turn"), err("own_discard"), OK,
                        err("claim_not_open"), OK, OK],  # fmt: skip
            "discards": [[], ["B12"], [], []],
            "deck_count": 17,
            "turn": 2},  # fmt: skip
)

case(
    name="claimed_tiles_cannot_be_undone",
    rules=["K-C3", "K-U3"],
    racks={0: ["R13"]},
    deck=["B12", "Y11", "R10"],
    actions=[a(0, "discard", tile="R13"), a(1, "draw"), a(3, "claim"), a(3, "undo"),
             a(1, "undo")],  # fmt: skip
    expect={"results": [OK, OK, OK, err("not_your_turn"), err("nothing_to_undo")],
            "deck_count": 18},  # fmt: skip
)

case(
    name="claims_close_with_the_last_tile",
    rules=["K-D4", "K-C6", "K-C2"],
    racks={0: ["R13"]},
    deck=["B12"],
    deck_len=1,
    actions=[a(0, "discard", tile="R13"), a(1, "draw"), a(2, "claim"),
             a(1, "discard", tile="B12")],  # fmt: skip
    expect={"results": [OK, OK, err("claim_not_open"), OK], "over": True, "turn": None,
            "finisher": None},  # fmt: skip
)

case(
    name="claim_with_one_tile_left_takes_it_as_penalty",
    rules=["K-D4", "K-C3"],
    racks={0: ["R13"]},
    deck=["B12", "Y11"],
    deck_len=2,
    actions=[a(0, "discard", tile="R13"), a(1, "draw"), a(2, "claim"), a(3, "claim"),
             a(1, "discard", tile="B12"), a(2, "draw")],  # fmt: skip
    expect={"results": [OK, OK, OK, err("claim_not_open"), OK, err("hand_over")],
            "over": True, "deck_count": 0},  # fmt: skip
)

case(
    name="claimed_okey_is_exempt",
    rules=["K-C7", "K-S4"],
    task=2,
    note="Seat 2 opens, completes a turn, then claims a real okey: at the end of the hand "
    "(before its own next turn is done) that okey costs nothing.",
    racks={0: ["K13", "R1", "R2", "R3", "R4"], 2: ["Y1", "Y2", "Y3", "Y4", "B12"]},
    deck=["B11", "K10", "R11", "K8", "K4", "K6", "B7", "R7", "K12", "Y9"],
    deck_len=10,
    actions=[
        a(0, "open", groups=[["R1", "R2", "R3", "R4"]]), a(0, "discard", tile="Y1"),
        a(1, "draw"), a(1, "discard", tile="B11"),
        a(2, "draw"), a(2, "open", groups=[["Y1", "Y2", "Y3", "Y4"]]),
        a(2, "discard", tile="K10"),
        a(3, "draw"), a(3, "discard", tile="R11"),
        a(0, "draw"), a(0, "discard", tile="K8"),
        a(1, "draw"), a(1, "discard", tile="K4"),
        a(2, "draw"), a(2, "discard", tile="K6"),
        a(3, "draw"), a(3, "discard", tile="B7"),
        a(0, "draw"), a(0, "discard", tile="K13"),  # işlek okey: +100 for seat 0
        a(1, "draw"), a(2, "claim"),  # seat 2 claims the okey, penalty Y9: deck empty
        a(1, "discard", tile="K12"),
    ],
    # seat 2 holds R3 R8 Y8 Y9 Y11 Y13 B3 B11 B12 K6 K8 = 92 and the exempt okey: 0
    expect={"results": [OK] * 22, "over": True, "penalties": [100, 0, 0, 0],
            "scores": [173, 200, 92, 200]},  # fmt: skip
)

case(
    name="claimed_okey_exemption_ends_after_own_turn",
    rules=["K-C7", "K-S4"],
    task=2,
    note="As above, but seat 2 completes its own next turn before the deck runs out: "
    "the claimed okey now costs 100.",
    racks={0: ["K13", "R1", "R2", "R3", "R4"], 2: ["Y1", "Y2", "Y3", "Y4", "B12"]},
    deck=["B11", "K10", "R11", "K8", "K4", "K6", "B7", "R7", "K12", "Y9", "B9"],
    deck_len=11,
    actions=[
        a(0, "open", groups=[["R1", "R2", "R3", "R4"]]), a(0, "discard", tile="Y1"),
        a(1, "draw"), a(1, "discard", tile="B11"),
        a(2, "draw"), a(2, "open", groups=[["Y1", "Y2", "Y3", "Y4"]]),
        a(2, "discard", tile="K10"),
        a(3, "draw"), a(3, "discard", tile="R11"),
        a(0, "draw"), a(0, "discard", tile="K8"),
        a(1, "draw"), a(1, "discard", tile="K4"),
        a(2, "draw"), a(2, "discard", tile="K6"),
        a(3, "draw"), a(3, "discard", tile="B7"),
        a(0, "draw"), a(0, "discard", tile="K13"),
        a(1, "draw"), a(2, "claim"),
        a(1, "discard", tile="K12"),
        a(2, "draw"), a(2, "discard", tile="B9"),
    ],
    expect={"results": [OK] * 24, "over": True, "scores": [173, 200, 192, 200]},
)

# ---------------------------------------------------------------- undo
case(
    name="undo_moves_one_by_one",
    rules=["K-U1", "K-U2", "K-U3"],
    task=1,
    racks={0: ["R5", "Y5", "B5", "K5", "B1", "B2", "B3"], 1: ["B12"], 2: ["Y12"],
           3: ["Y11"]},  # fmt: skip
    deck=["B11", "K10", "R11", "K8", "K2"],
    actions=[
        a(0, "open", groups=[["R5", "Y5", "B5", "K5"]]),
        a(0, "undo"),
        a(0, "undo"),
        a(0, "open", groups=[["R5", "Y5", "B5", "K5"]]),
        a(0, "discard", tile="Y1"),
        a(0, "undo"),  # not seat 0's turn any more
        a(1, "take_discard"),
        a(1, "undo"),  # puts Y1 back (K-U2)
        a(1, "draw"),
        a(1, "undo"),  # a centre draw cannot be undone (K-U3)
        a(1, "discard", tile="B12"),
        a(2, "draw"), a(2, "discard", tile="Y12"),
        a(3, "draw"), a(3, "discard", tile="Y11"),
        a(0, "draw"),
        a(0, "new_groups", groups=[["B1", "B2", "B3"]]),
        a(0, "lay_off", tile="K8", group=0),
        a(0, "undo"),
        a(0, "undo"),
        a(0, "undo"),
    ],
    expect={"results": [OK, OK, err("nothing_to_undo"), OK, OK, err("not_your_turn"), OK,
                        OK, OK, err("nothing_to_undo"), OK, OK, OK, OK, OK, OK, OK,
                        err("cannot_lay_off"), OK, err("nothing_to_undo"),
                        err("nothing_to_undo")],  # fmt: skip
            "table": [{"owner": 0, "kind": "kut", "tiles": ["R5", "Y5", "B5", "K5"],
                       "values": ["R5", "Y5", "B5", "K5"]}],
            "discards": [["Y1"], ["B12"], ["Y12"], ["Y11"]]},  # fmt: skip
)

case(
    name="undo_exchange_returns_okey_to_table",
    rules=["K-U1", "K-L4"],
    task=2,
    racks={0: ["R7", "R8", "R9", "K13", "R10"], 1: ["B12"], 2: ["Y12"], 3: ["Y11"]},
    deck=["B11", "K10", "R11", "K8", "K2"],
    actions=[
        a(0, "open", groups=[["R7", "R8", "R9", "K13"]]), a(0, "discard", tile="Y1"),
        a(1, "draw"), a(1, "discard", tile="B12"),
        a(2, "draw"), a(2, "discard", tile="Y12"),
        a(3, "draw"), a(3, "discard", tile="Y11"),
        a(0, "draw"),
        a(0, "lay_off", tile="R10", group=0),
        a(0, "undo"),
    ],
    expect={"results": [OK] * 11,
            "table": [{"owner": 0, "kind": "run", "tiles": ["R7", "R8", "R9", "K13"],
                       "values": ["R7", "R8", "R9", "R10"]}]},  # fmt: skip
)

# ---------------------------------------------------------------- forced draw
_forced = [a(0, "discard", tile="R13")]
for i in range(8):  # pass R13 round the table twice
    s_ = (i + 1) % 4
    _forced += [a(s_, "take_discard"), a(s_, "discard", tile="R13")]
_forced += [a(1, "take_discard"), a(1, "draw"), a(1, "discard", tile="B11"),
            a(2, "take_discard"), a(2, "draw"), a(2, "discard", tile="K10"),
            a(3, "draw"), a(3, "discard", tile="R11"),
            a(0, "draw"), a(0, "discard", tile="K8"),
            a(1, "take_discard")]  # fmt: skip
case(
    name="forced_centre_draw",
    rules=["K-N5"],
    note="Eight turns in a row take the thrown tile; the next four turns must draw; then "
    "the free choice returns.",
    racks={0: ["R13"]},
    deck=["B11", "K10", "R11", "K8", "K2"],
    actions=_forced,
    expect={"results": [OK] * 17 + [err("must_draw"), OK, OK, err("must_draw")] + [OK] * 7,
            "deck_count": 16},  # fmt: skip
)

# ---------------------------------------------------------------- finishing and scoring
case(
    name="finish_by_discarding_the_last_tile",
    rules=["K-F1", "K-S1", "K-N4", "K-S2", "K-S3"],
    task=7,
    note="Seat 0 opens 5 pairs, later lays down a run, lays off, and cannot lay down its "
    "last tile (K-N4): it finishes by discarding it (-100). Seats 1-3 have not opened: "
    "+200 each.",
    racks={0: ["R5", "R5", "Y7", "Y7", "B9", "B9", "K2", "K2", "R6", "R6", "B1", "B2",
               "B3", "B4", "Y3"], 1: ["B12"], 2: ["Y12"], 3: ["Y11"]},  # fmt: skip
    deck=["K10", "R11", "K8", "B5", "K4"],
    actions=[
        a(0, "open", groups=[["R5", "R5"], ["Y7", "Y7"], ["B9", "B9"], ["K2", "K2"],
                             ["R6", "R6"]]),  # fmt: skip
        a(0, "discard", tile="Y3"),
        a(1, "draw"), a(1, "discard", tile="B12"),
        a(2, "draw"), a(2, "discard", tile="Y12"),
        a(3, "draw"), a(3, "discard", tile="Y11"),
        a(0, "draw"),  # B5
        a(0, "new_groups", groups=[["B1", "B2", "B3"]]),
        a(0, "lay_off", tile="B4", group=5),
        a(0, "lay_off", tile="B5", group=5),
        a(0, "discard", tile="B5"),
    ],
    expect={"results": [OK] * 11 + [err("rack_would_be_empty"), OK],
            "over": True, "finisher": 0, "turn": None,
            "scores": [-100, 200, 200, 200],
            "opened": [True, False, False, False]},  # fmt: skip
)

case(
    name="finish_with_an_okey",
    rules=["K-S1", "K-F1", "K-S5"],
    task=7,
    note="Finishing on a real okey: -200; the finishing discard is never işlek.",
    racks={0: ["R5", "R5", "Y7", "Y7", "B9", "B9", "K2", "K2", "R6", "R6", "B1", "B2",
               "B3", "B4", "Y3"], 1: ["B12"], 2: ["Y12"], 3: ["Y11"]},  # fmt: skip
    deck=["K10", "R11", "K8", "K13", "K4"],
    actions=[
        a(0, "open", groups=[["R5", "R5"], ["Y7", "Y7"], ["B9", "B9"], ["K2", "K2"],
                             ["R6", "R6"]]),  # fmt: skip
        a(0, "discard", tile="Y3"),
        a(1, "draw"), a(1, "discard", tile="B12"),
        a(2, "draw"), a(2, "discard", tile="Y12"),
        a(3, "draw"), a(3, "discard", tile="Y11"),
        a(0, "draw"),
        a(0, "new_groups", groups=[["B1", "B2", "B3", "B4"]]),
        a(0, "discard", tile="K13"),
    ],
    expect={"results": [OK] * 11, "over": True, "finisher": 0,
            "scores": [-200, 200, 200, 200], "penalties": [0, 0, 0, 0]},  # fmt: skip
)

case(
    name="deck_out_scoring",
    rules=["K-D4", "K-S2", "K-S3", "K-S4", "K-T6", "K-S6"],
    task=2,
    indicator="B2",
    note="Okey B3, F = B3 (3 points). The hand ends when the player who drew the last "
    "tile discards; no one finishes. Seat 0 opened on its first turn and completed one "
    "more turn holding a real okey (+100).",
    racks={
        0: ["R1", "R2", "R3", "R4", "B3", "F", "Y10", "Y12", "K9", "K11", "R13", "B6",
            "Y5", "K6", "R9"],
        1: ["Y1", "Y2", "Y3", "Y4", "K1", "K5", "B8", "B10", "R6", "R8", "Y8", "K12",
            "B13", "R11"],
        2: ["R12", "Y13", "B12", "K13", "R10", "Y9", "B9", "K10", "Y7", "B7", "K7", "Y6",
            "B5", "K4"],
        3: ["R5", "Y11", "B11", "K2", "K3", "B4", "R7", "Y7", "B1", "K8", "R13", "Y12",
            "K11", "B6"],
    },  # fmt: skip
    deck=["R6", "K2", "Y13", "B13", "R8"],
    deck_len=5,
    actions=[
        a(0, "open", groups=[["R1", "R2", "R3", "R4"]]), a(0, "discard", tile="R13"),
        a(1, "draw"), a(1, "open", groups=[["Y1", "Y2", "Y3", "Y4"]]),
        a(1, "discard", tile="R6"),
        a(2, "draw"), a(2, "discard", tile="K2"),
        a(3, "draw"), a(3, "discard", tile="Y13"),
        a(0, "draw"), a(0, "discard", tile="B13"),
        a(1, "draw"), a(1, "discard", tile="R8"),
    ],
    expect={
        "results": [OK] * 13,
        "over": True, "finisher": None, "deck_count": 0,
        # seat 0: F 3 + Y10 + Y12 + K9 + K11 + B6 + Y5 + K6 + R9 = 71, + okey 100
        # seat 1: K1 + K5 + B8 + B10 + R6 + R8 + Y8 + K12 + B13 + R11 = 82
        "scores": [171, 82, 200, 200],
    },
)

case(
    name="okey_penalty_needs_one_more_turn",
    rules=["K-S4"],
    task=2,
    note="Opened on its last turn: a real okey in hand costs nothing.",
    racks={0: ["R1", "R2", "R3", "R4", "K13", "Y10", "Y12", "K9", "K11", "B6", "Y5", "K6",
               "R9", "Y1", "B1"]},  # fmt: skip
    deck=["R6", "K2", "Y13", "B13"],
    deck_len=4,
    actions=[
        a(0, "discard", tile="Y1"),
        a(1, "draw"), a(1, "discard", tile="R6"),
        a(2, "draw"), a(2, "discard", tile="K2"),
        a(3, "draw"), a(3, "discard", tile="Y13"),
        a(0, "draw"), a(0, "open", groups=[["R1", "R2", "R3", "R4"]]),
        a(0, "discard", tile="B13"),
    ],
    expect={"results": [OK] * 10, "over": True,
            # Y10 Y12 K9 K11 B6 Y5 K6 R9 B1 = 69, okey free
            "scores": [69, 200, 200, 200]},  # fmt: skip
)

case(
    name="islek_discard_penalty",
    rules=["K-S5", "K-L2"],
    task=2,
    note="R11 fits the run R7-R10 on the table: discarding it costs 100, also for a "
    "player who has not opened; a group laid down in the same turn does not count.",
    racks={0: ["R7", "R8", "R9", "R10", "Y2", "Y3", "Y4", "Y5", "Y6"], 1: ["R11"],
           2: ["B12"], 3: ["Y11"]},  # fmt: skip
    deck=["B11", "K10", "R6", "K8", "K2"],
    actions=[
        a(0, "open", groups=[["R7", "R8", "R9", "R10"]]),
        a(0, "discard", tile="Y1"),
        a(1, "draw"),
        a(1, "discard", tile="R11"),
        a(2, "draw"),
        a(2, "discard", tile="K10"),
    ],
    expect={"results": [OK] * 6, "penalties": [0, 100, 0, 0]},
)

case(
    name="islek_ignores_same_turn_groups",
    rules=["K-S5", "K-O4"],
    task=2,
    racks={0: ["R7", "R8", "R9", "R10", "R11", "Y4"]},
    actions=[
        a(0, "open", groups=[["R7", "R8", "R9", "R10"]]),
        a(0, "discard", tile="R11"),  # the run is this turn's: no penalty
        a(1, "take_discard"),
        a(1, "discard", tile="R11"),  # now it counts
    ],
    expect={"results": [OK] * 4, "penalties": [0, 100, 0, 0]},
)

case(
    name="islek_okey_discard",
    rules=["K-S5", "K-T5"],
    task=2,
    racks={0: ["R7", "R8", "R9", "R10"], 1: ["K13"]},
    actions=[
        a(0, "open", groups=[["R7", "R8", "R9", "R10"]]),
        a(0, "discard", tile="Y1"),
        a(1, "draw"),
        a(1, "discard", tile="K13"),
    ],
    expect={"results": [OK] * 4, "penalties": [0, 100, 0, 0]},
)

case(
    name="islek_by_exchange_and_kut",
    rules=["K-S5", "K-L4", "K-L5"],
    tasks=12,
    task=1,
    note="R5 Y5 okey on the table: a B5 (completes the küt) is işlek; K13? it is the "
    "okey and the küt of three takes it too.",
    racks={0: ["R5", "Y5", "K13"], 1: ["B5"], 2: ["K13"]},
    actions=[
        a(0, "open", groups=[["R5", "Y5", "K13"]]),
        a(0, "discard", tile="Y1"),
        a(1, "draw"), a(1, "discard", tile="B5"),
        a(2, "draw"), a(2, "discard", tile="K13"),
    ],
    expect={"results": [OK] * 6, "penalties": [0, 100, 100, 0]},
)

# ---------------------------------------------------------------- finish from hand
case(
    name="finish_from_hand",
    rules=["K-O7", "K-F1", "K-S1", "K-S2"],
    task=8,
    note="Last task: all tiles but one in runs and küts, then the discard. Nobody else "
    "opens; everyone else writes 200.",
    racks={0: ["R1", "R2", "R3", "Y5", "B5", "K5", "B7", "B8", "B9", "B10", "K11", "R11",
               "Y11", "B11", "R13"], 1: ["R4", "Y6", "Y6"]},  # fmt: skip
    actions=[
        a(0, "open", groups=[["R1", "R2", "R3"], ["Y5", "B5", "K5"]]),  # partial
        a(0, "open", groups=[["R1", "R2", "R3"], ["Y5", "B5", "K5"], ["B7", "B8", "B9"],
                             ["B10", "B11"], ["K11", "R11", "Y11"]]),  # fmt: skip
        a(0, "open", groups=[["R1", "R2", "R3"], ["Y5", "B5", "K5"],
                             ["B7", "B8", "B9", "B10"], ["K11", "R11", "Y11", "B11"]]),
        a(0, "discard", tile="R13"),
    ],
    expect={"results": [err("finish_incomplete"), err("invalid_group"), OK, OK],
            "over": True, "finisher": 0, "scores": [-100, 200, 200, 200],
            "opened": [True, False, False, False]},  # fmt: skip
)

case(
    name="finish_from_hand_no_pairs",
    rules=["K-O7", "K-G3"],
    task=8,
    racks={0: ["R1", "R1", "Y5", "B5", "K5", "B7", "B8", "B9", "B10", "K11", "R11",
               "Y11", "B11", "R13", "R12"]},  # fmt: skip
    actions=[
        a(0, "open", groups=[["R1", "R1"], ["Y5", "B5", "K5"], ["B7", "B8", "B9", "B10"],
                             ["K11", "R11", "Y11", "B11"], ["R12", "R13"]]),  # fmt: skip
        a(1, "draw"),
    ],
    expect={"results": [err("invalid_group"), err("not_your_turn")]},
)

# ---------------------------------------------------------------- timeouts
case(
    name="timeout_draws_and_discards_the_drawn_tile",
    rules=["K-N7", "K-N6"],
    racks={0: ["R13"]},
    deck=["B2", "K10"],
    actions=[a(0, "discard", tile="R13"), a(1, "timeout"), a(3, "timeout")],
    expect={"results": [OK, OK, err("not_your_turn")],
            "discards": [["R13"], ["B2"], [], []], "turn": 2, "deck_count": 19},  # fmt: skip
)

case(
    name="timeout_keeps_moves_and_skips_okey",
    rules=["K-N7", "K-S5"],
    task=2,
    note="Seat 1 took the thrown real okey and opened; on timeout the opening stays and "
    "the highest tile that is not a real okey is discarded.",
    racks={
        0: ["K13", "R1", "R4", "Y9", "B2", "K5", "R7", "Y13", "B10", "K1", "R12", "Y6",
            "B3", "K8", "Y2"],
        1: ["Y1", "Y2", "Y3", "Y4", "R2", "R5", "B6", "K9", "R10", "Y12", "B12", "K2",
            "R3", "B7"],
    },  # fmt: skip
    actions=[a(0, "discard", tile="K13"), a(1, "take_discard"),
             a(1, "open", groups=[["Y1", "Y2", "Y3", "Y4"]]), a(1, "timeout")],  # fmt: skip
    expect={"results": [OK] * 4, "discards": [[], ["Y12"], [], []],
            "opened": [False, True, False, False],
            "penalties": [0, 0, 0, 0]},  # fmt: skip
)

case(
    name="timeout_on_the_first_turn",
    rules=["K-N7", "K-D3"],
    racks={0: ["R1", "R4", "Y9", "B2", "K5", "R7", "B10", "K1", "Y6", "B3", "K8", "Y2",
               "R11", "B13", "Y13"]},  # fmt: skip
    actions=[a(0, "timeout")],
    # Decision: ties go to the first in R, Y, B, K order (Y13 before B13).
    expect={"results": [OK], "discards": [["Y13"], [], [], []], "deck_count": 20},
)

# ---------------------------------------------------------------- auto lay-off
case(
    name="auto_lay_off_in_play",
    rules=["K-L7", "K-L3", "K-L4"],
    tasks=12,
    task=2,
    note="İşle adds R10 R11 at the right end and R6 R5 at the left (two per end per "
    "turn), exchanges Y8 for the okey and does not put that okey back in the same press; "
    "a second press may lay it off; a third finds nothing.",
    racks={0: ["R7", "R8", "R9", "Y1"], 1: ["Y6", "Y7", "K13"],
           2: ["B1", "B2", "B3", "R10", "R11", "R12", "Y8", "R6", "R5", "K1", "K3", "Y13",
               "Y11", "B9"]},  # fmt: skip
    deck=["B11", "K10", "K2", "K8", "Y12", "B13"],
    actions=[
        a(0, "open", groups=[["R7", "R8", "R9"]]), a(0, "discard", tile="Y1"),
        a(1, "draw"), a(1, "open", groups=[["Y6", "Y7", "K13"]]),
        a(1, "discard", tile="B11"),
        a(2, "draw"), a(2, "open", groups=[["B1", "B2", "B3"]]),
        a(2, "discard", tile="K10"),
        a(3, "draw"), a(3, "discard", tile="K2"),
        a(0, "draw"), a(0, "discard", tile="K8"),
        a(1, "draw"), a(1, "discard", tile="Y12"),
        a(2, "draw"),
        a(2, "auto_lay_off"),
        a(2, "auto_lay_off"),
        a(2, "auto_lay_off"),
    ],
    expect={"results": [OK] * 17 + [err("nothing_to_lay_off")],
            "table": [
                {"owner": 0, "kind": "run",
                 "tiles": ["R5", "R6", "R7", "R8", "R9", "R10", "R11"],
                 "values": ["R5", "R6", "R7", "R8", "R9", "R10", "R11"]},
                {"owner": 1, "kind": "run", "tiles": ["Y6", "Y7", "Y8", "K13"],
                 "values": ["Y6", "Y7", "Y8", "Y9"]},
                {"owner": 2, "kind": "run", "tiles": ["B1", "B2", "B3"],
                 "values": ["B1", "B2", "B3"]},
            ]},  # fmt: skip
)

case(
    name="actions_after_the_end",
    rules=["K-F1", "K-M4"],
    task=8,
    racks={0: ["R1", "R2", "R3", "Y5", "B5", "K5", "B7", "B8", "B9", "B10", "K11", "R11",
               "Y11", "B11", "R13"]},  # fmt: skip
    actions=[
        a(0, "open", groups=[["R1", "R2", "R3"], ["Y5", "B5", "K5"],
                             ["B7", "B8", "B9", "B10"], ["K11", "R11", "Y11", "B11"]]),
        a(0, "discard", tile="R13"),
        a(1, "draw"),
        a(2, "claim"),
        a(1, "timeout"),
    ],
    expect={"results": [OK, OK, err("hand_over"), err("hand_over"), err("hand_over")],
            "over": True, "turn": None},  # fmt: skip
)


def write() -> None:
    HERE.mkdir(exist_ok=True)
    names = set()
    for c in CASES:
        assert c["name"] not in names, c["name"]
        names.add(c["name"])
        (HERE / f"{c['name']}.json").write_text(json.dumps(c, ensure_ascii=False, indent=1)
                                               + "\n", encoding="utf-8")  # fmt: skip


if __name__ == "__main__":
    if "--write" in sys.argv:
        write()
        print(f"wrote {len(CASES)} scenarios to {HERE}")
