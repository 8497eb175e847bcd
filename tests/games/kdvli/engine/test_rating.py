"""The KDVli rating and leaving rules (kdvli.md V-Q1…V-Q6, V-X1…V-X4)."""

from __future__ import annotations

import pytest

from games.kdvli.engine import rating as R


def test_v_q1_everyone_starts_at_1500_and_bots_have_no_rating():
    assert R.start_rating() == 1500
    out = R.match_changes([10, 20, 30, 40], 11, False, [{"rating": 1500}, None, None, None])
    assert out == [11, None, None, None]


def test_v_q2_places_for_11_and_other_hand_counts():
    assert R.place_changes([5, -50, 80, 20], 11) == [5, 11, -11, -5]
    assert R.place_values(3) == [3, 1, -1, -3]
    assert R.place_values(7) == [7, 3, -3, -7]


def test_v_q2_bots_take_places_like_anyone():
    players = [None, {"rating": 1500}, None, {"rating": 1600}]
    assert R.match_changes([-100, 30, 10, 90], 11, False, players) == [None, -5, None, -11]


def test_v_q3_ties_share_the_mean_truncated_toward_zero():
    assert R.place_changes([1, 1, 5, 9], 11) == [8, 8, -5, -11]
    assert R.place_changes([1, 5, 5, 5], 11) == [11, -3, -3, -3]
    assert R.place_changes([3, 3, 3, 3], 11) == [0, 0, 0, 0]
    assert R.place_changes([1, 2, 9, 9], 11) == [11, 5, -8, -8]
    assert R.place_changes([1, 2, 2, 9], 5) == [5, 0, 0, -5]
    assert R.place_changes([1, 1, 1, 9], 3) == [1, 1, 1, -3]  # (3 + 1 - 1) / 3


def test_v_q4_partners_larger_total_loses_n_equal_gives_zero():
    assert R.partner_changes([10, 50, 20, -5], 11) == [11, -11, 11, -11]
    assert R.partner_changes([10, 10, 10, 10], 7) == [0, 0, 0, 0]
    players = [{"rating": 1500}] * 4
    assert R.match_changes([40, -30, 40, 20], 9, True, players) == [-9, 9, -9, 9]


def test_v_q5_above_7000_gains_two_thirds_losses_unchanged():
    assert R.apply_cap(11, 7001) == 7
    assert R.apply_cap(11, 7000) == 11
    assert R.apply_cap(-11, 9000) == -11
    assert R.apply_cap(8, 7500) == 5
    players = [{"rating": 7200}, {"rating": 1500}, {"rating": 1500}, {"rating": 1500}]
    assert R.match_changes([0, 10, 0, 10], 11, True, players) == [7, -11, 11, -11]


def test_v_q6_a_seat_taker_never_loses_gains_capped_nothing_above_3000():
    taker = {"rating": 1500, "role": "took_over", "rating_at_sit": 1500}
    assert R.seat_change(-11, taker) == 0
    assert R.seat_change(11, taker) == 11
    big = {"rating": 7100, "role": "took_over", "rating_at_sit": 2000}
    assert R.seat_change(11, big) == 7
    above = {"rating": 3100, "role": "took_over", "rating_at_sit": 3001}
    assert R.seat_change(11, above) == 0 and R.seat_change(-11, above) == 0


def test_v_x1_leaving_costs_twice_the_hands_and_nothing_else():
    assert R.leave_cost(11) == -22 and R.leave_cost(3) == -6
    assert R.seat_change(11, {"rating": 1500, "role": "left"}) == 0
    assert R.seat_change(-11, {"rating": 1500, "role": "left"}) == 0


def test_v_x2_three_abandons_in_seven_days_bar_rated_tables_for_two_hours():
    day, hour = 86400.0, 3600.0
    times = [0.0, 3 * day, 6 * day]
    assert R.rated_ban_until(times) == 6 * day + 2 * hour
    assert not R.may_join_rated(times, 6 * day + hour)
    assert R.may_join_rated(times, 6 * day + 2 * hour)
    assert R.may_join_rated([0.0, 4 * day, 8 * day], 8 * day + 60)  # not within 7 days
    assert R.may_join_rated([0.0, day], day + 1)


def test_v_x3_a_dropped_player_who_never_returns_gets_only_a_loss():
    dropped = {"rating": 1500, "role": "dropped"}
    assert R.seat_change(-11, dropped) == -11
    assert R.seat_change(11, dropped) == 0
    back = {"rating": 1500, "role": "played"}  # returned: as if they had never dropped
    assert R.seat_change(11, back) == 11


def test_v_x4_the_seat_taker_is_rated_by_v_q6():
    """V-X4: whoever takes a vacant seat plays it on; their rating follows V-Q6."""
    players = [{"rating": 1500, "role": "took_over", "rating_at_sit": 1500}, None, None, None]
    assert R.match_changes([90, 1, 2, 3], 11, False, players) == [0, None, None, None]
    assert R.match_changes([0, 1, 2, 3], 11, False, players) == [11, None, None, None]


def test_bad_role_and_seat_count():
    with pytest.raises(ValueError):
        R.seat_change(1, {"rating": 1, "role": "ghost"})
    with pytest.raises(ValueError):
        R.match_changes([1, 2, 3], 3, False, [None] * 3)
