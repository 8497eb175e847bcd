"""k-lig points, ranks and rewards (kelimeki.md W-L1…W-L9)."""

from __future__ import annotations

from games.kelimeki.engine.klig import Record, apply_change, game_points, rank_of, seal_card


def test_w_l1_w_l2_place_points_by_seats_started():
    """W-L1, W-L2: 4 players +2/+1/0/0; 2 players +2/0 (what a logged-in human gets)."""
    assert game_points(4, [1, 2, 3, 4], [False] * 4) == [2, 1, 0, 0]
    assert game_points(2, [2, 1], [False] * 2) == [0, 2]


def test_w_l3_ties_share_the_place_points():
    """W-L3"""
    assert game_points(4, [1, 1, 3, 4], [False] * 4) == [2, 2, 0, 0]
    assert game_points(2, [1, 1], [False] * 2) == [2, 2]


def test_w_l4_forfeit_is_minus_two_and_table_of_start_applies():
    """W-L4; W-L2: the 4-player table still applies after a forfeit."""
    assert game_points(4, [1, None, 2, 3], [False, True, False, False]) == [2, -2, 1, 0]
    assert game_points(2, [None, 1], [True, False]) == [-2, 2]


def test_w_l5_w_l7_ranks_and_negative_totals():
    """W-L5 ladder; the total may go below 0 (Çaylak); W-L7 the shown rank can fall."""
    assert rank_of(Record(total=-4)) == "Çaylak"
    assert rank_of(Record(total=24)) == "Çaylak" and rank_of(Record(total=25)) == "Hececi"
    assert rank_of(Record(total=299)) == "Usta" and rank_of(Record(total=800)) == "Efsane"
    change = apply_change(
        Record(total=149, rewarded=frozenset({25, 75})), 1
    )  # 150 -> Usta (+10) -> 160
    assert change.record.total == 160 and rank_of(change.record) == "Usta"
    down = apply_change(change.record, -2 * 6)
    assert down.record.total == 148 and rank_of(down.record) == "Kelimeci"


def test_w_l6_rewards_once_and_chained():
    """W-L6: each threshold's reward once in a lifetime; the new total checked again."""
    c = apply_change(Record(total=23), 2)  # 25 -> +3 = 28
    assert c.rewards == (("Hececi", 3),) and c.record.total == 28
    c2 = apply_change(apply_change(c.record, -4).record, 2)  # back to 26: nothing again
    assert c2.rewards == () and c2.record.total == 26
    chain = apply_change(Record(total=70, rewarded=frozenset({25})), 2)  # 72: nothing
    assert chain.rewards == () and chain.record.total == 72
    chain = apply_change(Record(total=73, rewarded=frozenset({25})), 2)
    assert chain.rewards == (("Kelimeci", 5),) and chain.record.total == 80
    jump = apply_change(Record(total=1195, rewarded=frozenset({25, 75, 150, 300, 500})), 0)
    assert [r for r, _ in jump.rewards] == ["Efsane", "Kozmik"]
    assert jump.record.total == 1195 + 40 + 60


def test_w_l7_kozmik_stays():
    """W-L7: once Kozmik, always Kozmik."""
    c = apply_change(Record(total=1199, rewarded=frozenset({25, 75, 150, 300, 500, 800})), 2)
    assert rank_of(c.record) == "Kozmik" and c.record.kozmik
    fallen = apply_change(c.record, -200)
    assert fallen.record.total < 1200 and rank_of(fallen.record) == "Kozmik"


def test_w_l8_celebrations_once_per_new_hundred():
    """W-L8"""
    c = apply_change(Record(total=98), 2)
    assert c.celebrations == (100,)
    again = apply_change(apply_change(c.record, -2).record, 2)
    assert again.celebrations == ()
    big = apply_change(Record(total=199, celebrated=100, rewarded=frozenset({25, 75, 150})),
                       110)  # fmt: skip
    assert big.celebrations == (200, 300) and big.rewards == (("Üstat", 15),)


def test_w_l9_seal_card():
    """W-L9: the next rank and the points still needed; none at Kozmik."""
    assert seal_card(Record(total=60)) == {"total": 60, "rank": "Hececi", "next": "Kelimeci",
                                           "needed": 15}  # fmt: skip
    assert seal_card(Record(total=1300, kozmik=True))["next"] is None
