"""Kastet rule tests (kastet.md), one or more per rule id; the golden scenarios
(test_scenarios.py) cover the same rules through the replay command."""

from __future__ import annotations

import json
import random

import pytest

from game.engine.errors import ActionFormatError, EngineError, RuleError
from game.engine.fair import SeededRNG
from game.engine.protocol import InputError, places_of
from games.kastet.engine import GAME
from games.kastet.engine.deal import new_hand
from games.kastet.engine.groups import read_group, read_pair
from games.kastet.engine.match import NEXT_HAND_SECONDS, clean_options
from games.kastet.engine.rating import match_points
from games.kastet.engine.rules import CODES, apply
from games.kastet.engine.state import MAX_RACK, RACK_CELLS, SLOTS, HandState
from games.kastet.engine.views import view_for
from games.okey.engine.tiles import FAKE, NUM_TILES, face_name, face_of, parse_face
from tests.games.kastet.engine.helpers import faces, position

OKEY = parse_face("R8")  # indicator R7


def dump(hand: HandState) -> str:
    return json.dumps(hand.to_dict(), sort_keys=True)


def refused(hand: HandState, seat: int, action: dict) -> str:
    """The action is refused and changes nothing; returns its code."""
    before = dump(hand)
    with pytest.raises(EngineError) as e:
        apply(hand, seat, action)
    assert dump(hand) == before
    return e.value.code


# ------------------------------------------------------------------ tiles, groups
def test_s_t1_a_hand_holds_the_106_tiles_with_opaque_ids():
    """S-T1 (K-T1, K-T7): 106 tiles, KÜT's notation, ids unique and faceless."""
    hand = new_hand(0, SeededRNG(7))
    assert sorted(hand.all_tiles()) == list(range(NUM_TILES))
    assert len(set(hand.ids)) == NUM_TILES
    names = {face_name(f) for f in range(53)}
    assert not names & set(hand.ids)
    other = new_hand(0, SeededRNG(8))
    assert hand.ids != other.ids  # per hand


def test_s_t2_the_indicator_never_enters_play():
    """S-T2: the indicator is in no rack, the deck or the table, and is never drawn."""
    hand = new_hand(2, SeededRNG(3))
    assert hand.indicator not in hand.deck
    assert all(hand.indicator not in hand.rack_tiles(s) for s in range(4))
    assert face_of(hand.indicator) != FAKE


def test_s_t3_real_okey_is_the_next_number_and_wild():
    """S-T3: indicator R7 -> R8; 13 -> 1; both copies wild in runs and sets."""
    assert GAME.view_for(GAME.new_match({}, 4, SeededRNG(1)), 0)["okey"]  # present
    assert read_group(faces("Y8", "R8", "Y10"), OKEY)[1] == faces("Y8", "Y9", "Y10")
    k1 = parse_face("K1")  # indicator K13
    assert read_group(faces("R12", "R13", "K1"), k1) is None
    assert read_group(faces("K1", "R12", "R13"), k1)[1] == faces("R11", "R12", "R13")


def test_s_t4_fake_okey_is_the_okey_face():
    """S-T4: indicator B2 -> okey B3; F is a B3 in runs, sets and pairs, never wild."""
    b3 = parse_face("B3")
    assert read_group(faces("B1", "B2", "F"), b3)[1] == faces("B1", "B2", "B3")
    assert read_group(faces("F", "R3", "K3"), b3)[0] == "kut"
    assert read_group(faces("F", "R9", "R10"), b3) is None
    assert read_pair(faces("F", "F"), b3)[1] == [b3, b3]


def test_s_g1_runs():
    assert read_group(faces("R1", "R2", "R3"), OKEY)[0] == "run"
    assert read_group(faces("R12", "R13", "R1"), OKEY) is None  # 1 is only low
    assert read_group(faces("R1", "R2"), OKEY) is None
    assert read_group(faces(*[f"Y{n}" for n in range(1, 14)]), OKEY)[0] == "run"
    assert read_group(faces("R1", "R3", "R4"), OKEY) is None  # no gaps


def test_s_g2_sets():
    assert read_group(faces("R5", "Y5", "B5", "K5"), OKEY)[0] == "kut"
    assert read_group(faces("B5", "B5", "R5"), OKEY) is None
    assert read_group(faces("R5", "Y5", "B6"), OKEY) is None


def test_s_g3_pairs():
    assert read_pair(faces("R5", "R5"), OKEY)[1] == faces("R5", "R5")
    assert read_pair(faces("R5", "R8"), OKEY)[1] == faces("R5", "R5")
    assert read_pair(faces("R8", "R8"), OKEY) is None  # two real okeys never
    assert read_pair(faces("F", "F"), OKEY) is not None
    assert read_pair(faces("F", "R8"), OKEY) is None
    assert read_pair(faces("R5", "Y5"), OKEY) is None


def test_s_g4_okey_position_fixes_its_value():
    assert read_group(faces("R8", "R9", "R8"), OKEY) == ("run", faces("R8", "R9", "R10"))
    assert read_group(faces("K8", "K9", "R8"), OKEY)[1] == faces("K8", "K9", "K10")
    assert read_group(faces("R8", "K9", "K10"), OKEY)[1] == faces("K8", "K9", "K10")
    assert read_group(faces("K12", "K13", "R8"), OKEY) is None  # would be K14


def test_s_g5_every_group_has_a_natural_tile():
    assert read_group(faces("R8", "R8"), OKEY) is None
    assert read_pair(faces("R8", "R8"), OKEY) is None


def test_s_g6_set_okeys_take_missing_colours_in_order():
    assert read_group(faces("B5", "R8", "K5", "R8"), OKEY)[1] == faces("B5", "R5", "K5", "Y5")
    assert read_group(faces("B5", "R8", "K5"), OKEY)[1] == [parse_face("B5"), None,
                                                            parse_face("K5")]  # fmt: skip


def test_s_g7_double_reading_is_a_run():
    assert read_group(faces("B2", "R8", "R8"), OKEY) == ("run", faces("B2", "B3", "B4"))
    assert read_group(faces("R8", "B2", "R8"), OKEY) == ("run", faces("B1", "B2", "B3"))


# ------------------------------------------------------------------ match, deal
def test_s_m1_turn_passes_to_the_right():
    hand = position([["K1"], ["K2"], ["K3"], ["K4"]], deck=["Y1", "Y2", "Y3"], starter=3)
    apply(hand, 3, {"type": "draw"})
    assert hand.turn == 0
    apply(hand, 0, {"type": "draw"})
    assert hand.turn == 1


def test_s_m2_options_and_s_n6_move_time():
    """S-M2: H in 1..11 odd (default 5), individual or partners, rated or test, and
    S-N6's move time 30–300 s (default 60)."""
    assert clean_options({}) == {"hands": 5, "partners": False, "rated": True,
                                 "move_seconds": 60}  # fmt: skip
    for h in (1, 3, 5, 7, 9, 11):
        assert clean_options({"hands": h})["hands"] == h
    for bad in ({"hands": 4}, {"hands": 13}, {"hands": True}, {"partners": 1},
                {"move_seconds": 29}, {"move_seconds": 301}, {"rated": "yes"},
                {"colour": 1}):  # fmt: skip
        with pytest.raises(InputError):
            clean_options(bad)
    assert clean_options({"move_seconds": 300, "rated": False})["move_seconds"] == 300
    assert GAME.default_move_seconds == 60 and not GAME.fixed_move_seconds


def test_s_m4_s_m5_s_m6_hands_starters_totals():
    """S-M6: the first starter from the RNG, then the next seat to the right; S-M4: the
    next hand only once the last one ended (10 s later, the platform's timer); S-M5:
    totals add up, lowest first."""
    assert NEXT_HAND_SECONDS == 10
    starters = {GAME.new_match({}, 4, SeededRNG(s)).hand.starter for s in range(12)}
    assert len(starters) > 1
    m = GAME.new_match({"hands": 3}, 4, SeededRNG(5))
    first = m.hand.starter
    with pytest.raises(RuleError):
        GAME.start_next_hand(m, SeededRNG(6))  # the hand is not over
    rng = random.Random(1)
    for n in range(3):
        assert m.hand.starter == (first + n) % 4 and m.hand.hand_no == n + 1
        while not GAME.hand_over(m):
            seat = GAME.to_act(m)[0]
            GAME.apply(m, seat, GAME.bot_choose(GAME.view_for(m, seat), "normal", rng), 0.0)
        if n < 2:
            assert not GAME.match_over(m)
            GAME.start_next_hand(m, SeededRNG(10 + n))
    assert GAME.match_over(m)
    res = GAME.match_result(m)
    hands = GAME.hand_results(m)
    assert [sum(h.scores[s] for h in hands) for s in range(4)] == res.totals
    assert res.places == places_of(res.totals, True) and res.hands == 3
    assert res.detail["points"] == match_points(3, res.totals)
    with pytest.raises(RuleError):
        GAME.start_next_hand(m, SeededRNG(9))


def test_s_m3_partners_places_by_side():
    m = GAME.new_match({"hands": 1, "partners": True}, 4, SeededRNG(2))
    m.totals = [10, 40, 20, 5]
    res = GAME.match_result(m)
    assert res.places == [1, 2, 1, 2] and res.detail["team_totals"] == [30, 45]


def test_s_d1_fake_indicator_goes_back():
    """S-D1 (K-D1): a fake okey turned as indicator goes back and another is turned."""

    class FakeFirst(random.Random):
        def shuffle(self, x):
            super().shuffle(x)
            x.remove(104)
            x.insert(0, 104)

    hand = new_hand(0, FakeFirst(3))
    assert face_of(hand.indicator) != FAKE
    assert sorted(hand.all_tiles()) == list(range(NUM_TILES))


def test_s_d2_fourteen_each_and_49_in_the_deck():
    hand = new_hand(1, SeededRNG(11))
    assert [hand.rack_count(s) for s in range(4)] == [14, 14, 14, 14]
    assert len(hand.deck) == 49


def test_s_d3_starter_plays_an_ordinary_turn():
    hand = new_hand(1, SeededRNG(12))
    assert hand.turn == 1
    apply(hand, 1, {"type": "draw"})  # no first-turn exception
    assert hand.rack_count(1) == 15 and hand.turn == 2


# ------------------------------------------------------------------ the table, laying
def test_s_a1_26_slots_and_s_l1_a_whole_layout():
    table = [[f"{c}{a}", f"{c}{a + 1}", f"{c}{a + 2}"] for c in "RYB" for a in (1, 4, 7, 10)]
    table = table * 2 + [["K1", "K2", "K3"], ["K4", "K5", "K6"]]
    hand = position([["K7", "K8", "K9", "Y13"], ["K1"], ["K2"], ["K3"]], table=table,
                    indicator="K12")  # fmt: skip
    assert len(hand.table) == SLOTS
    code = refused(hand, 0, {"type": "lay", "table": table + [["K7", "K8", "K9"]]})
    assert code == "too_many_groups"
    apply(hand, 0, {"type": "lay", "table": table[:-1] + [["K4", "K5", "K6", "K7", "K8",
                                                            "K9"]]})  # fmt: skip
    assert len(hand.table) == SLOTS


def test_s_a2_s_a3_common_table_and_pair_area():
    """S-A3: any player may use any run-area tile; S-A2: pairs stand apart."""
    hand = position([["Y5", "B5"], ["K9"], ["K1"], ["K2"]], table=[["K5", "K6", "K7", "K8"]],
                    pairs=[["R1", "R1"]])  # fmt: skip
    apply(hand, 0, {"type": "lay", "table": [["K6", "K7", "K8"], ["Y5", "B5", "K5"]]})
    assert [len(g) for g in hand.table] == [3, 3] and len(hand.pairs) == 1


def test_s_a4_a_table_okey_never_returns_to_a_rack():
    hand = position([["R6", "Y1"], ["K9"], ["K1"], ["K2"]], table=[["R5", "R8", "R7"]])
    assert refused(hand, 0, {"type": "lay", "table": [["R5", "R6", "R7"]]}) == (
        "table_tile_missing"
    )
    apply(hand, 0, {"type": "lay", "table": [["R5", "R6", "R7", "R8"]]})  # moved, kept


def test_s_l2_tiles_by_face_or_by_id():
    """S-L2: a lay names tiles by face (any copy) or by their opaque ids; another seat's
    tile id is refused without saying what it is."""
    hand = position([["R4", "Y1"], ["R5", "K1"], ["K2"], ["K3"]], table=[["R1", "R2", "R3"]])
    ids = {face_name(face_of(t)): hand.ids[t] for t in hand.rack_tiles(0)}
    table_ids = [hand.ids[t] for t in hand.table[0]]
    other = hand.ids[hand.rack_tiles(1)[0]]
    assert refused(hand, 0, {"type": "lay", "table": [table_ids + [other]]}) == (
        "tiles_not_in_rack"
    )
    assert refused(hand, 0, {"type": "lay", "table": [table_ids + [table_ids[0]]]}) == (
        "tiles_not_in_rack"
    )
    assert refused(hand, 0, {"type": "lay", "table": [["R1", "R2", "R3", "nope"]]}) == (
        "unknown_tile"
    )
    apply(hand, 0, {"type": "lay", "table": [table_ids + [ids["R4"]]]})
    assert hand.rack_count(0) == 1


def test_s_l3_no_pairs_or_bad_groups_in_the_run_area():
    hand = position([["R5", "R5", "Y1"], ["K9"], ["K1"], ["K2"]])
    assert refused(hand, 0, {"type": "lay", "table": [["R5", "R5"]]}) == "invalid_group"


def test_s_l4_no_opening_requirement():
    hand = position([["R1", "R2", "R3", "K9"], ["K9"], ["K1"], ["K2"]])
    apply(hand, 0, {"type": "lay", "table": [["R1", "R2", "R3"]]})  # 6 points is enough


def test_s_l5_s_l6_pairs_with_26_groups_then_frozen():
    table = [[f"{c}{a}", f"{c}{a + 1}", f"{c}{a + 2}"] for c in "RYB" for a in (1, 4, 7, 10)]
    table = table * 2 + [["K1", "K2", "K3"]]
    hand = position([["K4", "K5", "K6", "R13", "R13", "Y13"], ["K7"], ["K8"], ["K9"]],
                    table=table, indicator="K12")  # fmt: skip
    lay = {"type": "lay", "table": table + [["K4", "K5", "K6"]], "pairs": [["R13", "R13"]]}
    apply(hand, 0, lay)
    pair = list(hand.pairs[0])
    apply(hand, 0, {"type": "pass"})
    merged = [table[0] + table[1]] + table[2:] + [["K4", "K5", "K6", "K7"]]
    apply(hand, 1, {"type": "lay", "table": merged})  # 25 groups: the pair stays
    assert hand.pairs == [pair]
    assert refused(hand, 1, {"type": "lay", "table": merged + [["R13", "Y13", "B13"]]}) in (
        "tiles_not_in_rack",
    )


def test_s_l7_an_empty_rack_still_needs_pas():
    hand = position([["R1", "R2", "R3"], ["K9"], ["K1"], ["K2"]])
    apply(hand, 0, {"type": "lay", "table": [["R1", "R2", "R3"]]})
    assert not hand.over and hand.rack_count(0) == 0
    apply(hand, 0, {"type": "undo"})  # S-F1: until Pas the player may undo
    assert hand.rack_count(0) == 3


def test_s_l8_a_refused_draft_changes_nothing_and_pas_still_needs_a_lay():
    """S-L8: the draft is the client's; a refused layout leaves the state as it was (the
    draft stays for correction) and a Pas without a standing lay is still refused."""
    hand = position([["R1", "R2", "R4"], ["K9"], ["K1"], ["K2"]], deck=["Y1"])
    assert refused(hand, 0, {"type": "lay", "table": [["R1", "R2", "R4"]]}) == "invalid_group"
    assert refused(hand, 0, {"type": "pass"}) == "must_lay_or_draw"


# ------------------------------------------------------------------ turns
def test_s_n1_s_n2_draw_ends_the_turn_lay_excludes_draw():
    hand = position([["R1", "R2", "R3", "K9"], ["K8"], ["K1"], ["K2"]], deck=["Y1", "Y2"])
    apply(hand, 0, {"type": "lay", "table": [["R1", "R2", "R3"]]})
    assert refused(hand, 0, {"type": "draw"}) == "already_laid"
    apply(hand, 0, {"type": "pass"})
    apply(hand, 1, {"type": "draw"})
    assert hand.turn == 2 and hand.rack_count(1) == 2
    assert refused(hand, 1, {"type": "lay", "table": [["R1", "R2", "R3"]]}) == "not_your_turn"


def test_s_n3_s_n4_s_n5_pass_rules():
    full = [f"{c}{n}" for c in "RY" for n in range(1, 12)]
    hand = position([full, ["K9"], ["K1"], ["K2"]], deck=["Y12"])
    assert len(full) == MAX_RACK
    assert refused(hand, 0, {"type": "draw"}) == "rack_full"
    apply(hand, 0, {"type": "pass"})
    assert refused(hand, 1, {"type": "pass"}) == "must_lay_or_draw"


def test_s_n7_timeouts_count_and_complete_the_turn():
    hand = position([["K1"], ["K2"], ["K3"], ["K4"]], deck=["Y1", "Y2"])
    ev = apply(hand, 0, {"type": "timeout"})
    assert ev[0]["timeouts"] == 1 and hand.rack_count(0) == 2  # drew
    apply(hand, 1, {"type": "timeout"})
    apply(hand, 2, {"type": "timeout"})  # deck empty: Pas
    apply(hand, 3, {"type": "timeout"})
    ev = apply(hand, 0, {"type": "timeout"})
    assert ev[0]["timeouts"] == 2  # two in a row: the platform marks the seat away
    apply(hand, 1, {"type": "pass"})
    assert hand.timeouts[1] == 0  # acting again resets the count
    m = GAME.new_match({}, 4, SeededRNG(3))
    seat = GAME.to_act(m)[0]
    GAME.on_timeout(m, seat, 0.0)
    assert m.hand.rack_count(seat) == 15 and GAME.to_act(m) == ((seat + 1) % 4,)


# ------------------------------------------------------------------ end, scores
def test_s_f1_s_s1_s_s2_s_s3_finish_and_scores():
    hand = position([["R1", "R2", "R3"], ["F", "B3", "K13"], ["Y5"], ["K7"]],
                    indicator="B2", deck=["Y1"])  # fmt: skip
    apply(hand, 0, {"type": "lay", "table": [["R1", "R2", "R3"]]})
    apply(hand, 0, {"type": "pass"})
    assert hand.over and hand.finisher == 0 and hand.scores == [-50, 3 + 3 + 13, 5, 7]
    assert refused(hand, 1, {"type": "draw"}) == "hand_over"


def test_s_e1_s_e2_s_s4_blocked_hand():
    """S-E1: with an empty deck the hand goes on; S-E2: four passes end it; S-S4: no
    bonus for okeys, pairs or the indicator — just the numbers left."""
    hand = position([["R8", "K1"], ["K2"], ["K3"], ["K4"]], deck=[])
    for s in range(4):
        assert not hand.over
        apply(hand, s, {"type": "pass"})
    assert hand.over and hand.blocked and hand.scores == [8 + 1, 2, 3, 4]


def test_s_s5_partners_team_scores_in_the_view():
    hand = position([["R1", "R2", "R3"], ["K5"], ["Y5"], ["K7"]], partners=True, deck=["Y1"])
    apply(hand, 0, {"type": "lay", "table": [["R1", "R2", "R3"]]})
    apply(hand, 0, {"type": "pass"})
    assert view_for(hand, 1)["team_scores"] == [-45, 12]


def test_s_u1_s_u2_s_u3_undo():
    hand = position([["R1", "R2", "R3", "R4"], ["K5"], ["Y5"], ["K7"]], deck=["Y1"])
    before = dump(hand)
    rack = list(hand.racks[0])
    apply(hand, 0, {"type": "lay", "table": [["R1", "R2", "R3"]]})
    apply(hand, 0, {"type": "lay", "table": [["R1", "R2", "R3", "R4"]]})
    apply(hand, 0, {"type": "undo"})
    apply(hand, 0, {"type": "undo"})
    assert hand.racks[0] == rack and hand.table == []
    d = json.loads(dump(hand))
    b = json.loads(before)
    assert {k: v for k, v in d.items() if k != "log"} == {k: v for k, v in b.items()
                                                          if k != "log"}  # fmt: skip
    apply(hand, 0, {"type": "draw"})  # S-U2
    assert refused(hand, 1, {"type": "undo"}) == "nothing_to_undo"  # S-U3


# ------------------------------------------------------------------ views
def test_s_v1_s_v2_what_a_seat_sees():
    m = GAME.new_match({}, 4, SeededRNG(21))
    h = m.hand
    seat = h.turn
    v = GAME.view_for(m, seat)
    mine = {h.ids[t] for t in h.rack_tiles(seat)}
    assert {c["id"] for c in v["rack"]["cells"] if c} == mine
    assert [s["count"] for s in v["seats"]] == [14] * 4 and v["deck_count"] == 49
    assert v["turn"] == seat and v["indicator"] and v["match"]["totals"] == [0] * 4
    text = json.dumps(v)
    hidden = [h.ids[t] for s in range(4) if s != seat for t in h.rack_tiles(s)]
    hidden += [h.ids[t] for t in h.deck]
    assert not any(i in text for i in hidden)
    assert "deck" not in v and "deal" not in text and "log" not in v
    watcher = GAME.view_for(m, None)
    assert "rack" not in watcher and not any(i in json.dumps(watcher) for i in mine)
    apply(h, seat, {"type": "draw"})  # S-V2: a drawn tile stays hidden from the others
    drawn = h.ids[h.rack_tiles(seat)[-1]]
    assert all(drawn not in json.dumps(GAME.view_for(m, s)) for s in range(4) if s != seat)


def test_s_v3_racks_shown_at_the_end():
    hand = position([["R1", "R2", "R3"], ["K5", "F"], ["Y5"], ["K7"]], deck=["Y1"])
    assert view_for(hand, 1)["racks_shown"] is None
    apply(hand, 0, {"type": "lay", "table": [["R1", "R2", "R3"]]})
    apply(hand, 0, {"type": "pass"})
    v = view_for(hand, 2)
    assert v["racks_shown"] == [[], ["K5", "F"], ["Y5"], ["K7"]] and "deck" not in v


def test_s_v4_undo_and_refusals_show_nothing_new():
    """S-V4: an undo returns only tiles the table showed; a refused lay shows nothing."""
    hand = position([["R1", "R2", "R3", "Y9"], ["K5"], ["Y5"], ["K7"]], deck=["Y1"])
    views = [json.dumps(view_for(hand, s)) for s in (1, 2, 3)]
    refused(hand, 0, {"type": "lay", "table": [["R1", "R2", "Y9"]]})
    assert [json.dumps(view_for(hand, s)) for s in (1, 2, 3)] == views
    apply(hand, 0, {"type": "lay", "table": [["R1", "R2", "R3"]]})
    shown = {t["id"] for g in view_for(hand, 1)["table"] for t in g["tiles"]}
    apply(hand, 0, {"type": "undo"})
    assert [json.dumps(view_for(hand, s)) for s in (1, 2, 3)] == views
    back = {c["id"] for c in view_for(hand, 0)["rack"]["cells"] if c}
    assert shown <= back


def test_s_v5_bots_decide_from_the_view_alone():
    """S-V5, P-1: the bot's choice depends on its view only: swapping the hidden tiles
    of the other seats and the deck changes nothing it decides."""
    from games.kastet.engine.bots import choose

    hand = position([["R1", "R2", "R3", "Y7"], ["K5", "K6"], ["Y5"], ["K7"]],
                    deck=["Y1", "B9"])  # fmt: skip
    other = position([["R1", "R2", "R3", "Y7"], ["B9", "Y1"], ["K6"], ["K7"]],
                     deck=["K5", "Y5"])  # fmt: skip
    for level in ("easy", "normal", "hard"):
        a = choose(view_for(hand, 0), level, random.Random(1))
        b = choose(view_for(other, 0), level, random.Random(1))
        assert a == b and a["type"] == "lay"


# ------------------------------------------------------------------ around the match
def test_s_x4_rack_of_two_rows_of_12_and_arranging():
    hand = position([["R1", "R2", "R3"], ["K5"], ["Y5"], ["K7"]], deck=["Y1"])
    assert RACK_CELLS == 24 and len(view_for(hand, 0)["rack"]["cells"]) == 24
    ids = [hand.ids[t] for t in hand.rack_tiles(0)]
    cells = [None] * 24
    cells[23], cells[12], cells[0] = ids
    assert refused(hand, 0, {"type": "arrange", "cells": cells[:23]}) == "bad_layout"
    assert refused(hand, 0, {"type": "arrange", "cells": [ids[0]] * 3 + [None] * 21}) == (
        "bad_layout"
    )
    other = [hand.ids[hand.rack_tiles(1)[0]]] + [None] * 23
    assert refused(hand, 0, {"type": "arrange", "cells": other}) == "bad_layout"
    apply(hand, 0, {"type": "arrange", "cells": cells})  # any time, no turn needed
    assert [c and c["id"] for c in view_for(hand, 0)["rack"]["cells"]] == cells
    assert hand.turn == 0 and not hand.log


def test_malformed_actions_raise_format_errors_and_change_nothing():
    hand = position([["R1", "R2", "R3"], ["K5"], ["Y5"], ["K7"]], deck=["Y1"])
    for action in ({"type": "discard"}, {"type": "lay"}, {"type": "lay", "table": "R1"},
                   {"type": "lay", "table": [["R1", 2]]}, {"type": "lay", "table": [],
                   "pairs": "x"}, "draw", {}):  # fmt: skip
        before = dump(hand)
        with pytest.raises(ActionFormatError):
            apply(hand, 0, action)
        assert dump(hand) == before
    assert refused(hand, 7, {"type": "draw"}) == "bad_seat"


def test_every_code_is_documented():
    from game.engine.errors import CODES as SHARED

    for code in ("already_laid", "rack_full", "deck_empty", "must_lay_or_draw",
                 "too_many_groups", "invalid_group", "table_tile_missing", "nothing_laid",
                 "tiles_not_in_rack", "pairs_need_26_groups", "invalid_pair",
                 "nothing_to_undo"):  # fmt: skip
        assert code in CODES
    assert "hand_over" in SHARED and "not_your_turn" in SHARED


def test_s_l8_draft_check_marks_invalid_groups():
    """S-L8: the draft's invalid groups are marked at once (the table UI's check)."""
    from games.kastet.engine.groups import check_draft

    got = check_draft("R8", [["R1", "R2", "R3"], ["R12", "R13", "R1"], ["R5", "R8", "K5"],
                             ["X1", "R2", "R3"]], [["F", "F"], ["R8", "R8"]])  # fmt: skip
    assert got == {"groups": [True, False, True, False], "pairs": [True, False]}
