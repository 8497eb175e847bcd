"""Golden King scenarios (king-scenario.md), the source of ``scenarios/*.json``.

Each case is a scenario plus ``rules`` (the rule ids it exercises) and ``expect``:
fields of the replay output worked out by hand from king.md (every key given must be
equal).  The replay command ignores the two extra keys.

    python -m tests.games.king.engine.cases --write     # regenerate the JSON files
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .helpers import BY_SUIT, choose, play, scenario, timeout

HERE = Path(__file__).parent / "scenarios"

ROUND = [
    "AS TS 6S 2S JH 7H 3H QC 8C 4C KD 9D 5D".split(),
    "KS 9S 5S AH TH 6H 2H JC 7C 3C QD 8D 4D".split(),
    "QS 8S 4S KH 9H 5H AC TC 6C 2C JD 7D 3D".split(),
    "JS 7S 3S QH 8H 4H KC 9C 5C AD TD 6D 2D".split(),
]
RIFKI_DEAL = [
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2H".split(),
    "AH QH JH TH 8H 7H 6H 5H 4H 3H 2C 3C 4C".split(),
    "KH 9H AC KC QC JC TC 9C 8C 7C 6C 5C 2S".split(),
    [r + "D" for r in "AKQJT98765432"],
]
KUPA_DEAL = [
    "AH KH QH JH AS KS QS JS TS 9S 8S 7S 6S".split(),
    "TH 9H 8H AC KC QC JC TC 9C 8C 7C 6C 5C".split(),
    "7H 6H 5H AD KD QD JD TD 9D 8D 7D 6D 5D".split(),
    "4H 3H 2H 5S 4S 3S 2S 4C 3C 2C 4D 3D 2D".split(),
]
OK = {"ok": True}


def err(code: str) -> dict:
    return {"ok": False, "error": code}


def swap(hands, a, b):
    out = [list(h) for h in hands]
    sa = next(s for s in range(4) if a in out[s])
    sb = next(s for s in range(4) if b in out[s])
    out[sa][out[sa].index(a)], out[sb][out[sb].index(b)] = b, a
    return out


def case(name, rules, hands, actions, expect, **kw):
    s = scenario(hands, actions, **kw)
    return {"name": name, "rules": rules, **s, "expect": expect}


def timeouts_by_suit(n=13):
    """BY_SUIT with seat 0 leading: every trick's turn order is 0, 1, 2, 3."""
    return [timeout(s) for _ in range(n) for s in range(4)]


CASES = [
    case(
        "rifki_king_falls_on_the_ace",
        ["G-P8", "G-P9", "G-S5", "G-P6", "G-P7"],
        RIFKI_DEAL,
        [
            choose(0, "rifki"),
            *play(0, "AS", "3H", "2S", "AD"),
            *play(0, "2H", "AH", "9H"),
            *play(2, "KH", "KD"),
            *play(0, "KS"),
        ],
        {
            "results": [OK] * 7 + [err("must_play_kh"), OK, OK, err("hand_over")],
            "tricks": [
                {"leader": 0, "cards": ["AS", "3H", "2S", "AD"], "winner": 0},
                {"leader": 0, "cards": ["2H", "AH", "KH", "KD"], "winner": 1},
            ],
            "over": True,
            "turn": None,
            "scores": [0, -320, 0, 0],
            "contract": "rifki",
            "trump": None,
        },
    ),
    case(
        "rifki_earlier_ace_forces_nothing",
        ["G-P8"],
        RIFKI_DEAL,
        [choose(0, "rifki"), *play(0, "AS", "AH", "2S", "AD", "2H", "QH", "9H", "KD")],
        {
            "results": [OK] * 9,
            "over": False,
            "turn": 1,
            "tricks": [
                {"leader": 0, "cards": ["AS", "AH", "2S", "AD"], "winner": 0},
                {"leader": 0, "cards": ["2H", "QH", "9H", "KD"], "winner": 1},
            ],
        },
    ),
    case(
        "kupa_almaz_ends_when_the_last_heart_is_taken",
        ["G-P9", "G-S2", "G-P7", "G-V2"],
        KUPA_DEAL,
        [
            choose(0, "kupa_almaz"),
            *play(0, "AS", "TH", "7H", "5S"),
            *play(0, "KS", "9H", "6H", "4S"),
            *play(0, "QS", "8H", "5H", "3S"),
            *play(0, "AH", "AC", "AD", "4H"),
            *play(0, "KH", "KC", "KD", "3H"),
            *play(0, "QH", "QC", "QD", "2H"),
            *play(0, "JH", "JC", "JD", "2S"),
            *play(0, "JS"),
        ],
        {
            "results": [OK] * 29 + [err("hand_over")],
            "over": True,
            "turn": None,
            "scores": [-390, 0, 0, 0],
            "hands": [
                ["JS", "TS", "9S", "8S", "7S", "6S"],
                ["TC", "9C", "8C", "7C", "6C", "5C"],
                ["TD", "9D", "8D", "7D", "6D", "5D"],
                ["4C", "3C", "2C", "4D", "3D", "2D"],
            ],
        },
    ),
    case(
        "kiz_almaz_ends_with_the_fourth_queen",
        ["G-P9", "G-S4", "G-P7"],
        BY_SUIT,
        [
            choose(0, "kiz_almaz"),
            *play(0, "AS"),
            *play(1, "AH"),
            *play(1, "QH", "QC", "QD"),
            *play(0, "QS", "AH", "AC", "AD"),
        ],
        {
            "results": [OK, OK, err("must_play_penalty_card")] + [OK] * 7,
            "over": True,
            "scores": [-400, 0, 0, 0],
            "turn": None,
        },
    ),
    case(
        "erkek_almaz_ends_with_the_eighth_man",
        ["G-P9", "G-S3", "G-P7"],
        BY_SUIT,
        [
            choose(0, "erkek_almaz"),
            *play(0, "AS", "KH", "KC", "KD"),
            *play(0, "KS", "JH", "JC", "JD"),
            *play(0, "JS", "AH", "AC", "AD"),
        ],
        {"results": [OK] * 13, "over": True, "scores": [-480, 0, 0, 0]},
    ),
    case(
        "koz_must_trump_when_void_any_trump",
        ["G-P4", "G-P3", "G-H3"],
        swap(BY_SUIT, "AD", "2H"),
        [choose(0, "koz", "D"), *play(0, "AS"), *play(1, "AH"), *play(1, "AD", "AC", "2D")],
        {
            "results": [OK, OK, err("must_trump"), OK, OK, OK],
            "contract": "koz",
            "trump": "D",
            "tricks": [{"leader": 0, "cards": ["AS", "AD", "AC", "2D"], "winner": 1}],
            "turn": 1,
        },
    ),
    case(
        "koz_trump_lead_only_once_broken",
        ["G-P5"],
        swap(BY_SUIT, "2D", "2H"),
        [
            choose(0, "koz", "D"),
            *play(0, "AS", "2D", "AC"),
            *play(3, "2H"),
            *play(3, "AD"),
            *play(3, "KD"),
        ],
        {
            "results": [OK, OK, OK, OK, err("must_trump"), OK, OK],
            "turn": 0,
            "tricks": [
                {"leader": 0, "cards": ["AS", "2D", "AC", "AD"], "winner": 3},
                {"leader": 3, "cards": ["KD"], "winner": None},
            ],
        },
    ),
    case(
        "koz_no_trump_lead_before_broken",
        ["G-P5", "G-P6"],
        ROUND,
        [choose(0, "koz", "H"), *play(0, "JH"), *play(0, "AS")],
        {"results": [OK, err("trump_not_broken"), OK], "turn": 1},
    ),
    case(
        "kupa_almaz_no_heart_lead_before_broken",
        ["G-P6"],
        ROUND,
        [choose(0, "kupa_almaz"), *play(0, "JH"), *play(0, "2S")],
        {"results": [OK, err("hearts_not_broken"), OK], "turn": 1},
    ),
    case(
        "follow_suit_any_card_of_it",
        ["G-P2", "G-P1", "G-M1"],
        ROUND,
        [choose(1, "el_almaz"), *play(1, "5S"), *play(2, "KH"), *play(2, "4S", "3S", "2S")],
        {
            "results": [OK, OK, err("must_follow_suit"), OK, OK, OK],
            "turn": 1,
            "tricks": [{"leader": 1, "cards": ["5S", "4S", "3S", "2S"], "winner": 1}],
        },
        chooser=1,
    ),
    case(
        "quota_refusals",
        ["G-H4", "G-H5", "G-H7", "G-Q1"],
        ROUND,
        [choose(0, "koz", "S"), choose(0, "kiz_almaz"), choose(0, "rifki")],
        {
            "results": [err("no_koz_left"), err("contract_used_up"), OK],
            "chosen": [
                ["koz", "koz", "rifki"],
                ["kiz_almaz", "koz"],
                ["kiz_almaz", "koz"],
                ["el_almaz", "son_iki"],
            ],
            "quota": {
                "ceza": [2, 2, 2, 1],
                "koz": [0, 1, 1, 2],
                "contracts": {
                    "el_almaz": 1,
                    "kupa_almaz": 2,
                    "erkek_almaz": 2,
                    "kiz_almaz": 0,
                    "rifki": 1,
                    "son_iki": 1,
                },
            },
        },
        chosen=[
            ["koz", "koz"],
            ["kiz_almaz", "koz"],
            ["kiz_almaz", "koz"],
            ["el_almaz", "son_iki"],
        ],
    ),
    case(
        "no_ceza_left_in_twelve_hands",
        ["G-H4", "G-Q1"],
        ROUND,
        [choose(2, "el_almaz"), choose(2, "koz", "C")],
        {
            "results": [err("no_ceza_left"), OK],
            "quota": {
                "ceza": [1, 1, 0, 1],
                "koz": [0, 0, 0, 0],
                "contracts": {
                    "el_almaz": 0,
                    "kupa_almaz": 1,
                    "erkek_almaz": 2,
                    "kiz_almaz": 2,
                    "rifki": 1,
                    "son_iki": 1,
                },
            },
        },
        chooser=2,
        length=12,
        chosen=[
            ["koz", "el_almaz"],
            ["koz", "kupa_almaz"],
            ["el_almaz", "rifki"],
            ["koz", "son_iki"],
        ],
    ),
    case(
        "timeout_choice_and_cards",
        ["G-T2"],
        KUPA_DEAL,
        [timeout(3), timeout(3), timeout(0), timeout(2)],
        {
            "results": [OK, OK, OK, err("not_your_turn")],
            "contract": "koz",
            "trump": "S",
            "tricks": [{"leader": 3, "cards": ["2H", "JH"], "winner": None}],
            "turn": 1,
        },
        chooser=3,
    ),
    case(
        "el_almaz_every_trick_counts",
        ["G-S1", "G-H2", "G-P9"],
        BY_SUIT,
        [choose(0, "el_almaz"), *timeouts_by_suit()],
        {"results": [OK] * 53, "over": True, "scores": [-650, 0, 0, 0], "hands": [[], [], [], []]},
    ),
    case(
        "son_iki_last_two_tricks",
        ["G-S6", "G-P9"],
        BY_SUIT,
        [choose(0, "son_iki"), *timeouts_by_suit()],
        {"over": True, "scores": [-360, 0, 0, 0]},
    ),
    case(
        "koz_hearts_trump_plus_50_per_trick",
        ["G-S7", "G-H3", "G-P4", "G-P5"],
        BY_SUIT,
        [
            choose(0, "koz", "H"),
            *timeouts_by_suit(1),
            *[timeout(s) for _ in range(12) for s in (1, 2, 3, 0)],
        ],
        {"over": True, "scores": [0, 650, 0, 0], "results": [OK] * 53},
    ),
    case(
        "choice_first_then_turns",
        ["G-H1", "G-M1"],
        ROUND,
        [
            *play(2, "QS"),
            choose(1, "el_almaz"),
            choose(2, "koz", "C"),
            choose(2, "rifki"),
            *play(3, "JS"),
            *play(2, "QS"),
            *play(2, "QS"),
        ],
        {
            "results": [
                err("not_chosen"),
                err("not_your_turn"),
                OK,
                err("already_chosen"),
                err("not_your_turn"),
                OK,
                err("not_your_turn"),
            ],
            "contract": "koz",
            "trump": "C",
            "turn": 3,
            "chosen": [[], [], ["koz"], []],
        },
        chooser=2,
    ),
    case(
        "not_in_hand_is_rejected",
        ["G-P10"],
        ROUND,
        [choose(0, "son_iki"), *play(0, "KS"), *play(0, "2S")],
        {
            "results": [OK, err("not_in_hand"), OK],
            "hands": [
                ["AS", "TS", "6S", "JH", "7H", "3H", "QC", "8C", "4C", "KD", "9D", "5D"],
                ROUND[1],
                ROUND[2],
                ROUND[3],
            ],
        },
    ),
]


def write() -> None:
    HERE.mkdir(exist_ok=True)
    for old in HERE.glob("*.json"):
        old.unlink()
    for c in CASES:
        (HERE / f"{c['name']}.json").write_text(
            json.dumps(c, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )


if __name__ == "__main__" and "--write" in sys.argv:
    write()
