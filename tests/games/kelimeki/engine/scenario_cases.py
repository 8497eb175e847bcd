"""The golden Kelimeki scenarios, worked out by hand from kelimeki.md (the arithmetic
is in the comments).  ``python -m tests.games.kelimeki.engine.scenario_cases`` writes them to
``scenarios/*.json``; ``test_scenarios.py`` runs every file through the replay command
and compares the ``expect`` fields.  ``rules`` names the rule ids each one exercises.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).with_name("scenarios")
EMPTY = "." * 15
NO_ZONES_2 = ["0000" + "." * 11] * 4 + [EMPTY] * 7 + ["." * 11 + "1111"] * 4


def P(row, col, letter, joker=False):  # noqa: N802 - a placement, as in the format
    d = {"row": row, "col": col, "letter": letter}
    if joker:
        d["joker"] = True
    return d


def play(seat, *placements):
    return {"seat": seat, "type": "play", "placements": list(placements)}


def act(seat, kind, **kw):
    return {"seat": seat, "type": kind, **kw}


def board(rows: dict[int, str]) -> list[str]:
    return [rows.get(r, EMPTY) for r in range(15)]


CASES: list[dict] = []


def case(name, rules, scenario, expect):
    CASES.append({"name": name, "rules": rules, "game": "kelimeki", **scenario,
                  "expect": expect})  # fmt: skip


# --- the format's own example (kelimeki-scenario.md) -------------------------------
case(
    "format_example",
    ["W-T3", "W-M9", "W-M7", "W-M2", "W-D4"],
    {
        "players": 4,
        "starter": 0,
        "racks": [
            ["K", "A", "R", "E", "L", "*", "T"],
            ["Ö", "*", "M", "U", "S", "O", "N"],
            ["B", "C", "D", "G", "H", "İ", "İ"],
            ["E", "V", "Y", "Z", "P", "F", "J"],
        ],
        "bag": ["E", "N", "Ş", "A", "İ", "Ğ", "U"],
        "words": ["kar", "kare", "ılık"],
        "actions": [
            play(0, P(0, 0, "K"), P(0, 1, "A"), P(0, 2, "R"), P(0, 3, "E", True)),
            act(1, "exchange", letters=["Ö", "*"]),
            act(2, "pass"),
            play(3, P(14, 0, "E"), P(14, 1, "V")),
            act(2, "pass"),
        ],
    },
    {
        "results": [
            {
                "ok": True,
                "words": [{"word": "KARE", "points": 3}],
                "bingo": 0,
                "points": 3,
                "shares": [3, 0, 0, 0],
                "finish_bonus": 0,
            },
            {"ok": True},
            {"ok": True},
            {"ok": False, "error": "invalid_word", "invalid": ["EV"]},
            {"ok": False, "error": "not_your_turn"},
        ],
        "over": False,
        "turn": 3,
        "bag_count": 3,
        "racks": [
            ["A", "E", "E", "L", "N", "Ş", "T"],
            ["Ğ", "İ", "M", "N", "O", "S", "U"],
            ["B", "C", "D", "G", "H", "İ", "İ"],
            ["E", "F", "J", "P", "V", "Y", "Z"],
        ],
        "scores": [3, 0, 0, 0],
        "passes": 1,
        "forfeited": [False] * 4,
        "board": board({0: "KARe" + "." * 11}),
        "zones": ["0000.......1111"] * 4 + [EMPTY] * 7 + ["3333.......2222"] * 4,
        "deducted": None,
        "ranks": None,
        "klig": None,
    },
)

# --- W-S5's example, reached by legal plays -----------------------------------------
# ETA down col 0 from the home (0,0): 1+1+1 = 3.  ARKADAŞ along row 2 from that A:
# A1 R1 K1 A1 D3 A1 Ş4 = 12 (starting-block and plain cells).  YEL on row 1:
# Y on (1,5) X3 = 9, E on (1,6) X2 = 2, L on (1,7) X2 = 2 -> 13; YA = 9+1 = 10;
# EŞ = 2+4 = 6; 29.  AYA down col 5 from (0,5): 1 + 3 (Y already used its X3) + 1 = 5.
case(
    "ws5_example",
    ["W-S5", "W-S1", "W-S2", "W-S3", "W-B5", "W-B6", "W-M4", "W-M8", "W-Z3", "W-M5", "W-M6"],
    {
        "players": 2,
        "racks": [["E", "T", "A", "R", "K", "A", "D"], ["Z", "Z", "J", "F", "G", "Ğ", "H"]],
        "bag": ["A", "Ş", "Y", "E", "L", "A", "B", "C", "Ç", "M", "N", "O", "P", "U"],
        "words": ["eta", "arkadaş", "yel", "ya", "eş", "aya"],
        "actions": [
            play(0, P(0, 0, "E"), P(1, 0, "T"), P(2, 0, "A")),
            act(1, "pass"),
            play(0, *(P(2, c, ch) for c, ch in zip(range(1, 7), "RKADAŞ"))),
            act(1, "pass"),
            play(0, P(1, 5, "Y"), P(1, 6, "E"), P(1, 7, "L")),
            act(1, "pass"),
            play(0, P(0, 5, "A")),
        ],
    },
    {
        "results": [
            {
                "ok": True,
                "words": [{"word": "ETA", "points": 3}],
                "bingo": 0,
                "points": 3,
                "shares": [3, 0],
                "finish_bonus": 0,
            },
            {"ok": True},
            {
                "ok": True,
                "words": [{"word": "ARKADAŞ", "points": 12}],
                "bingo": 0,
                "points": 12,
                "shares": [12, 0],
                "finish_bonus": 0,
            },
            {"ok": True},
            {
                "ok": True,
                "words": [
                    {"word": "YEL", "points": 13},
                    {"word": "YA", "points": 10},
                    {"word": "EŞ", "points": 6},
                ],
                "bingo": 0,
                "points": 29,
                "shares": [29, 0],
                "finish_bonus": 0,
            },
            {"ok": True},
            {
                "ok": True,
                "words": [{"word": "AYA", "points": 5}],
                "bingo": 0,
                "points": 5,
                "shares": [5, 0],
                "finish_bonus": 0,
            },
        ],
        "over": False,
        "turn": 1,
        "bag_count": 1,
        "passes": 0,
        "racks": [["B", "C", "Ç", "M", "N", "O", "P"], ["F", "G", "Ğ", "H", "J", "Z", "Z"]],
        "scores": [49, 0],
        "board": board({0: "E....A.........", 1: "T....YEL.......", 2: "ARKADAŞ........"}),
        "zones": ["0000.0.........", "0000.000.......", "0000000........", "0000..........."]
        + [EMPTY] * 7
        + ["." * 11 + "1111"] * 4,
    },
)

# --- tax and zones (2 players) ------------------------------------------------------
# 1. KARAKOL on row 0, 7 tiles: 1+1+1+1+1+2+(1 on X2 (0,6) = 2) = 9, bingo 25 -> 34.
# 2. EV covers seat 1's home: 1 + 7 = 8.
# 4. ONU down col 5: O 2 (on the board) + N on (1,5) X3 = 3 + U 2 = 7; N touches (0,5),
#    in seat 0's zone since play 1 (W-Z3): k = 1, 7 // 3 = 2 to seat 0, 5 kept.
#    Seat 1's N, U are next to no cell of its zone: in no zone (W-Z4).
# 5. UN: U 2 + N 1 = 3; (2,6) touches only seat 1's unzoned U: no tax (W-Z5) and the
#    N is in no zone either.
# 7. A on (1,6) X2: NA = 1 + 2 = 3, LAN = 1 + 2 + 1 = 4 -> 7, own zone only; the A
#    joins zone 0 and so does the N below it (W-Z3 chain, W-Z4 linking).
# 8. E on (3,6): LANE = 1+1+1+1 = 4; touches (2,6), now zone 0: 4 // 3 = 1 to seat 0.
case(
    "zones_and_tax",
    ["W-Z1", "W-Z2", "W-Z3", "W-Z4", "W-Z5", "W-Z6", "W-Z7", "W-S4", "W-B3", "W-B6", "W-M4"],
    {
        "players": 2,
        "racks": [list("KARAKOL"), ["E", "V", "N", "U", "E", "Z", "J"]],
        "bag": ["N", "A", "B", "C", "D", "F", "G", "H", "İ", "M", "S", "P", "T", "Y"],
        "words": ["karakol", "ev", "onu", "un", "na", "lan", "lane"],
        "actions": [
            play(0, *(P(0, c, ch) for c, ch in enumerate("KARAKOL"))),
            play(1, P(14, 13, "E"), P(14, 14, "V")),
            act(0, "pass"),
            play(1, P(1, 5, "N"), P(2, 5, "U")),
            play(0, P(2, 6, "N")),
            act(1, "pass"),
            play(0, P(1, 6, "A")),
            play(1, P(3, 6, "E")),
        ],
    },
    {
        "results": [
            {
                "ok": True,
                "words": [{"word": "KARAKOL", "points": 9}],
                "bingo": 25,
                "points": 34,
                "shares": [34, 0],
                "finish_bonus": 0,
            },
            {
                "ok": True,
                "words": [{"word": "EV", "points": 8}],
                "bingo": 0,
                "points": 8,
                "shares": [0, 8],
                "finish_bonus": 0,
            },
            {"ok": True},
            {
                "ok": True,
                "words": [{"word": "ONU", "points": 7}],
                "bingo": 0,
                "points": 7,
                "shares": [2, 5],
                "finish_bonus": 0,
            },
            {
                "ok": True,
                "words": [{"word": "UN", "points": 3}],
                "bingo": 0,
                "points": 3,
                "shares": [3, 0],
                "finish_bonus": 0,
            },
            {"ok": True},
            {
                "ok": True,
                "words": [{"word": "NA", "points": 3}, {"word": "LAN", "points": 4}],
                "bingo": 0,
                "points": 7,
                "shares": [7, 0],
                "finish_bonus": 0,
            },
            {
                "ok": True,
                "words": [{"word": "LANE", "points": 4}],
                "bingo": 0,
                "points": 4,
                "shares": [1, 3],
                "finish_bonus": 0,
            },
        ],
        "over": False,
        "turn": 0,
        "bag_count": 0,
        "passes": 0,
        "racks": [["B", "C", "D", "F", "G", "P", "T"], ["H", "İ", "J", "M", "S", "Y", "Z"]],
        "scores": [47, 16],
        "board": board(
            {
                0: "KARAKOL........",
                1: ".....NA........",
                2: ".....UN........",
                3: "......E........",
                14: ".............EV",
            }
        ),
        "zones": ["0000000........", "0000..0........", "0000..0........", "0000..........."]
        + [EMPTY] * 7
        + ["." * 11 + "1111"] * 4,
    },
)

# --- the tax with 4 players: a play reaching the next corner ------------------------
# KARAKOL: 34 as above.  Then KARAKOLEVLİ: the 7 old tiles at plain value
# 1+1+1+1+1+2+1 = 8, E on (0,7) X3 = 3, V on (0,8) X2 = 14, L 1, İ 1 -> 27.  The İ on
# (0,10) is next to (0,11), an empty cell of seat 1's starting block: k = 1,
# 27 // 3 = 9 to seat 1, 18 kept (W-Z7).
case(
    "tax_four_players",
    ["W-Z5", "W-Z6", "W-Z7", "W-B3", "W-B6", "W-S4", "W-M1"],
    {
        "players": 4,
        "starter": 0,
        "racks": [list("KARAKOL"), ["Ç"], ["Ç"], ["J"]],
        "bag": ["E", "V", "L", "İ", "B", "C", "D"],
        "words": ["karakol", "karakolevli"],
        "actions": [
            play(0, *(P(0, c, ch) for c, ch in enumerate("KARAKOL"))),
            act(1, "pass"),
            act(2, "pass"),
            act(3, "pass"),
            play(0, P(0, 7, "E"), P(0, 8, "V"), P(0, 9, "L"), P(0, 10, "İ")),
        ],
    },
    {
        "results": [
            {
                "ok": True,
                "words": [{"word": "KARAKOL", "points": 9}],
                "bingo": 25,
                "points": 34,
                "shares": [34, 0, 0, 0],
                "finish_bonus": 0,
            },
            {"ok": True},
            {"ok": True},
            {"ok": True},
            {
                "ok": True,
                "words": [{"word": "KARAKOLEVLİ", "points": 27}],
                "bingo": 0,
                "points": 27,
                "shares": [18, 9, 0, 0],
                "finish_bonus": 0,
            },
        ],
        "scores": [52, 9, 0, 0],
        "turn": 1,
        "passes": 0,
        "bag_count": 0,
        "racks": [["B", "C", "D"], ["Ç"], ["Ç"], ["J"]],
        "zones": ["00000000000" + "1111", "0000.......1111", "0000.......1111", "0000.......1111"]
        + [EMPTY] * 7
        + ["3333.......2222"] * 4,
    },
)

# --- into the next corner: W-Z2 and a first play through an occupied home (W-M5) -------
# 1. KARAKOL 34 (as above).  5. EVLİ: 27, 9 to seat 1 (as above).
# 9. ATAŞ on (0,11)…(0,14), empty cells of seat 1's block: the 11 old tiles plain
#    1+1+1+1+1+2+1+1+7+1+1 = 18, the new ones (no bonus in a block) 1+1+1+4 = 7 -> 25;
#    placed on seat 1's zone: 25 // 3 = 8 to seat 1, 17 kept; the four cells stay in
#    seat 1's zone (W-Z2).  Seat 0's tile is now on seat 1's home.
# 10. Seat 1's first play must cover its home: U at (1,10) does not (must_cover_home,
#     checked before the word).  11. U at (1,14): ŞU runs through (0,14): 4 + 2 = 6,
#     all in its own zone: no tax.
case(
    "first_play_through_occupied_home",
    ["W-M5", "W-Z2", "W-Z5", "W-Z6", "W-B6", "W-M1"],
    {
        "players": 4,
        "starter": 0,
        "racks": [list("KARAKOL"), ["U", "N"], ["Ç"], ["J"]],
        "bag": ["E", "V", "L", "İ", "A", "T", "A", "Ş", "B", "C", "D", "E", "F", "G", "H", "M"],
        "words": ["karakol", "karakolevli", "karakolevliataş", "şu", "iu"],
        "actions": [
            play(0, *(P(0, c, ch) for c, ch in enumerate("KARAKOL"))),
            act(1, "pass"),
            act(2, "pass"),
            act(3, "pass"),
            play(0, *(P(0, c, ch) for c, ch in zip(range(7, 11), "EVLİ"))),
            act(1, "pass"),
            act(2, "pass"),
            act(3, "pass"),
            play(0, *(P(0, c, ch) for c, ch in zip(range(11, 15), "ATAŞ"))),
            play(1, P(1, 10, "U")),
            play(1, P(1, 14, "U")),
            act(2, "pass"),
        ],
    },
    {
        "results": [
            {
                "ok": True,
                "words": [{"word": "KARAKOL", "points": 9}],
                "bingo": 25,
                "points": 34,
                "shares": [34, 0, 0, 0],
                "finish_bonus": 0,
            },
            {"ok": True},
            {"ok": True},
            {"ok": True},
            {
                "ok": True,
                "words": [{"word": "KARAKOLEVLİ", "points": 27}],
                "bingo": 0,
                "points": 27,
                "shares": [18, 9, 0, 0],
                "finish_bonus": 0,
            },
            {"ok": True},
            {"ok": True},
            {"ok": True},
            {
                "ok": True,
                "words": [{"word": "KARAKOLEVLİATAŞ", "points": 25}],
                "bingo": 0,
                "points": 25,
                "shares": [17, 8, 0, 0],
                "finish_bonus": 0,
            },
            {"ok": False, "error": "must_cover_home"},
            {
                "ok": True,
                "words": [{"word": "ŞU", "points": 6}],
                "bingo": 0,
                "points": 6,
                "shares": [0, 6, 0, 0],
                "finish_bonus": 0,
            },
            {"ok": True},
        ],
        "over": False,
        "turn": 3,
        "passes": 1,
        "bag_count": 0,
        "scores": [69, 23, 0, 0],
        "racks": [["B", "C", "D", "E", "F", "G", "H"], ["M", "N"], ["Ç"], ["J"]],
        "board": board({0: "KARAKOLEVLİATAŞ", 1: "..............U"}),
        "zones": ["000000000001111", "0000.......1111", "0000.......1111", "0000.......1111"]
        + [EMPTY] * 7
        + ["3333.......2222"] * 4,
    },
)

# --- every rejection code of a play, in the documented order ------------------------
case(
    "play_rejections",
    ["W-M2", "W-M3", "W-M5", "W-M6", "W-M7", "W-D1", "W-T3"],
    {
        "players": 2,
        "racks": [["K", "A", "R", "E", "L", "*", "T"], ["Z", "J"]],
        "bag": ["N", "İ", "M", "O", "U"],
        "words": ["kar", "kare", "el"],
        "actions": [
            act(1, "pass"),
            play(0),
            play(0, P(0, 0, "Z")),
            play(0, P(0, 0, "Z", True), P(0, 1, "Z", True)),
            play(0, P(0, 15, "K")),
            play(0, P(0, 0, "K"), P(0, 0, "A")),
            play(0, P(0, 0, "K"), P(1, 1, "A")),
            play(0, P(0, 0, "K"), P(0, 2, "A")),
            play(0, P(5, 5, "K"), P(5, 6, "A")),
            play(0, P(0, 0, "K")),
            play(0, P(0, 0, "K"), P(0, 1, "A"), P(0, 2, "T")),
            play(0, P(0, 0, "K"), P(0, 1, "A"), P(0, 2, "R")),
            act(1, "pass"),
            play(0, P(0, 0, "E")),
            play(0, P(5, 5, "E"), P(5, 6, "L")),
            play(0, P(0, 3, "E")),
            act(1, "pass"),
        ],
    },
    {
        "results": [
            {"ok": False, "error": "not_your_turn"},
            {"ok": False, "error": "no_tiles"},
            {"ok": False, "error": "tiles_not_in_rack"},
            {"ok": False, "error": "tiles_not_in_rack"},
            {"ok": False, "error": "off_board"},
            {"ok": False, "error": "duplicate_cell"},
            {"ok": False, "error": "not_in_line"},
            {"ok": False, "error": "gap"},
            {"ok": False, "error": "must_cover_home"},
            {"ok": False, "error": "no_word"},
            {"ok": False, "error": "invalid_word", "invalid": ["KAT"]},
            {
                "ok": True,
                "words": [{"word": "KAR", "points": 3}],
                "bingo": 0,
                "points": 3,
                "shares": [3, 0],
                "finish_bonus": 0,
            },
            {"ok": True},
            {"ok": False, "error": "cell_occupied"},
            {"ok": False, "error": "not_connected"},
            {
                "ok": True,
                "words": [{"word": "KARE", "points": 4}],
                "bingo": 0,
                "points": 4,
                "shares": [4, 0],
                "finish_bonus": 0,
            },
            {"ok": True},
        ],
        "over": False,
        "turn": 0,
        "passes": 1,
        "bag_count": 1,
        "scores": [7, 0],
        "racks": [["İ", "L", "M", "N", "O", "T", "*"], ["J", "Z"]],
        "board": board({0: "KARE..........."}),
        "zones": NO_ZONES_2,
    },
)

# --- exchanges (W-M9): draw first, the returned tiles to the bottom in replays -------
case(
    "exchange_rules",
    ["W-M9", "W-M2"],
    {
        "players": 2,
        "racks": [["A", "B", "C", "Ç", "D", "E", "F"], ["İ", "İ"]],
        "bag": ["G", "Ğ", "H"],
        "actions": [
            act(0, "exchange", letters=[]),
            act(0, "exchange", letters=["Z"]),
            act(0, "exchange", letters=["A", "A"]),
            act(0, "exchange", letters=["A", "B", "C", "Ç"]),
            act(0, "exchange", letters=["A", "B"]),
            act(1, "exchange", letters=["İ", "İ"]),
            act(0, "exchange", letters=["C"]),
        ],
    },
    {
        "results": [
            {"ok": False, "error": "no_tiles"},
            {"ok": False, "error": "tiles_not_in_rack"},
            {"ok": False, "error": "tiles_not_in_rack"},
            {"ok": False, "error": "bag_too_small"},
            {"ok": True},
            {"ok": True},
            {"ok": True},
        ],
        # after 1: rack C Ç D E F G Ğ, bag H A B; after 2: seat 1 A H, bag B İ İ;
        # after 3: seat 0 draws B, bag İ İ C.
        "racks": [["B", "Ç", "D", "E", "F", "G", "Ğ"], ["A", "H"]],
        "bag_count": 3,
        "turn": 1,
        "passes": 0,
        "scores": [0, 0],
    },
)

case(
    "exchange_empty_bag",
    ["W-M9"],
    {
        "players": 2,
        "racks": [["A"], ["B"]],
        "bag": [],
        "actions": [
            act(0, "exchange", letters=[]),
            act(0, "exchange", letters=["A"]),
            act(0, "exchange", letters=["Z"]),
        ],
    },
    {
        "results": [{"ok": False, "error": "bag_empty"}] * 3,
        "turn": 0,
        "racks": [["A"], ["B"]],
    },
)

# --- the end by passes (W-E2, W-E3, W-E5, W-L2) ---------------------------------------
# Three passes, then an exchange sets the count back to 0; four passes end the game.
# Seat 0 keeps A Ğ * = 1 + 8 + 0 = 9; seat 1 Z E = 4 + 1 = 5.
case(
    "end_by_passes",
    ["W-E2", "W-E3", "W-E5", "W-L2", "W-M10", "W-T3"],
    {
        "players": 2,
        "racks": [["A", "Ğ", "*"], ["J", "Z"]],
        "bag": ["E"],
        "actions": [
            act(0, "pass"),
            act(1, "pass"),
            act(0, "pass"),
            act(1, "exchange", letters=["J"]),
            act(0, "pass"),
            act(1, "pass"),
            act(0, "pass"),
            act(1, "pass"),
            act(0, "pass"),
            act(1, "timeout"),
        ],
    },
    {
        "results": [{"ok": True}] * 8 + [{"ok": False, "error": "game_over"}] * 2,
        "over": True,
        "turn": None,
        "passes": 4,
        "bag_count": 1,
        "scores": [-9, -5],
        "deducted": [9, 5],
        "ranks": [2, 1],
        "klig": [0, 2],
    },
)

# 4 players, seat 1 forfeits: 2 × 3 = 6 passes end the game; every rack is deducted,
# the forfeited seat's too (W-E3), and it has no place and -2 (W-E6, W-L4).
case(
    "end_by_passes_after_forfeit",
    ["W-E2", "W-E3", "W-E6", "W-L2", "W-L4", "W-M1", "W-X3"],
    {
        "players": 4,
        "racks": [["A"], ["B"], ["C"], ["Ç", "Ç"]],
        "bag": [],
        "actions": [
            act(0, "pass"),
            act(1, "timeout"),
            act(2, "pass"),
            act(3, "pass"),
            act(0, "pass"),
            act(2, "pass"),
            act(3, "pass"),
            act(0, "pass"),
        ],
    },
    {
        "results": [{"ok": True}] * 8,
        "over": True,
        "turn": None,
        "forfeited": [False, True, False, False],
        "scores": [-1, -3, -4, -8],
        "deducted": [1, 3, 4, 8],
        "ranks": [1, None, 2, 3],
        "klig": [2, -2, 1, 0],
    },
)

# W-L3: equal scores share the place; with 4 players two firsts both get +2 and the
# next is 3rd.  Racks worth 1, 1, 3, 3.
case(
    "tied_places",
    ["W-E5", "W-L3", "W-L2"],
    {
        "players": 4,
        "racks": [["A"], ["E"], ["B"], ["D"]],
        "bag": [],
        "actions": [act(s % 4, "pass") for s in range(8)],
    },
    {
        "over": True,
        "scores": [-1, -1, -3, -3],
        "ranks": [1, 1, 3, 3],
        "klig": [2, 2, 0, 0],
    },
)

# --- forfeit in a 2-player game ends it at once, no deductions (W-E6) --------------
case(
    "forfeit_two_players",
    ["W-E6", "W-L4", "W-X3"],
    {
        "players": 2,
        "starter": 1,
        "racks": [["Z"], ["J"]],
        "bag": [],
        "actions": [act(0, "timeout"), act(1, "timeout"), act(0, "pass")],
    },
    {
        "results": [
            {"ok": False, "error": "not_your_turn"},
            {"ok": True},
            {"ok": False, "error": "game_over"},
        ],
        "over": True,
        "turn": None,
        "scores": [0, 0],
        "deducted": [0, 0],
        "forfeited": [False, True],
        "ranks": [1, None],
        "klig": [2, -2],
    },
)

# --- going out (W-E1, W-E3) and the joker finish (W-E4) -----------------------------
case(
    "going_out",
    ["W-E1", "W-E3", "W-S4", "W-E5"],
    {
        "players": 2,
        "racks": [["A", "T"], ["Z", "*"]],
        "bag": [],
        "words": ["at"],
        "actions": [play(0, P(0, 0, "A"), P(0, 1, "T")), act(1, "pass")],
    },
    {
        "results": [
            {
                "ok": True,
                "words": [{"word": "AT", "points": 2}],
                "bingo": 0,
                "points": 2,
                "shares": [2, 0],
                "finish_bonus": 0,
            },
            {"ok": False, "error": "game_over"},
        ],
        "over": True,
        "turn": None,
        "scores": [2, -4],
        "deducted": [0, 4],
        "ranks": [1, 2],
        "klig": [2, 0],
    },
)

# AT (2), a pass, then the last tile, a joker standing for I: ATI = 1 + 1 + 0 = 2,
# +25 (not shared).  Seat 1 keeps Z: -4.
case(
    "joker_finish_one",
    ["W-E4", "W-T3", "W-T1"],
    {
        "players": 2,
        "racks": [["A", "T", "*"], ["Z"]],
        "bag": [],
        "words": ["at", "atı"],
        "actions": [
            play(0, P(0, 0, "A"), P(0, 1, "T")),
            act(1, "pass"),
            play(0, P(0, 2, "I", True)),
        ],
    },
    {
        "results": [
            {
                "ok": True,
                "words": [{"word": "AT", "points": 2}],
                "bingo": 0,
                "points": 2,
                "shares": [2, 0],
                "finish_bonus": 0,
            },
            {"ok": True},
            {
                "ok": True,
                "words": [{"word": "ATI", "points": 2}],
                "bingo": 0,
                "points": 2,
                "shares": [2, 0],
                "finish_bonus": 25,
            },
        ],
        "over": True,
        "scores": [29, -4],
        "deducted": [0, 4],
        "board": board({0: "ATı............"}),
    },
)

case(
    "joker_finish_two",
    ["W-E4", "W-T3", "W-T1"],
    {
        "players": 2,
        "racks": [["A", "T", "*", "*"], ["Z"]],
        "bag": [],
        "words": ["at", "atik"],
        "actions": [
            play(0, P(0, 0, "A"), P(0, 1, "T")),
            act(1, "pass"),
            play(0, P(0, 2, "İ", True), P(0, 3, "K", True)),
        ],
    },
    {
        "results": [
            {
                "ok": True,
                "words": [{"word": "AT", "points": 2}],
                "bingo": 0,
                "points": 2,
                "shares": [2, 0],
                "finish_bonus": 0,
            },
            {"ok": True},
            {
                "ok": True,
                "words": [{"word": "ATİK", "points": 2}],
                "bingo": 0,
                "points": 2,
                "shares": [2, 0],
                "finish_bonus": 50,
            },
        ],
        "over": True,
        "scores": [54, -4],
        "board": board({0: "ATik..........."}),
    },
)

# A last play of a joker with a letter gets no bonus: ATEŞ = 1 + 1 + 1 + 0 = 3.
case(
    "joker_with_letter_no_bonus",
    ["W-E4"],
    {
        "players": 2,
        "racks": [["A", "T", "E", "*"], ["Z"]],
        "bag": [],
        "words": ["at", "ateş"],
        "actions": [
            play(0, P(0, 0, "A"), P(0, 1, "T")),
            act(1, "pass"),
            play(0, P(0, 2, "E"), P(0, 3, "Ş", True)),
        ],
    },
    {
        "results": [
            {
                "ok": True,
                "words": [{"word": "AT", "points": 2}],
                "bingo": 0,
                "points": 2,
                "shares": [2, 0],
                "finish_bonus": 0,
            },
            {"ok": True},
            {
                "ok": True,
                "words": [{"word": "ATEŞ", "points": 3}],
                "bingo": 0,
                "points": 3,
                "shares": [3, 0],
                "finish_bonus": 0,
            },
        ],
        "over": True,
        "scores": [5, -4],
        "board": board({0: "ATEş..........."}),
    },
)

# --- the shipped word list (no "words"): real Turkish headwords ----------------------
# KİTAP on row 0 from the home: K1 İ1 T1 A1 P5 = 9 (block cells, no bonus).  Then
# seat 1 covers its home with EV: 1 + 7 = 8.  Then seat 0's RL makes RL and KR (not
# words) and İL (a word: only the invalid ones are listed), and PR.
case(
    "shipped_dictionary",
    ["W-D1", "W-D3", "W-B2"],
    {
        "players": 2,
        "racks": [["K", "İ", "T", "A", "P", "L", "R"], ["E", "V", "Z", "J", "M", "U", "N"]],
        "bag": [],
        "actions": [
            play(0, P(0, 0, "K"), P(0, 1, "İ"), P(0, 2, "T"), P(0, 3, "A"), P(0, 4, "P")),
            play(1, P(14, 13, "E"), P(14, 14, "V")),
            play(0, P(1, 0, "R"), P(1, 1, "L")),
            play(0, P(1, 4, "R")),
        ],
    },
    {
        "results": [
            {
                "ok": True,
                "words": [{"word": "KİTAP", "points": 9}],
                "bingo": 0,
                "points": 9,
                "shares": [9, 0],
                "finish_bonus": 0,
            },
            {
                "ok": True,
                "words": [{"word": "EV", "points": 8}],
                "bingo": 0,
                "points": 8,
                "shares": [0, 8],
                "finish_bonus": 0,
            },
            {"ok": False, "error": "invalid_word", "invalid": ["RL", "KR"]},
            {"ok": False, "error": "invalid_word", "invalid": ["PR"]},
        ],
        "scores": [9, 8],
        "turn": 0,
    },
)


def write() -> None:
    HERE.mkdir(exist_ok=True)
    for old in HERE.glob("*.json"):
        old.unlink()
    for c in CASES:
        (HERE / f"{c['name']}.json").write_text(
            json.dumps(c, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )


if __name__ == "__main__":
    write()
