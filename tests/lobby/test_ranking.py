"""Ranking (P-3, P-4, P-5): every placing and leaving case, idempotence, test and aborted
matches, the real finish hook, the leaderboard and the profile."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from game import services as game_services
from game.models import HandResult, Match, MatchAction, MatchSeat
from lobby.models import RankedMatch, Ranking, RankingResult
from lobby.ranking import leave_outcome, match_rank, placements
from tests.lobby.conftest import client_for, make_user

pytestmark = pytest.mark.django_db

HOUR = timedelta(hours=1)
STEP = timedelta(minutes=10)


def build(users, hands, *, rated=True, status=Match.Status.FINISHED, start=None):
    """A match whose hands ended with ``hands`` (scores per seat), hand h at start + h·10 min."""
    start = start or timezone.now() - 2 * HOUR
    match = game_services.match_create(
        game="kut", options={"tasks": 5}, users=users, rated=rated, seed="ranking"
    )
    for i, scores in enumerate(hands):
        result = HandResult.objects.create(
            match=match, hand_no=i + 1, scores=scores, detail={"task_no": i + 1}
        )
        HandResult.objects.filter(pk=result.pk).update(created_at=start + (i + 1) * STEP)
    totals = [sum(h[s] for h in hands) for s in range(4)]
    state = dict(match.state, totals=totals)
    Match.objects.filter(pk=match.pk).update(
        status=status, state=state, finished_at=start + (len(hands) + 1) * STEP
    )
    match.refresh_from_db()
    match.start = start
    return match


def leave(match, seat: int, at):
    """The exit button at ``at`` (as ``game.services.match_leave`` records it)."""
    MatchSeat.objects.filter(match=match, seat=seat).update(left=True, left_at=at, left_in_hand=1)
    action = MatchAction.objects.create(
        match=match, version=1000 + seat, hand_no=1, seat=seat, kind="leave",
        payload={"type": "leave"}, actor=MatchAction.Actor.SYSTEM,
    )  # fmt: skip
    MatchAction.objects.filter(pk=action.pk).update(created_at=at)


def outcomes(match) -> dict:
    return {
        r.user.username: (r.outcome, r.points)
        for r in RankingResult.objects.filter(match=match).select_related("user")
    }


def points(user) -> int:
    return Ranking.objects.get(user=user, game="kut").points


# --- P-4 ---------------------------------------------------------------------------------


def test_placements_rule():
    assert placements([10, 50, 30, 80]) == ["first", "middle", "middle", "last"]
    assert placements([10, 10, 30, 80]) == ["shared_first", "shared_first", "middle", "last"]
    assert placements([10, 80, 30, 80]) == ["first", "shared_last", "middle", "shared_last"]
    assert placements([5, 5, 5, 9]) == ["shared_first"] * 3 + ["last"]
    assert placements([5, 9, 9, 9]) == ["first"] + ["shared_last"] * 3
    assert placements([7, 7, 7, 7]) == ["shared_first"] * 4  # a draw for everyone


def test_sole_first_sole_last_and_the_middle(players):
    ali, ayse, can, deniz = players[:4]
    match = build([ali, ayse, can, deniz], [[0, 20, 10, 40], [10, 30, 20, 40]])  # 10 50 30 80
    match_rank(match.pk)
    assert outcomes(match) == {
        "ali": ("first", 1),
        "ayse": ("middle", 0),
        "can": ("middle", 0),
        "deniz": ("last", -1),
    }
    row = Ranking.objects.get(user=ali)
    assert (row.points, row.matches, row.wins, row.losses, row.leaves) == (1, 1, 1, 0, 0)
    row = Ranking.objects.get(user=deniz)
    assert (row.points, row.matches, row.wins, row.losses) == (-1, 1, 0, 1)


def test_shared_first(players):
    ali, ayse, can, deniz = players[:4]
    match = build([ali, ayse, can, deniz], [[10, 10, 30, 80]])
    match_rank(match.pk)
    assert outcomes(match) == {
        "ali": ("shared_first", 0),
        "ayse": ("shared_first", 0),
        "can": ("middle", 0),
        "deniz": ("last", -1),
    }
    assert Ranking.objects.get(user=ali).shared_wins == 1


def test_shared_last(players):
    ali, ayse, can, deniz = players[:4]
    match = build([ali, ayse, can, deniz], [[10, 80, 30, 80]])
    match_rank(match.pk)
    assert outcomes(match) == {
        "ali": ("first", 1),
        "ayse": ("shared_last", -1),
        "can": ("middle", 0),
        "deniz": ("shared_last", -1),
    }


def test_bots_are_placed_but_never_ranked(players):
    ali, ayse = players[:2]
    match = build([ali, None, ayse, None], [[50, 10, 30, 80]])  # a bot is sole first
    match_rank(match.pk)
    assert outcomes(match) == {"ali": ("middle", 0), "ayse": ("middle", 0)}
    assert RankingResult.objects.filter(match=match).count() == 2


# --- P-5 ---------------------------------------------------------------------------------


def test_leave_outcome_rule():
    assert leave_outcome(0, []) == "left_loss"  # first hand
    assert leave_outcome(1, [[20, 5, 30, 40]]) == "left_leading"
    assert leave_outcome(1, [[5, 5, 30, 40]]) == "left_loss"  # leading, but not alone
    assert leave_outcome(3, [[20, 5, 30, 40], [0, 0, 0, 0]]) == "left_loss"


def test_leaving_in_the_first_hand_is_a_loss(players):
    ali, ayse, can, deniz = players[:4]
    match = build([ali, ayse, can, deniz], [[40, 30, 0, 10], [40, 30, 0, 10]])
    leave(match, 2, match.start + STEP / 2)  # before hand 1 ended; the bot then won
    match_rank(match.pk)
    # the leaver: −1 whatever the bot made of the seat; the others keep their P-4 placing
    # over all four seats (decision in lobby.ranking): deniz is second behind the bot.
    assert outcomes(match) == {
        "ali": ("last", -1),
        "ayse": ("middle", 0),
        "can": ("left_loss", -1),
        "deniz": ("middle", 0),
    }
    row = Ranking.objects.get(user=can)
    assert (row.points, row.matches, row.losses, row.leaves) == (-1, 1, 1, 1)
    result = RankingResult.objects.get(match=match, user=can)
    assert result.left and result.completed_hands == 0


def test_leaving_while_sole_leader_writes_nothing(players):
    ali, ayse, can, deniz = players[:4]
    hands = [[20, 5, 30, 40], [30, 0, 10, 20], [0, 100, 0, 0]]
    match = build([ali, ayse, can, deniz], hands)
    leave(match, 1, match.start + 2 * STEP + STEP / 2)  # in hand 3: 5 vs 50/40/60 after two
    match_rank(match.pk)
    assert outcomes(match)["ayse"] == ("left_leading", 0)
    row = Ranking.objects.get(user=ayse)
    assert (row.points, row.matches, row.wins, row.losses, row.leaves) == (0, 0, 0, 0, 1)
    assert RankingResult.objects.get(match=match, user=ayse).completed_hands == 2


def test_leaving_while_not_sole_leader_is_a_loss(players):
    ali, ayse, can, deniz = players[:4]
    hands = [[5, 5, 30, 40], [0, 0, 0, 0], [0, 0, 0, 90]]
    match = build([ali, ayse, can, deniz], hands)
    leave(match, 1, match.start + 2 * STEP + STEP / 2)  # tied for the lead: not alone
    leave(match, 3, match.start + 2 * STEP + STEP / 2)  # fourth: not the leader
    match_rank(match.pk)
    # final totals 5 5 30 130: ali shares first with the seat a bot finished for ayse
    assert outcomes(match) == {
        "ali": ("shared_first", 0),
        "ayse": ("left_loss", -1),
        "can": ("middle", 0),
        "deniz": ("left_loss", -1),
    }


def test_leaving_between_hands_counts_the_hand_just_completed(players):
    ali, ayse, can, deniz = players[:4]
    match = build([ali, ayse, can, deniz], [[20, 5, 30, 40], [50, 50, 0, 0]])
    leave(match, 1, match.start + STEP + timedelta(seconds=3))  # after hand 1's result
    match_rank(match.pk)
    assert outcomes(match)["ayse"] == ("left_leading", 0)


def test_a_seat_played_by_a_bot_for_over_three_minutes_at_the_end_has_left(players):
    ali, ayse, can, deniz = players[:4]
    match = build([ali, ayse, can, deniz], [[10, 20, 30, 40], [0, 0, 0, 0]])
    end = match.finished_at
    MatchSeat.objects.filter(match=match, seat=2).update(
        away=True, away_since=match.start + STEP / 2
    )  # away since hand 1 (timed out / disconnected)
    MatchSeat.objects.filter(match=match, seat=3).update(
        away=True, away_since=end - timedelta(minutes=2)
    )  # away for two minutes only: an ordinary placing
    match_rank(match.pk)
    assert outcomes(match) == {
        "ali": ("first", 1),
        "ayse": ("middle", 0),
        "can": ("left_loss", -1),
        "deniz": ("last", -1),
    }
    assert RankingResult.objects.get(match=match, user=can).left


def test_leaving_after_the_end_does_not_count(players):
    ali, ayse, can, deniz = players[:4]
    match = build([ali, ayse, can, deniz], [[0, 20, 10, 40]])
    MatchSeat.objects.filter(match=match, seat=0).update(left=True, left_at=timezone.now())
    match_rank(match.pk)
    assert outcomes(match)["ali"] == ("first", 1)


# --- which matches, how often ------------------------------------------------------------


def test_test_matches_are_recorded_nowhere(players):
    match = build(players[:4], [[0, 20, 10, 40]], rated=False)
    assert match_rank(match.pk) is None
    assert not RankingResult.objects.exists() and not Ranking.objects.exists()
    assert not RankedMatch.objects.exists()


def test_aborted_and_running_matches_are_not_ranked(players):
    aborted = build(players[:4], [[0, 20, 10, 40]], status=Match.Status.ABORTED)
    running = build(players[:4], [[0, 20, 10, 40]], status=Match.Status.BETWEEN)
    assert match_rank(aborted.pk) is None and match_rank(running.pk) is None
    assert match_rank(999999) is None
    assert not Ranking.objects.exists()


def test_a_match_is_ranked_once(players):
    match = build(players[:4], [[0, 20, 10, 40]])
    assert match_rank(match.pk) is not None
    assert match_rank(match.pk) is None
    from lobby.ranking import match_finished

    match_finished(match.pk)
    assert points(players[0]) == 1 and Ranking.objects.get(user=players[0]).matches == 1
    assert RankingResult.objects.filter(match=match).count() == 4


def test_abandoned_through_the_real_path_applies_p5(players, django_capture_on_commit_callbacks):
    """Every human leaves during hand 1: the match is abandoned and the registered hook
    gives each of them a loss."""
    from game import events

    assert "lobby.on_match_finished" in str(events.match_finished.receivers)
    ali, ayse = players[:2]
    match = game_services.match_create(
        game="kut", options={"tasks": 5}, users=[ali, None, ayse, None], seed="ab"
    )
    with django_capture_on_commit_callbacks(execute=True):
        game_services.match_leave(match.pk, ali)
        game_services.match_leave(match.pk, ayse)
    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED
    assert outcomes(match) == {"ali": ("left_loss", -1), "ayse": ("left_loss", -1)}


def test_an_abandoned_match_gives_no_placing_to_those_who_stayed(players):
    ali, ayse = players[:2]
    match = build([ali, ayse, None, None], [[20, 5, 30, 40]], status=Match.Status.ABANDONED)
    leave(match, 1, match.finished_at)  # sole leader after hand 1
    match_rank(match.pk)
    assert outcomes(match) == {"ayse": ("left_leading", 0)}


# --- pages -------------------------------------------------------------------------------


def test_leaderboard_is_paginated_and_the_profile_shows_points(players, client):
    ali = players[0]
    for i in range(30):
        user = make_user(f"oyuncu{i:02d}")
        Ranking.objects.create(user=user, game="kut", points=i, matches=i + 1)
    Ranking.objects.create(user=ali, game="kut", points=-3, matches=5, wins=1, losses=4)
    page = client.get(reverse("lobby:leaderboard")).content.decode()
    assert "oyuncu29" in page and "Sayfa 1 / 2" in page and "<td>ali</td>" not in page
    page = client.get(reverse("lobby:leaderboard") + "?page=2").content.decode()
    assert "<td>ali</td>" in page and '<td class="num">31</td>' in page
    assert client.get(reverse("lobby:leaderboard") + "?page=x").status_code == 200
    profile = client_for(ali).get(reverse("accounts:profile")).content.decode()
    # the profile's records per game and level (issue 17): KÜT, Orta: -3 in 5 (1 won, 4 lost)
    row = profile.split('data-game="kut"', 1)[1].split('<tr data-level="orta">', 1)[1]
    row = row.split("</tr>", 1)[0]
    assert "Oyunlara göre kayıtlar" in profile and '<td class="num ranking-points">-3</td>' in row
    assert [c.split(">", 1)[1] for c in row.split("</td>")[2:5]] == ["5", "1", "4"]
