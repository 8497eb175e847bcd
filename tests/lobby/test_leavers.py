"""Habitual leavers: barred from rated tables for at least two hours."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from game import services as game_services
from game.models import Match
from lobby import services
from lobby.models import RankingResult
from lobby.ranking import leaver_barred_until
from lobby.services import LobbyError

pytestmark = pytest.mark.django_db


def left_rated_matches(user, others, count: int, last_at):
    """``count`` ranked leaves, the latest at ``last_at`` (one hour apart)."""
    for i in range(count):
        match = game_services.match_create(
            game="kut", options={"tasks": 5}, users=[user, None, None, None], seed=f"l{i}"
        )
        Match.objects.filter(pk=match.pk).update(status=Match.Status.ABANDONED)
        RankingResult.objects.create(
            match=match, user=user, game="kut", seat=0, outcome="left_loss", points=-1,
            left=True, left_at=last_at - timedelta(hours=i),
        )  # fmt: skip


def test_three_leaves_bar_rated_tables_for_two_hours(players):
    ali, ayse = players[:2]
    now = timezone.now()
    rated = services.table_create(game="kut", host=ayse, rated=True)
    test = services.table_create(game="kut", host=players[2], rated=False)
    left_rated_matches(ali, players, 2, now - timedelta(minutes=5))
    assert leaver_barred_until(ali, "kut", now) is None  # two are not a habit
    services.table_join(rated.pk, ali)
    services.table_leave(rated.pk, ali)

    left_rated_matches(ali, players, 1, now - timedelta(minutes=1))  # the third
    until = leaver_barred_until(ali, "kut", now)
    assert until == now - timedelta(minutes=1) + timedelta(hours=2)
    with pytest.raises(LobbyError) as info:
        services.table_join(rated.pk, ali, now=now)
    assert info.value.code == "leaver_barred" and "test masaları sana açık" in info.value.message
    with pytest.raises(LobbyError):
        services.table_create(game="kut", host=ali, rated=True, now=now)
    services.table_join(test.pk, ali, now=now)  # test tables stay open
    services.table_leave(test.pk, ali)
    assert services.play_now(ali, game="kut", now=now).pk == test.pk  # never a rated one

    later = now + timedelta(hours=2)
    assert leaver_barred_until(ali, "kut", later) is None
    services.table_leave(test.pk, ali)
    services.table_join(rated.pk, ali, now=later)


def test_the_bar_never_lasts_less_than_two_hours_and_old_leaves_fade(players, settings):
    ali = players[0]
    settings.KUT_LEAVER_BAN_SECONDS = 60  # a setting can lengthen the bar, never shorten it
    now = timezone.now()
    left_rated_matches(ali, players, 3, now - timedelta(minutes=30))
    assert leaver_barred_until(ali, "kut", now) == now + timedelta(minutes=90)
    far = now + timedelta(days=8)
    assert leaver_barred_until(ali, "kut", far) is None  # outside the window
    settings.KUT_LEAVER_THRESHOLD = 4
    assert leaver_barred_until(ali, "kut", now) is None


def test_leaves_of_running_rated_matches_count_at_once(players):
    ali = players[0]
    for i in range(3):
        match = game_services.match_create(
            game="kut", options={"tasks": 5}, users=[ali, players[1], None, None], seed=f"r{i}"
        )
        game_services.match_leave(match.pk, ali)  # the match goes on with ayse
    test = game_services.match_create(
        game="kut", options={"tasks": 5}, users=[ali, players[1], None, None], rated=False
    )
    assert leaver_barred_until(ali, "kut") is not None
    game_services.match_leave(test.pk, players[1])  # test matches never count
    assert leaver_barred_until(players[1], "kut") is None
