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
from games.kelimeki.models import KligEntry
from lobby.models import RankingResult
from tests.games.kelimeki.lobby.test_kelimeki_live import kelimeki_mail  # noqa: F401
from tests.lobby.conftest import client_for


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
    assert match.kind == Match.Kind.NORMAL  # not the unrecorded game
    # the Skor Kartı lists it as a running game
    card = client.get(reverse("kelimeki:score_card")).content.decode()
    assert f'data-match="{match.pk}"' in card
    # it ends in k-lig (here by the forfeit, W-L4)
    services.match_leave(match.pk, a)
    assert list(RankingResult.objects.filter(match=match).values_list("points", flat=True)) == [-2]
    assert KligEntry.objects.filter(match=match, user=a).exists()


@pytest.mark.django_db(transaction=True)  # the AI answers and the hooks run after commit
def test_practice_and_guests_are_recorded_nowhere(players, settings):
    """W-X1, issue 27: a logged-in player's practice game and a guest's game are
    unrecorded matches: played to their end, they are in no history, ranking, k-lig,
    Skor Kartı, lobby list or player record, and the admin shows them as unrecorded."""
    from django.contrib.auth import get_user_model

    from game import guests
    from lobby.models import Table
    from tests.games.kelimeki.web.test_guests import play_out

    settings.DEBUG, settings.KUT_TEST_SEEDS = True, True  # short games
    a = players[0]
    client = client_for(a)
    resp = client.post(reverse("kelimeki:solo_new"), {"level": "easy", "players": "2",
                       "record": "unrecorded", "seed": "practice", "bag": "4"})  # fmt: skip
    assert resp.url == reverse("kelimeki:solo")
    practice = Match.objects.get(kind=Match.Kind.GUEST)
    assert practice.seats.get(seat=0).user == a and practice.host == a
    assert f'data-match="{practice.pk}"' in client.get(resp.url).content.decode()
    assert client.get(reverse("game:match", args=[practice.pk])).status_code == 200
    guest = Client()
    page = guest.get(reverse("kelimeki:solo")).content.decode()
    assert 'name="record"' not in page
    guest.post(reverse("kelimeki:solo_new"),
               {"level": "easy", "players": "4", "seed": "guest", "bag": "4"})  # fmt: skip
    played = [play_out(practice), play_out(guests.current("kelimeki", None, guest.session))]
    assert all(m.status == Match.Status.FINISHED for m in played)
    assert not RankingResult.objects.exists() and not KligEntry.objects.exists()
    assert not Table.objects.exists()
    for url in (reverse("lobby:history"), reverse("kelimeki:score_card"), reverse("lobby:index"),
                reverse("player", args=[a.username]), reverse("lobby:game", args=["kelimeki"]),
                reverse("lobby:leaderboard") + "?game=kelimeki"):  # fmt: skip
        html = client.get(url).content.decode()
        for m in played:
            assert f"/{m.pk}/" not in html and f'data-match="{m.pk}"' not in html, url
    staff = get_user_model().objects.create_superuser("yonetici", "y@example.com", "pw-12345-x")
    admin = Client(HTTP_ACCEPT_LANGUAGE="en")
    admin.force_login(staff)
    listing = admin.get(reverse("admin:game_match_changelist") + "?kind=guest").content.decode()
    assert listing.count("Unrecorded game") >= 2
    assert admin.get(reverse("admin:game_match_changelist") + "?seats__guest_key__startswith=a"
                     ).status_code == 400  # fmt: skip
