"""Tables: create, join, leave, bots, start, close, play now — services and pages."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.urls import reverse

from game.models import Match
from lobby import services
from lobby.models import Table, TableSeat
from lobby.services import LobbyError
from tests.lobby.conftest import client_for

pytestmark = pytest.mark.django_db


def seat_names(table: Table) -> list:
    return [
        s.user.username if s.user_id else (f"bot:{s.bot_level}" if s.bot_level else None)
        for s in table.seats.order_by("seat")
    ]


def refused(code: str, fn, *args, **kwargs) -> LobbyError:
    with pytest.raises(LobbyError) as info:
        fn(*args, **kwargs)
    assert info.value.code == code, info.value.code
    assert info.value.message  # a sentence for the player
    return info.value


def test_create_join_leave_and_a_fifth_player_is_refused(players):
    ali, ayse, can, deniz, ece, _ = players
    table = services.table_create(
        game="kut", host=ali, options={"tasks": 5}, rated=False, bots_allowed=False
    )
    assert table.status == Table.Status.OPEN and table.game == "kut"
    assert seat_names(table) == ["ali", None, None, None]
    assert table.invites.count() == 1  # the host can share a link at once

    assert services.table_join(table.pk, ayse, 2).seat == 2
    refused("seat_taken", services.table_join, table.pk, can, 2)
    refused("bad_seat", services.table_join, table.pk, can, 7)
    refused("bad_seat", services.table_join, table.pk, can, "x")
    services.table_join(table.pk, can)  # the first empty seat
    services.table_join(table.pk, deniz)
    assert seat_names(table) == ["ali", "can", "ayse", "deniz"]
    assert services.table_join(table.pk, ayse).seat == 2  # already there: no change

    error = refused("table_full", services.table_join, table.pk, ece)
    assert "dolu" in error.message  # Turkish by default
    assert TableSeat.objects.filter(table=table).count() == 4

    services.table_leave(table.pk, can)
    assert seat_names(table) == ["ali", None, "ayse", "deniz"]
    refused("not_seated", services.table_leave, table.pk, can)
    services.table_join(table.pk, ece)
    assert seat_names(table) == ["ali", "ece", "ayse", "deniz"]


def test_one_open_table_at_a_time(players):
    ali, ayse, *_ = players
    first = services.table_create(game="kut", host=ali)
    refused("seated_elsewhere", services.table_create, game="kut", host=ali)
    second = services.table_create(game="kut", host=ayse)
    refused("seated_elsewhere", services.table_join, second.pk, ali)
    page = client_for(ali).get(reverse("lobby:index")).content.decode()
    assert "masada oturuyorsun." in page and reverse("lobby:leave", args=[first.pk]) in page
    client_for(ali).post(reverse("lobby:leave", args=[first.pk]))  # the host: the table closes
    first.refresh_from_db()
    assert first.status == Table.Status.CLOSED
    services.table_join(second.pk, ali)
    assert seat_names(second)[:2] == ["ayse", "ali"]


def test_bad_options_are_refused(players):
    ali = players[0]
    refused("bad_options", services.table_create, game="kut", host=ali, options={"tasks": 7})
    refused("bad_bot_level", services.table_create, game="kut", host=ali, bot_level="genius")
    assert not Table.objects.exists()


def test_bots_and_start_by_the_host(players):
    ali, ayse, can, *_ = players
    table = services.table_create(
        game="kut", host=ali, options={"tasks": 8}, rated=True, bot_level="easy"
    )
    services.table_join(table.pk, ayse)
    refused("not_host", services.table_add_bot, table.pk, ayse)
    services.table_add_bot(table.pk, ali, 3, "hard")
    refused("seat_not_empty", services.table_add_bot, table.pk, ali, 3)
    refused("bad_bot_level", services.table_add_bot, table.pk, ali, 2, "genius")
    assert seat_names(table) == ["ali", "ayse", None, "bot:hard"]
    refused("not_full", services.table_start, table.pk, ali)
    refused("not_host", services.table_start, table.pk, ayse, fill_with_bots=True)
    refused("not_a_bot", services.table_remove_bot, table.pk, ali, 1)
    services.table_remove_bot(table.pk, ali, 3)
    services.table_join(table.pk, can, 3)
    refused("seat_taken", services.table_join, table.pk, players[3], 3)

    match = services.table_start(table.pk, ali, fill_with_bots=True)  # seat 2: an easy bot
    table.refresh_from_db()
    assert table.status == Table.Status.STARTED and table.match_id == match.pk
    assert match.options["tasks"] == 8 and match.rated and match.host_id == ali.pk
    seats = list(match.seats.order_by("seat"))
    assert [s.user_id for s in seats] == [ali.pk, ayse.pk, None, can.pk]
    assert seats[2].bot_level == "easy"
    assert match.status in (Match.Status.PLAYING, Match.Status.BETWEEN)
    # started: the seats are free for new tables, the table takes nobody else
    assert not TableSeat.objects.filter(active=True).exists()
    refused("table_started", services.table_join, table.pk, players[4])
    refused("table_started", services.table_close, table.pk, ali)
    services.table_create(game="kut", host=ayse)


def test_no_bots_table(players):
    ali = players[0]
    table = services.table_create(game="kut", host=ali, bots_allowed=False)
    refused("bots_not_allowed", services.table_add_bot, table.pk, ali)
    refused("bots_not_allowed", services.table_start, table.pk, ali, fill_with_bots=True)


def test_close_by_the_host_only_before_the_start(players):
    ali, ayse, *_ = players
    table = services.table_create(game="kut", host=ali)
    services.table_join(table.pk, ayse)
    refused("not_host", services.table_close, table.pk, ayse)
    services.table_close(table.pk, ali)
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED and table.closed_at
    refused("table_closed", services.table_join, table.pk, players[2])
    assert not table.invites.filter(revoked_at__isnull=True).exists()
    services.table_create(game="kut", host=ayse)  # her seat was freed


def test_play_now_joins_the_fullest_public_table_or_opens_one(players, django_user_model):
    ali, ayse, can, deniz, ece, fatma = players
    small = services.table_create(game="kut", host=ali)
    big = services.table_create(game="kut", host=ayse)
    services.table_join(big.pk, can)
    private = services.table_create(game="kut", host=deniz, private=True)
    services.table_add_bot(private.pk, deniz)
    services.table_add_bot(private.pk, deniz)
    assert services.play_now(ece, game="kut").pk == big.pk  # the fullest; never the private one
    assert services.play_now(ece, game="kut").pk == big.pk  # already seated: stays
    assert services.play_now(fatma, game="kut").pk == big.pk  # big is full now
    gul = django_user_model.objects.create_user("gul")
    assert services.play_now(gul, game="kut").pk == small.pk
    services.table_add_bot(small.pk, ali)
    services.table_add_bot(small.pk, ali)
    newcomer = django_user_model.objects.create_user("hakan")
    # nothing open any more: a short match against bots, started at once (issue 29)
    table = services.play_now(newcomer, game="kut")
    assert table.pk not in (small.pk, big.pk, private.pk)
    assert table.host_id == newcomer.pk and table.private and not table.rated
    assert table.match.status == Match.Status.PLAYING and table.match.options == {"tasks": 5}


@pytest.mark.django_db(transaction=True)
def test_concurrent_joins_never_overfill(players):
    """Six players race for three seats: exactly three sit, nobody twice."""
    host = players[0]
    table = services.table_create(game="kut", host=host)
    outcomes: list = []
    barrier = threading.Barrier(5)

    def join(user):
        try:
            barrier.wait(timeout=10)
            services.table_join(table.pk, user)
            outcomes.append("ok")
        except LobbyError as exc:
            outcomes.append(exc.code)
        except Exception as exc:  # e.g. SQLite "database is locked" would be a failure
            outcomes.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=join, args=(u,)) for u in players[1:]]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(outcomes) == ["ok", "ok", "ok", "table_full", "table_full"], outcomes
    seats = TableSeat.objects.filter(table=table)
    assert seats.count() == 4 and all(s.user_id for s in seats)


# --- pages -------------------------------------------------------------------------------


def test_lobby_lists_open_public_tables_but_never_private_ones(players):
    ali, ayse, can, *_ = players
    public = services.table_create(game="kut", host=ali, options={"tasks": 12}, rated=False)
    private = services.table_create(game="kut", host=ayse, private=True)
    started = services.table_create(game="kut", host=can)
    services.table_start(started.pk, can, fill_with_bots=True)
    page = client_for(players[3]).get(reverse("lobby:game", args=["kut"])).content.decode()
    assert f'id="table-{public.pk}"' in page and "12 görev" in page and "Test" in page
    assert f'id="table-{private.pk}"' not in page
    assert f'id="table-{started.pk}"' not in page
    assert 'data-lobby-socket="/ws/lobby/kut/"' in page  # the game's own live list
    # a private table is reachable only by link: no page, no join
    outsider = client_for(players[3])
    assert outsider.get(reverse("lobby:table", args=[private.pk])).status_code == 404
    response = outsider.post(reverse("lobby:join", args=[private.pk]), follow=True)
    assert "yalnızca davet bağlantısıyla" in response.content.decode()
    assert seat_names(private) == ["ayse", None, None, None]


def test_visitors_are_invited_to_log_in(client):
    page = client.get(reverse("lobby:index")).content.decode()
    assert "<h1>Lobi</h1>" in page
    assert f"{reverse('accounts:login')}?next=/lobby/" in page
    assert client.post(reverse("lobby:create")).status_code == 302  # to the login page


def test_create_join_start_through_the_pages(players):
    ali, ayse = players[0], players[1]
    host = client_for(ali)
    form = {
        "game": "kut",
        "opt_tasks": "5",  # KÜT's own option, from games/kut/templates/kut/options.html
        "rated": "0",
        "private": "0",
        "bots_allowed": "on",
        "level": "usta",  # P-7: bots play at the table's level
        "watchers_allowed": "on",
    }
    response = host.post(reverse("lobby:create"), form)
    table = Table.objects.get(host=ali)
    assert response.status_code == 302 and response.url == reverse("lobby:table", args=[table.pk])
    assert (
        table.options["tasks"],
        table.rated,
        table.private,
        table.level,
        table.watchers_allowed,
    ) == (
        5,
        False,
        False,
        "usta",
        True,
    )
    assert table.bot_level == "hard"
    page = host.get(response.url).content.decode()
    assert "Davet bağlantısı" in page and "/lobby/invite/" in page
    assert f'data-lobby-socket="/ws/lobby/table/{table.pk}/"' in page

    guest = client_for(ayse)
    response = guest.post(
        reverse("lobby:join", args=[table.pk]), {"seat": "1"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and response["HX-Redirect"] == reverse(
        "lobby:table", args=[table.pk]
    )
    page = guest.get(reverse("lobby:table", args=[table.pk])).content.decode()
    assert "Masadan kalk" in page and "/invite/" not in page  # only the host gets the link

    response = guest.post(reverse("lobby:start", args=[table.pk]), follow=True)
    assert "Bunu yalnızca masanın kurucusu yapabilir." in response.content.decode()
    response = host.post(reverse("lobby:start", args=[table.pk]), {"fill_with_bots": "1"})
    table.refresh_from_db()
    match_url = reverse("game:match", args=[table.match_id])
    assert response.status_code == 302 and response.url == match_url
    # everyone seated is sent to the match
    assert guest.get(reverse("lobby:table", args=[table.pk])).url == match_url


def test_bad_form_input_is_a_clear_error_not_a_500(players):
    client = client_for(players[0])
    response = client.post(reverse("lobby:create"), {"game": "kut", "opt_tasks": "7", "level": "x"})
    assert response.status_code == 400
    assert not Table.objects.exists()
    assert client.post(reverse("lobby:join", args=[999])).status_code == 302
    assert client.get(reverse("lobby:table", args=[999])).status_code == 404
    assert client.get(reverse("lobby:index")).status_code == 200
