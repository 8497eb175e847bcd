"""KDVli's rating on the site (kdvli.md section 12, V-X1, V-X4, P-9, P-12): a rated match
in partners where a player leaves (2 × N written at once, nothing more at the end), the
seat is taken over with *Devam* and the match is played to its end; the partners share
their team's ±N (V-Q4) and the player who took the seat never loses (V-Q6)."""

from __future__ import annotations

import random

import pytest

from game import services
from game.engine import registry
from game.models import Match
from lobby.models import Ranking, RankingResult
from tests.history.play import play_as_humans

GAME = registry.get("kdvli")
pytestmark = pytest.mark.django_db(transaction=True)  # the rating hooks run after commit


def _play_out(match: Match, rng: random.Random) -> Match:
    """Every human seat plays as the hard bot would, from its own view (the bot seat
    moves inline, tests/game/conftest.py); void hands are dealt again (V-E2)."""
    return play_as_humans(match, level="hard", rng=rng)


def test_leaving_costs_2n_at_once_and_the_seat_taker_never_loses(players):
    a, b, c, d = players
    match = services.match_create(
        game="kdvli", options={"hands": 3}, users=[a, b, c, None], bot_levels=["", "", "", "hard"],
        partners=True, rated=True, host=a, seed="kdvli-rating-site",
    )  # fmt: skip
    services.match_leave(match.pk, b)  # V-X1: Çık, of their own will
    left = RankingResult.objects.get(match=match, user=b)
    assert (left.outcome, left.points) == ("leave_cost", -6)  # 2 × 3 hands, at once
    assert Ranking.objects.get(user=b, game="kdvli").points == 1500 - 6
    services.match_seat_request(match.pk, d, 1)  # V-X4, P-12: d asks for the seat …
    services.match_seat_answer(match.pk, a, 1, True)  # … and the manager says Devam
    match = _play_out(Match.objects.get(pk=match.pk), random.Random(3))

    team = GAME.match_result(GAME.from_dict(match.state)).detail["team_totals"]
    assert team[0] != team[1]  # (the seed gives no tie: V-Q4's 0 is the engine's test)
    gain = 3 if team[0] < team[1] else -3  # V-Q4: the lower team total gains N
    rows = {r.user_id: (r.outcome, r.points) for r in RankingResult.objects.filter(match=match)}
    assert rows[b.pk] == ("leave_cost", -6)  # V-X1: nothing more at the end
    assert rows[a.pk][1] == rows[c.pk][1] == gain  # partners share their team's result
    assert rows[d.pk][1] == max(-gain, 0)  # V-Q6: the seat taker never loses
    points = {r.user_id: r.points for r in Ranking.objects.filter(game="kdvli")}
    assert points == {a.pk: 1500 + gain, b.pk: 1494, c.pk: 1500 + gain, d.pk: 1500 + max(-gain, 0)}
