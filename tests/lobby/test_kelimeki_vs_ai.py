"""Kelimeki against the AI for a logged-in player counts for k-lig (kelimeki.md W-L1);
a guest's game is recorded nowhere (W-X1)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from game import services
from game.models import Match
from games.kelimeki.engine import AI_MOVE_SECONDS
from lobby.models import KligEntry, RankingResult
from tests.lobby.conftest import client_for
from tests.lobby.test_kelimeki_live import kelimeki_playable  # noqa: F401


@pytest.mark.django_db(transaction=True)  # the AI answers and the hooks run after commit
def test_a_logged_in_players_game_against_the_ai_is_recorded(players):
    a = players[0]
    client = client_for(a)
    page = client.get(reverse("kelimeki:solo")).content.decode()
    assert 'name="record" value="klig" checked' in page  # the default counts (W-L1)
    resp = client.post(reverse("kelimeki:solo_new"), {"level": "hard", "players": "2"})
    match = Match.objects.get(game="kelimeki")
    assert resp.status_code == 302 and resp.url == reverse("game:match", args=[match.pk])
    assert match.rated and match.options["vs_ai"]
    assert match.deadline - match.turn_started == timedelta(seconds=AI_MOVE_SECONDS)  # W-X3
    seats = list(match.seats.order_by("seat"))
    assert seats[0].user == a and seats[1].bot_level == "hard" and seats[1].user is None
    assert client.get(resp.url).status_code == 200
    assert client.session.get("kelimeki_solo") is None  # not the session game
    # the Skor Kartı lists it as a running game
    card = client.get(reverse("lobby:klig_card")).content.decode()
    assert f'data-match="{match.pk}"' in card
    # it ends in k-lig (here by the forfeit, W-L4)
    services.match_leave(match.pk, a)
    assert list(RankingResult.objects.filter(match=match).values_list("points", flat=True)) == [-2]
    assert KligEntry.objects.filter(match=match, user=a).exists()


@pytest.mark.django_db
def test_practice_and_guests_are_recorded_nowhere(players):
    client = client_for(players[0])
    resp = client.post(reverse("kelimeki:solo_new"),
                       {"level": "easy", "players": "2", "record": "unrecorded"})  # fmt: skip
    assert resp.url == reverse("kelimeki:solo") and client.session.get("kelimeki_solo")
    guest = Client()
    page = guest.get(reverse("kelimeki:solo")).content.decode()
    assert 'name="record"' not in page
    guest.post(reverse("kelimeki:solo_new"), {"level": "easy", "players": "4"})
    assert guest.session.get("kelimeki_solo") and not Match.objects.exists()
