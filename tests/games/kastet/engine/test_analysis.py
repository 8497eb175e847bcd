"""Kastet's analysis (issue 31, games/kastet/engine/analysis.py): the most tiles one lay
can place against the integer programme of test_search_reference (PuLP) on small tables,
the upper bound that spares the search, golden scenarios with hand-checked marks, the
command, determinism, the budget, secrecy."""

from __future__ import annotations

import json
import random

import pytest

from game.engine.analysis_bench import play_hands
from games.kastet.engine.analysis import analyse, best_lay, placeable
from games.kastet.engine.replay import run_scenario
from games.okey.engine.tiles import face_name
from tests.engine.analysis_helpers import (
    check_prefix,
    check_secrecy,
    check_shape,
    run_command,
)


def _view(table: list[list[int]], rack: list[int], okey: int) -> dict:
    """The parts of a seat's view the analysis reads (S-V1)."""
    tile = lambda f: {"face": face_name(f)}  # noqa: E731
    return {"okey": face_name(okey), "table": [{"tiles": [tile(f) for f in g]} for g in table],
            "rack": {"cells": [tile(f) for f in rack]}}  # fmt: skip


@pytest.mark.parametrize("seed", range(12))
def test_best_lay_equals_the_integer_programme(seed):
    """S-L2, S-L3, S-A1: rearranging the table freely, as many rack tiles as the optimum."""
    ref = pytest.importorskip("tests.games.kastet.engine.test_search_reference")
    table, rack, okey = ref.random_position(random.Random(seed))
    groups = [table[i : i + 3] for i in range(0, len(table), 3)]  # runs of three
    view = _view(groups, rack, okey)
    want = ref.optimum(table, rack, okey)
    assert placeable(view) >= want  # the upper bound that ends the search is valid
    for target in (None, placeable(view)):  # stopped at the bound, or run to its end
        best, _layout, optimal, _nodes = best_lay(view, 200_000, 0, target)
        assert optimal
        assert best == want, (seed, table, rack, okey)


@pytest.mark.parametrize("seed", [1017, 1024, 1044, 1102])
def test_placeable_bounds_the_optimum_on_larger_tables(seed):
    ref = pytest.importorskip("tests.games.kastet.engine.test_search_reference")
    table, rack, okey = ref.mid_position(random.Random(seed))
    view = _view([table], rack, okey)  # one list of table tiles is enough for the bound
    assert placeable(view) >= ref.optimum(table, rack, okey)


# --- golden scenarios ------------------------------------------------------------------

RACKS = [["R1", "R2", "R3", "K9", "B12"],
         ["Y5", "Y9", "B2", "K4", "K11"],
         ["R8", "Y12", "B6", "K1", "K7"],
         ["R10", "Y3", "B9", "K13", "Y1"]]  # fmt: skip


def scenario(actions, racks=RACKS):
    return {"game": "kastet", "starter": 0, "indicator": "B4", "racks": racks,
            "deck": ["Y7", "B11", "K2", "R5", "Y8"], "actions": actions}  # fmt: skip


def test_golden_draw_instead_of_a_run_is_a_big_loss():
    """S-N1: seat 0 could lay R1 R2 R3 (3 tiles) and drew: cost 3, a big loss."""
    out = analyse(scenario([{"seat": 0, "type": "draw"}]))
    (d,) = out["decisions"]
    assert (d["value"], d["best_value"], d["cost"], d["mark"]) == (0, 3, 3, "big_loss")
    assert d["notes"] == ["missed_lay"] and d["exact"]
    assert d["best"] == {"type": "lay", "table": [["R1", "R2", "R3"]]}


def test_golden_laying_the_run_is_good():
    out = analyse(scenario([{"seat": 0, "type": "lay", "table": [["R1", "R2", "R3"]]},
                            {"seat": 0, "type": "pass"}]))  # fmt: skip
    (d,) = out["decisions"]
    assert (d["value"], d["best_value"], d["cost"], d["mark"], d["step"]) == (3, 3, 0, "good", 1)
    assert d["played"] == {"type": "lay", "table": [["R1", "R2", "R3"]]}


def test_golden_missed_finish():
    """S-F1: seat 0 holds R1 R2 R3 R4 and could empty its rack; it laid three tiles."""
    racks = [["R1", "R2", "R3", "R4"]] + RACKS[1:]
    out = analyse(scenario([{"seat": 0, "type": "lay", "table": [["R1", "R2", "R3"]]},
                            {"seat": 0, "type": "pass"}], racks))  # fmt: skip
    (d,) = out["decisions"]
    assert (d["value"], d["best_value"], d["cost"], d["mark"]) == (3, 4, 1, "loss")
    assert d["notes"] == ["missed_finish"]


# --- bot hands ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hands():
    return play_hands("kastet", 3, 4, ["hard", "easy", "normal", "easy"])


def test_bot_hands_are_analysed(hands):
    for data in hands:
        out = analyse(data)
        check_shape(out, "kastet", "tiles")
        for d in out["decisions"]:
            assert d["exact"] or d["bound"]


def test_command(hands):
    proc = run_command(json.dumps(hands[0]))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["unit"] == "tiles"
    proc = run_command(json.dumps(dict(hands[0], actions=[{"seat": 0, "type": "discard"}])))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and proc.stdout == ""


def test_deterministic(hands):
    assert json.dumps(analyse(hands[1])) == json.dumps(analyse(json.loads(json.dumps(hands[1]))))


def test_small_budget_analyses_a_prefix(hands):
    full = analyse(hands[2], budget=10**7)
    part = analyse(hands[2], budget=5)  # shared out, one node a turn: 5 searched turns
    check_prefix(full, part)
    cut = analyse(hands[2], budget=1)
    assert not cut["complete"] and cut["budget"]["used"] <= 1


def test_a_cut_search_says_so():
    """A search stopped by its node budget gives a lower bound: exact false, its bound."""
    out = analyse(scenario([{"seat": 0, "type": "draw"}]), budget=1)
    (d,) = out["decisions"]
    assert not d["exact"] and d["bound"] == "nodes 1"


def test_secrecy_other_racks_and_the_deck_order_do_not_matter(hands):
    """S-V2, P-1: a seat's analysis reads its own view only."""
    checked = check_secrecy(hands, run_scenario, analyse, "table")
    assert checked >= 2


def test_best_lays_are_legal_and_place_the_best_value(hands):
    """S-L1…S-L3: the engine accepts each best lay at the start of its turn, and it
    places exactly the best value of rack tiles."""
    from game.engine.errors import EngineError
    from games.kastet.engine.replay import load_scenario
    from games.kastet.engine.rules import apply
    from games.kastet.engine.state import HandState

    checked = 0
    for data in hands:
        hand, actions = load_scenario(data)
        starts, cur = {}, None
        for step, a in enumerate(actions):
            if not hand.over and a["seat"] == hand.turn and (cur is None or cur[0] != hand.turn_no):
                cur = (hand.turn_no, HandState.from_dict(hand.to_dict()))
            turn = hand.turn_no
            try:
                apply(hand, a["seat"], {k: v for k, v in a.items() if k != "seat"})
            except EngineError:
                continue
            if hand.turn_no != turn or hand.over:
                starts[step] = cur[1]
        for d in analyse(data)["decisions"]:
            if d["best"] is None:
                continue
            h = starts[d["step"]]
            before = h.rack_count(d["seat"])
            apply(h, d["seat"], d["best"])
            assert before - h.rack_count(d["seat"]) == d["best_value"]
            checked += 1
    assert checked >= 3
