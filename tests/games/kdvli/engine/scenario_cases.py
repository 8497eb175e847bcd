"""The golden KDVli scenarios (kdvli-scenario.md): each case is a scenario plus
``expect`` (the output fields worked out by hand from kdvli.md) and ``rules``.

    python -m tests.games.kdvli.engine.scenario_cases     # rewrites scenarios/*.json

Racks name the tiles that matter; ``helpers.scenario`` fills the rest with tiles that
make no group with them (so a filled seat's points are not asserted unless named).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.games.kdvli.engine.helpers import act, scenario

HERE = Path(__file__).resolve().parent / "scenarios"

RUNS14 = "R1 R2 R3 R4 B7 B8 B9 K11 K12 K13 Y11 R11 B11 K1"
RUNS_GROUPS = [g.split() for g in ("R1 R2 R3 R4", "B7 B8 B9", "K11 K12 K13 K1", "Y11 R11 B11")]
PAIRS14 = "R2 R2 Y3 Y3 B4 B4 K7 K7 R9 R9 Y10 Y10 B12 B12"
PAIRS = [PAIRS14.split()[i : i + 2] for i in range(0, 14, 2)]


def case(name, rules, note, s, expect):
    return {"name": name, "rules": rules, "note": note, **s, "expect": expect}


def _spec_example():
    s = {
        "game": "kdvli", "starter": 0, "indicator": "Y5", "partners": False,
        "racks": [
            "R10 R11 R12 R13 Y2 B2 K2 Y9 B5 K12 R7 Y13 B7 K4 K6".split(),
            "Y12 Y13 Y1 B8 Y8 K8 R8 R3 R4 R6 Y5 B5 K5 R9".split(),
            "B12 B13 B1 Y11 R11 K11 K3 K4 K5 R6 Y3 B7 R9 Y12".split(),
            "R2 R2 Y7 Y7 B3 B3 K13 K13 R5 R5 K1 Y4 B6 R12".split(),
        ],
        "deck": ["Y6", "B11", "R1"],
        "actions": [
            act(0, "discard", tile="K6"), act(1, "show_indicator"), act(2, "draw"),
            act(1, "draw"),
            act(1, "finish", tile="R9", groups=[["Y12", "Y13", "Y1"], ["B8", "Y8", "K8", "R8"],
                                                ["R3", "R4", "Y6", "R6"], ["Y5", "B5", "K5"]]),
        ],
    }  # fmt: skip
    expect = {
        "results": [{"ok": True}, {"ok": True}, {"ok": False, "error": "not_your_turn"},
                    {"ok": True}, {"ok": True}],
        "over": True, "void": False, "turn": None, "deck_count": 2,
        "racks": [["R7", "R10", "R11", "R12", "R13", "Y2", "Y9", "Y13", "B2", "B5", "B7", "K2",
                   "K4", "K12"],
                  ["R3", "R4", "R6", "R8", "Y1", "Y5", "Y6", "Y8", "Y12", "Y13", "B5", "B8",
                   "K5", "K8"],
                  ["R6", "R9", "R11", "Y3", "Y11", "Y12", "B1", "B7", "B12", "B13", "K3", "K4",
                   "K5", "K11"],
                  ["R2", "R2", "R5", "R5", "R12", "Y4", "Y7", "Y7", "B3", "B3", "B6", "K1",
                   "K13", "K13"]],
        "discards": [["K6"], [], [], []], "shown": [False, True, False, False],
        "bonuses": [0, -25, 0, 0], "points": [57, 0, 37, 46], "finisher": 1,
        "finish_tile": "R9", "finish_kind": "runs",
        "finish_groups": [["Y12", "Y13", "Y1"], ["B8", "Y8", "K8", "R8"],
                          ["R3", "R4", "Y6", "R6"], ["Y5", "B5", "K5"]],
        "multiplier": 1, "scores": [57, -75, 37, 46], "team_scores": None,
    }  # fmt: skip
    return case("spec_example", ["V-N1", "V-N2", "V-I1", "V-I2", "V-F1", "V-S2", "V-S3",
                                 "V-G1", "V-G4", "V-T3"],
                "The example of kdvli-scenario.md, output in full.", s, expect)  # fmt: skip


def build() -> list[dict]:
    cases = [_spec_example()]

    s = scenario(
        {0: PAIRS14 + " K6"}, indicator="K5", actions=[act(0, "finish", tile="K6", groups=PAIRS)]
    )
    cases.append(case("pairs_okey_coloured_times_eight", ["V-S1", "V-F2", "V-F4", "V-T5"],
                      "Black indicator, seven pairs, the real okey on the indicator: M = 8.", s,
                      {"results": [{"ok": True}], "over": True, "finish_kind": "pairs",
                       "multiplier": 8, "finisher": 0, "finish_tile": "K6",
                       "points": [0, None, None, None]}))  # fmt: skip

    s = scenario({0: RUNS14 + " Y6"}, actions=[act(0, "finish", tile="Y6", groups=RUNS_GROUPS)])
    cases.append(case("okey_finish_doubles", ["V-S1", "V-F4", "V-D3", "V-G1"],
                      "The starter finishes on its first turn with the real okey: M = 2, "
                      "-100 for the finisher; 12-13-1 is a run (K11 K12 K13 K1).", s,
                      {"results": [{"ok": True}], "multiplier": 2, "finish_kind": "runs",
                       "scores": [-100, None, None, None]}))  # fmt: skip

    s = scenario({0: RUNS14 + " F"}, actions=[act(0, "finish", tile="F", groups=RUNS_GROUPS)])
    cases.append(case("fake_okey_finish_brings_no_bonus", ["V-F4", "V-T4"],
                      "A fake okey on the indicator is an ordinary tile: M = 1.", s,
                      {"results": [{"ok": True}], "multiplier": 1, "finish_tile": "F",
                       "scores": [-50, None, None, None]}))  # fmt: skip

    s = scenario({0: "Y5"}, deck="B11")
    r = s["racks"]
    s["actions"] = [
        act(0, "show_indicator"),
        act(0, "discard", tile=r[0][1]),
        act(1, "draw"),
        act(1, "discard", tile="B11"),
        act(2, "draw"),
        act(2, "take_discard"),
    ]
    cases.append(case("void_hand_when_the_deck_runs_out", ["V-E1", "V-E2", "V-I4", "V-F5"],
                      "Seat 1 draws the last tile and throws: the hand is void, nothing "
                      "counts, the bonus stays written.", s,
                      {"results": [{"ok": True}] * 4 + [{"ok": False, "error": "hand_over"}] * 2,
                       "over": True, "void": True, "turn": None, "deck_count": 0,
                       "bonuses": [-25, 0, 0, 0], "scores": [0, 0, 0, 0], "finisher": None,
                       "multiplier": None, "discards": [[r[0][1]], ["B11"], [], []]}))  # fmt: skip

    s = scenario(deck="B11 R1 K3")
    r = s["racks"]
    s["actions"] = [
        act(0, "draw"),
        act(0, "discard", tile=r[0][2]),
        act(1, "discard", tile=r[1][0]),
        act(1, "take_discard"),
        act(1, "draw"),
        act(1, "discard", tile=r[1][0]),
        act(2, "take_discard"),
        act(3, "take_discard"),
        act(2, "discard", tile=r[1][0]),
    ]
    cases.append(case("taking_rules", ["V-N1", "V-N2", "V-D3", "V-M1"],
                      "The starter cannot take; seat 1 cannot throw first, takes the thrown tile, not also the "
                      "deck; seat 3 cannot take out of turn.", s,
                      {"results": [{"ok": False, "error": "first_turn_no_take"}, {"ok": True},
                                   {"ok": False, "error": "must_take_first"},
                                   {"ok": True}, {"ok": False, "error": "already_taken"},
                                   {"ok": True}, {"ok": True},
                                   {"ok": False, "error": "not_your_turn"}, {"ok": True}],
                       "turn": 3, "deck_count": 3, "over": False, "scores": None,
                       "discards": [[], [], [r[1][0]], []]}))  # fmt: skip

    s = scenario({1: "R5"}, indicator="R5", deck="B11 K3")
    r = s["racks"]
    s["actions"] = [
        act(0, "show_indicator"),
        act(0, "discard", tile=r[0][0]),
        act(1, "draw"),
        act(1, "show_indicator"),
        act(1, "discard", tile="B11"),
        act(2, "show_indicator"),
    ]
    cases.append(case("indicator_rules", ["V-I1", "V-I2", "V-T5"],
                      "Without the tile, after taking, not holding it: refused.", s,
                      {"results": [{"ok": False, "error": "no_indicator_tile"}, {"ok": True},
                                   {"ok": True}, {"ok": False, "error": "indicator_after_take"},
                                   {"ok": True}, {"ok": False, "error": "no_indicator_tile"}],
                       "shown": [False, False, False, False],
                       "bonuses": [0, 0, 0, 0]}))  # fmt: skip

    s = scenario({1: "R5"}, indicator="R5", deck="B11 K3")
    s["actions"] = [
        act(0, "discard", tile=s["racks"][0][0]),
        act(1, "show_indicator"),
        act(1, "show_indicator"),
        act(1, "take_discard"),
    ]
    cases.append(case("coloured_indicator_shown", ["V-I2", "V-I3", "V-T5"],
                      "Red indicator: -50 at once; once a hand; the turn goes on.", s,
                      {"results": [{"ok": True}, {"ok": True},
                                   {"ok": False, "error": "already_shown"}, {"ok": True}],
                       "shown": [False, True, False, False], "bonuses": [0, -50, 0, 0],
                       "turn": 1}))  # fmt: skip

    s = scenario({1: "R13 Y13 B13 K12 F"}, deck="Y6 R1 K3")
    s["actions"] = [act(0, "timeout"), act(1, "timeout"), act(2, "timeout")]
    cases.append(case("timeouts", ["V-N6"],
                      "The starter's timeout throws its highest tile; seat 1 draws the okey, "
                      "keeps it and throws R13 (red first among the 13s); seat 2 throws the "
                      "tile it drew.", s,
                      {"results": [{"ok": True}] * 3, "turn": 3, "deck_count": 1,
                       "discards": [[max(s["racks"][0], key=lambda n: int(n[1:]))], ["R13"],
                                    ["R1"], []]}))  # fmt: skip

    s = scenario({0: RUNS14 + " Y13"})
    bad_mix = [PAIRS[0], ["R3", "R4", "R1"]]
    s["actions"] = [
        act(0, "finish", tile="Y13", groups=[RUNS14.split()[:7], RUNS14.split()[7:]]),
        act(0, "finish", tile="Y13", groups=RUNS_GROUPS[:3]),
        act(0, "finish", tile="Y9", groups=RUNS_GROUPS),
        act(0, "finish", tile="R1", groups=bad_mix),
        act(1, "finish", tile="Y13", groups=RUNS_GROUPS),
        act(0, "finish", tile="Y13", groups=[["R1", "R2", "R3"], ["R4", "B7", "B8", "B9"]]
            + RUNS_GROUPS[2:]),
        act(0, "finish", tile="Y13", groups=RUNS_GROUPS),
    ]  # fmt: skip
    cases.append(case("finish_errors", ["V-F2", "V-F3", "V-G1", "V-G2"],
                      "Invalid groups, missing tiles, a tile not held, mixed kinds, not the "
                      "turn: refused, nothing moves; then the real finish.", s,
                      {"results": [{"ok": False, "error": "invalid_finish"},
                                   {"ok": False, "error": "finish_mismatch"},
                                   {"ok": False, "error": "tile_not_in_rack"},
                                   {"ok": False, "error": "finish_mismatch"},
                                   {"ok": False, "error": "not_your_turn"},
                                   {"ok": False, "error": "invalid_finish"},
                                   {"ok": True}],
                       "finisher": 0, "multiplier": 1, "finish_kind": "runs"}))  # fmt: skip

    s = scenario({2: RUNS14}, partners=True, deck="R8 Y13 K3 B1")
    r = s["racks"]
    s["actions"] = [act(0, "discard", tile=r[0][0]), act(1, "draw"),
                    act(1, "discard", tile=r[1][0]), act(2, "draw"),
                    act(2, "finish", tile="Y13", groups=RUNS_GROUPS)]  # fmt: skip
    cases.append(case("partners_scores", ["V-S4", "V-M1", "V-S3"],
                      "Partners: seat 2 finishes, seat 0 still pays its own points.", s,
                      {"results": [{"ok": True}] * 5, "finisher": 2, "multiplier": 1,
                       "scores": [None, None, -50, None]}))  # fmt: skip

    s = scenario(deck=[])
    s["actions"] = [act(0, "discard", tile=s["racks"][0][0]), act(1, "draw")]
    cases.append(case("empty_deck_from_the_start", ["V-E1", "V-D3"],
                      "With no deck the starter's throw ends the hand at once.", s,
                      {"results": [{"ok": True}, {"ok": False, "error": "hand_over"}],
                       "void": True, "scores": [0, 0, 0, 0], "deck_count": 0}))  # fmt: skip

    s = scenario({0: "R2 R2 Y3 Y3 B4 B4 K7 K7 R9 R9 Y10 Y10 B12 Y6 B3"})
    s["actions"] = [act(0, "finish", tile="B3", groups=PAIRS[:6] + [["B12", "Y6"]])]
    cases.append(case("pairs_finish_with_an_okey_pair", ["V-G3", "V-F2", "V-S1"],
                      "A real okey pairs with B12; a colourless pairs finish: M = 2.", s,
                      {"results": [{"ok": True}], "finish_kind": "pairs", "multiplier": 2,
                       "scores": [-100, None, None, None]}))  # fmt: skip
    return cases


CASES = build()


def write() -> None:
    HERE.mkdir(exist_ok=True)
    for c in CASES:
        (HERE / f"{c['name']}.json").write_text(
            json.dumps(c, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )


if __name__ == "__main__":
    write()
