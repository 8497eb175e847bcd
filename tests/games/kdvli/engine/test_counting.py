"""Exact counting (kdvli.md V-S2, with V-T6 values, V-G1…V-G5 groups): compared with an
independent brute force (tests/games/kdvli/engine/reference.py), the spec's worked examples,
and the arrangement each answer gives."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.kdvli.engine.counting import count
from games.kdvli.engine.groups import PAIR, kind_of, value
from games.okey.engine.tiles import FAKE, face_name, okey_face, parse_face
from tests.games.kdvli.engine import reference as ref


def faces_of(names: str) -> list[int]:
    return [parse_face(n) for n in names.split()]


def okey_of(indicator: str) -> int:
    return okey_face(parse_face(indicator))


@st.composite
def racks(draw, max_tiles=15):
    """Dense racks: few colours and numbers, okeys and fake okeys often present."""
    indicator = draw(st.integers(0, 51))
    okey = okey_face(indicator)
    colours = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True))
    lo = draw(st.integers(1, 13))
    width = draw(st.integers(3, 13))
    numbers = [(lo + i - 1) % 13 + 1 for i in range(width)]
    pool = [c * 13 + n - 1 for c in colours for n in numbers for _ in range(2)]
    pool = [f for f in pool if f != okey] + [okey, okey, FAKE, FAKE]
    # the indicator's face has one copy in play (V-T2)
    if indicator in pool:
        pool.remove(indicator)
    picks = draw(st.lists(st.integers(0, len(pool) - 1), unique=True, max_size=max_tiles))
    return [pool[i] for i in picks], okey


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(racks())
def test_v_s2_counts_equal_the_brute_force(rack):
    """V-S2: runs points and pairs points are the exact minima."""
    faces, okey = rack
    c = count(faces, okey)
    assert c.runs_points == ref.runs_points(faces, okey)
    assert c.pairs_points == ref.pairs_points(faces, okey)
    assert c.points == min(c.runs_points, 2 * c.pairs_points)
    assert c.counted == ("runs" if c.runs_points <= 2 * c.pairs_points else "pairs")


@settings(max_examples=150, deadline=None)
@given(racks())
def test_v_s2_arrangements_reach_the_points(rack):
    """The groups (V-G1, V-G2) and pairs (V-G3) given are valid, use the rack's tiles
    exactly once with the left-over tiles, and leave exactly the points (V-T6)."""
    faces, okey = rack
    c = count(faces, okey)
    for g in c.groups:
        assert kind_of(g, okey) in ("run", "set"), [face_name(f) for f in g]
    assert Counter(f for g in c.groups for f in g) + Counter(c.left) == Counter(faces)
    assert sum(value(f, okey) for f in c.left) == c.runs_points
    for p in c.pairs:
        assert kind_of(p, okey) == PAIR
    assert Counter(f for p in c.pairs for f in p) + Counter(c.pairs_left) == Counter(faces)
    assert sum(value(f, okey) for f in c.pairs_left) == c.pairs_points


def test_v_s2_examples_of_the_seed_page():
    """V-S2 (the seed's examples): 13s, 3s and K8-K11 are melded and the rest is paid
    (B1 B5 B7 R10 = 23); on pairs, B3 and Y12 are left: 15, paid double = 30."""
    okey = okey_of("Y5")  # Y6
    c = count(faces_of("K13 R13 Y13 K3 R3 Y3 K8 K9 K10 K11 B1 B5 R10 B7"), okey)
    assert (c.runs_points, c.points, c.counted) == (23, 23, "runs")
    assert sorted(face_name(f) for f in c.left) == ["B1", "B5", "B7", "R10"]
    c = count(faces_of("R2 R2 Y7 Y7 B4 B4 K13 K13 R5 R5 K1 K1 B3 Y12"), okey)
    assert (c.pairs_points, c.points, c.counted) == (15, 30, "pairs")


def test_solver_example_of_the_scenario_spec():
    c = count(faces_of("B12 B13 B1 K3 K4 K5 R6 R6 Y3"), okey_of("Y5"))
    assert (c.points, c.runs_points, c.pairs_points, c.counted) == (15, 15, 41, "runs")


def test_v_g1_twelve_thirteen_one_counts_and_thirteen_one_two_does_not():
    okey = okey_of("Y5")
    assert count(faces_of("R12 R13 R1"), okey).runs_points == 0
    assert count(faces_of("R13 R1 R2"), okey).runs_points == 16
    # a run never holds 1 twice, but two runs may each hold one 1
    assert count(faces_of("R1 R2 R3 R12 R13 R1"), okey).runs_points == 0


def test_v_t6_values_of_okeys_and_fake_okeys():
    """V-T6: F counts the real okey's number; a real okey left out counts its own."""
    okey = okey_of("K9")  # K10
    assert count([FAKE], okey).runs_points == 10
    assert count([parse_face("K10")], okey).runs_points == 10
    assert count(faces_of("R1 B7"), okey).runs_points == 8


def test_v_t4_fake_okey_is_natural_in_runs_sets_and_pairs():
    okey = okey_of("K9")  # K10 is the okey; F is a natural K10
    assert count(faces_of("K8 K9 F"), okey).runs_points == 0
    assert count(faces_of("R10 Y10 F"), okey).runs_points == 0
    assert count(faces_of("F F"), okey).pairs_points == 0
    assert count(faces_of("F K10"), okey).pairs_points == 0  # F + real okey (V-G3)
    assert count(faces_of("K10 K10"), okey).pairs_points == 20  # two real okeys (V-G4)


def test_v_t2_the_other_copy_of_the_indicator_pairs_only_with_an_okey():
    okey = okey_of("B4")  # B5
    assert count(faces_of("B4 B5"), okey).pairs_points == 0
    assert count(faces_of("B4 R4"), okey).pairs_points == 8


def test_v_g4_okeys_fill_runs_and_sets_but_need_a_natural():
    okey = okey_of("Y5")  # Y6
    assert count(faces_of("R3 Y6 R5"), okey).runs_points == 0
    assert count(faces_of("R13 Y6"), okey).runs_points == 19  # two tiles: no group
    assert count(faces_of("R12 R13 Y6"), okey).runs_points == 0  # okey as the high 1
    assert count(faces_of("R9 B9 Y6"), okey).runs_points == 0  # set with an okey
    assert count(faces_of("B3 Y6 Y6"), okey).runs_points == 0


def test_v_f2_a_finished_rack_counts_zero_exactly_when_complete():
    okey = okey_of("Y5")
    done = faces_of("Y12 Y13 Y1 B8 Y8 K8 R8 R3 R4 Y6 R6 Y5 B5 K5")
    assert count(done, okey).points == 0
    pairs = faces_of("R1 R1 Y2 Y2 B3 B3 K4 K4 R9 R9 F F Y6 B11")
    assert count(pairs, okey).pairs_points == 0 and count(pairs, okey).points == 0
    assert count(done[:-1] + faces_of("K1"), okey).points > 0


def test_empty_rack():
    c = count([], okey_of("R1"))
    assert (c.points, c.groups, c.left, c.pairs) == (0, [], [], [])
