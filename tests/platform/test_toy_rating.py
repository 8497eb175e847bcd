"""P-9: a game with its own rating scheme (here the rated toy) is ranked by it instead of
P-4: its start rating, the changes at the end, the leaving cost written at once, and a
replacement (P-12) who loses nothing."""

from __future__ import annotations

import pytest

from game import services
from game.engine import registry
from game.models import Match
from lobby.models import Ranking, RankingResult
from tests.history.play import play_as_humans


@pytest.fixture(autouse=True)
def rated_toy(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "toyr", registry.GameEntry("toyr", "tests.toygame.engine"))
    monkeypatch.setattr("tests.toygame.engine.GAME", __import__(
        "tests.toygame.engine", fromlist=["RATED"]).RATED)  # fmt: skip


def _play_out(match):
    return play_as_humans(match, choose=lambda state, seat: {"type": "add", "n": 3})


@pytest.mark.django_db(transaction=True)  # the finish and leave hooks run after commit
def test_p9_a_games_own_rating_replaces_p4(players):
    a, b = players[:2]
    # a fixed deal: with a random one the two totals tied now and then (both then lose 10)
    match = _play_out(services.match_create(game="toyr", options={"hands": 3}, users=[a, b],
                                            seed="p9-no-tie"))  # fmt: skip
    totals = match.state["totals"]
    assert totals[0] != totals[1]
    winner = 0 if totals[0] > totals[1] else 1
    rows = {r.seat: (r.outcome, r.points) for r in RankingResult.objects.filter(match=match)}
    assert rows == {winner: ("rated", 10), 1 - winner: ("rated", -10)}
    points = {r.user_id: r.points for r in Ranking.objects.filter(game="toyr")}
    assert points == {[a, b][winner].pk: 1010, [a, b][1 - winner].pk: 990}  # from START


@pytest.mark.django_db(transaction=True)
def test_p9_leaving_costs_at_once_and_the_replacement_loses_nothing(players):
    a, b, c = players[:3]
    match = services.match_create(game="toyr", options={"hands": 3}, users=[a, b], host=a)
    services.match_leave(match.pk, b)
    left = RankingResult.objects.get(match=match, user=b)
    assert (left.outcome, left.points) == ("leave_cost", -6)  # 2 x 3 hands, at once
    assert Ranking.objects.get(user=b, game="toyr").points == 994
    services.match_seat_request(match.pk, c, 1)
    services.match_seat_answer(match.pk, a, 1, True)
    match = _play_out(Match.objects.get(pk=match.pk))
    rows = {r.user_id: (r.outcome, r.points) for r in RankingResult.objects.filter(match=match)}
    assert rows[b.pk] == ("leave_cost", -6)  # nothing more at the end
    assert rows[c.pk][1] >= 0  # P-12: the replacement loses nothing
