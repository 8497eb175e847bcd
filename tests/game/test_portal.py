"""Portal rules shared by every game (portal.md): P-4, P-5, P-6, P-7, P-8, P-10."""

from __future__ import annotations

import pytest

from game import portal
from game.engine import registry


def test_p6_move_time_is_30_to_300_in_15s_steps_and_kut_keeps_45():
    kut = registry.get("kut")
    assert portal.move_seconds(kut, 120) == 45  # K-N6: fixed
    assert portal.MOVE_SECONDS_CHOICES[0] == 30 and portal.MOVE_SECONDS_CHOICES[-1] == 300
    assert all(b - a == 15 for a, b in zip(portal.MOVE_SECONDS_CHOICES,
                                           portal.MOVE_SECONDS_CHOICES[1:]))  # fmt: skip

    class Free:
        fixed_move_seconds, default_move_seconds, move_seconds_for = False, 60, None

    assert portal.move_seconds(Free(), None) == 60
    assert portal.move_seconds(Free(), 135) == 135
    for bad in (29, 31, 301, 0, True, "60"):
        with pytest.raises(portal.PortalError):
            portal.move_seconds(Free(), bad)


def test_p7_levels_choose_the_bots():
    assert [portal.bot_level(x) for x in portal.LEVELS] == ["easy", "normal", "hard"]
    with pytest.raises(portal.PortalError):
        portal.bot_level("grandmaster")


@pytest.mark.parametrize(
    "places, expected",
    [
        ([1, 2, 3, 4], ["first", "middle", "middle", "last"]),
        ([1, 1, 3, 4], ["shared_first", "shared_first", "middle", "last"]),
        ([1, 2, 3, 3], ["first", "middle", "shared_last", "shared_last"]),
        ([1, 1, 1, 1], ["shared_first"] * 4),  # P-4 Decision: all level
        ([1, 2], ["first", "last"]),  # two players: win +1, loss −1
        ([1, 1], ["shared_first", "shared_first"]),  # a draw: 0
    ],
)
def test_p4_points_from_places(places, expected):
    assert portal.placings(places) == expected
    assert [portal.POINTS[o] for o in expected] == [
        {"first": 1, "shared_first": 0, "middle": 0, "last": -1, "shared_last": -1}[o]
        for o in expected
    ]


def test_p8_partners_get_the_same_points():
    # seats 0+2 = 30, 1+3 = 50; lower is better (KÜT-like): team 0+2 wins
    assert portal.partner_placings([10, 20, 20, 30], True) == ["first", "last", "first", "last"]
    assert portal.partner_placings([10, 20, 20, 30], False) == ["last", "first", "last", "first"]
    assert portal.partner_placings([10, 10, 10, 10], True) == ["shared_first"] * 4


def test_p5_leaving():
    assert portal.leave_outcome(0, [], True) == "left_loss"  # first hand
    assert portal.leave_outcome(0, [5, 10, 10, 12], True) == "left_leading"  # sole leader
    assert portal.leave_outcome(0, [5, 5, 10, 12], True) == "left_loss"  # shared lead
    assert portal.leave_outcome(0, [50, 10, 10, 12], False) == "left_leading"


def test_p10_leaving_a_partner_match():
    ahead, level, behind = [5, 20, 5, 20], [10, 10, 10, 10], [30, 20, 30, 20]
    assert portal.partner_leave_outcomes(0, ahead, True) == ("left_leading", "partner_bonus")
    assert portal.partner_leave_outcomes(0, level, True) == ("left_loss", "middle")
    assert portal.partner_leave_outcomes(0, behind, True) == ("left_loss", "last")
    assert [portal.POINTS[o] for o in ("left_leading", "partner_bonus")] == [0, 1]
    assert [portal.POINTS[o] for o in ("left_loss", "last")] == [-1, -1]
