"""One test (at least) per rule of kdvli.md sections 1–11, citing its id."""

from __future__ import annotations

import random

import pytest

from game.engine.errors import EngineError, RuleError
from game.engine.fair import SeededRNG
from game.engine.protocol import InputError
from games.kdvli.engine import GAME
from games.kdvli.engine.groups import finish_kind, is_pair, is_run, is_set, kind_of
from games.kdvli.engine.hand import apply, new_hand, timeout_discard
from games.kdvli.engine.replay import ScenarioError, load_scenario
from games.okey.engine.deal import shuffled_deal
from games.okey.engine.tiles import FAKE, NUM_TILES, face_name, face_of, okey_face, parse_face
from tests.games.kdvli.engine.helpers import act, hand_of, run, scenario


def F(names: str) -> list[int]:
    return [parse_face(n) for n in names.split()]


Y6 = okey_face(parse_face("Y5"))  # the okey under the default indicator Y5

# a complete 14-tile runs rack under indicator Y5 (okey Y6) and a seven-pairs rack
RUNS14 = "R1 R2 R3 R4 B7 B8 B9 K11 K12 K13 Y11 R11 B11 K1"
PAIRS14 = "R2 R2 Y3 Y3 B4 B4 K7 K7 R9 R9 Y10 Y10 B12 B12"
RUNS_GROUPS = [g.split() for g in ("R1 R2 R3 R4", "B7 B8 B9", "K11 K12 K13 K1", "Y11 R11 B11")]


def err(result: dict, i: int) -> str | None:
    r = result["results"][i]
    return None if r["ok"] else r["error"]


# --- 1. Tiles ----------------------------------------------------------------------------


def test_v_t1_106_tiles_and_no_third_copy():
    hand = new_hand(0, SeededRNG(1))
    assert hand.tile_count() == NUM_TILES
    s = scenario({0: "R7", 1: "R7", 2: "R7"})
    with pytest.raises(ScenarioError, match="third copy"):
        load_scenario(s)
    s = scenario({0: "F", 1: "F", 2: "F"})
    with pytest.raises(ScenarioError):
        load_scenario(s)


def test_v_t1_yellow_is_the_seeds_green():
    assert parse_face("Y7") == 13 + 6 and face_name(13) == "Y1"


def test_v_t2_indicator_is_out_of_play_and_its_other_copy_pairs_only_with_an_okey():
    hand = hand_of(scenario({1: "Y5"}))
    all_tiles = [t for r in hand.racks for t in r.tiles()] + hand.deck
    assert hand.indicator not in all_tiles
    assert is_pair(F("Y5 Y6"), Y6)
    with pytest.raises(ScenarioError):
        load_scenario(scenario({1: "Y5 Y5"}))


def test_v_t3_real_okey_is_next_number_and_thirteen_wraps():
    assert face_name(okey_face(parse_face("R13"))) == "R1"
    assert face_name(okey_face(parse_face("K4"))) == "K5"
    assert is_run(F("R7 K5 R9"), parse_face("K5"))  # both copies wild


def test_v_t4_fake_okey_is_the_okeys_natural():
    assert is_run(F("Y4 Y5 F"), Y6)
    assert is_set(F("R6 B6 F"), Y6)
    assert is_pair(F("F F"), Y6) and is_pair(F("F Y6"), Y6)
    assert not is_run(F("F R7 R8"), Y6)


def test_v_t5_coloured_indicator_doubles():
    for ind, m in (("R5", 2), ("K5", 2), ("Y5", 1), ("B5", 1)):
        s = scenario(
            {0: RUNS14 + " Y13"},
            indicator=ind,
            actions=[act(0, "finish", tile="Y13", groups=RUNS_GROUPS)],
        )
        out = run(s)
        assert out["results"] == [{"ok": True}], (ind, out["results"])
        assert out["multiplier"] == m


def test_v_t6_tile_values():
    s = scenario({1: "F R13 Y6 K1"}, actions=[act(0, "discard", tile=scenario()["racks"][0][0])])
    hand = hand_of(s)
    from games.kdvli.engine.groups import value

    assert [value(f, Y6) for f in F("F R13 Y6 K1")] == [6, 13, 6, 1]
    assert hand.points_of(1) > 0


def test_v_t7_tile_ids_are_opaque():
    hand = new_hand(0, SeededRNG(3))
    assert len(set(hand.ids)) == NUM_TILES
    for t, tid in enumerate(hand.ids):
        assert face_name(face_of(t)) not in tid
    other = new_hand(0, SeededRNG(4))
    assert other.ids != hand.ids


# --- 2. Groups ------------------------------------------------------------------------------


def test_v_g1_runs():
    ok = Y6
    assert is_run(F("R1 R2 R3"), ok) and is_run(F("R12 R13 R1"), ok)
    assert is_run(F("R10 R11 R12 R13 R1"), ok)
    assert not is_run(F("R13 R1 R2"), ok)
    assert not is_run(F("R1 R2"), ok) and not is_run(F("R1 R2 B3"), ok)
    assert not is_run(F("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1"), ok)
    assert is_run(F("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13"), ok)
    assert not is_run(F("R3 R3 R4"), ok)


def test_v_g2_sets():
    assert is_set(F("R7 Y7 B7"), Y6) and is_set(F("R7 Y7 B7 K7"), Y6)
    assert not is_set(F("R7 R7 B7"), Y6) and not is_set(F("R7 Y7 B8"), Y6)
    assert not is_set(F("R7 Y7"), Y6)


def test_v_g3_pairs():
    assert is_pair(F("R7 R7"), Y6) and is_pair(F("R7 Y6"), Y6)
    assert not is_pair(F("R7 K7"), Y6)
    assert not is_pair(F("Y6 Y6"), Y6)


def test_v_g4_okeys_stand_for_one_missing_tile_and_groups_need_a_natural():
    assert is_run(F("R12 R13 Y6"), Y6)  # the okey as the high 1
    assert is_set(F("R9 Y6 Y6"), Y6)
    assert not is_pair(F("Y6 Y6"), Y6)
    assert not is_run(F("Y6 Y6 R5 R9"), Y6)


def test_v_g5_groups_are_sets_of_tiles():
    assert kind_of(F("R3 R1 R2"), Y6) == "run"
    assert kind_of(F("Y6 R13 R12"), Y6) == "run"
    assert kind_of(F("K7 R7 Y6"), Y6) == "set"


# --- 3. Match structure -------------------------------------------------------------------


def test_v_m1_turns_pass_right_and_partners_sit_opposite():
    s = scenario(actions=[act(0, "discard", tile=scenario()["racks"][0][0])])
    assert run(s)["turn"] == 1
    s = scenario(
        {0: RUNS14 + " Y13"},
        partners=True,
        actions=[act(0, "finish", tile="Y13", groups=RUNS_GROUPS)],
    )
    out = run(s)
    assert out["team_scores"] == [
        out["scores"][0] + out["scores"][2],
        out["scores"][1] + out["scores"][3],
    ]


def test_v_m2_options():
    assert GAME.clean_options({}) == {
        "hands": 11,
        "partners": False,
        "move_seconds": 60,
        "rated": True,
    }
    for bad in (
        {"hands": 4},
        {"hands": True},
        {"partners": 1},
        {"move_seconds": 20},
        {"move_seconds": 310},
        {"move_seconds": 50},
        {"colour": 1},
    ):
        with pytest.raises(InputError):
            GAME.clean_options(bad)
    assert GAME.clean_options({"hands": 3, "partners": True})["hands"] == 3


@pytest.fixture(scope="module")
def played():
    """One 3-hand match played by normal bots through the protocol, with every
    (starter, hand number, void) before and after each next hand."""
    m = GAME.new_match({"hands": 3}, 4, SeededRNG(5))
    rng = random.Random(1)
    steps = []
    k = 0
    while not GAME.match_over(m):
        if GAME.hand_over(m):
            before = (m.hand.starter, m.hand_no, m.hand.void)
            GAME.start_next_hand(m, SeededRNG(1000 + k))
            k += 1
            steps.append((before, (m.hand.starter, m.hand_no)))
            continue
        seat = GAME.to_act(m)[0]
        GAME.apply(m, seat, GAME.bot_choose(GAME.view_for(m, seat), "normal", rng), 0.0)
    return m, steps


def test_v_m3_a_hand_ends_and_the_match_goes_on_for_n_finished_hands(played):
    m, steps = played
    assert GAME.match_over(m) and len(m.results) == 3
    assert len(steps) == 2 + m.voids
    with pytest.raises(RuleError):
        GAME.start_next_hand(m, SeededRNG(9))
    assert GAME.next_hand_seconds == 10  # V-M3: the pause before the next hand


def test_v_m4_totals_and_places_lowest_first(played):
    m, _steps = played
    res = GAME.match_result(m)
    assert res.totals == [sum(r["scores"][s] for r in m.results) for s in range(4)]
    best = min(res.totals)
    assert all((p == 1) == (t == best) for p, t in zip(res.places, res.totals))
    assert res.hands == 3


def test_v_m4_partners_place_by_team_totals():
    from games.kdvli.engine.match import Match

    m = Match(GAME.clean_options({"hands": 3, "partners": True}), new_hand(0, SeededRNG(1)))
    m.results = [{"hand_no": 1, "scores": [10, -50, 30, 5]}]
    assert m.team_totals() == [40, -45] and m.places() == [3, 1, 3, 1]


def test_v_m5_starters_rotate_and_a_void_hand_is_replayed_by_the_same_starter(played):
    _m, steps = played
    for (starter, no, void), (nstarter, nno) in steps:
        if void:
            assert (nstarter, nno) == (starter, no)
        else:
            assert (nstarter, nno) == ((starter + 1) % 4, no + 1)
    m = GAME.new_match({"hands": 3}, 4, SeededRNG(77))
    m.hand.deck = m.hand.deck[-1:]
    seat = m.hand.turn
    GAME.apply(
        m, seat, {"type": "discard", "tile_id": m.hand.ids[m.hand.racks[seat].tiles()[0]]}, 0
    )
    nxt = (seat + 1) % 4
    GAME.apply(m, nxt, {"type": "draw"}, 0)
    GAME.apply(m, nxt, {"type": "discard", "tile_id": m.hand.ids[m.hand.racks[nxt].tiles()[0]]}, 0)
    assert m.hand.void
    GAME.start_next_hand(m, SeededRNG(78))
    assert (m.hand.starter, m.hand_no) == (seat, 1)


def test_v_m5_first_starter_drawn_with_the_rng():
    starters = {GAME.new_match({}, 4, SeededRNG(i)).hand.starter for i in range(40)}
    assert starters == {0, 1, 2, 3}


# --- 4. Dealing ------------------------------------------------------------------------------


class _FakeFirst(random.Random):
    """Shuffles so that a fake okey is turned first."""

    def shuffle(self, x):
        super().shuffle(x)
        i = x.index(104)
        x[0], x[i] = x[i], x[0]


def test_v_d1_a_fake_okey_indicator_goes_back():
    indicator, rest = shuffled_deal(_FakeFirst(1))
    assert face_of(indicator) != FAKE and 104 in rest and len(rest) == NUM_TILES - 1
    with pytest.raises(ScenarioError):
        load_scenario(scenario(indicator="F"))


def test_v_d2_fifteen_fourteen_and_48_in_the_deck():
    hand = new_hand(2, SeededRNG(8))
    assert [r.count() for r in hand.racks] == [14, 14, 15, 14]
    assert len(hand.deck) == 48
    s = scenario()
    s["racks"][1] = s["racks"][1][:13]
    with pytest.raises(ScenarioError, match="must hold 14"):
        load_scenario(s)


def test_v_d3_the_starter_throws_without_taking():
    s = scenario(starter=2)
    first = s["racks"][2][0]
    s["actions"] = [act(2, "draw"), act(2, "take_discard"), act(2, "discard", tile=first)]
    out = run(s)
    assert [err(out, i) for i in range(3)] == ["first_turn_no_take", "first_turn_no_take", None]


# --- 5. A turn -----------------------------------------------------------------------------------


def test_v_n1_take_the_deck_top_or_the_thrown_tile_never_both():
    s = scenario(deck="B11 R1 K3")
    t0 = s["racks"][0][0]
    s["actions"] = [act(0, "discard", tile=t0), act(1, "take_discard"), act(1, "draw")]
    out = run(s)
    assert [err(out, i) for i in range(3)] == [None, None, "already_taken"]
    assert t0 in out["racks"][1] and out["discards"][0] == []
    s["actions"] = [act(0, "discard", tile=t0), act(1, "draw"), act(1, "take_discard")]
    out = run(s)
    assert err(out, 2) == "already_taken" and "B11" in out["racks"][1]
    assert out["deck_count"] == 2


def test_v_n1_no_earlier_discard_and_only_from_the_left():
    s = scenario(deck="B11 R1 K3 Y2")
    r = s["racks"]
    s["actions"] = [act(0, "discard", tile=r[0][0]), act(1, "draw"),
                    act(1, "discard", tile=r[1][0]), act(2, "draw"),
                    act(2, "discard", tile=r[2][0]), act(3, "draw"),
                    act(3, "discard", tile=r[3][0]),
                    act(0, "take_discard")]  # fmt: skip
    out = run(s)
    assert err(out, 7) is None and r[3][0] in out["racks"][0]
    s["actions"] = s["actions"][:3] + [act(2, "draw"), act(2, "discard", tile=r[2][0]),
                                       act(3, "take_discard")]  # fmt: skip
    out = run(s)
    assert err(out, 5) is None  # seat 2 drew; its own discard is thrown to seat 3
    s["actions"] = s["actions"][:4] + [act(2, "take_discard")]
    assert err(run(s), 4) == "already_taken"


def test_v_n2_throw_passes_right_and_racks_hold_14_between_turns():
    s = scenario(deck="B11 R1")
    r = s["racks"]
    s["actions"] = [act(0, "discard", tile=r[0][3]), act(1, "draw"), act(1, "discard", tile="B11")]
    out = run(s)
    assert out["turn"] == 2 and [len(x) for x in out["racks"]] == [14, 14, 14, 14]
    assert out["discards"][:2] == [[r[0][3]], ["B11"]]


def test_v_n3_no_opening_no_laying_off_no_claims():
    s = scenario(actions=[act(1, "claim")])
    with pytest.raises(ScenarioError, match="unknown action type"):
        load_scenario(s)
    hand = hand_of(scenario())
    for kind in ("open", "lay_off", "claim", "new_groups"):
        with pytest.raises(EngineError) as exc:
            apply(hand, 0, {"type": kind})
        assert exc.value.code == "unknown_action"


def test_v_n4_any_tile_may_be_thrown_a_real_okey_too():
    s = scenario({0: "Y6"}, actions=[act(0, "discard", tile="Y6")])
    out = run(s)
    assert out["results"] == [{"ok": True}] and out["discards"][0] == ["Y6"]


def test_v_n5_move_time_option_range():
    ok = [GAME.clean_options({"move_seconds": s})["move_seconds"] for s in (30, 45, 300)]
    assert ok == [30, 45, 300]
    assert GAME.default_move_seconds == 60 and not GAME.fixed_move_seconds


def test_v_n6_timeout_draws_and_throws_the_drawn_tile():
    s = scenario(deck="B11 R1")
    s["actions"] = [act(0, "discard", tile=s["racks"][0][0]), act(1, "timeout")]
    out = run(s)
    assert out["discards"][1] == ["B11"] and out["turn"] == 2


def test_v_n6_timeout_keeps_a_drawn_okey_and_throws_the_highest_tile():
    s = scenario({1: "R13 Y13 B13 K12 F"}, deck="Y6 R1")
    s["actions"] = [act(0, "discard", tile=s["racks"][0][0]), act(1, "timeout")]
    out = run(s)
    assert out["discards"][1] == ["R13"]  # ties: red first; the okey stays
    assert "Y6" in out["racks"][1]
    s = scenario({0: "K13 B13 Y6 R2"}, deck="R1")
    s["actions"] = [act(0, "timeout")]  # the starter: no take; the highest, blue before black
    out = run(s)
    assert out["results"] == [{"ok": True}] and out["turn"] == 1
    assert out["discards"][0] == ["B13"]


def test_v_n6_timeout_after_taking_throws_the_tile_taken_this_turn():
    s = scenario({1: "R13 Y13"}, deck="B11 R1")
    t0 = s["racks"][0][0]
    s["actions"] = [act(0, "discard", tile=t0), act(1, "take_discard"), act(1, "timeout")]
    out = run(s)
    assert out["results"] == [{"ok": True}] * 3
    assert out["discards"][1] == [t0] and out["deck_count"] == 2  # no second take


def test_v_n6_fake_okey_loses_value_ties_and_okey_only_when_alone():
    hand = hand_of(scenario({0: "F Y6 R6 K2"}))
    hand.racks[0].cells = [None] * 32
    for i, name in enumerate(("Y6", "F", "R6")):
        t = next(
            t
            for t in range(104 if name != "F" else 106)
            if face_name(face_of(t)) == name and t != hand.indicator
        )
        hand.racks[0].cells[i] = t
    assert face_name(face_of(timeout_discard(hand, 0, None))) == "R6"  # R6 before F (both 6)
    hand.racks[0].cells = [hand.racks[0].cells[0]] + [None] * 31
    assert face_name(face_of(timeout_discard(hand, 0, None))) == "Y6"


def test_v_n6_two_timeouts_mark_the_seat_away_until_it_acts():
    s = scenario(deck="B11 R1 K3 Y2 B2 R2 K9 Y9 B9 R10")
    acts = []
    for _ in range(2):
        for seat in range(4):
            acts.append(act(seat, "timeout"))
    s["actions"] = acts
    hand, actions = load_scenario(s)
    for a in actions:
        apply(hand, a["seat"], {k: v for k, v in a.items() if k != "seat"})
    assert hand.away == [True, True, True, True]
    apply(hand, 0, {"type": "draw", "auto": True})  # a bot for the away seat
    assert hand.away[0]
    apply(hand, 0, {"type": "discard", "tile": face_name(face_of(hand.racks[0].tiles()[0]))})
    assert not hand.away[0] and hand.timeouts[0] == 0


def test_v_n6_away_lasts_into_the_next_hand():
    m = GAME.new_match({"hands": 3}, 4, SeededRNG(31))
    seat = GAME.to_act(m)[0]
    m.hand.timeouts[seat], m.hand.away[seat] = 2, True
    m.hand.deck = m.hand.deck[-1:]
    GAME.on_timeout(m, seat, 0.0)
    nxt = GAME.to_act(m)[0]
    GAME.on_timeout(m, nxt, 0.0)  # draws the last tile and throws: void
    assert GAME.hand_over(m)
    GAME.start_next_hand(m, SeededRNG(32))
    assert m.hand.away[seat] and m.hand.timeouts[nxt] == 1
    assert GAME.view_for(m, None)["seats"][seat]["away"]


def test_v_n7_no_undo():
    hand = hand_of(scenario())
    with pytest.raises(EngineError) as exc:
        apply(hand, 0, {"type": "undo"})
    assert exc.value.code == "unknown_action"


# --- 6. Showing the indicator --------------------------------------------------------------------


def test_v_i1_show_on_the_first_turn_before_taking():
    s = scenario({1: "Y5"}, deck="B11 R1 K3")
    r = s["racks"]
    s["actions"] = [act(0, "discard", tile=r[0][0]), act(1, "draw"), act(1, "show_indicator")]
    assert err(run(s), 2) == "indicator_after_take"
    s["actions"] = [act(0, "discard", tile=r[0][0]), act(1, "show_indicator")]
    assert run(s)["shown"] == [False, True, False, False]
    s["actions"] = [act(0, "show_indicator")]
    assert err(run(s), 0) == "no_indicator_tile"


def test_v_i1_not_after_the_first_turn_and_the_starter_before_throwing():
    s = scenario({0: "Y5"}, deck="B11 R1 K3 Y2 B2")
    r = s["racks"]
    s["actions"] = [act(0, "show_indicator")]
    assert run(s)["bonuses"][0] == -25
    acts = [act(0, "discard", tile=r[0][1])]
    for seat in (1, 2, 3):
        acts += [act(seat, "draw"), act(seat, "discard", tile=r[seat][0])]
    acts += [act(0, "show_indicator")]
    s["actions"] = acts
    assert err(run(s), len(acts) - 1) == "not_first_turn"


def test_v_i2_bonus_minus_25_or_50_with_a_coloured_indicator_not_multiplied():
    s = scenario({0: "R5"}, indicator="R5", actions=[act(0, "show_indicator")])
    assert run(s)["bonuses"][0] == -50
    s = scenario({1: "Y5 " + RUNS14[:-3]}, deck="K1 R10")
    r = s["racks"]
    s["actions"] = [act(0, "discard", tile=r[0][0]), act(1, "show_indicator")]
    out = run(s)
    assert out["bonuses"][1] == -25 and out["scores"] is None


def test_v_i3_the_turn_goes_on_and_at_most_once():
    s = scenario({1: "Y5"}, deck="B11 R1")
    r = s["racks"]
    s["actions"] = [
        act(0, "discard", tile=r[0][0]),
        act(1, "show_indicator"),
        act(1, "show_indicator"),
        act(1, "draw"),
        act(1, "discard", tile="B11"),
    ]
    out = run(s)
    assert [err(out, i) for i in range(5)] == [None, None, "already_shown", None, None]
    assert "Y5" in out["racks"][1]
    view = GAME.view_for(_match_of(s), 2)
    assert view["seats"][1]["shown"] is True


def _match_of(s):
    from games.kdvli.engine.match import Match

    hand, actions = load_scenario(s)
    for a in actions:
        try:
            apply(hand, a["seat"], {k: v for k, v in a.items() if k != "seat"})
        except EngineError:
            pass
    return Match(GAME.clean_options({}), hand)


def test_v_i4_a_void_hand_cancels_the_bonus():
    s = scenario({0: "Y5"}, deck=[])
    s["actions"] = [act(0, "show_indicator"), act(0, "discard", tile=s["racks"][0][1])]
    out = run(s)
    assert out["void"] and out["bonuses"][0] == -25 and out["scores"] == [0, 0, 0, 0]


# --- 7. Finishing ----------------------------------------------------------------------------


def test_v_f1_finish_after_taking_with_the_15th_tile_on_the_indicator():
    s = scenario({1: RUNS14[:-3]}, deck="K1 R10")
    r = s["racks"]
    groups = [g.split() for g in ("R1 R2 R3 R4", "B7 B8 B9", "K11 K12 K13 K1", "Y11 R11 B11")]
    s["actions"] = [act(0, "discard", tile=r[0][0]),
                    act(1, "finish", tile="R10", groups=groups),
                    act(1, "draw"),
                    act(1, "finish", tile=r[1][-1], groups=groups)]  # fmt: skip
    out = run(s)
    assert err(out, 1) == "must_take_first"
    assert err(out, 3) is None and out["finisher"] == 1
    assert out["finish_tile"] == r[1][-1] and out["discards"][1] == []


def test_v_f2_runs_or_seven_pairs_never_mixed():
    assert finish_kind([F("R1 R2 R3 R4"), F("B7 B8 B9"), F("K11 K12 K13 K1"),
                        F("Y11 R11 B11")], Y6) == "runs"  # fmt: skip
    pairs = [F(p) for p in ("R2 R2", "Y3 Y3", "B4 B4", "K7 K7", "R9 R9", "Y10 Y10", "B12 B12")]
    assert finish_kind(pairs, Y6) == "pairs"
    assert finish_kind(pairs[:5] + [F("R5 R6 R7 R8")], Y6) is None
    assert finish_kind(pairs[:6] + [F("B12 Y6")], Y6) == "pairs"
    assert finish_kind([F("R1 R2 R3 R4 B7 B8 B9 K11 K12 K13 Y11 R11 B11 K1")], Y6) is None


def test_v_f3_bad_groups_are_refused_and_change_nothing():
    s = scenario({0: RUNS14 + " Y13"})
    s["actions"] = [act(0, "finish", tile="Y13", groups=[RUNS14.split()[:7],
                                                        RUNS14.split()[7:]])]  # fmt: skip
    out = run(s)
    assert err(out, 0) == "invalid_finish" and not out["over"] and out["turn"] == 0
    s["actions"] = [act(0, "finish", tile="Y13", groups=[RUNS14.split()[:-1]])]
    assert err(run(s), 0) == "finish_mismatch"


def test_v_f3_the_kind_arranged_counts_and_rack_segments_serve_without_groups():
    s = scenario({0: PAIRS14 + " K13"})
    pairs = [PAIRS14.split()[i : i + 2] for i in range(0, 14, 2)]
    s["actions"] = [act(0, "finish", tile="K13", groups=pairs)]
    out = run(s)
    assert out["finish_kind"] == "pairs" and out["multiplier"] == 2
    hand = hand_of(scenario({0: RUNS14 + " Y13"}))
    from games.kdvli.engine.hand import arrange

    arrange(hand, 0, "runs")
    y13 = next(t for t in hand.racks[0].tiles() if face_name(face_of(t)) == "Y13")
    apply(hand, 0, {"type": "finish", "tile_id": hand.ids[y13]})
    assert hand.finish_kind == "runs"


def test_v_f4_any_tile_may_finish_a_real_okey_doubles_a_fake_does_not():
    s = scenario({0: RUNS14 + " Y6"}, actions=[act(0, "finish", tile="Y6",
                                                   groups=RUNS_GROUPS)])  # fmt: skip
    out = run(s)
    assert out["multiplier"] == 2 and out["scores"][0] == -100
    s = scenario({0: RUNS14 + " F"}, actions=[act(0, "finish", tile="F",
                                                  groups=RUNS_GROUPS)])  # fmt: skip
    assert run(s)["multiplier"] == 1


def test_v_f5_finishing_ends_the_hand_and_is_allowed_with_the_last_tile():
    s = scenario({1: RUNS14[:-3]}, deck="K1")
    groups = [g.split() for g in ("R1 R2 R3 R4", "B7 B8 B9", "K11 K12 K13 K1", "Y11 R11 B11")]
    r = s["racks"]
    s["actions"] = [act(0, "discard", tile=r[0][0]), act(1, "draw"),
                    act(1, "finish", tile=r[1][-1], groups=groups), act(2, "draw")]  # fmt: skip
    out = run(s)
    assert out["over"] and not out["void"] and out["deck_count"] == 0
    assert err(out, 3) == "hand_over" and out["turn"] is None


# --- 8. Scoring -----------------------------------------------------------------------------------


def test_v_s1_multiplier_eight_for_coloured_pairs_okey():
    okey = face_name(okey_face(parse_face("K5")))  # K6
    s = scenario({0: PAIRS14 + " " + okey}, indicator="K5")
    pairs = [PAIRS14.split()[i : i + 2] for i in range(0, 14, 2)]
    s["actions"] = [act(0, "finish", tile=okey, groups=pairs)]
    out = run(s)
    assert out["multiplier"] == 8 and out["scores"][0] == -400
    assert out["scores"][1:] == [p * 8 for p in out["points"][1:]]


def test_v_s2_points_are_the_min_of_runs_and_twice_pairs_whatever_the_layout():
    s = scenario({1: "R2 R2 Y7 Y7 B3 B3 K13 K13 R5 R5 K1 Y4 B6 R12"})
    out = run(s)
    assert out["points"][1] == 46
    hand = hand_of(s)
    before = hand.points_of(1)
    hand.racks[1].cells.reverse()
    assert hand.points_of(1) == before


def test_v_s3_finisher_minus_50_times_m_others_points_times_m_plus_bonuses():
    s = scenario({1: "Y5 " + RUNS14[:-3]}, deck="K1 R10", indicator="Y5")
    r = s["racks"]
    groups = [g.split() for g in ("R1 R2 R3 R4", "B7 B8 B9", "K11 K12 K13 K1", "Y11 R11 B11")]
    s["actions"] = [act(0, "discard", tile=r[0][0]), act(1, "show_indicator"), act(1, "draw"),
                    act(1, "finish", tile="Y5", groups=groups)]  # fmt: skip
    out = run(s)
    assert out["scores"][1] == -50 - 25
    assert [out["scores"][s] for s in (0, 2, 3)] == [out["points"][s] for s in (0, 2, 3)]


def test_v_s4_partners_are_scored_seat_by_seat():
    s = scenario(
        {0: RUNS14 + " Y13"},
        partners=True,
        actions=[act(0, "finish", tile="Y13", groups=RUNS_GROUPS)],
    )
    out = run(s)
    assert out["scores"][2] == out["points"][2] > 0  # the finisher's partner pays
    assert out["team_scores"] == [-50 + out["scores"][2], out["scores"][1] + out["scores"][3]]


def test_v_s5_only_the_seat_sees_its_points():
    m = GAME.new_match({}, 4, SeededRNG(11))
    for seat in range(4):
        v = GAME.view_for(m, seat)
        assert v["points"] == m.hand.points_of(seat)
    assert "points" not in GAME.view_for(m, None)


# --- 9. The void hand ----------------------------------------------------------------------------


def test_v_e1_a_discard_on_an_empty_deck_ends_the_hand():
    s = scenario(deck="B11")
    r = s["racks"]
    s["actions"] = [act(0, "discard", tile=r[0][0]), act(1, "draw"),
                    act(1, "discard", tile="B11"), act(2, "take_discard")]  # fmt: skip
    out = run(s)
    assert out["over"] and out["void"] and err(out, 3) == "hand_over"
    assert out["discards"][1] == ["B11"] and out["multiplier"] is None


def test_v_e2_nothing_is_written_and_the_hand_does_not_count():
    m = GAME.new_match({"hands": 3}, 4, SeededRNG(12))
    hand = m.hand
    hand.deck = hand.deck[-1:]
    seat = hand.turn
    GAME.apply(m, seat, {"type": "discard", "tile_id": hand.ids[hand.racks[seat].tiles()[0]]}, 0)
    nxt = (seat + 1) % 4
    GAME.apply(m, nxt, {"type": "draw"}, 0)
    GAME.apply(m, nxt, {"type": "discard", "tile_id": hand.ids[hand.racks[nxt].tiles()[0]]}, 0)
    assert hand.void and hand.scores == [0, 0, 0, 0] and m.results == [] and m.voids == 1
    GAME.start_next_hand(m, SeededRNG(13))
    assert m.hand_no == 1 and m.hand.starter == hand.starter


# --- 10. What each seat may see ------------------------------------------------------------------


def test_v_h1_v_h2_a_seat_sees_its_own_rack_and_only_counts_of_others():
    m = GAME.new_match({}, 4, SeededRNG(14))
    v = GAME.view_for(m, 1)
    own = {c["id"] for c in v["rack"]["cells"] if c}
    assert own == {m.hand.ids[t] for t in m.hand.racks[1].tiles()}
    text = str(v)
    for seat in (0, 2, 3):
        for t in m.hand.racks[seat].tiles():
            assert m.hand.ids[t] not in text
    for t in m.hand.deck:
        assert m.hand.ids[t] not in text
    assert [s["count"] for s in v["seats"]] == [r.count() for r in m.hand.racks]
    assert v["deck_count"] == 48 and "order" not in v["fair"]


def test_v_h3_bots_choose_from_the_view():
    m = GAME.new_match({}, 4, SeededRNG(15))
    seat = GAME.to_act(m)[0]
    a = GAME.bot_choose(GAME.view_for(m, seat), "hard", random.Random(1))
    GAME.apply(m, seat, a, 0.0)


def test_v_h4_the_end_reveals_every_rack_with_its_count():
    s = scenario({0: RUNS14 + " Y13"}, actions=[act(0, "finish", tile="Y13", groups=RUNS_GROUPS)])
    m = _match_of(s)
    v = GAME.view_for(m, 2)
    assert [e["points"] for e in v["reveal"]] == run(s)["points"]
    assert v["reveal"][0]["finish_tile"] == "Y13" and v["reveal"][1]["tiles"]
    assert "order" in v["fair"]


# --- 11. Rack ----------------------------------------------------------------------------------------


def test_v_r1_layout_moves_and_separators_kept():
    hand = hand_of(scenario())
    t = hand.racks[0].tiles()[0]
    apply(hand, 2, {"type": "separator", "at": 3})  # out of turn: layout is always allowed
    apply(hand, 0, {"type": "move", "tile_id": hand.ids[t], "to": 20})
    assert hand.racks[0].cells[20] == t and 3 in hand.racks[2].seps
    again = type(hand).from_dict(hand.to_dict())
    assert again.racks[0].cells == hand.racks[0].cells
    with pytest.raises(EngineError):
        apply(hand, 0, {"type": "layout", "cells": [None] * 32})


def test_v_r2_seri_diz_and_cift_diz_arrange_without_playing():
    hand = hand_of(scenario({0: "R2 R2 R3 R4 Y9 Y9 K1 K1"}))
    before = sorted(hand.racks[0].tiles())
    apply(hand, 0, {"type": "arrange", "how": "runs"})
    segs = [[face_name(face_of(t)) for t in g] for g in hand.racks[0].segments()]
    assert ["R2", "R3", "R4"] in segs
    apply(hand, 0, {"type": "arrange", "how": "pairs"})
    segs = [[face_name(face_of(t)) for t in g] for g in hand.racks[0].segments()]
    assert ["R2", "R2"] in segs and ["Y9", "Y9"] in segs
    assert sorted(hand.racks[0].tiles()) == before and hand.turn == 0


def test_v_h1_which_tile_a_player_took_from_a_pile_is_public():
    s = scenario(deck="B11 R1")
    t0 = s["racks"][0][0]
    s["actions"] = [act(0, "discard", tile=t0), act(1, "take_discard")]
    m = _match_of(s)
    for seat in (0, 2, 3, None):
        v = GAME.view_for(m, seat)
        assert v["seats"][1]["picked"] == [t0] and v["seats"][0]["discards"] == []
        assert v["seats"][1]["count"] == 15 and v["taken"] and v["turn"] == 1


def test_v_s5_the_points_shown_are_those_after_the_seats_last_discard():
    """V-S5: *Masa ayarları* shows a seat's points after each of its discards; the view
    keeps them through the seat's next turn (a page loaded mid-turn shows them too): the
    rack without the tile taken this turn.  Before the starter's first discard: none."""
    m = GAME.new_match({"hands": 3}, 4, SeededRNG("v-s5-points"))
    hand = m.hand
    starter = hand.turn
    assert GAME.view_for(m, starter)["points_shown"] is None  # 15 tiles, no discard yet
    nxt = (starter + 1) % 4
    before = GAME.view_for(m, nxt)["points"]
    assert GAME.view_for(m, nxt)["points_shown"] == before  # not its turn: its rack now
    view = GAME.view_for(m, starter)
    discard = next(c for c in view["rack"]["cells"] if c)["id"]
    GAME.apply(m, starter, {"type": "discard", "tile_id": discard}, 0.0)
    shown = GAME.view_for(m, starter)["points_shown"]
    assert shown == GAME.view_for(m, starter)["points"] == hand.points_of(starter)
    GAME.apply(m, nxt, {"type": "draw"}, 0.0)  # 15 tiles mid-turn
    view = GAME.view_for(m, nxt)
    assert view["points_shown"] == before
    assert hand.took is not None and view["points"] == hand.points_of(nxt)
