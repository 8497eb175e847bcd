"""KÜT's analysis (issue 31, games/kut/engine/analysis.py): the best turn against a brute
force on small positions (lay-offs found by trying every ``lay_off`` the rules accept,
new groups and the discard by the independent ``solver_reference.exhaustive``), golden
scenarios with hand-checked marks, the command, determinism, the budget, secrecy."""

from __future__ import annotations

import json
import random

import pytest

from game.engine.analysis import Budget
from game.engine.analysis_bench import play_hands
from game.engine.errors import EngineError
from games.kut.engine.analysis import _Solver, analyse, best_turn
from games.kut.engine.deal import hand_from_faces
from games.kut.engine.replay import run_scenario
from games.kut.engine.scoring import is_islek
from games.kut.engine.state import Group
from games.kut.engine.transitions import apply
from games.kut.engine.views import view_for
from games.okey.engine.groups import group_values
from games.okey.engine.rack import Rack
from games.okey.engine.tiles import FAKE, copies_of, face_name, face_of, make_face, okey_face
from tests.engine.analysis_helpers import (
    check_prefix,
    check_secrecy,
    check_shape,
    run_command,
)
from tests.games.kut.engine.solver_reference import exhaustive

# --- a brute force over the rules ------------------------------------------------------


def _finish(face: int, okey: int) -> int:
    return -200 if face == okey else -100  # K-S1


def brute_opened(hand, seat: int) -> int:
    """The least value of the turn of ``seat`` (opened before, K-L1): every sequence of
    lay-offs the engine accepts, then new runs and küts and a discard (reference)."""
    okey = hand.okey
    best = [10**9]
    seen = set()

    def go(h):
        key = (tuple(sorted(face_of(t) for t in h.racks[seat].tiles())),
               tuple(tuple(face_of(t) for t in g.tiles) for g in h.table),
               tuple(g.added(h.table_turn) for g in h.table))  # fmt: skip
        if key in seen:
            return
        seen.add(key)
        faces = key[0]
        for d in set(faces):
            rest = list(faces)
            rest.remove(d)
            if not rest:
                value = _finish(d, okey)
            else:
                left = exhaustive(rest, okey, None)[1]
                value = _finish(d, okey) if left == 0 else left + 100 * is_islek(h, d)
            best[0] = min(best[0], value)
        for f in set(faces):
            for gi in range(len(h.table)):
                for end in (None, "left", "right"):
                    c = h.copy()
                    a = {"type": "lay_off", "tile": face_name(f), "group": gi}
                    if end:
                        a["end"] = end
                    try:
                        apply(c, seat, a)
                    except EngineError:
                        continue
                    go(c)

    go(hand)
    return best[0]


def brute_closed(hand, seat: int) -> int:
    """Before opening (K-O1…K-O5): 200 and the best discard, or an opening of the task
    (reference, the fewest points left as they are) and a discard."""
    okey = hand.okey
    faces = [face_of(t) for t in hand.racks[seat].tiles()]
    best = 200 + min(100 * is_islek(hand, d) for d in faces)
    for d in set(faces):
        rest = list(faces)
        rest.remove(d)
        ok, left = exhaustive(rest, okey, hand.task, objective="spec")
        if ok:
            best = min(best, left + 100 * is_islek(hand, d))
    return best


# --- small positions --------------------------------------------------------------------


def _base_hand(rng: random.Random, task_no: int):
    while True:
        tiles = list(range(106))
        rng.shuffle(tiles)
        if face_of(tiles[0]) != FAKE:
            break
    faces = [face_of(t) for t in tiles]
    racks = [faces[1:16], faces[16:30], faces[30:44], faces[44:58]]
    return hand_from_faces(8, task_no, 0, faces[0], racks, faces[58:])


class _Tiles:
    """Distinct physical tiles for faces (at most two copies of a face exist)."""

    def __init__(self):
        self.used: dict[int, int] = {}

    def take(self, faces: list[int]) -> list[int] | None:
        n = dict(self.used)
        for f in faces:
            n[f] = n.get(f, 0) + 1
        if any(v > 2 for v in n.values()):
            return None
        out = []
        for f in faces:
            out.append(copies_of(f)[self.used.get(f, 0)])
            self.used[f] = self.used.get(f, 0) + 1
        return out


def _group(kind: str, faces: list[int], okey: int, tiles: _Tiles) -> Group | None:
    values = group_values(kind, faces, okey)
    if values is None:
        return None
    phys = tiles.take(faces)
    return None if phys is None else Group(1, kind, phys, values, -1)


def opened_position(rng: random.Random):
    """Seat 0 in its play phase, opened in an earlier turn, with a small rack near a
    small table (runs and küts, some with a real okey)."""
    hand = _base_hand(rng, rng.randrange(1, 7))
    okey = hand.okey
    table, near = [], []
    phys = _Tiles()
    for _ in range(rng.randrange(1, 4)):
        if rng.random() < 0.6:
            c, s, n = rng.randrange(4), rng.randrange(1, 11), rng.randrange(3, 5)
            faces = [make_face(c, k) for k in range(s, min(14, s + n))]
            near += [make_face(c, k) for k in (s - 2, s - 1) if k >= 1]
            near += [make_face(c, k) for k in (s + n, s + n + 1) if k <= 13]
        else:
            k = rng.randrange(1, 14)
            cols = rng.sample(range(4), rng.choice((3, 4)))
            faces = [make_face(c, k) for c in cols]
            near += [make_face(c, k) for c in range(4)]
        if rng.random() < 0.4:
            i = rng.randrange(len(faces))
            near.append(faces[i])
            faces[i] = okey
        faces = [FAKE if f == okey and rng.random() < 0.5 else f for f in faces]
        g = _group("run", faces, okey, phys) or _group("kut", faces, okey, phys)
        if g is not None:
            table.append(g)
    pool = near + [okey] + [rng.randrange(52) for _ in range(4)]
    rack = [rng.choice(pool) for _ in range(rng.randrange(2, 7))]
    rack = [FAKE if f == okey and rng.random() < 0.3 else f for f in rack]
    rack = [t for f in rack for t in (phys.take([f]) or [])]
    hand.racks[0] = Rack(rack + [None] * (32 - len(rack)))
    hand.table = table
    hand.opened[0] = True
    hand.opened_at[0] = -2
    hand.first_turn = False
    hand.phase = "play"
    return hand


def closed_position(rng: random.Random):
    """Seat 0 on the first turn (15 tiles is too many for the reference): a rack of 8
    tiles with a küt or run task, a small table of another seat's groups."""
    hand = _base_hand(rng, rng.choice((1, 2)))
    okey = hand.okey
    n = rng.randrange(1, 13)
    base = [make_face(c, n) for c in range(4)] + [make_face(0, k) for k in range(1, 6)]
    phys = _Tiles()
    g = _group("run", [make_face(1, k) for k in range(n, n + 3)], okey, phys) if n <= 11 else None
    rack = rng.sample(base, 5) + [rng.randrange(52) for _ in range(2)] + [okey]
    rack = [t for f in rack for t in (phys.take([f]) or [])]
    hand.racks[0] = Rack(rack + [None] * (32 - len(rack)))
    hand.table = [g] if g else []
    return hand


def _best(hand, seat=0):
    solver = _Solver(hand.okey, Budget(10**6, "solver calls"))
    solver.cap = 10**6
    value, actions, bounds = best_turn(view_for(hand, seat), solver)
    return value, actions, bounds


def _after_actions(hand, actions, seat=0) -> int:
    """Play the analysis' best actions on a copy: they are legal and reach its value."""
    c = hand.copy()
    before = c.penalties[seat]
    for a in actions:
        apply(c, seat, a)
    if c.finisher == seat:
        return -200 if c.finish_okey else -100
    okey = c.okey
    pen = c.penalties[seat] - before
    if not c.opened[seat]:
        return 200 + pen
    return pen + sum(100 if face_of(t) == okey else (okey % 13 + 1 if face_of(t) == FAKE
                     else face_of(t) % 13 + 1) for t in c.racks[seat].tiles())  # fmt: skip


@pytest.mark.parametrize("seed", range(40))
def test_best_turn_after_opening_equals_the_brute_force(seed):
    """K-L1…K-L6, K-S3…K-S5, K-F1: lay-offs, new groups, the discard."""
    hand = opened_position(random.Random(seed))
    value, actions, bounds = _best(hand)
    assert not bounds or hand.task_no == 7
    assert value == brute_opened(hand, 0), seed
    assert _after_actions(hand, actions) == value


@pytest.mark.parametrize("seed", range(25))
def test_best_turn_before_opening_equals_the_brute_force(seed):
    """K-O1…K-O5, K-S2, K-S5: open the task or not, then the discard."""
    hand = closed_position(random.Random(seed))
    value, actions, bounds = _best(hand)
    assert not bounds
    assert value == brute_closed(hand, 0), seed
    assert _after_actions(hand, actions) == value


# --- golden scenarios ----------------------------------------------------------------------

# Seat 0 starts with a küt of four (task 1 of 8, K-M3) and R13 R12 in hand; indicator
# B2 makes B3 the okey (K-T4).
START = ["R5", "Y5", "B5", "K5", "R13", "R12", "Y1", "Y2", "K9", "B9", "R7", "Y10", "K3",
         "B11", "R1"]  # fmt: skip
GOLDEN = {
    "tasks": 8, "task": 1, "starter": 0, "indicator": "B2",
    "racks": [START,
              ["R2", "R3", "R4", "Y3", "Y4", "Y6", "Y7", "B6", "B7", "B8", "K1", "K2", "K4", "K6"],
              ["R6", "R8", "R9", "Y8", "Y9", "Y11", "B1", "B4", "B10", "K7", "K8", "K10", "K11", "K12"],
              ["R10", "R11", "Y12", "Y13", "B12", "B13", "K13", "R1", "Y1", "F", "K9", "B9", "Y2", "B11"]],
    "deck": ["B3", "R2", "R3", "Y3", "R4", "Y4"],
}  # fmt: skip


def golden(actions):
    return {**GOLDEN, "actions": actions}


def test_golden_missed_open_is_a_big_loss():
    """K-O1, K-S2: seat 0 could open its küt of four and throw R13 (left: 61 points);
    it threw R13 without opening: 200, a cost of 139 (hand-checked)."""
    out = analyse(golden([{"seat": 0, "type": "discard", "tile": "R13"}]))
    (d,) = out["decisions"]
    left = sum([12, 1, 2, 9, 9, 7, 10, 3, 11, 1])  # R12 Y1 Y2 K9 B9 R7 Y10 K3 B11 R1
    assert (d["value"], d["best_value"], d["cost"]) == (200, left, 200 - left) == (200, 65, 135)
    assert d["mark"] == "big_loss" and d["notes"] == ["missed_open"] and d["exact"]
    assert d["best"]["actions"] == [{"type": "open", "groups": [["R5", "Y5", "B5", "K5"]]},
                                    {"type": "discard", "tile": "R13"}]  # fmt: skip


def test_golden_open_and_the_wrong_discard_is_a_loss():
    """K-S3: opening and throwing R1 leaves R13 in hand: 12 more points than throwing
    R13 (a loss: 10 <= 12 < 50)."""
    out = analyse(golden([
        {"seat": 0, "type": "open", "groups": [["R5", "Y5", "B5", "K5"]]},
        {"seat": 0, "type": "discard", "tile": "R1"},
    ]))  # fmt: skip
    (d,) = out["decisions"]
    assert (d["value"], d["best_value"], d["cost"], d["mark"]) == (77, 65, 12, "loss")
    assert d["notes"] == [] and d["step"] == 1
    assert d["played"]["actions"][0]["type"] == "open"


def test_golden_best_play_is_good():
    out = analyse(golden([
        {"seat": 0, "type": "open", "groups": [["R5", "Y5", "B5", "K5"]]},
        {"seat": 0, "type": "discard", "tile": "R13"},
    ]))  # fmt: skip
    (d,) = out["decisions"]
    assert (d["cost"], d["best"], d["mark"]) == (0, None, "good")


# --- bot hands: the command, determinism, budget, secrecy -------------------------------------


@pytest.fixture(scope="module")
def hands():
    return play_hands("kut", 8, 3, ["hard", "easy", "normal", "easy"])


def test_bot_hands_are_analysed_within_the_default_budget(hands):
    for data in hands:
        out = analyse(data)
        check_shape(out, "kut", "points")
        assert out["complete"] and out["decisions"]
        assert out["budget"]["unit"] == "solver calls"


def test_command_prints_json_and_exits_zero(hands):
    proc = run_command(json.dumps(hands[0]))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == json.loads(json.dumps(analyse(hands[0])))


@pytest.mark.parametrize("bad", ["{", '{"tasks": 7}', '{"game": "chess"}', "[]",
                                 '{"indicator": "R7", "racks": [[], [], [], []]}'])  # fmt: skip
def test_command_malformed_input_exits_two_with_one_line(bad):
    proc = run_command(bad)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1


def test_deterministic(hands):
    a = json.dumps(analyse(hands[1]))
    assert (
        a == json.dumps(analyse(hands[1])) == json.dumps(analyse(json.loads(json.dumps(hands[1]))))
    )


def test_small_budget_analyses_a_prefix(hands):
    full = analyse(hands[2])
    used = full["budget"]["used"]
    assert used > 2
    part = analyse(hands[2], budget=used // 2)
    check_prefix(full, part)
    assert part["budget"]["limit"] == used // 2
    assert analyse(hands[2], budget=0)["decisions"] == []


def test_secrecy_other_racks_and_the_deck_order_do_not_matter(hands):
    """P-1: a seat's analysis reads its own view only."""
    checked = check_secrecy(hands, run_scenario, analyse, "discards")
    assert checked >= 4


def test_registry_names_the_analyse_command():
    from game.engine.registry import command

    assert command("analyse", {}) is not None
    assert command("analyse", {"game": "kdvli"}).__module__ == "games.kdvli.engine.analysis"
    assert command("analyse", {"game": "kastet"}).__module__ == "games.kastet.engine.analysis"


def test_okey_face_helper_is_consistent():
    assert okey_face(make_face(2, 2)) == make_face(2, 3)  # K-T4 (B2 -> B3)


def _layoff_hand(rack_faces: list[int], adds=None):
    hand = opened_position(random.Random(0))
    okey = hand.okey
    phys = _Tiles()
    run = [make_face(0, k) for k in (3, 4, 5)]  # R3 R4 R5
    if okey in run or FAKE in rack_faces or okey in rack_faces:
        pytest.skip("the okey is one of these tiles")
    g = _group("run", run, okey, phys)
    if adds:
        g.adds = [hand.table_turn, *adds]
    hand.table = [g]
    rack = [t for f in rack_faces for t in (phys.take([f]) or [])]
    hand.racks[0] = Rack(rack + [None] * (32 - len(rack)))
    return hand


def test_missed_layoff_sees_run_ends_and_the_turns_count():
    """K-L2, K-L3: R6 fits R3 R4 R5 unless two tiles went to that end this turn."""
    from games.kut.engine.analysis import any_layoff

    r6, k9, y1 = make_face(0, 6), make_face(3, 9), make_face(1, 1)
    assert any_layoff(view_for(_layoff_hand([r6, k9, y1]), 0))
    assert not any_layoff(view_for(_layoff_hand([k9, y1]), 0))
    assert not any_layoff(view_for(_layoff_hand([r6, k9, y1], adds=(0, 2)), 0))


def test_too_many_layoff_ways_is_a_stated_bound(monkeypatch):
    import games.kut.engine.analysis as kut_analysis

    monkeypatch.setattr(kut_analysis, "MAX_PLANS", 1)
    r6, r7, k9 = make_face(0, 6), make_face(0, 7), make_face(3, 9)
    _value, _actions, bounds = _best(_layoff_hand([r6, r7, k9]))
    assert bounds == ["lay-off plans 1"]


def _play_starts(data) -> dict:
    """Each turn's hand at its play start (after the take, K-N1), by the index of the
    action that ended the turn."""
    from games.kut.engine.replay import load_scenario

    hand, actions = load_scenario(data)
    starts, cur = {}, None
    for step, a in enumerate(actions):
        seat, action = a["seat"], {k: v for k, v in a.items() if k != "seat"}
        if not hand.over and seat == hand.turn and (cur is None or cur[0] != hand.table_turn):
            if hand.phase == "play":
                cur = (hand.table_turn, hand.copy())
            elif action["type"] == "timeout":
                c = hand.copy()
                apply(c, seat, {"type": "draw"} if c.deck else {"type": "take_discard"})
                cur = (hand.table_turn, c)
        turn = hand.table_turn
        try:
            apply(hand, seat, action)
        except EngineError:
            continue
        if action["type"] == "undo" and hand.phase == "take":
            cur = None
        if hand.table_turn != turn:
            starts[step] = cur[1]
    return starts


def test_best_actions_are_legal_and_reach_the_best_value(hands):
    """On bot hands (15-tile openings, lay-offs after opening): the engine accepts the
    analysis' best turn and it counts exactly its best value."""
    checked = 0
    for data in hands:
        starts = _play_starts(data)
        for d in analyse(data)["decisions"]:
            if d["best"] is None or not d["exact"]:
                continue
            hand = starts[d["step"]]
            assert _after_actions(hand, d["best"]["actions"], d["seat"]) == d["best_value"]
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("seed", range(16))
def test_random_legal_hands_with_claims_undos_and_timeouts(seed):
    """Every kind of action (K-C1, K-U1, K-N7): the analysis runs through, its shape
    holds, and each exact best turn is legal and worth its best value."""
    from games.kut.engine.deal import new_hand
    from games.kut.engine.randomplay import play_random_hand
    from games.kut.engine.replay import export_scenario

    rng = random.Random(seed)
    hand = new_hand(8, 1 + seed % 8, seed % 4, rng)
    play_random_hand(hand, rng, p_timeout=0.05)
    data = export_scenario(hand)
    out = analyse(data)
    check_shape(out, "kut", "points")
    assert out["complete"]
    starts = _play_starts(data)
    for d in out["decisions"]:
        if d["best"] is not None and d["exact"]:
            hand = starts[d["step"]]
            assert _after_actions(hand, d["best"]["actions"], d["seat"]) == d["best_value"]


@pytest.mark.parametrize("seed", range(30))
def test_best_turn_in_the_finish_hand_equals_the_brute_force(seed):
    """K-O7, K-S1: a finish from hand when the rack allows one, on a real okey (−200)
    when one can be the last tile; else 200 (K-S2)."""
    rng = random.Random(seed)
    hand = _base_hand(rng, 8)  # task 8 of 8: finish from hand
    okey = hand.okey
    c, n = rng.randrange(4), rng.randrange(1, 10)
    pool = [make_face(c, k) for k in range(n, n + 4)] + [make_face(x, n) for x in range(4)]
    rack = rng.sample(pool, rng.choice((3, 6, 7))) + [okey] * rng.randrange(3)
    rack += [rng.randrange(52) for _ in range(rng.randrange(1, 3))]
    phys = _Tiles()
    tiles = [t for f in rack for t in (phys.take([f]) or [])]
    hand.racks[0] = Rack(tiles + [None] * (32 - len(tiles)))
    faces = [face_of(t) for t in tiles]
    possible, okey_last = exhaustive(faces, okey, ())
    want = (-200 if okey_last else -100) if possible else 200
    value, actions, bounds = _best(hand)
    assert not bounds and value == want, (seed, faces, okey)
    assert _after_actions(hand, actions) == value
