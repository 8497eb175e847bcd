"""Rule-by-rule unit tests for what scenario files cannot show (the deal, ids, views,
the rack layout, the match around the hands).  Each test names the rule ids it covers."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from game.engine.errors import RuleError
from game.engine.fair import SeededRNG
from games.kut.engine import timing
from games.kut.engine.deal import hand_from_faces, new_hand
from games.kut.engine.match import MatchState, new_match, record_hand, start_next_hand
from games.kut.engine.scoring import winners
from games.kut.engine.state import HandState, next_seat
from games.kut.engine.tasks import FINISH, FIVE_PAIRS, TASK_LISTS, task_for
from games.kut.engine.transitions import apply
from games.kut.engine.views import view_for
from games.okey.engine.deal import make_ids, shuffled_deal
from games.okey.engine.groups import KUT, RUN, kut_values, pair_values, run_values
from games.okey.engine.rack import Rack
from games.okey.engine.tiles import (
    FAKE,
    NotationError,
    copies_of,
    face_name,
    face_of,
    okey_face,
    parse_face,
)

F = parse_face


def faces(*names):
    return [F(n) for n in names]


# ---------------------------------------------------------------- section 1: tiles
def test_k_t1_the_set_has_106_tiles():
    """K-T1: four colours 1-13 twice, plus two fake okeys."""
    counts = Counter(face_of(t) for t in range(106))
    assert len(counts) == 53
    assert all(n == 2 for n in counts.values())
    assert counts[FAKE] == 2


def test_k_t2_notation_round_trips():
    """K-T2: R Y B K + number; F is the fake okey."""
    for f in range(53):
        assert parse_face(face_name(f)) == f
    assert face_name(F("K13")) == "K13"
    # exactly the notation: no small letters, no spaces (kut-scenario.md: malformed)
    for bad in ("R0", "R14", "X3", "", "FF", 7, None, "R 5", "k13", "f", " R5", "R5 ", "R05"):
        with pytest.raises(NotationError):
            parse_face(bad)


def test_k_t3_indicator_is_out_of_play():
    """K-T3: the indicator stays on the table: it is in no rack and not in the deck."""
    for seed in range(50):
        hand = new_hand(8, 1, 0, SeededRNG(seed))
        in_play = [t for r in hand.racks for t in r.tiles()] + hand.deck
        assert hand.indicator not in in_play
        assert face_of(hand.indicator) != FAKE
        assert len(in_play) == 105


def test_k_t4_okey_is_next_number_and_13_wraps():
    """K-T4: indicator R7 -> R8; indicator K13 -> K1."""
    assert okey_face(F("R7")) == F("R8")
    assert okey_face(F("K13")) == F("K1")
    with pytest.raises(NotationError):
        okey_face(FAKE)


def test_k_t5_real_okey_is_wild_in_runs_kuts_and_pairs():
    """K-T5: okey R8 stands for missing tiles."""
    ok = F("R8")
    assert run_values(faces("B1", "R8", "B3"), ok) == faces("B1", "B2", "B3")
    assert kut_values(faces("Y4", "B4", "R8", "K4"), ok) == faces("Y4", "B4", "R4", "K4")
    assert pair_values(faces("K9", "R8"), ok) == faces("K9", "K9")


def test_k_t6_fake_okey_is_fixed():
    """K-T6: indicator B2 -> okey B3 -> F is a B3 and nothing else."""
    ok = F("B3")
    assert run_values(faces("B2", "F", "B4"), ok) == faces("B2", "B3", "B4")
    assert run_values(faces("R2", "F", "R4"), ok) is None
    assert pair_values(faces("F", "F"), ok) == faces("B3", "B3")


def test_k_t7_ids_are_opaque_and_per_hand():
    """K-T7: ids are unique, differ from hand to hand and reveal nothing of the face."""
    a = make_ids(SeededRNG(1))
    b = make_ids(SeededRNG(2))
    assert len(set(a)) == 106 and len(set(b)) == 106
    assert not set(a) & set(b)
    # the two copies of a face get unrelated ids; ids do not sort in face order
    assert sorted(a) != a
    for tid in a:
        assert len(tid) == 10 and int(tid, 16) >= 0


# ---------------------------------------------------------------- section 2: groups
def test_k_g1_runs():
    ok = F("K13")
    assert run_values(faces("R1", "R2", "R3"), ok)
    assert run_values(faces("R12", "R13", "R1"), ok) is None  # 1 is only low
    assert run_values(faces("R1", "R2"), ok) is None  # at least 3
    assert run_values([F(f"Y{n}") for n in range(1, 14)], ok)  # 1..13
    assert run_values(faces("R4", "Y5", "R6"), ok) is None  # one colour
    assert run_values(faces("R4", "R6", "R7"), ok) is None  # no gaps


def test_k_g2_kuts():
    ok = F("K13")
    assert kut_values(faces("R5", "Y5", "B5"), ok)
    assert kut_values(faces("R5", "Y5", "B5", "K5"), ok)
    assert kut_values(faces("B5", "B5", "R5"), ok) is None  # two blue 5s
    assert kut_values(faces("R5", "Y5", "B6"), ok) is None
    assert kut_values(faces("R5", "Y5", "B5", "K5", "R5"), ok) is None


def test_k_g3_pairs():
    ok = F("K13")
    assert pair_values(faces("R5", "R5"), ok)
    assert pair_values(faces("R5", "K13"), ok)  # a tile and a real okey
    assert pair_values(faces("K13", "K13"), ok) is None  # two okeys never
    assert pair_values(faces("F", "K13"), ok) is None  # F pairs only with F
    assert pair_values(faces("F", "F"), ok)
    assert pair_values(faces("R5", "Y5"), ok) is None


def test_k_g4_okey_position_fixes_value():
    ok = F("K13")
    assert run_values(faces("R8", "R9", "K13"), ok) == faces("R8", "R9", "R10")
    assert run_values(faces("K13", "R9", "R10"), ok) == faces("R8", "R9", "R10")
    assert run_values(faces("R10", "R9", "R8"), ok) is None  # ascending only
    assert run_values(faces("R12", "R13", "K13"), ok) is None  # okey would be 14
    assert run_values(faces("K13", "R1", "R2"), ok) is None  # okey would be 0


def test_k_g5_a_group_needs_a_natural_tile():
    ok = F("K13")
    assert run_values(faces("K13", "K13", "K13"), ok) is None
    assert kut_values(faces("K13", "K13", "K13"), ok) is None


def test_k_g6_undecided_kut_okey():
    ok = F("K13")
    assert kut_values(faces("R5", "Y5", "K13"), ok) == [F("R5"), F("Y5"), None]
    assert kut_values(faces("R5", "K13", "K13"), ok) == [F("R5"), None, None]
    assert kut_values(faces("R5", "Y5", "B5", "K13"), ok)[3] == F("K5")


# ---------------------------------------------------------------- section 3: match
def test_k_m1_next_player_is_to_the_right():
    assert [next_seat(s) for s in range(4)] == [1, 2, 3, 0]


def test_k_m2_k_m3_task_lists():
    """K-M2: 5, 8 or 12 tasks; K-M3: the exact lists, finish from hand last."""
    assert sorted(TASK_LISTS) == [5, 8, 12]
    assert TASK_LISTS[5] == (((KUT, 4),), ((RUN, 4),), ((KUT, 4), (RUN, 5)), FIVE_PAIRS,
                             FINISH)  # fmt: skip
    assert task_for(8, 6) == ((RUN, 4), (RUN, 4))
    assert task_for(12, 1) == ((KUT, 3),) and task_for(12, 10) == ((KUT, 4), (RUN, 4))
    for n, tasks in TASK_LISTS.items():
        assert len(tasks) == n and tasks[-1] == FINISH and tasks[-2] == FIVE_PAIRS
    with pytest.raises(RuleError):
        new_match(7, random.Random(1))


def _finish_hand(hand: HandState, finisher_scores):
    hand.over = True
    hand.scores = list(finisher_scores)
    hand.score_lines = [{"total": s} for s in finisher_scores]


def test_k_m4_k_m6_hands_follow_in_order_and_the_match_ends():
    """K-M4: after every hand the next task starts; after the last the match is over.
    K-M6: the first starter is drawn; each next hand starts one seat to the right."""
    rng = SeededRNG("match")
    m = new_match(5, rng)
    first = m.first_starter
    seen = []
    while True:
        hand = m.hand
        seen.append((hand.task_no, hand.starter))
        _finish_hand(hand, [10, 20, 30, 40])
        if m.hand_no == m.tasks:
            record_hand(m)
            break
        start_next_hand(m, rng)
    assert seen == [(i + 1, (first + i) % 4) for i in range(5)]
    assert m.over and m.totals == [50, 100, 150, 200] and m.winners == [0]
    assert record_hand(m) == m.results[-1]  # idempotent
    assert len(m.results) == 5
    with pytest.raises(RuleError):
        start_next_hand(m, rng)
    again = MatchState.from_dict(json.loads(json.dumps(m.to_dict())))
    assert again.to_dict() == m.to_dict()


def test_k_m6_first_starter_is_random():
    starters = {new_match(8, SeededRNG(s)).first_starter for s in range(40)}
    assert starters == {0, 1, 2, 3}


def test_k_m5_lowest_total_wins_and_ties_share():
    assert winners([10, -5, 30, 7]) == [1]
    assert winners([-100, 50, -100, 0]) == [0, 2]


# ---------------------------------------------------------------- section 4: dealing
class _FakeFirst(random.Random):
    """Shuffles, then puts a fake okey on top: the indicator must be re-turned."""

    def shuffle(self, x):
        super().shuffle(x)
        x.remove(104)
        x.insert(0, 104)


def test_k_d1_fake_okey_indicator_goes_back():
    indicator, rest = shuffled_deal(_FakeFirst(3))
    assert face_of(indicator) != FAKE
    assert 104 in rest and len(rest) == 105


def test_k_d1_secure_rng_by_default():
    import secrets

    from game.engine.fair import secure_rng

    assert isinstance(secure_rng(), secrets.SystemRandom)
    hand = new_hand(8, 1, 2, secure_rng())
    assert len(hand.deck) == 48


def test_k_d2_k_d3_deal_sizes_and_first_turn():
    """K-D2: 15 for the starter, 14 for the others, 48 in the deck. K-D3: no draw."""
    hand = new_hand(12, 3, 2, SeededRNG(9))
    assert [r.count() for r in hand.racks] == [14, 14, 15, 14]
    assert len(hand.deck) == 48
    assert hand.turn == 2 and hand.phase == "play" and hand.first_turn
    with pytest.raises(RuleError) as e:
        apply(hand, 2, {"type": "draw"})
    assert e.value.code == "first_turn_no_take"


def test_k_d4_deck_end_closes_claims_and_the_hand():
    """K-D4: the last centre tile drawn: no claims, and the hand ends at the discard."""
    names = [[f"Y{n}" for n in range(1, 14)] + ["B1", "B2"]]
    racks = names + [[f"R{n}" for n in range(1, 14)] + ["B3"],
                     [f"K{n}" for n in range(1, 14)] + ["B4"],
                     [f"Y{n}" for n in range(1, 14)] + ["B5"]]  # fmt: skip
    hand = hand_from_faces(8, 1, 0, F("B13"), [faces(*r) for r in racks], faces("B9"))
    apply(hand, 0, {"type": "discard", "tile": "B1"})
    apply(hand, 1, {"type": "draw"})
    assert not hand.claimable and hand.deck == []
    apply(hand, 1, {"type": "discard", "tile": "B9"})
    assert hand.over and hand.finisher is None and hand.scores == [200] * 4


# ---------------------------------------------------------------- section 5: timing
def test_k_n6_turn_timer_is_45_seconds_and_taking_does_not_restart_it():
    assert timing.TURN_SECONDS == 45
    d = timing.turn_deadline(1000.0)
    assert d == 1045.0
    assert timing.seconds_left(d, 1010.0) == 35.0 and not timing.is_warning(d, 1010.0)
    assert timing.is_warning(d, 1036.0) and not timing.is_expired(d, 1044.9)
    assert timing.is_expired(d, 1045.0) and timing.seconds_left(d, 2000) == 0


def test_k_n7_two_timeouts_are_counted_and_any_own_action_resets():
    hand = new_hand(8, 1, 0, SeededRNG(5))
    apply(hand, 0, {"type": "timeout"})
    assert hand.timeouts[0] == 1 and hand.turn == 1
    for seat in (1, 2, 3):
        apply(hand, seat, {"type": "timeout"})
    apply(hand, 0, {"type": "timeout"})
    assert hand.timeouts[0] == timing.AWAY_AFTER_TIMEOUTS
    for seat in (1, 2, 3):
        apply(hand, seat, {"type": "timeout"})
    apply(hand, 0, {"type": "draw"})
    assert hand.timeouts[0] == 0


# ---------------------------------------------------------------- section 8: claims
def test_k_c2_claimant_holds_at_most_29():
    hand = new_hand(8, 1, 0, SeededRNG(11))
    apply(hand, 0, {"type": "discard", "tile_id": hand.ids[hand.racks[0].tiles()[0]]})
    apply(hand, 1, {"type": "draw"})
    rack = hand.racks[2]
    extra = [t for t in hand.deck[:16]]
    for t in extra:  # rig seat 2's rack to 30 tiles
        hand.deck.remove(t)
        rack.add(t)
    assert rack.count() == 30
    with pytest.raises(RuleError) as e:
        apply(hand, 2, {"type": "claim"})
    assert e.value.code == "too_many_tiles"
    apply(hand, 3, {"type": "claim"})  # 14 tiles: fine
    assert hand.racks[3].count() == 16


# ---------------------------------------------------------------- section 11: the rack
def test_k_r1_k_r3_new_tiles_go_to_the_first_empty_cell():
    rack = Rack([1, None, 3] + [None] * 29)
    assert rack.add(9) == 1
    assert rack.add(10) == 3 or rack.cells[3] == 3
    assert len(rack.cells) == 32 and rack.count() == 4


def test_k_r2_dropping_on_a_full_cell_shifts_neighbours():
    rack = Rack([1, 2, 3, None] + [None] * 12 + [7] + [None] * 15)
    rack.move(7, 1)  # onto tile 2: 2 and 3 shift right into the empty cell
    assert rack.cells[:5] == [1, 7, 2, 3, None]
    full_row = Rack(list(range(16)) + [None] * 16)
    full_row.move(0, 5)  # within a full row (0's cell is now free): shift left
    assert full_row.cells[:6] == [1, 2, 3, 4, 5, 0] or full_row.cells[5] == 0
    assert sorted(t for t in full_row.cells if t is not None) == list(range(16))


def test_k_r3_layout_and_separators_are_kept_in_the_state():
    hand = new_hand(8, 1, 0, SeededRNG(21))
    tiles = hand.racks[0].tiles()
    cells = [None] * 32
    for i, t in enumerate(tiles):
        cells[31 - i] = hand.ids[t]
    apply(hand, 0, {"type": "layout", "cells": cells, "separators": [3, 20]})
    apply(hand, 0, {"type": "separator", "at": 7})
    again = HandState.from_dict(json.loads(json.dumps(hand.to_dict())))
    view = view_for(again, 0)
    assert [c["id"] if c else None for c in view["rack"]["cells"]] == cells
    assert view["rack"]["separators"] == [3, 7, 20]


def test_k_r1_bad_layouts_are_refused():
    hand = new_hand(8, 1, 0, SeededRNG(22))
    mine = [hand.ids[t] for t in hand.racks[0].tiles()]
    other = hand.ids[hand.racks[1].tiles()[0]]
    before = hand.to_dict()
    for cells in (
        mine[:-1] + [None] * 18,  # a tile missing
        mine[:-1] + [other] + [None] * 17,  # someone else's tile
        mine + mine[:1] + [None] * 16,  # a tile twice
    ):
        with pytest.raises(RuleError) as e:
            apply(hand, 0, {"type": "layout", "cells": cells, "separators": []})
        assert e.value.code == "bad_layout"
    assert hand.to_dict() == before


def test_k_o5_segments_and_opening_from_the_rack():
    """K-O5: segments are split by separators, empty cells and row ends; the first
    qualifying segments in reading order are used; otherwise a warning and no move."""
    rack = faces("R5", "Y5", "B5", "K5", "R1", "R2", "R3", "R4", "Y7", "Y7", "B1", "K2",
                 "K3", "Y9", "B13")  # fmt: skip
    others = [faces(*[f"Y{n}" for n in range(1, 7)], *[f"B{n}" for n in range(2, 10)]),
              faces(*[f"K{n}" for n in range(4, 14)], "R6", "R7", "R8", "R9"),
              faces(*[f"R{n}" for n in range(10, 14)], *[f"Y{n}" for n in range(10, 14)],
                    "B10", "B11", "B12", "K1", "R10", "Y10")]  # fmt: skip
    hand = hand_from_faces(8, 1, 0, F("K12"), [rack] + others, faces("B1"))
    r = hand.racks[0]
    ids = [hand.ids[t] for t in r.cells[:15]]
    # one segment of 15 tiles: no küt of exactly 4 -> warning, nothing moves
    before = hand.to_dict()
    with pytest.raises(RuleError) as e:
        apply(hand, 0, {"type": "open"})
    assert e.value.code == "task_mismatch"
    assert hand.to_dict() == before
    # a separator after the küt (cells 0-3) makes it a segment of its own
    apply(hand, 0, {"type": "separator", "at": 3})
    apply(hand, 0, {"type": "open"})
    assert hand.table[0].kind == "kut" and len(hand.table[0].tiles) == 4
    assert [hand.ids[t] for t in hand.table[0].tiles] == ids[:4]
    apply(hand, 0, {"type": "undo"})
    # cells: a run of 4 (R1-R4) then the küt; task 2 of 8 would take the run
    assert hand.racks[0].count() == 15


def test_k_o5_separators_work_on_a_full_rack():
    r = Rack(list(range(32)))
    r.toggle_separator(4)
    segs = r.segments()
    assert segs[0] == [0, 1, 2, 3, 4] and len(segs) == 3  # + row end at 15


def test_k_o5_first_qualifying_segments_in_reading_order():
    from games.kut.engine.transitions import _segments_for_task

    hand = new_hand(8, 1, 0, SeededRNG(3))
    k1 = faces("R5", "Y5", "B5", "K5")
    k2 = faces("R9", "Y9", "B9", "K9")
    order = [1, 3, 5, 7, 9, 11, 13, 15]
    cells = [None] * 32
    tiles = []
    for f in k1 + k2:
        t = copies_of(f)[0]
        tiles.append(t)
    hand.racks[0] = Rack([None] * 32)
    for i, t in enumerate(tiles[4:]):  # k2 on the top row
        cells[i] = t
    for i, t in enumerate(tiles[:4]):  # k1 on the bottom row
        cells[16 + i] = t
    hand.racks[0].cells = cells
    found = _segments_for_task(hand, 0, ((KUT, 4),))
    assert [face_of(t) for t in found[0][0]] == k2
    assert order  # reading order: top row first


# ---------------------------------------------------------------- section 7: işlek, K-L8
def test_k_l2_islek_marks_in_the_view_and_k_l8_lay_off_by_id():
    racks = [faces("R7", "R8", "R9", "R10", "Y2", "Y3", "Y4", "Y5", "Y6", "B7", "B8",
                   "K1", "K2", "K3", "B11"),  # fmt: skip
             faces("R11", "R6", "B1", "B2", "B3", "K5", "K6", "K7", "Y9", "Y10", "Y11",
                   "B12", "B13", "K9"),  # fmt: skip
             faces(*[f"Y{n}" for n in range(1, 14) if n not in (2, 3, 4, 5, 6)],
                   "B4", "B5", "B6", "R1", "R2", "R3"),
             faces("K10", "K11", "K12", "R4", "R5", "R12", "R13", "B9", "B10", "K8",
                   "K4", "Y1", "Y12", "Y13")]  # fmt: skip
    hand = hand_from_faces(8, 2, 0, F("K13"), racks, faces("Y8", "B8", "K6"))
    apply(hand, 0, {"type": "open", "groups": [["R7", "R8", "R9", "R10"]]})
    apply(hand, 0, {"type": "discard", "tile": "B11"})
    apply(hand, 1, {"type": "draw"})
    view = view_for(hand, 1)
    marks = {c["face"]: c["islek"] for c in view["rack"]["cells"] if c}
    assert marks["R11"] and marks["R6"] and not marks["B1"]
    assert view["can"]["lay_off"] is False  # seat 1 has not opened (K-O3)
    # K-L8: a tile is laid off by selecting it (its id) and then the group
    r11 = next(t for t in hand.racks[1].tiles() if face_name(face_of(t)) == "R11")
    with pytest.raises(RuleError) as e:
        apply(hand, 1, {"type": "lay_off", "tile_id": hand.ids[r11], "group": 0})
    assert e.value.code == "not_opened"
    hand.opened[1], hand.opened_at[1] = True, -5  # opened long ago
    apply(hand, 1, {"type": "lay_off", "tile_id": hand.ids[r11], "group": 0})
    assert [face_name(face_of(t)) for t in hand.table[0].tiles][-1] == "R11"


def test_rejected_actions_change_nothing():
    """Every illegal action raises a typed error with a stable code and leaves the state
    exactly as it was."""
    hand = new_hand(8, 3, 0, SeededRNG(44))
    other = hand.ids[hand.racks[1].tiles()[0]]
    bad = [
        (1, {"type": "draw"}), (0, {"type": "draw"}), (0, {"type": "fly"}),
        (0, {"type": "discard", "tile_id": other}), (0, {"type": "discard"}),
        (0, {"type": "lay_off", "tile": "R1", "group": 0}), (2, {"type": "claim"}),
        (0, {"type": "open", "groups": [["R1"]]}), (0, {"type": "undo"}), (0, "junk"),
        (7, {"type": "draw"}), (0, {"type": "move", "tile_id": other, "to": 3}),
        (0, {"type": "separator", "at": 15}), (0, {"type": "layout", "cells": []}),
    ]  # fmt: skip
    for seat, action in bad:
        before = json.dumps(hand.to_dict(), sort_keys=True)
        with pytest.raises(RuleError.__mro__[1]) as e:
            apply(hand, seat, action)
        assert e.value.code and e.value.code.replace("_", "").isalpha()
        assert json.dumps(hand.to_dict(), sort_keys=True) == before


def test_engine_imports_no_django():
    """KÜT's engine and the platform's engine package are pure Python: importing every
    module of both loads no Django."""
    from tests.engine.no_django import assert_imports_no_django

    assert_imports_no_django(
        "import pkgutil, importlib, game.engine as e, games.kut.engine as k\n"
        "for m in pkgutil.walk_packages(e.__path__, 'game.engine.'):\n"
        "    importlib.import_module(m.name)\n"
        "for m in pkgutil.walk_packages(k.__path__, 'games.kut.engine.'):\n"
        "    importlib.import_module(m.name)"
    )


# ---------------------------------------------------------------- K-R4 Diz
def test_k_r4_diz_makes_the_task_ready_kuts_first_and_opens_nothing():
    """K-R4: after Diz the task opens from the rack's segments (K-O5); küts come first
    when the task needs küts and runs; nothing is opened by Diz itself."""
    rack = faces("B9", "R5", "K2", "Y5", "B10", "R1", "B5", "B11", "K5", "B12", "Y13",
                 "R9", "K7", "Y2", "B3")  # fmt: skip
    others = [faces(*[f"Y{n}" for n in range(3, 14) if n != 5], "R2", "R3", "R4", "R6"),
              faces(*[f"K{n}" for n in range(8, 14)], "K1", "K3", "K4", "K6", "R7", "R8",
                    "R10", "R11"),
              faces("R12", "R13", "B1", "B2", "B4", "B6", "B7", "B8", "K8", "K9", "K10",
                    "Y1", "Y3", "Y4")]  # fmt: skip
    hand = hand_from_faces(8, 3, 0, F("R13"), [rack] + others, faces("B13"))
    before_tiles = sorted(hand.racks[0].tiles())
    apply(hand, 0, {"type": "arrange"})
    r = hand.racks[0]
    assert sorted(r.tiles()) == before_tiles and not hand.opened[0] and not hand.table
    segs = [[face_name(face_of(t)) for t in seg] for seg in r.segments()]
    assert sorted(segs[0]) == ["B5", "K5", "R5", "Y5"]  # the küt first
    assert segs[1] == ["B9", "B10", "B11", "B12"]
    apply(hand, 0, {"type": "open"})  # K-O5 from the segments Diz made
    assert hand.opened[0] and [g.kind for g in hand.table] == ["kut", "run"]


def test_k_r4_diz_after_opening_gathers_runs_and_kuts():
    from games.kut.engine.arrange import layout, plan_groups

    ok = F("K13")
    fs = faces("R1", "R2", "R3", "Y7", "B7", "K7", "R9", "Y11")
    groups = plan_groups(fs, ok, None, opened=True)
    assert sorted(map(sorted, groups)) == sorted(map(sorted, [faces("R1", "R2", "R3"),
                                                               faces("Y7", "B7", "K7")]))
    rack = layout([copies_of(f)[0] for f in fs], groups)
    segs = rack.segments()
    assert len(segs[0]) == 3 and len(segs[1]) == 3 and len(segs[2]) == 2
