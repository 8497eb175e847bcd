"""Portal ranking rules through the real ranking hook: P-7 (per game and level), P-8
(partners share their team's points), P-10 (leaving a partner match), P-11 (habitual
leavers barred across games)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from game.models import Match
from lobby import services as lobby_services
from lobby.models import Ranking
from lobby.ranking import leaver_barred_until, match_rank
from lobby.services import LobbyError
from tests.lobby.test_ranking import STEP, build, leave, outcomes

pytestmark = pytest.mark.django_db


def test_p7_rankings_are_kept_per_level(players):
    ali, ayse, can, deniz = players[:4]
    for level, hands in (("usta", [[0, 10, 20, 30]]), ("acemi", [[30, 20, 10, 0]])):
        match = build([ali, ayse, can, deniz], hands)
        Match.objects.filter(pk=match.pk).update(level=level)
        match_rank(match.pk)
    usta = Ranking.objects.get(user=ali, game="kut", level="usta")
    acemi = Ranking.objects.get(user=ali, game="kut", level="acemi")
    assert (usta.points, acemi.points) == (1, -1)
    assert Ranking.objects.filter(user=ali).count() == 2


def test_p7_bots_play_at_the_tables_level(players):
    table = lobby_services.table_create(game="kut", host=players[0], level="usta", rated=False)
    match = lobby_services.table_start(table.pk, players[0], fill_with_bots=True)
    assert match.level == "usta"
    assert [s.bot_level for s in match.seats.order_by("seat")][1:] == ["hard"] * 3
    with pytest.raises(LobbyError):
        lobby_services.table_create(game="kut", host=players[1], level="grandmaster")


def test_p8_partners_get_their_teams_points(players):
    ali, ayse, can, deniz = players[:4]
    match = build([ali, ayse, can, deniz], [[10, 40, 20, 5]])  # 0+2 = 30, 1+3 = 45
    Match.objects.filter(pk=match.pk).update(partners=True)
    match_rank(match.pk)
    assert outcomes(match) == {
        "ali": ("first", 1), "can": ("first", 1), "ayse": ("last", -1), "deniz": ("last", -1),
    }  # fmt: skip


@pytest.mark.parametrize(
    "hands, leaver, partner",
    [
        ([[5, 20, 5, 20], [50, 0, 50, 0]], ("left_leading", 0), ("partner_bonus", 1)),  # ahead
        ([[10, 10, 10, 10], [0, 50, 0, 50]], ("left_loss", -1), ("middle", 0)),  # level
        ([[30, 20, 30, 20], [0, 50, 0, 50]], ("left_loss", -1), ("last", -1)),  # behind
    ],
)
def test_p10_leaving_a_partner_match(players, hands, leaver, partner):
    ali, ayse, can, deniz = players[:4]
    match = build([ali, ayse, can, deniz], hands)
    Match.objects.filter(pk=match.pk).update(partners=True)
    leave(match, 0, match.start + STEP + timedelta(seconds=3))  # after hand 1
    match_rank(match.pk)
    result = outcomes(match)
    assert result["ali"] == leaver and result["can"] == partner


def test_p11_habitual_leavers_are_barred_across_games(players, settings):
    ali, ayse, can, deniz = players[:4]
    settings.KUT_LEAVER_THRESHOLD = 3
    now = timezone.now()
    moments = []
    for game in ("kut", "kdvli", "king"):  # three leaves, each in another game
        match = build([ali, ayse, can, deniz], [[0, 10, 20, 30]])
        leave(match, 0, match.start + STEP / 2)
        moments.append(match.start + STEP / 2)
        match_rank(match.pk)  # ranked as KÜT (P-4), then filed under its game
        Match.objects.filter(pk=match.pk).update(game=game)
    until = leaver_barred_until(ali, now=now)
    assert until == max(moments) + timedelta(seconds=settings.KUT_LEAVER_BAN_SECONDS)
    assert leaver_barred_until(ali, "kastet", now) == until  # barred at every game's tables
