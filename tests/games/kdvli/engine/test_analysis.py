"""KDVli's analysis (issue 31, games/kdvli/engine/analysis.py): the best discard or finish
against the independent brute force (tests/games/kdvli/engine/reference.py) on small racks,
golden scenarios with hand-checked marks (a missed finish on the rack and with the
thrown tile), the command, determinism, the budget, secrecy."""

from __future__ import annotations

import json
import random

import pytest

from game.engine.analysis import Budget
from game.engine.analysis_bench import play_hands
from games.kdvli.engine.analysis import _Counter, analyse, options
from games.kdvli.engine.replay import run_scenario
from games.okey.engine.tiles import FAKE, face_name, parse_face
from tests.engine.analysis_helpers import (
    check_prefix,
    check_secrecy,
    check_shape,
    run_command,
)
from tests.games.kdvli.engine.reference import pairs_points, runs_points


def brute_best(faces: list[int], okey: int, coloured: bool) -> int:
    """V-S2, V-S3, V-S5: the least of the points shown after each discard and of −50 × M
    for each runs finish (small racks: no seven pairs)."""
    best = None
    for d in set(faces):
        rest = list(faces)
        rest.remove(d)
        runs = runs_points(rest, okey)
        v = min(runs, 2 * pairs_points(rest, okey))
        if runs == 0:
            v = -50 * (2 if coloured else 1) * (2 if d == okey else 1)
        best = v if best is None else min(best, v)
    return best


def small_rack(rng: random.Random) -> tuple[list[int], int]:
    okey = rng.randrange(52)
    c, s = rng.randrange(4), rng.randrange(1, 10)
    near = [c * 13 + k - 1 for k in range(s, s + 4)] + [rng.randrange(4) * 13 + s - 1
                                                      for _ in range(3)]  # fmt: skip
    pool = near + [okey, FAKE] + [rng.randrange(52) for _ in range(4)]
    faces: list[int] = []
    while len(faces) < rng.randrange(5, 9):
        f = rng.choice(pool)
        if faces.count(f) < 2:
            faces.append(f)
    return faces, okey


@pytest.mark.parametrize("seed", range(60))
def test_best_move_equals_the_brute_force(seed):
    faces, okey = small_rack(random.Random(seed))
    coloured = seed % 2 == 0
    count = _Counter(okey, Budget(10**6, "counts"))
    best = options(faces, okey, coloured, count)[0]
    assert best[0] == brute_best(faces, okey, coloured), (seed, faces, okey)


# --- golden scenarios ------------------------------------------------------------------


def deal(fixed: list[list[str]], indicator: str, starter: int = 0) -> dict:
    """Racks with the given tiles first, the rest dealt from the unused tiles."""
    used: dict[str, int] = {indicator: 1}
    for r in fixed:
        for t in r:
            used[t] = used.get(t, 0) + 1
    pool = []
    for f in range(53):
        name = face_name(f)
        pool += [name] * (2 - used.get(name, 0))
    racks = []
    for seat, r in enumerate(fixed):
        want = 15 if seat == starter else 14
        racks.append(list(r) + pool[: want - len(r)])
        pool = pool[want - len(r) :]
    return {"game": "kdvli", "starter": starter, "indicator": indicator, "racks": racks,
            "deck": pool[:10]}  # fmt: skip


FINISHER = ["R1", "R2", "R3", "R4", "Y4", "Y5", "Y6", "B7", "B8", "B9", "K10", "K11", "K12",
            "K13", "R13"]  # fmt: skip


def test_golden_missed_finish_on_the_rack():
    """V-F1, V-F2: 14 tiles in runs and R13 to put on the indicator (colourless Y9:
    −50); throwing R13 instead shows 0 points: cost 50, a big loss."""
    data = deal([FINISHER, [], [], []], "Y9")
    data["actions"] = [{"seat": 0, "type": "discard", "tile": "R13"}]
    (d,) = analyse(data)["decisions"]
    assert (d["value"], d["best_value"], d["cost"], d["mark"]) == (0, -50, 50, "big_loss")
    assert d["notes"] == ["missed_finish"] and d["exact"]
    assert d["best"]["type"] == "finish" and d["best"]["tile"] == "R13"


def test_golden_wrong_discard_is_a_big_loss():
    """V-S5: throwing R4 keeps R13 out of every run: 13 points shown (R1 R2 R3 stay a
    run), against −50."""
    data = deal([FINISHER, [], [], []], "Y9")
    data["actions"] = [{"seat": 0, "type": "discard", "tile": "R4"}]
    (d,) = analyse(data)["decisions"]
    assert (d["value"], d["best_value"], d["cost"]) == (13, -50, 63)


def test_golden_finish_is_good_and_coloured_doubles():
    """V-S1: a red indicator doubles: the finisher's −100 is the best."""
    data = deal([FINISHER, [], [], []], "R9")
    data["actions"] = [{"seat": 0, "type": "finish", "tile": "R13",
                        "groups": [FINISHER[:4], FINISHER[4:7], FINISHER[7:10], FINISHER[10:14]]}]  # fmt: skip
    (d,) = analyse(data)["decisions"]
    assert (d["value"], d["best_value"], d["cost"], d["mark"]) == (-100, -100, 0, "good")


def test_golden_draw_missing_a_finish_with_the_thrown_tile():
    """V-N1: K4 thrown to seat 1 makes K1…K5 and a finish on R11; seat 1 drew instead."""
    seat1 = ["Y1", "Y2", "Y3", "K1", "K2", "K3", "B1", "B2", "B3", "R5", "R6", "R7", "K5", "R11"]
    data = deal([["K4"], seat1, [], []], "Y9")
    data["actions"] = [{"seat": 0, "type": "discard", "tile": "K4"},
                       {"seat": 1, "type": "draw"},
                       {"seat": 1, "type": "discard", "tile": "R11"}]  # fmt: skip
    out = analyse(data)
    take = next(d for d in out["decisions"] if d["kind"] == "take")
    end = next(d for d in out["decisions"] if d["seat"] == 1 and d["kind"] == "discard")
    assert take["step"] == 1 and take["played"] == {"type": "draw"}
    assert take["best"]["type"] == "take_discard" and take["best"]["then"]["tile"] == "R11"
    assert take["best_value"] == -50 and take["value"] == end["value"]
    assert take["notes"] == ["missed_finish"] and take["mark"] == "big_loss"


# --- bot hands ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hands():
    return play_hands("kdvli", 6, 2, ["hard", "easy", "normal", "easy"])


def test_bot_hands_are_analysed(hands):
    for data in hands:
        out = analyse(data)
        check_shape(out, "kdvli", "points")
        assert out["complete"] and all(d["exact"] for d in out["decisions"])


def test_command(hands):
    proc = run_command(json.dumps(hands[0]))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["game"] == "kdvli"
    bad = dict(hands[0], racks=[[], [], [], []])
    proc = run_command(json.dumps(bad))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and proc.stdout == ""


def test_deterministic(hands):
    assert json.dumps(analyse(hands[1])) == json.dumps(analyse(json.loads(json.dumps(hands[1]))))


def test_small_budget_analyses_a_prefix(hands):
    full = analyse(hands[0])
    part = analyse(hands[0], budget=full["budget"]["used"] // 2)
    check_prefix(full, part)


def test_secrecy_other_racks_and_the_deck_order_do_not_matter(hands):
    """V-H2, P-1: a seat's analysis reads its own view only."""
    checked = check_secrecy(hands, run_scenario, analyse, "discards")
    assert checked >= 4


def test_parse_face_round_trip():
    assert parse_face(face_name(FAKE)) == FAKE


def _before(data) -> dict:
    """The hand before each accepted action, by its index."""
    from game.engine.errors import EngineError
    from games.kdvli.engine.hand import apply
    from games.kdvli.engine.replay import load_scenario

    hand, actions = load_scenario(data)
    out = {}
    for step, a in enumerate(actions):
        copy = hand.copy()
        try:
            apply(hand, a["seat"], {k: v for k, v in a.items() if k != "seat"})
        except EngineError:
            continue
        out[step] = copy
    return out


def _value_after(hand, seat: int, actions: list[dict]) -> int:
    from games.kdvli.engine.hand import apply

    h = hand.copy()
    for a in actions:
        apply(h, seat, a)
    return -50 * h.multiplier if h.finisher == seat else h.points_of(seat)


def _best_moves(hand, d: dict) -> list[dict]:
    """The actions that play a decision's best from the hand before its step."""
    if d["kind"] == "take":
        return [{"type": "take_discard"}, d["best"]["then"]]
    if d["played"]["type"] == "timeout" and not hand.may_play():
        return [{"type": "draw" if hand.deck else "take_discard"}, d["best"]]
    return [d["best"]]


def test_best_moves_are_legal_and_reach_the_best_value(hands):
    """V-F1…V-F3, V-S1…V-S5: the engine accepts the best discard or finish (after the
    thrown tile, for a take) and it is worth exactly the best value."""
    checked = 0
    for data in hands:
        before = _before(data)
        for d in analyse(data)["decisions"]:
            if d["best"] is None:
                continue
            hand = before[d["step"]]
            assert _value_after(hand, d["seat"], _best_moves(hand, d)) == d["best_value"]
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("seed", range(10))
def test_random_hands_with_takes_and_timeouts(seed):
    """V-N1, V-N6: random takes, discards and timeouts; the shape holds and every best
    move is legal and worth its best value."""
    from game.engine.fair import SeededRNG
    from games.kdvli.engine.hand import apply, new_hand
    from games.kdvli.engine.replay import export_scenario

    rng = random.Random(seed)
    hand = new_hand(seed % 4, SeededRNG(seed))
    while not hand.over:
        seat = hand.turn
        if rng.random() < 0.1:
            apply(hand, seat, {"type": "timeout"})
            continue
        if not hand.may_play():
            take = hand.thrown is not None and (rng.random() < 0.3 or not hand.deck)
            apply(hand, seat, {"type": "take_discard" if take else "draw"})
        tile = rng.choice(hand.racks[seat].tiles())
        apply(hand, seat, {"type": "discard", "tile_id": hand.ids[tile]})
    data = export_scenario(hand)
    out = analyse(data)
    check_shape(out, "kdvli", "points")
    before = _before(data)
    for d in out["decisions"]:
        if d["best"] is None:
            continue
        h = before[d["step"]]
        assert _value_after(h, d["seat"], _best_moves(h, d)) == d["best_value"]
