"""The Kastet rating (kastet.md section 10) and its command
``python -m game.engine.rating`` (kastet-scenario.md, "The rating command")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.kastet.engine.rating import START_RATING, match_points, place_points, settle
from tests.games.kastet.engine.test_replay_cli import in_process

ROOT = Path(__file__).resolve().parents[4]
EXAMPLE = {"game": "kastet", "hands": 11, "partners": False, "totals": [120, 95, 300, 95],
           "seats": [{}, {}, {"left": True, "substitute_rating": 3100},
                     {"dropped": True, "substitute_rating": 1500}]}  # fmt: skip


def query(**kw) -> dict:
    q = {"game": "kastet", "hands": 5, "totals": [10, 20, 30, 40]}
    q.update(kw)
    return q


def test_the_documented_example_through_the_command():
    proc = subprocess.run([sys.executable, "-m", "game.engine.rating", "-"], cwd=ROOT,
                          input=json.dumps(EXAMPLE), capture_output=True, text=True,
                          timeout=60)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"points": [-5, 10, -11, 10],
                                       "players": [-5, 10, -22, 0],
                                       "substitutes": [None, None, 0, 10]}  # fmt: skip


def test_a_huge_whole_number_of_hands_is_answered_not_a_traceback():
    """H is any whole number ≥ 1; 2·H may be one digit longer than the JSON parser's
    4,300 (once a ValueError while printing, exit 1)."""
    hands = int("9" * 4300)
    proc = subprocess.run([sys.executable, "-m", "game.engine.rating", "-"], cwd=ROOT,
                          input=json.dumps(query(hands=hands)), capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    points = json.loads(proc.stdout, parse_int=str)["points"]
    assert points[0] == "1" + "9" * 4299 + "8"  # lowest total wins: +2H, 4,301 digits


def test_s_p1_ratings_start_at_1500():
    """S-P1: a new account's Kastet rating (the platform writes it; the number is here)."""
    assert START_RATING == 1500


@pytest.mark.parametrize("hands,want", [(11, [22, 10, -5, -11]), (5, [10, 4, -2, -5]),
                                         (1, [2, 0, 0, -1]), (3, [6, 2, -1, -3])])  # fmt: skip
def test_s_p2_places_pay_double_for_a_win(hands, want):
    """S-P2: 1st +2H, 2nd +2·⌊H/2⌋, 3rd −⌊H/2⌋, 4th −H; the lowest total is 1st."""
    assert place_points(hands) == want
    assert match_points(hands, [40, 10, 30, 20]) == [want[3], want[0], want[2], want[1]]


def test_s_p3_ties_take_the_worst_shared_place():
    """S-P3 (and P-4's shape): tied players get the worst place they share."""
    assert match_points(5, [10, 10, 30, 40]) == [4, 4, -2, -5]  # tied first: 2nd's points
    assert match_points(5, [10, 20, 40, 40]) == [10, 4, -5, -5]  # tied last: −H each
    assert match_points(5, [10, 10, 10, 40]) == [-2, -2, -2, -5]  # three share 1st-3rd
    assert match_points(5, [10, 20, 20, 40]) == [10, -2, -2, -5]
    assert match_points(11, [77, 77, 77, 77]) == [0, 0, 0, 0]  # all equal: no change


def test_s_p4_fifty_per_hand_cap():
    """S-P4: over 50·H a gain becomes 0 (exactly 50·H still gains); a loss stays."""
    assert match_points(3, [151, 160, 170, 180]) == [0, 0, -1, -3]
    assert match_points(3, [150, 160, 170, 180]) == [6, 0, -1, -3]
    assert match_points(3, [-50, 151, 152, 153]) == [6, 0, -1, -3]


def test_s_p5_partners_share_the_side_result():
    """S-P5, S-M3: the lower side +2H each, the higher −H each; equal sides 0; the cap
    applies to a side as a whole (more than 100·H)."""
    assert match_points(5, [10, 50, 20, 60], partners=True) == [10, -5, 10, -5]
    assert match_points(5, [50, 10, 60, 20], partners=True) == [-5, 10, -5, 10]
    assert match_points(5, [10, 20, 30, 20], partners=True) == [0, 0, 0, 0]
    assert match_points(1, [60, 100, 41, 100], partners=True) == [0, -1, 0, -1]  # 101 > 100
    assert match_points(1, [60, 100, 40, 100], partners=True) == [2, -1, 2, -1]  # 100 gains


def test_s_p6_substitute_gets_only_a_gain_and_nothing_over_3000():
    """S-P6 for the substitute of S-X3 (taken over with Devam): only a gain, and 0 for a
    rating over 3000 before the match (exactly 3000 still gains)."""
    seats = [{"left": True, "substitute_rating": 1500}, {"dropped": True,
             "substitute_rating": 3000}, {"left": True, "substitute_rating": 3001},
             {"dropped": True, "substitute_rating": 1200}]  # fmt: skip
    r = settle(5, [10, 20, 30, 40], seats=seats)
    assert r["points"] == [10, 4, -2, -5]
    assert r["substitutes"] == [10, 4, 0, 0]


def test_s_p7_dropped_player_gets_only_a_loss():
    """S-P7 for a player dropped under S-X2 who had not retaken the seat: the seat's
    result if it is a loss, else 0 (not S-P8's −2H)."""
    r = settle(5, [10, 20, 30, 40], seats=[{"dropped": True}, {}, {"dropped": True}, {}])
    assert r["players"] == [0, 4, -2, -5]
    assert r["substitutes"] == [None] * 4


def test_s_p8_leaving_costs_two_h_whatever_the_standing():
    """S-P8, S-X1, P-5: −2H for the leaver, even when the seat finished first; with
    partners the leaver's partner gets the side's result."""
    r = settle(11, [10, 20, 30, 40], seats=[{"left": True}, {}, {}, {}])
    assert r["players"] == [-22, 10, -5, -11]
    r = settle(3, [10, 50, 20, 60], partners=True, seats=[{"left": True}, {}, {}, {}])
    assert r["points"] == [6, -3, 6, -3] and r["players"] == [-6, -3, 6, -3]


MALFORMED = {
    "not_an_object": [1, 2],
    "no_game": {"hands": 5, "totals": [1, 2, 3, 4]},
    "missing_hands": {"game": "kastet", "totals": [1, 2, 3, 4]},
    "hands_zero": query(hands=0),
    "hands_text": query(hands="5"),
    "hands_fraction": query(hands=2.5),
    "hands_bool": query(hands=True),
    "missing_totals": {"game": "kastet", "hands": 5},
    "three_totals": query(totals=[1, 2, 3]),
    "total_fraction": query(totals=[1, 2, 3, 4.5]),
    "total_text": query(totals=[1, 2, 3, "4"]),
    "partners_text": query(partners="no"),
    "three_seats": query(seats=[{}, {}, {}]),
    "seat_not_object": query(seats=[{}, {}, {}, 1]),
    "left_and_dropped": query(seats=[{"left": True, "dropped": True}, {}, {}, {}]),
    "substitute_alone": query(seats=[{"substitute_rating": 1500}, {}, {}, {}]),
    "substitute_text": query(seats=[{"left": True, "substitute_rating": "x"}, {}, {}, {}]),
    "left_text": query(seats=[{"left": "yes"}, {}, {}, {}]),
    "unknown_seat_field": query(seats=[{"gone": True}, {}, {}, {}]),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_queries_exit_2_with_one_line(name, monkeypatch, capsys):
    code, out, err = in_process(json.dumps(MALFORMED[name]), monkeypatch, capsys, "rating")
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0] and "Traceback" not in err


def test_a_null_substitute_is_no_substitute(monkeypatch, capsys):
    q = query(seats=[{"left": True, "substitute_rating": None}, {}, {}, {}])
    code, out, _ = in_process(json.dumps(q), monkeypatch, capsys, "rating")
    assert code == 0 and json.loads(out)["substitutes"] == [None] * 4


def test_optional_fields_may_be_null(monkeypatch, capsys):
    q = query(partners=None, seats=None)
    code, out, _ = in_process(json.dumps(q), monkeypatch, capsys, "rating")
    assert code == 0 and json.loads(out)["points"] == [10, 4, -2, -5]


def test_the_platform_rating_scheme():
    """GAME.rating (protocol.RatingScheme, P-9): S-P1 start 1500, S-P8 −2H when leaving,
    and at the end S-P2 … S-P7 per seat's player role; nothing for a match that did not
    reach the end of its last hand (S-P1)."""
    from game.engine.protocol import MatchResult
    from games.kastet.engine import GAME

    scheme = GAME.rating
    assert scheme.START == 1500
    assert scheme.leave_cost({"hands": 11}, 3) == -22
    result = MatchResult([120, 95, 300, 95], [3, 1, 4, 1], 11)
    players = [
        {"rating": 1500, "role": "played"},
        None,
        {"rating": 3100, "role": "took_over"},
        {"rating": 1400, "role": "dropped"},
    ]
    assert scheme.match_changes(result, False, players, {"hands": 11}) == [-5, None, 0, 0]
    players[2] = {"rating": 1500, "role": "took_over"}
    players[3] = {"rating": 1500, "role": "left"}
    assert scheme.match_changes(result, False, players, {"hands": 11}) == [-5, None, 0, None]
    partners = MatchResult([10, 50, 20, 60], [1, 2, 1, 2], 5)
    everyone = [{"rating": 1500, "role": "played"}] * 4
    assert scheme.match_changes(partners, True, everyone, {"hands": 5}) == [10, -5, 10, -5]
    short = MatchResult([10, 50, 20, 60], [1, 2, 3, 4], 4)
    assert scheme.match_changes(short, False, everyone, {"hands": 5}) == [None] * 4
