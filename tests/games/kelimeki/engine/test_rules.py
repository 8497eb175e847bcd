"""Rule tests for Kelimeki (kelimeki.md), each citing its rule id."""

from __future__ import annotations

import random

import pytest

from game.engine.errors import RuleError
from games.kelimeki.engine import GAME, board, rules
from games.kelimeki.engine.alphabet import (
    COUNTS,
    LETTERS,
    POINTS,
    fold,
    lower,
    playable,
    sort_tiles,
)
from games.kelimeki.engine.lexicon import Lexicon, lexicon_for
from games.kelimeki.engine.rules import InvalidWords, tax_shares
from tests.games.kelimeki.engine.helpers import P, make_state, snapshot


# --- 1. Board ------------------------------------------------------------------------
def test_w_b1_board_is_15_by_15_with_a_centre():
    """W-B1"""
    assert board.SIZE == 15 and board.CELLS == 225
    assert len(board.LAYOUT) == 15 and all(len(r) == 15 for r in board.LAYOUT)
    assert board.LAYOUT[7][7] == "3"


def test_w_b2_blocks_and_homes():
    """W-B2: four 4×4 corner blocks, the home square at the board's corner."""
    assert [board.rc(h) for h in board.HOMES] == [(0, 0), (0, 14), (14, 14), (14, 0)]
    assert all(len(b) == 16 for b in board.BLOCKS)
    assert board.idx(3, 3) in board.BLOCKS[0] and board.idx(11, 11) in board.BLOCKS[2]
    assert board.idx(0, 11) in board.BLOCKS[1] and board.idx(14, 3) in board.BLOCKS[3]
    assert all(h in b for h, b in zip(board.HOMES, board.BLOCKS))


def test_w_b3_seats_corners():
    """W-B3: four seats clockwise from top-left; two sit at opposite corners."""
    assert board.corners_for(4) == (0, 1, 2, 3)
    assert board.corners_for(2) == (0, 2)
    st = make_state(2)
    assert st.home(0) == board.idx(0, 0) and st.home(1) == board.idx(14, 14)
    # the other two blocks belong to no one (W-Z1)
    assert st.zone[board.idx(0, 14)] == -1 and st.zone[board.idx(14, 0)] == -1


def test_w_b4_bonus_layout_counts_and_symmetry():
    """W-B4: 48 X2 and 17 X3 cells; unchanged by a 90° turn; blocks hold no bonus."""
    assert board.MULT.count(2) == 48 and board.MULT.count(3) == 17
    grid = board.LAYOUT
    turned = ["".join(grid[14 - c][r] for c in range(15)) for r in range(15)]
    assert turned == list(grid)
    for b in board.BLOCKS:
        assert all(board.MULT[i] == 1 for i in b)
    x3 = {board.rc(i) for i, m in enumerate(board.MULT) if m == 3}
    assert x3 == {
        (0, 7),
        (7, 0),
        (14, 7),
        (7, 14),
        (7, 7),
        (1, 5),
        (1, 9),
        (5, 1),
        (5, 13),
        (9, 1),
        (9, 13),
        (13, 5),
        (13, 9),
        (3, 7),
        (7, 3),
        (7, 11),
        (11, 7),
    }
    diamond = [(r, c) for r in range(15) for c in range(15) if abs(r - 7) + abs(c - 7) <= 2]
    assert len(diamond) == 13 and all(board.MULT[board.idx(r, c)] >= 2 for r, c in diamond)


def test_w_b5_letter_multipliers_and_w_b7_one_per_cell():
    """W-B5: X2/X3 multiply the letter; W-B7: (7,7) in the centre region is ×3 only."""
    st = make_state(2, racks=[["K", "E"], ["A"]], rows={7: "......E........"},
                    first_done=[True, True], words=["ek", "eke"])  # fmt: skip
    # K on (7,7) X3 beside the E on (7,6): EK = 1 + 1*3 = 4, not 1 + 1*6
    res = rules.preview(st, 0, [P(7, 7, "K")])
    assert res.words == (("EK", 4),)
    res = rules.preview(st, 0, [P(7, 7, "K"), P(7, 8, "E")])
    assert res.words == (("EKE", 1 + 3 + 2),)  # E on (7,8) X2


def test_w_b6_bonus_counts_only_in_the_play_that_covers_it():
    """W-B6: a later play through a used bonus cell counts the tile's plain value."""
    st = make_state(2, racks=[["K", "A", "R"], ["A"]], rows={0: "....AV........."},
                    first_done=[True, True], words=["av", "ava", "avar"])  # fmt: skip
    st.cells[board.idx(0, 6)] = None
    res = rules.preview(st, 0, [P(0, 6, "A")])  # A on (0,6) X2: AVA = 1 + 7 + 2
    assert res.points == 10
    rules.play(st, 0, [P(0, 6, "A")])
    st.turn = 0
    res = rules.preview(st, 0, [P(0, 7, "R")])  # R on (0,7) X3; the A now plain
    assert res.words == (("AVAR", 1 + 7 + 1 + 3),)


# --- 2. Tiles and racks ------------------------------------------------------------
def test_w_t1_letters_order_and_lower_case():
    """W-T1: 29 letters, I and İ differ; a joker prints in Turkish lower case."""
    assert len(LETTERS) == 29 and "I" in LETTERS and "İ" in LETTERS
    assert sort_tiles(["*", "İ", "I", "Ç", "A"]) == ["A", "Ç", "I", "İ", "*"]
    assert lower("İ") == "i" and lower("I") == "ı" and lower("Ş") == "ş"


def test_w_t2_bag_has_100_tiles_with_points():
    """W-T2: 98 letters + 2 jokers; the table's points."""
    assert sum(COUNTS.values()) == 100 and COUNTS["*"] == 2
    assert (COUNTS["A"], POINTS["A"]) == (12, 1) and (COUNTS["J"], POINTS["J"]) == (1, 10)
    assert POINTS["Ğ"] == 8 and POINTS["*"] == 0 and COUNTS["İ"] == 7


def test_w_t3_joker_scores_zero_even_on_a_bonus_cell():
    """W-T3: the joker names its letter, keeps it, scores 0 on an X3 cell too."""
    st = make_state(2, racks=[["*", "E"], ["A"]], rows={7: "......E........"},
                    first_done=[True, True], words=["ek"])  # fmt: skip
    res = rules.preview(st, 0, [P(7, 7, "K", joker=True)])
    assert res.words == (("EK", 1),)
    rules.play(st, 0, [P(7, 7, "K", joker=True)])
    assert st.board_rows()[7][7] == "k" and board.idx(7, 7) in st.jokers
    with pytest.raises(RuleError) as exc:  # no joker left in the rack
        rules.preview(st, 0, [P(7, 8, "A", joker=True)])
    assert exc.value.code in ("not_your_turn", "tiles_not_in_rack")


def test_w_t4_deal_seven_each_from_seat_0():
    """W-T4: 7 tiles each from the top; 86 (2 players) or 72 (4) left."""
    for seats, left in ((2, 86), (4, 72)):
        st = GAME.new_match({}, seats, random.Random(3))
        assert [len(r) for r in st.racks] == [7] * seats and len(st.bag) == left
    rng = random.Random(9)
    st = GAME.new_match({}, 2, random.Random(9))
    bag = [t for t in "ABCÇDEFGĞHIİJKLMNOÖPRSŞTUÜVYZ*" for _ in range(COUNTS[t])]
    rng.shuffle(bag)
    assert st.racks[0] == bag[:7] and st.racks[1] == bag[7:14] and st.bag == bag[14:]


def test_w_t5_views_hide_other_racks_and_the_bag():
    """W-T5: own rack, others' counts, the bag's count, the Torba's unseen tiles."""
    st = GAME.new_match({}, 2, random.Random(4))
    v = GAME.view_for(st, 0)
    assert v["rack"] == sort_tiles(st.racks[0]) and v["rack_counts"] == [7, 7]
    assert "bag" not in v and "racks" not in v and "secret" not in str(v.keys())
    assert v["bag_count"] == 86
    assert sum(v["unseen"].values()) == 93  # the bag and the other rack
    w = GAME.view_for(st, None)
    assert w["rack"] is None and sum(w["unseen"].values()) == 100


def test_w_t6_shuffle_is_a_permutation_and_not_a_move():
    """W-T6: Karıştır reorders the rack only; it is not an action of the engine."""
    st = GAME.new_match({}, 2, random.Random(4))
    before = snapshot(st)
    out = rules.shuffle_rack(st.racks[1], random.Random(1))  # also out of turn
    assert sorted(out) == sorted(st.racks[1]) and snapshot(st) == before
    with pytest.raises(Exception):  # noqa: B017 - refused as an unknown action
        GAME.apply(st, st.turn, {"type": "shuffle"}, 0.0)
    assert snapshot(st) == before


# --- 3. Dictionary -----------------------------------------------------------------
def test_w_d1_only_entries_count():
    """W-D1: no inflected forms are generated; a single letter is never a word."""
    lex = Lexicon(["ev", "a"])
    assert lex.contains("EV") and not lex.contains("EVLER") and not lex.contains("A")


def test_w_d2_turkish_folding():
    """W-D2: i → İ, ı → I, circumflexes dropped, NFC; outside letters unplayable."""
    assert fold("ılık") == "ILIK" and fold("ilik") == "İLİK"
    assert fold("kâğıt") == "KAĞIT" and fold("hâlâ") == "HALA" and fold("Îmân") == "İMAN"
    assert fold("i\u0307") == "İ" and fold("I\u0307") == "İ" and fold("û") == "U"
    # the dot is dropped after i or I only: after ı, İ or another dot it stays (unplayable)
    assert not playable(fold("ı\u0307k")) and not playable(fold("İ\u0307k"))
    assert not playable(fold("i\u0307\u0307k")) and playable(fold("i\u0307k"))
    lex = Lexicon(["ılık", "ilik", "e-posta", "x-ray", "won", "kâğıt", "o"])
    assert lex.words == {"ILIK", "İLİK", "KAĞIT"}


def test_w_d3_shipped_list():
    """W-D3: the shipped list, one interface, loaded once per process."""
    lex = lexicon_for(None)
    assert lex is lexicon_for(None) and len(lex) > 40000
    for w in ("KİTAP", "ARKADAŞ", "GELMEK", "EV", "İLİK", "ILIK", "KAĞIT"):
        assert lex.contains(w), w
    assert not lex.contains("KG") and not lex.contains("EVLERİMİZ")


def test_w_d4_scenario_words_replace_the_list():
    """W-D4: a game's own words are its whole dictionary."""
    lex = lexicon_for(["zzz", "abc"])
    assert lex.contains("ZZZ") and not lex.contains("KİTAP")


# --- 4. Turns and moves --------------------------------------------------------------
def test_w_m1_starter_drawn_and_turn_order_skips_forfeits():
    """W-M1: the starter from the RNG; then s+1 mod n skipping forfeited seats."""
    starters = {GAME.new_match({}, 4, random.Random(s)).starter for s in range(40)}
    assert starters == {0, 1, 2, 3}
    st = make_state(4)
    st.forfeited[1] = True
    assert st.next_seat(0) == 2 and st.next_seat(3) == 0


def test_w_m2_refused_action_changes_nothing():
    """W-M2: a refused play leaves the state as it was and the turn with the mover."""
    st = GAME.new_match({}, 2, random.Random(1))
    before = snapshot(st)
    seat = st.turn
    with pytest.raises(RuleError):
        GAME.apply(
            st,
            seat,
            {
                "type": "play",
                "placements": [{"row": 7, "col": 7, "letter": st.racks[seat][0].replace("*", "A")}],
            },
            0.0,
        )
    assert snapshot(st) == before and st.turn == seat


def test_w_m3_one_line_no_gaps_existing_tiles_fill_gaps():
    """W-M3: all in one row or column; gaps may be filled by tiles on the board."""
    st = make_state(2, racks=[["K", "R"], ["A"]], rows={0: ".A............."},
                    first_done=[False, False], words=["kar"])  # fmt: skip
    res = rules.preview(st, 0, [P(0, 0, "K"), P(0, 2, "R")])
    assert res.words == (("KAR", 3),)
    with pytest.raises(RuleError, match="gap"):
        rules.preview(st, 0, [P(0, 0, "K"), P(0, 3, "R")])
    with pytest.raises(RuleError, match="not_in_line"):
        rules.preview(st, 0, [P(0, 0, "K"), P(1, 2, "R")])


def test_w_m4_word_order_and_single_tile_direction():
    """W-M4: the main word first, then cross words in line order; a single tile lies
    along the row only with a horizontal neighbour."""
    st = make_state(2, racks=[["A", "T"], ["A"]], rows={0: "ET.............",
                                                       1: "..............."},
                    first_done=[True, True], words=["ea", "tt", "at", "eta"])  # fmt: skip
    res = rules.preview(st, 0, [P(1, 0, "A"), P(1, 1, "T")])
    assert [w for w, _ in res.words] == ["AT", "EA", "TT"]
    # a single tile under E: no horizontal neighbour -> column word
    res = rules.preview(st, 0, [P(1, 0, "A")])
    assert [w for w, _ in res.words] == ["EA"]
    # a single tile right of T: along the row
    res = rules.preview(st, 0, [P(0, 2, "A")])
    assert [w for w, _ in res.words] == ["ETA"]


def test_w_m4_a_word_formed_twice_is_listed_twice():
    """W-M4, W-M7: the invalid list keeps W-M4 order and repeats."""
    st = make_state(2, racks=[["A", "A"], ["A"]], rows={0: "BB............."},
                    first_done=[True, True], words=["aa"])  # fmt: skip
    with pytest.raises(InvalidWords) as exc:
        rules.preview(st, 0, [P(1, 0, "A"), P(1, 1, "A")])
    assert exc.value.invalid == ["BA", "BA"]


def test_w_m5_first_play_through_an_occupied_home():
    """W-M5: a word through the home square covers it when another seat's tile is
    there; the first play need not touch other tiles otherwise."""
    st = make_state(4, racks=[["A"], ["K", "A"], ["A"], ["A"]],
                    rows={0: "..............E"}, placer=0,
                    first_done=[True, False, False, False], turn=1,
                    words=["ke", "ka"])  # fmt: skip
    res = rules.preview(st, 1, [P(0, 13, "K")])  # KE runs through (0,14)
    assert res.words == (("KE", 2),)
    with pytest.raises(RuleError, match="must_cover_home"):
        rules.preview(st, 1, [P(5, 5, "K"), P(5, 6, "A")])
    # a first play that covers the home needs no contact with other tiles
    st2 = make_state(2, racks=[["K", "A"], ["A"]], rows={7: "......E........"},
                     first_done=[False, True], words=["ka"])  # fmt: skip
    assert rules.preview(st2, 0, [P(0, 0, "K"), P(0, 1, "A")]).points == 2


def test_w_m5_pass_or_exchange_is_not_a_first_play():
    """W-M5: after a pass and an exchange the seat still must cover its home."""
    st = make_state(2, racks=[["K", "A", "E"], ["A"]], bag=["B", "C"], words=["ka"],
                    rows={0: "..............."})  # fmt: skip
    GAME.apply(st, 0, {"type": "pass"}, 0.0)
    GAME.apply(st, 1, {"type": "pass"}, 0.0)
    GAME.apply(st, 0, {"type": "exchange", "letters": ["E"]}, 0.0)
    GAME.apply(st, 1, {"type": "pass"}, 0.0)
    assert st.first_done == [False, False]
    with pytest.raises(RuleError, match="must_cover_home"):
        rules.preview(st, 0, [P(5, 5, "K"), P(5, 6, "A")])


def test_w_m6_later_plays_touch_any_tile():
    """W-M6: adjacent to any tile, an opponent's included; diagonal is not enough."""
    st = make_state(2, racks=[["K", "A"], ["A"]], rows={7: "......E........"},
                    placer=1, first_done=[True, True], words=["ka", "ke"])  # fmt: skip
    assert rules.preview(st, 0, [P(6, 6, "K"), P(6, 7, "A")]).words[0][0] == "KA"
    with pytest.raises(RuleError, match="not_connected"):
        rules.preview(st, 0, [P(6, 7, "K"), P(6, 8, "A")])  # (6,7) is diagonal to E


def test_w_m7_preview_changes_nothing():
    """W-M7: the preview shows validity, points and shares and changes nothing."""
    st = make_state(2, racks=[["K", "A", "R"], ["A"]], words=["kar"])
    before = snapshot(st)
    good = GAME.preview(st, 0, [{"row": 0, "col": 0, "letter": "K"},
                                {"row": 0, "col": 1, "letter": "A"},
                                {"row": 0, "col": 2, "letter": "R"}])  # fmt: skip
    bad = GAME.preview(st, 0, [{"row": 0, "col": 0, "letter": "K"},
                               {"row": 0, "col": 1, "letter": "A"}])  # fmt: skip
    assert good == {"ok": True, "words": [{"word": "KAR", "points": 3}], "bingo": 0,
                    "points": 3, "shares": [3, 0]}  # fmt: skip
    assert bad == {"ok": False, "error": "invalid_word", "invalid": ["KA"]}
    assert snapshot(st) == before


def test_w_m8_refill_until_seven_or_empty_bag():
    """W-M8"""
    st = make_state(2, racks=[["K", "A", "R", "E"], ["A"]], bag=["B", "C"], words=["kar"])
    rules.play(st, 0, [P(0, 0, "K"), P(0, 1, "A"), P(0, 2, "R")])
    assert sorted(st.racks[0]) == ["B", "C", "E"] and st.bag == []


def test_w_m9_exchange_draws_first_then_returns_at_random_places():
    """W-M9: the player never draws back a returned tile; the rest of the bag keeps
    its order; refused when the bag holds fewer tiles than returned."""
    at_bottom = 0
    for seed in range(20):
        st = GAME.new_match({}, 2, random.Random(seed))
        seat = st.turn
        rack = list(st.racks[seat])
        give = rack[:3]
        top, rest = st.bag[:3], st.bag[3:]
        GAME.apply(st, seat, {"type": "exchange", "letters": give}, 0.0)
        assert sorted(st.racks[seat]) == sorted(rack[3:] + top)  # drawn before returning
        assert sorted(st.bag) == sorted(rest + give) and len(st.bag) == 86
        it = iter(st.bag)
        assert all(t in it for t in rest)  # the rest keeps its order
        at_bottom += st.bag[-3:] == give
    assert at_bottom < 20  # random places, not always the bottom
    st = make_state(2, racks=[["A", "B"], ["C"]], bag=["D"])
    with pytest.raises(RuleError, match="bag_too_small"):
        GAME.apply(st, 0, {"type": "exchange", "letters": ["A", "B"]}, 0.0)


def test_w_m10_pass_changes_only_the_turn_and_count():
    """W-M10"""
    st = GAME.new_match({}, 2, random.Random(2))
    before = snapshot(st)
    seat = st.turn
    GAME.apply(st, seat, {"type": "pass"}, 0.0)
    after = snapshot(st)
    assert after["turn"] == 1 - seat and after["passes"] == 1
    for key in ("racks", "bag", "board", "scores", "zones"):
        assert after[key] == before[key]


# --- 5. Scoring ----------------------------------------------------------------------
def test_w_s1_w_s2_multiplied_tile_counts_in_both_words():
    """W-S1, W-S2: Y on X3 counts 9 in YEL and in YA (W-S5's example)."""
    st = make_state(2, racks=[list("YEL"), ["A"]], rows={2: "ARKADAŞ........"},
                    first_done=[True, True], words=["yel", "ya", "eş"])  # fmt: skip
    res = rules.preview(st, 0, [P(1, 5, "Y"), P(1, 6, "E"), P(1, 7, "L")])
    assert res.words == (("YEL", 13), ("YA", 10), ("EŞ", 6)) and res.points == 29  # W-S5


def test_w_s3_w_s4_bingo_only_for_seven_tiles():
    """W-S3: play points are the words plus the bingo; W-S4: only 7 tiles earn it."""
    st = make_state(2, racks=[list("KARAKOL"), ["A"]], words=["karakol", "kara"])
    res = rules.preview(st, 0, [P(0, c, ch) for c, ch in enumerate("KARAKOL")])
    assert (res.bingo, res.points) == (25, 9 + 25)
    res = rules.preview(st, 0, [P(0, c, ch) for c, ch in enumerate("KARA")])
    assert (res.bingo, res.points) == (0, 4)


# --- 6. Zones and tax ----------------------------------------------------------------
def test_w_z1_starting_zones():
    """W-Z1: each seat's block, all 16 cells; 2 players: two blocks in no zone."""
    st4, st2 = make_state(4), make_state(2)
    for seat in range(4):
        assert sum(1 for z in st4.zone if z == seat) == 16
    assert sorted(set(st2.zone)) == [-1, 0, 1] and st2.zone.count(-1) == 225 - 32


def test_w_z2_cell_of_opponent_block_stays_theirs():
    """W-Z2: a tile on an empty cell of an opponent's block is in that opponent's zone."""
    st = make_state(2, racks=[["E"], ["E"]], rows={11: "...........V..."}, placer=1,
                    first_done=[True, True], words=["ev"])  # fmt: skip
    res = rules.preview(st, 0, [P(10, 11, "E")])  # beside (11,11), seat 1's block
    assert res.touched == (1,)
    st.racks[0] = ["E"]
    rules.play(st, 0, [P(10, 11, "E")])
    assert st.zone[board.idx(10, 11)] == -1  # outside the block: not taken by seat 1
    st2 = make_state(2, racks=[["E"], ["A"]], rows={10: "...........V..."}, placer=1,
                     first_done=[True, True], words=["ve"])  # fmt: skip
    rules.play(st2, 0, [P(11, 11, "E")])
    assert st2.zone[board.idx(11, 11)] == 1 and st2.placer[board.idx(11, 11)] == 0


def test_w_z3_growth_along_chains_of_own_tiles():
    """W-Z3: a chain of the placer's tiles starting next to its zone joins it."""
    st = make_state(2, rows={0: "....KARE......."}, placer=0)
    assert [st.zone[board.idx(0, c)] for c in range(4, 8)] == [0, 0, 0, 0]
    st = make_state(2, rows={0: ".....KARE......"}, placer=0)  # a gap at (0,4)
    assert [st.zone[board.idx(0, c)] for c in range(5, 9)] == [-1] * 4


def test_w_z4_unlinked_tiles_cost_nobody_tax_until_linked():
    """W-Z4: a seat's tiles not linked to its zone are in no zone."""
    st = make_state(2, racks=[["A"], ["A"]], rows={7: "......EV......."}, placer=1,
                    first_done=[True, True], words=["eva"])  # fmt: skip
    assert st.zone[board.idx(7, 6)] == -1
    res = rules.preview(st, 0, [P(7, 8, "A")])
    assert res.touched == () and res.shares == (res.points, 0)


def test_w_z5_only_placed_tiles_touch():
    """W-Z5: words running through zone tiles do not touch; a placed tile on or next to
    a zone cell (an empty block cell too) does; diagonals do not."""
    st = make_state(2, racks=[["A", "T"], ["A"]], rows={4: "E.............."},
                    placer=0, first_done=[True, True], words=["ea", "eat"])  # fmt: skip
    st.zone[board.idx(4, 0)] = 1  # pretend the E is seat 1's zone tile
    res = rules.preview(st, 0, [P(5, 0, "A")])  # beside it: touches
    assert res.touched == (1,)
    st.zone[board.idx(4, 0)] = -1
    st.zone[board.idx(3, 1)] = 1  # diagonal to (4,0)... and (5,0) is not adjacent
    res = rules.preview(st, 0, [P(5, 0, "A"), P(6, 0, "T")])
    assert res.touched == ()


@pytest.mark.parametrize("k,share,kept", [(0, 0, 29), (1, 9, 20), (2, 7, 15), (3, 6, 11)])
def test_w_z6_w_z7_shares_table_and_rounding(k, share, kept):
    """W-Z6 table, W-Z7's worked example for P = 29."""
    assert tax_shares(29, k) == share and 29 - k * share == kept


def test_w_z6_three_opponents_and_forfeited_zone_collects_nothing():
    """W-Z6: k counts opponents not forfeited whose zones the play touches."""
    st = make_state(4, racks=[["K", "Z"], ["A"], ["A"], ["A"]], rows={7: "......E........"},
                    first_done=[True] * 4, words=["ek", "ze"])  # fmt: skip
    for seat, cell in ((1, (6, 5)), (2, (6, 7)), (3, (8, 5))):
        st.zone[board.idx(*cell)] = seat
    assert rules.preview(st, 0, [P(7, 7, "K")]).touched == (2,)  # beside (6,7) only
    # ZE: Z on (7,5) X2 = 8, E 1 -> 9; beside (6,5) seat 1 and (8,5) seat 3: 9 // 4 = 2
    res = rules.preview(st, 0, [P(7, 5, "Z")])
    assert res.touched == (1, 3) and res.shares == (5, 2, 0, 2)
    st.forfeited[3] = True  # a forfeited seat's zone collects nothing: 9 // 3 = 3
    res = rules.preview(st, 0, [P(7, 5, "Z")])
    assert res.touched == (1,) and res.shares == (6, 3, 0, 0)
    # three opponents: 2P/9 each
    st.forfeited[3] = False
    st.zone[board.idx(7, 4)] = 2
    res = rules.preview(st, 0, [P(7, 5, "Z")])
    assert res.touched == (1, 2, 3) and res.shares == (9 - 3 * 2, 2, 2, 2)


def test_w_z8_zones_are_in_every_view():
    """W-Z8: the table draws the zones from the view's ``zones`` after every play."""
    st = make_state(2, racks=[list("KARE"), ["A"]], words=["kare"])
    GAME.apply(
        st,
        0,
        {
            "type": "play",
            "placements": [{"row": 0, "col": c, "letter": ch} for c, ch in enumerate("KARE")],
        },
        0.0,
    )
    assert GAME.view_for(st, 1)["zones"][0] == "0000" + "." * 7 + "...."
    st = make_state(2, racks=[list("KÖK"), ["A"]], words=["karekök"],
                    rows={0: "KARE..........."}, first_done=[True, False])  # fmt: skip
    GAME.apply(
        st,
        0,
        {
            "type": "play",
            "placements": [{"row": 0, "col": c, "letter": ch} for c, ch in zip(range(4, 7), "KÖK")],
        },
        0.0,
    )
    assert GAME.view_for(st, None)["zones"][0] == "0000000........"


# --- 7. End of the game ------------------------------------------------------------
def test_w_e1_going_out_ends_the_game():
    """W-E1, W-E3: nothing is added to the player who went out."""
    st = make_state(2, racks=[["A", "T"], ["Z", "J"]], words=["at"])
    rules.play(st, 0, [P(0, 0, "A"), P(0, 1, "T")])
    assert st.over and st.end == "out" and st.scores == [2, -14] and st.deducted == [0, 14]


def test_w_e2_threshold_counts_seats_still_in_the_game():
    """W-E2: 4 passes with 2 seats, 8 with 4; a play resets the count."""
    st = make_state(4, racks=[["A"], ["B"], ["C"], ["D"]])
    for k in range(7):
        GAME.apply(st, k % 4, {"type": "pass"}, 0.0)
    assert not st.over and st.passes == 7
    GAME.apply(st, 3, {"type": "pass"}, 0.0)
    assert st.over and st.end == "passes"


def test_w_e3_deductions_count_jokers_as_zero():
    """W-E3"""
    st = make_state(2, racks=[["*", "Ğ"], ["*", "*"]])
    for k in range(4):
        GAME.apply(st, k % 2, {"type": "pass"}, 0.0)
    assert st.deducted == [8, 0] and st.scores == [-8, 0]


def test_w_e4_joker_finish_not_shared():
    """W-E4: +25 per joker of an all-joker last play, outside the tax."""
    st = make_state(2, racks=[["*"], ["A"]], rows={0: "..........AT..."}, placer=0,
                    first_done=[True, True], words=["ate"])  # fmt: skip
    st.zone[board.idx(0, 11)] = 1  # the placed joker touches seat 1's zone
    res, bonus = rules.play(st, 0, [P(0, 12, "E", joker=True)])
    assert res.points == 2 and res.shares == (2 - 0, 0) and bonus == 25
    assert st.scores == [27, -1]


def test_w_e5_places_share_and_skip():
    """W-E5: 50, 50, 40, 30 -> 1, 1, 3, 4."""
    st = make_state(4)
    st.scores = [50, 50, 40, 30]
    assert rules.ranks(st) == [1, 1, 3, 4]


def test_w_e6_forfeit_keeps_the_zone_and_skips_turns():
    """W-E6: the seat takes no more turns; its rack stays; the game goes on among the
    others (4 players) and ends at once when one seat is left."""
    st = make_state(4, racks=[["A"], ["B"], ["C"], ["D"]])
    GAME.on_timeout(st, 0, 0.0)
    assert st.forfeited == [True, False, False, False] and st.turn == 1 and not st.over
    assert st.racks[0] == ["A"] and st.zone[0] == 0
    GAME.on_timeout(st, 1, 0.0)
    GAME.on_timeout(st, 2, 0.0)
    assert st.over and st.end == "forfeit" and st.deducted == [0, 0, 0, 0]
    result = GAME.match_result(st)
    assert result.places == [2, 2, 2, 1]  # forfeited seats below everyone


def test_w_e6_a_forfeited_seats_timeout_is_not_its_turn():
    """W-E6, W-M1: a forfeited seat is never the one to move, so a timeout for it is
    refused as any turn's would be (kelimeki-scenario.md: game_over, not_your_turn)."""
    st = make_state(4, racks=[["A"], ["B"], ["C"], ["D"]])
    GAME.on_timeout(st, 0, 0.0)
    with pytest.raises(RuleError) as exc:
        GAME.on_timeout(st, 0, 0.0)
    assert exc.value.code == "not_your_turn"
    with pytest.raises(RuleError) as exc:
        rules.forfeit(st, 0, any_turn=True)  # Teslim ol, out of turn, a second time
    assert exc.value.code == "forfeited"


# --- 9. Around the game (the engine's side) ------------------------------------------
def test_w_x3_move_deadlines_by_mode():
    """W-X3: 48 hours live, 7 days against the AI; a timeout forfeits the seat."""
    assert GAME.clean_options({}) == {"vs_ai": False, "move_seconds": 48 * 3600}
    assert GAME.clean_options({"vs_ai": True})["move_seconds"] == 7 * 24 * 3600
    assert GAME.fixed_move_seconds


def test_w_x1_w_x4_games_are_independent_and_need_no_account():
    """W-X1, W-X4: a game is its own state (no user in it); several run at once."""
    a = GAME.new_match({"vs_ai": True}, 2, random.Random(1))
    b = GAME.new_match({}, 4, random.Random(2))
    GAME.apply(a, a.turn, {"type": "pass"}, 0.0)
    assert b.passes == 0 and "user" not in str(GAME.to_dict(a))


def test_w_x2_result_detail_for_the_score_card():
    """W-X2: the finished game's scores, places and k-lig change."""
    st = make_state(2, racks=[["A"], ["Z"]])
    for k in range(4):
        GAME.apply(st, k % 2, {"type": "pass"}, 0.0)
    (hand,) = GAME.hand_results(st)
    assert hand.scores == [-1, -4] and hand.detail["ranks"] == [1, 2]
    assert hand.detail["klig"] == [2, 0]


def test_w_x5_bots_see_only_a_view_and_the_bag_is_revealed_at_the_end():
    """W-X5 (P-1, P-2)"""
    st = make_state(2, racks=[["A"], ["Z"]], bag=["K"])
    assert "bag" not in GAME.view_for(st, 0)
    for k in range(4):
        GAME.apply(st, k % 2, {"type": "pass"}, 0.0)
    v = GAME.view_for(st, 1)
    assert v["bag"] == ["K"] and v["racks"] == [["A"], ["Z"]]
