"""The exact hand solver (games/kut/engine/solver.py) and its command (kut-scenario.md).

Pure engine tests: no database, no Django.  References live in solver_reference.py.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter

import pytest

from games.kut.engine.solver import PLAY, SolverError, solve
from games.kut.engine.tasks import FINISH, FIVE_PAIRS, task_for
from games.okey.engine.tiles import FAKE, face_name, okey_face, parse_face
from tests.games.kut.engine.solver_reference import check_solution, exhaustive, group_kind

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))

OKEY_R8 = okey_face(parse_face("R7"))  # indicator R7 -> okey R8, F is a natural R8


def faces(*names):
    return [parse_face(n) for n in names]


def names(fs):
    return [face_name(f) for f in fs]


def run(tiles, task, indicator="R7", objective="spec"):
    okey = okey_face(parse_face(indicator))
    fs = faces(*tiles)
    sol = solve(fs, okey, task, objective)
    check_solution(fs, okey, task, sol)
    return sol


# ---------------------------------------------------------------- groups (K-G*)

def test_kg1_12_13_1_is_not_a_run():
    sol = run(["Y12", "Y13", "Y1"], None)
    assert sol.groups == [] and sol.points_left == 26


def test_kg1_1_2_3_is_a_run():
    sol = run(["Y1", "Y2", "Y3"], None)
    assert names(sol.groups[0]) == ["Y1", "Y2", "Y3"] and sol.points_left == 0


def test_kg1_okey_at_its_position_in_ascending_run():
    sol = run(["Y12", "Y13", "R8"], None)  # R8 is the real okey: it stands for Y11
    assert names(sol.groups[0]) == ["R8", "Y12", "Y13"]
    assert sol.points_left == 0


def test_kg2_two_of_one_colour_is_not_a_kut():
    sol = run(["B5", "B5", "R5"], None)
    assert sol.groups == [] and sol.points_left == 15


def test_kg2_kut_of_three_and_four():
    sol = run(["B5", "R5", "K5", "Y5", "Y9"], None)
    assert sol.kinds == ["kut"] and len(sol.groups[0]) == 4
    assert sol.points_left == 9


def test_kg3_fake_plus_real_okey_is_not_a_pair():
    # 4 pairs + F + real okey: F + okey would be the 5th pair, but it is not one
    tiles = ["R1", "R1", "Y2", "Y2", "B3", "B3", "K4", "K4", "F", "R8"]
    assert run(tiles, FIVE_PAIRS).can_open is False
    assert run(tiles[:-1] + ["F"], FIVE_PAIRS).can_open is True  # F F is a pair


def test_kg3_two_real_okeys_are_not_a_pair():
    # 4 natural pairs, 2 real okeys and 2 singles: the okeys pair with the singles,
    # never with each other (check_solution rejects an okey + okey pair)
    tiles = ["R1", "R1", "Y2", "Y2", "B3", "B3", "K4", "K4", "R8", "R8", "K9", "K11"]
    sol = run(tiles, FIVE_PAIRS)
    assert sol.can_open is True
    assert [OKEY_R8, OKEY_R8] not in sol.groups
    # F F + 2 okeys + 3 singles: F pairs only with F, so at most 1 + 2 pairs... plus
    # okeys cannot pair together: 5 pairs impossible
    assert run(["F", "F", "R8", "R8", "K1", "Y3", "B5", "B9", "K12", "Y12"],
               FIVE_PAIRS).can_open is False


def test_kg5_two_okeys_need_a_natural():
    sol = run(["R8", "R8"], None)
    assert sol.groups == [] and sol.points_left == 200
    sol = run(["R8", "R8", "K3"], None)
    assert sol.points_left == 0 and len(sol.groups[0]) == 3


def test_kt6_fake_okey_is_the_fixed_okey_face():
    # indicator R7: okey R8, F = R8 natural. R6 R7 F is a run; F does not act as wild.
    assert run(["R6", "R7", "F"], None).points_left == 0
    sol = run(["B6", "B7", "F"], None)
    assert sol.groups == [] and sol.points_left == 6 + 7 + 8
    # F in a küt of 8s
    assert run(["F", "Y8", "K8"], None).points_left == 0


def test_ks3_points_fake_counts_okey_number_real_okey_100():
    sol = run(["F", "R8", "K1"], None)  # F + real okey + K1: K1 R8(okey) F? not a run
    # K1 + 2 okeys would need two real okeys; F is natural R8
    assert sol.points_left == 8 + 100 + 1
    assert names(sol.left) == ["R8", "K1", "F"]


# ---------------------------------------------------------------- tasks (K-O*)

def test_ko2_exact_lengths():
    # a run of 5 is available but the task wants exactly 4: R1..R4 (rest R5)
    sol = run(["R1", "R2", "R3", "R4", "R5"], task_for(8, 2))
    assert sol.can_open and sol.kinds == ["run"] and len(sol.groups[0]) == 4
    # only a küt of 3: a küt of 4 task cannot be opened without an okey
    assert run(["R5", "B5", "K5", "Y9"], task_for(8, 1)).can_open is False
    sol = run(["R5", "B5", "K5", "R8"], task_for(8, 1))
    assert sol.can_open and len(sol.groups[0]) == 4


def test_task_two_runs_of_four_from_one_long_run():
    sol = run(["K1", "K2", "K3", "K4", "K5", "K6", "K7", "K8"], task_for(8, 6))
    assert sol.can_open and sorted(names(g)[0] for g in sol.groups) == ["K1", "K5"]
    assert sol.left == []


def test_ko6_five_pairs_exactly():
    tiles = ["R1", "R1", "Y2", "Y2", "B3", "B3", "K4", "K4", "K9", "K9", "R13", "R13"]
    sol = run(tiles, FIVE_PAIRS)
    assert sol.can_open and sol.kinds == ["pair"] * 5
    assert len(sol.left) == 2
    # the two left are a pair too: the opening leaves the lowest pair? points count as is
    assert sol.points_left == sum(face_name(f) and (f % 13 + 1) for f in sol.left)
    assert run(tiles[:8], FIVE_PAIRS).can_open is False


def test_kr4_kut_kept_natural_first():
    # küt of 4 + run of 4; R5 can serve the küt or the run R2..R5, the okey the other.
    tiles = ["R5", "Y5", "B5", "K5", "R2", "R3", "R4", "R8"]
    sol = run(tiles, task_for(8, 3), objective=PLAY)  # Diz (K-R4) and the bots
    assert sol.can_open
    kut = sol.groups[sol.kinds.index("kut")]
    assert OKEY_R8 not in kut  # the küt is natural; the okey goes to the run


def test_the_command_opens_leaving_the_fewest_points_as_they_are():
    """kut-scenario.md: with a task that can be opened, ``points_left`` counts the tiles
    the opening leaves as they are, and none leaves fewer (found by an audit: the
    command used to report the play choice's points, 135 where 29 was possible)."""
    sol = run(["R5", "Y4", "R3", "R4", "B8", "B5", "B3", "B10", "K2", "B6"], task_for(12, 2),
              indicator="B2")  # fmt: skip
    assert sol.can_open and sol.points_left == 29  # B8 okey(B9) B10, not R3 R4 R5
    sol = run(["K7", "R12", "R3", "K11", "B6", "Y8", "Y9", "B8", "Y6", "K11", "R4", "R1", "R9"],
              task_for(12, 2), indicator="K10")  # fmt: skip
    assert sol.can_open and sol.points_left == 61  # the two okeys with R12: R10 R11 R12


def test_the_okey_may_stand_first_in_a_task_run_to_leave_a_cheaper_natural():
    """kut-scenario.md: "none leaves fewer". A task run may begin with the real okey
    although the natural it stands for is in the rack: that natural stays instead of the
    run's top (found by an audit: the command held the naturals first and left B13,
    13, where B10, 10, was possible)."""
    sol = run(["B10", "B11", "B12", "B13", "R8"], task_for(8, 2))  # R7: the okey is R8
    assert sol.can_open and sol.points_left == 10 and names(sol.left) == ["B10"]
    sol = run(["R10", "R11", "R12", "R13", "B1"], task_for(5, 2), indicator="B13")
    assert sol.can_open and sol.points_left == 10 and names(sol.left) == ["R10"]
    tiles = ["B10", "R13", "B1", "Y10", "R10", "R11", "B13", "B10", "K13", "Y13", "F", "B9",
             "R12", "K12", "Y9"]  # fmt: skip
    assert run(tiles, task_for(5, 2), indicator="B13").points_left == 110


def test_runs_with_okeys_agree_with_exhaustive():
    """Racks made for the case above: a stretch of one colour, the okey(s), a few others,
    and a task of runs; the command's points left (SPEC) against the brute force."""
    rng = random.Random(7)
    run_tasks = [task_for(12, 2), task_for(12, 4), task_for(12, 7), task_for(8, 6)]
    for _ in range(120):
        okey = rng.randrange(52)
        colour, lo = rng.randrange(4), rng.randrange(1, 10)
        stretch = [colour * 13 + n - 1 for n in range(lo, min(14, lo + rng.randrange(3, 7)))]
        others = [rng.randrange(52) for _ in range(rng.randrange(0, 3))]
        fs = [f for f in stretch + others if f != okey] + [okey] * rng.randrange(1, 3)
        _agree(fs[:9], okey, rng.choice(run_tasks))


def test_task_opening_prefers_best_rest():
    # PLAY (the bots, Diz): küt of 3 (12 tasks, task 1): R5 Y5 B5 K5 R6 R7 -- opening
    # with R5 would strand R6 R7; opening Y5 B5 K5 leaves the run R5 R6 R7 for later
    sol = run(["R5", "Y5", "B5", "K5", "R6", "R7"], task_for(12, 1), objective=PLAY)
    assert sol.can_open
    assert sorted(names(sol.groups[0])) == ["B5", "K5", "Y5"]
    assert names(sol.left) == ["R5", "R6", "R7"] and sol.points_left == 18


def test_failed_task_gives_best_arrangement():
    sol = run(["R1", "R2", "R3", "B9"], task_for(8, 1))
    assert sol.can_open is False
    assert sol.kinds == ["run"] and sol.points_left == 9


def test_ko7_finish_from_hand():
    tiles = ["R1", "R2", "R3", "Y5", "B5", "K5", "K9"]
    sol = run(tiles, FINISH)
    assert sol.can_open and names(sol.left) == ["K9"]
    assert run(tiles + ["K10"], FINISH).can_open is False  # two tiles left over
    # no pairs when finishing
    assert run(["R1", "R1", "Y2", "Y2", "B4"], FINISH).can_open is False


def test_ko7_finish_prefers_real_okey_last():
    # PLAY: R1 R2 R3 + okey: the okey can extend the run or be the last tile (-200, K-S1)
    sol = run(["R1", "R2", "R3", "R8"], FINISH, objective=PLAY)
    assert sol.can_open and sol.left == [OKEY_R8]


def test_ko7_the_command_leaves_the_cheapest_tile():
    """kut-scenario.md: none leaves fewer points: R2 R3 + okey, R1 left (1 point)."""
    sol = run(["R1", "R2", "R3", "R8"], FINISH)
    assert sol.can_open and names(sol.left) == ["R1"] and sol.points_left == 1
    assert names(sol.groups[0]) in (["R2", "R3", "R8"], ["R8", "R2", "R3"])


def test_ko7_finish_needs_exactly_one_left():
    # all tiles in groups and no group can spare one: cannot finish
    assert run(["R1", "R2", "R3"], FINISH).can_open is False
    assert run(["R1", "R2", "R3", "R4"], FINISH).can_open is True


def test_okey_room_when_runs_are_full():
    # a 13-run takes no okey: K1..K13 + okey splits into K1 K2 okey + K4..K13
    tiles = [f"K{i}" for i in range(1, 14)] + ["R8"]
    sol = run(tiles, None)
    assert sol.points_left == 0 and len(sol.groups) == 2
    # a küt of 4 takes no okey either: the okey replaces a natural (5 < 100)
    sol = run(["R5", "Y5", "B5", "K5", "R8"], None)
    assert sol.points_left == 5


def test_bad_input_raises():
    with pytest.raises(SolverError):
        solve([0, 0, 0], OKEY_R8, None)
    with pytest.raises(SolverError):
        solve([FAKE], FAKE, None)


# ---------------------------------------------------------------- agreement

def _random_rack(rng, size, force_okey):
    from tools.solver_compare import random_rack

    return random_rack(rng, size, force_okey)


def _dense_rack(rng, size):
    """Racks concentrated on few colours/numbers: long runs, both copies, okeys, F."""
    okey = rng.randrange(52)
    colours = rng.sample(range(4), rng.choice([1, 2]))
    lo = rng.randrange(1, 8)
    pool = [c * 13 + n - 1 for c in colours for n in range(lo, lo + 6)] * 2
    pool = [f for f in pool if f != okey] + [okey, okey, FAKE, FAKE]
    rack = rng.sample(pool, min(size, len(pool)))
    return rack, okey


def _agree(fs, okey, task):
    """The command's answer (SPEC) against the brute force: exact points left."""
    sol = solve(fs, okey, task)
    check_solution(fs, okey, task, sol)
    ref_can, ref_val = exhaustive(fs, okey, task, objective="spec")
    if task is not None:
        assert sol.can_open == ref_can, (names(fs), okey, task)
    if task is None:
        assert sol.points_left == ref_val
    elif sol.can_open:
        assert sol.points_left == ref_val, (names(fs), okey, task)
    _agree_play(fs, okey, task)


def _agree_play(fs, okey, task):
    sol = solve(fs, okey, task, PLAY)
    check_solution(fs, okey, task, sol)
    ref_can, ref_val = exhaustive(fs, okey, task)
    if task is None:
        assert sol.points_left == ref_val
    elif task == FINISH:
        assert sol.can_open == ref_can
        if sol.can_open:
            assert (sol.left == [okey]) == ref_val
    else:
        assert sol.can_open == ref_can
        if not sol.can_open:
            assert sol.points_left == exhaustive(fs, okey, None)[1]


TASKS = [task_for(12, i) for i in range(1, 12)]


def test_agreement_with_exhaustive_small_racks():
    rng = random.Random(20240601)
    for i in range(250):
        if i % 3 == 0:
            fs, okey = _dense_rack(rng, rng.randrange(4, 9))
        else:
            fs, okey = _random_rack(rng, rng.randrange(4, 10), i % 2 == 0)
        for task in (None, FINISH, rng.choice(TASKS)):
            _agree(fs, okey, task)


def test_agreement_with_ilp():
    pytest.importorskip("pulp")
    from tests.games.kut.engine.solver_reference import ilp
    from tools.solver_compare import solver_value

    rng = random.Random(7)
    for i in range(50):
        if i % 5 == 0:
            fs, okey = _dense_rack(rng, rng.randrange(14, 25))
        else:
            fs, okey = _random_rack(rng, rng.randrange(14, 33), i % 2 == 0)
        for task in (None, FINISH, rng.choice(TASKS)):
            sol = solve(fs, okey, task, PLAY)  # the references' objective
            check_solution(fs, okey, task, sol)
            ref_can, ref_val = ilp(fs, okey, task)
            if task is None or task == FINISH:
                assert (sol.can_open, solver_value(fs, okey, task, sol)) == (ref_can, ref_val)
            else:
                assert sol.can_open == ref_can


def test_quick_checks_agree_with_dp():
    """The direct task check and the finish pre-check against the DP itself."""
    from games.kut.engine import solver as S

    rng = random.Random(11)
    for i in range(150):
        if i % 3 == 0:
            fs, okey = _dense_rack(rng, rng.randrange(6, 25))
        else:
            fs, okey = _random_rack(rng, rng.randrange(4, 33), i % 2 == 0)
        nat, J = S._count(fs, okey)
        for task in TASKS:
            targs = S._parse_task(task)
            dp = S._dp(nat, J, okey, "feas", *targs) is not None
            assert S._task_feasible(nat, J, okey, *targs) == dp, (fs, okey, task)
        if S._strays(nat, J, S._stray_copies(nat)) > 1:
            assert S._dp(nat, J, okey, "finish") is None, (fs, okey)


def test_reference_group_kinds():
    ok = OKEY_R8
    assert group_kind(faces("Y12", "Y13", "Y1"), ok) == set()
    assert "pair" not in group_kind([FAKE, ok], ok)
    assert "pair" not in (group_kind([ok, ok], ok) or set())
    assert group_kind([FAKE, FAKE], ok) == {"pair"}


# ---------------------------------------------------------------- the command

def _cli(payload, raw=None):
    inp = raw if raw is not None else json.dumps(payload)
    return subprocess.run(
        [sys.executable, "-m", "game.engine.solve", "-"],
        input=inp, capture_output=True, text=True, cwd=ROOT, timeout=60,
    )


def test_cli_good_query():
    p = _cli({"indicator": "R7", "tiles": ["R1", "R2", "R3", "R8", "B5", "F"],
              "tasks": 8, "task": 3})
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert set(out) == {"can_open", "groups", "left", "points_left"}
    assert out["can_open"] is False
    assert out["groups"] == [["R1", "R2", "R3", "R8"]]
    assert out["left"] == ["B5", "F"] and out["points_left"] == 13


def test_cli_opened_and_default_tasks():
    p = _cli({"indicator": "K13", "tiles": ["K1", "K5", "Y5", "B5", "F"], "task": None})
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)  # okey K1 (13 -> 1), F = K1 natural
    assert out["can_open"] is None
    assert out["groups"] == [["Y5", "B5", "K5", "K1"]] or len(out["groups"]) == 1
    assert out["points_left"] == 1
    p = _cli({"indicator": "R7", "tiles": ["R1", "R2", "R3", "R4"], "task": 2})
    assert json.loads(p.stdout)["can_open"] is True  # 8 tasks by default: run of 4


def test_cli_ignores_unknown_fields_and_defaults():
    # extra fields (an external checker's own) are ignored; a missing "task" means
    # null (already opened) and a missing "tasks" means 8
    p = _cli({"indicator": "R7", "tiles": ["R1", "R2", "R3", "B5"], "id": 17,
              "expect": {"points_left": 5}, "comment": None})
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out == {"can_open": None, "groups": [["R1", "R2", "R3"]], "left": ["B5"],
                   "points_left": 5}
    p = _cli({"indicator": "R7", "tiles": ["R1", "R2", "R3", "R4"], "task": 6,
              "note": "x"})  # 8 tasks: task 6 is two runs of 4
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["can_open"] is False


@pytest.mark.parametrize(
    "payload,raw",
    [
        (None, "{not json"),
        ({"indicator": "R7", "tiles": ["R14"], "task": None}, None),
        ({"indicator": "R7", "tiles": ["R7", "R7"], "task": None}, None),  # 3rd R7
        ({"indicator": "R7", "tiles": ["B2", "B2", "B2"], "task": None}, None),
        ({"indicator": "R7", "tiles": ["F", "F", "F"], "task": None}, None),
        ({"indicator": "R7", "tiles": ["R1"] * 0 + [f"B{i}" for i in range(1, 14)] * 2
          + ["K1", "K2", "K3", "K4", "K5", "K6", "K7"], "task": None}, None),  # 33
        ({"indicator": "R7", "tiles": ["R1"], "tasks": 8, "task": 9}, None),
        ({"indicator": "R7", "tiles": ["R1"], "tasks": 7, "task": 1}, None),
        ({"indicator": "R7", "tiles": ["R1"], "task": "1"}, None),
        ({"indicator": "R7", "tiles": ["R1"], "task": True}, None),
        ({"indicator": "R7", "tiles": ["R1"], "tasks": "8", "task": None}, None),
        ({"indicator": "R7", "tiles": [1], "task": None}, None),
        ({"indicator": "R7", "tiles": ["R1"], "task": None, "extra": 1} , "[1, 2"),
        ({"indicator": "F", "tiles": ["R1"], "task": None}, None),
        ({"indicator": "R7", "tiles": "R1 R2", "task": None}, None),
        ({"tiles": ["R1"], "task": None}, None),
        ([1, 2], None),
    ],
)
def test_cli_malformed_exits_2(payload, raw):
    p = _cli(payload, raw)
    assert p.returncode == 2
    assert p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1


def test_cli_left_sorted_r_y_b_k_then_f():
    p = _cli({"indicator": "R7", "tiles": ["F", "K2", "B9", "Y4", "R11"], "task": None})
    assert json.loads(p.stdout)["left"] == ["R11", "Y4", "B9", "K2", "F"]


def test_every_face_in_output_is_from_rack():
    rng = random.Random(3)
    for _ in range(30):
        fs, okey = _random_rack(rng, rng.randrange(10, 33), True)
        for task in (None, FINISH, rng.choice(TASKS)):
            sol = solve(fs, okey, task)
            used = Counter(f for g in sol.groups for f in g) + Counter(sol.left)
            assert used == Counter(fs)
