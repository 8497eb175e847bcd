"""The protocol's optional hints (game/engine/protocol.py) on a game the platform has
never heard of: ``practice_tables = False`` (no P-3 test tables), ``ranked_by_level =
False`` (one ranking across P-7's levels), ``leaving_rules = False`` (P-5/P-13 do not
apply: a correspondence game) and ``move_seconds_for`` (the game's own clock instead of
P-6) — the hints Kelimeki sets (kelimeki.md W-X3, W-X4, W-X5, W-L1)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from game import services, tasks
from game.engine import registry
from game.models import Match, MatchSeat
from lobby import services as lobby_services
from lobby.forms import TableForm
from lobby.games import game_card
from lobby.models import Ranking, RankingResult, Table
from lobby.services import LobbyError
from tests.history.play import play_as_humans


@pytest.fixture(autouse=True)
def hinted_toy(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "toyh", registry.GameEntry("toyh", "tests.toygame.engine"))
    from tests.toygame import engine as toygame

    monkeypatch.setattr(toygame, "GAME", toygame.HINTED)


def _play_out(match):
    return play_as_humans(match, choose=lambda state, seat: {"type": "add", "n": 3})


@pytest.mark.django_db
def test_no_test_tables_the_dialog_offers_none_and_the_lobby_refuses_one(players):
    card = game_card("toyh")
    assert card.playable and not card.practice_tables and not card.move_time_choice
    form = TableForm(card, {"game": "toyh", "private": "0", "level": "orta", "opt_hands": "1"})
    assert "rated" not in form.fields and "move_seconds" not in form.fields
    assert form.is_valid(), form.errors
    assert form.table_kwargs()["rated"] is True
    with pytest.raises(LobbyError) as exc:
        lobby_services.table_create(host=players[0], game="toyh", rated=False)
    assert exc.value.code == "bad_options"
    # a game with test tables keeps the choice
    assert "rated" in TableForm(game_card("king")).fields


@pytest.mark.django_db
def test_the_dialog_page_has_no_rated_choice_and_creates_a_rated_table(players):
    client = Client()
    client.force_login(players[0])
    page = client.get(reverse("lobby:game", args=["toyh"]))
    assert page.status_code == 200 and b'name="rated"' not in page.content
    resp = client.post(reverse("lobby:create"), {"game": "toyh", "private": "1", "level": "usta",
                                                  "opt_hands": "1", "rated": "0"})  # fmt: skip
    assert resp.status_code == 302
    table = Table.objects.get(game="toyh")
    assert table.rated and table.move_seconds is None  # P-6 time not used: its own clock


@pytest.mark.django_db
def test_own_clock_sets_the_platforms_deadline(players):
    a, b = players[:2]
    now = timezone.now()
    match = services.match_create(game="toyh", options={"hands": 1}, users=[a, b], now=now)
    assert match.move_seconds is None
    assert match.deadline == now + timedelta(days=1)
    slow = services.match_create(game="toyh", options={"hands": 1, "slow": True}, users=[a, b],
                                 now=now)  # fmt: skip
    assert slow.deadline == now + timedelta(days=2)
    # the sweep applies the timeout only when it is due
    assert tasks.sweep(now + timedelta(hours=23)) == 0
    version = Match.objects.get(pk=match.pk).version
    tasks.sweep(now + timedelta(days=1, seconds=1))
    match.refresh_from_db()
    assert match.version == version + 1 and match.actions.filter(kind="timeout").count() == 1


@pytest.mark.django_db(transaction=True)
def test_one_ranking_for_every_level(players):
    a, b = players[:2]
    for level in ("acemi", "usta"):
        _play_out(services.match_create(game="toyh", options={"hands": 1}, users=[a, b],
                                        level=level))  # fmt: skip
    rows = Ranking.objects.filter(game="toyh")
    assert {r.level for r in rows} == {""} and all(r.matches == 2 for r in rows)
    assert {r.level for r in RankingResult.objects.filter(game="toyh")} == {""}
    page = Client().get(reverse("lobby:leaderboard") + "?game=toyh&level=usta")
    assert page.status_code == 200
    assert b"board-levels" not in page.content  # no level tabs
    assert str(a).encode() in page.content and str(b).encode() in page.content
    # a game ranked per level keeps its tabs
    assert b"board-levels" in Client().get(reverse("lobby:leaderboard") + "?game=king").content


@pytest.mark.django_db
def test_no_leaving_rules_a_lost_socket_is_not_a_drop_nor_idle(players, settings):
    a, b = players[:2]
    now = timezone.now()
    match = services.match_create(game="toyh", options={"hands": 3}, users=[a, b], now=now)
    MatchSeat.objects.filter(match=match).update(connected=False, disconnected_at=now)
    later = now + timedelta(seconds=settings.KUT_AWAY_LEAVE_SECONDS + 60)
    tasks.drops(later)
    assert not MatchSeat.objects.filter(match=match, away=True).exists()
    assert not MatchSeat.objects.filter(match=match, left=True).exists()
    tasks.housekeeping(now + timedelta(seconds=settings.KUT_ABANDON_AFTER_SECONDS + 60))
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING


@pytest.mark.django_db
def test_no_leaving_rules_several_games_at_once(players):
    a, b = players[:2]
    first = services.match_create(game="toyh", options={"hands": 3}, users=[a, b])
    table = lobby_services.table_create(host=a, game="toyh", options={"hands": 3})
    lobby_services.table_join(table.pk, b)
    lobby_services.table_start(table.pk, a)
    first.refresh_from_db()
    assert first.status == Match.Status.PLAYING  # W-X4: not left by starting another
    assert not first.seats.filter(left=True).exists()
