"""The lobby is a portal (issue 17, item 6): game cards on the home page and the lobby,
a lobby and a live list per game, the compact create-table dialog with the game's own
options and the portal's (P-3, P-6, P-7, P-8), *Hemen Oyna* per game, games that are
not playable yet (*yakında*), leaderboards per game and level, Maçlarım's game filter
and records per game and level.

A second game that the platform has never heard of (``PortalToy``, the test suite's
two-seat toy game made playable, with 2 or 4 seats, partners and a free move time) is
registered here for some tests: everything it shows comes from the registry and the
generic fallback templates, so nothing in the platform names the games.
"""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from game import web as game_web
from game.engine import registry
from game.engine.registry import GameEntry
from game.models import Match, MatchSeat
from lobby import games, services
from lobby.models import Ranking, Table
from lobby.services import LobbyError
from tests.lobby.conftest import client_for, make_user, session_cookie, ws_connect, ws_receive
from tests.toygame.engine import ToyGame


class PortalToy(ToyGame):
    """The toy game with the portal's choices: 2 or 4 seats (like Kelimeki), partners
    (P-8) and a move time the host chooses (P-6, default 60 s); ``table_template``
    makes it playable (its home's web side names a table)."""

    seat_counts = (2, 4)
    partners = True
    default_move_seconds = 60
    fixed_move_seconds = False


GAME = PortalToy()


@pytest.fixture
def later(monkeypatch):
    """A registered game that is not playable yet: an engine, no web side."""
    monkeypatch.setitem(
        registry.GAMES, "later", GameEntry("later", "tests.platform.comingsoon.engine")
    )


@pytest.fixture
def toy(monkeypatch):
    """The toy game (registered by tests/settings.py) with the portal's choices."""
    monkeypatch.setattr("tests.toygame.engine.GAME", GAME)
    return GAME


def cards_of(html: str) -> dict[str, str]:
    """Each game card's HTML by its key, in page order."""
    found = re.findall(r'<li class="game-card[^"]*" id="game-(\w+)"[^>]*>(.*?)</li>', html, re.S)
    return dict(found)


PLAY_FORM = '<input type="hidden" name="game" value="{key}">'


# --- cards -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_home_and_lobby_show_every_registered_game_as_a_card(players):
    """Five cards in the registry's order, each with its own name and one line from its
    own card template; playable games have Hemen Oyna and the counts, the others say
    yakında and have no button."""
    names = {"kut": "KÜT", "kdvli": "KDVli Okey", "king": "King", "kastet": "Kastet",
             "kelimeki": "Kelimeki", "toy": "Onluk"}  # fmt: skip
    assert list(registry.GAMES) == list(names) and game_web.playable("kut")
    for client, url in ((client_for(players[0]), reverse("home")),
                        (client_for(players[0]), reverse("lobby:index")),
                        (Client(), reverse("home")), (Client(), reverse("lobby:index"))):  # fmt: skip
        html = client.get(url).content.decode()
        cards = cards_of(html)
        assert list(cards) == list(names), url
        for key, card in cards.items():
            assert f'class="game-name">{names[key]}<' in card
            if key != "toy":  # the toy game has the platform's generic card (test below)
                assert re.search(r'<p class="game-desc">[^<]{30,}</p>', card), (key, card)
            if game_web.playable(key):
                assert "Hemen Oyna" in card and "çevrimiçi" in card and "açık masa" in card
                assert reverse("lobby:game", args=[key]) in card
            else:
                assert "yakında" in card and "Hemen Oyna" not in card
                assert "<form" not in card and reverse("lobby:game", args=[key]) not in card
    # logged in: Hemen Oyna posts the game; a visitor's leads through the log-in page
    html = client_for(players[0]).get(reverse("lobby:index")).content.decode()
    assert PLAY_FORM.format(key="kut") in cards_of(html)["kut"]
    visitor = cards_of(Client().get(reverse("home")).content.decode())["kut"]
    assert f"{reverse('accounts:login')}?next=/lobby/kut/" in visitor
    # English is available
    english = client_for(players[0])
    english.cookies["django_language"] = "en"
    html = english.get(reverse("lobby:index")).content.decode()
    # every game is playable since issues 18–21 ("coming soon": the "later" test below)
    assert "Play now" in html and "coming soon" not in html and "players online" in html
    assert "A four-player tile game of the okey family" in html


@pytest.mark.django_db
def test_a_game_the_platform_never_heard_of_gets_a_card_from_the_registry_alone(players, toy):
    """No per-game knowledge in the platform: a registered game gets a card with its
    name from the registry and the generic card text (it has no templates of its own)."""
    html = client_for(players[0]).get(reverse("lobby:index")).content.decode()
    cards = cards_of(html)
    assert list(cards)[-1] == "toy"
    assert (
        'class="game-name">Onluk<' in cards["toy"]
        and "Sitenin oyunlarından biri." in (cards["toy"])
    )
    assert PLAY_FORM.format(key="toy") in cards["toy"]


@pytest.mark.django_db
def test_cards_count_players_online_and_open_public_tables_per_game(players, toy):
    ali, ayse, can, deniz, ece, fatma = players
    kut = services.table_create(game="kut", host=ali)
    services.table_join(kut.pk, ayse)
    services.table_create(
        game="kut", host=can, private=True
    )  # seated (online) but not a listed table
    services.table_create(host=deniz, game="toy", seat_count=2, options={"hands": 1})
    match = Match.objects.create(game="kut", seed="x", status=Match.Status.PLAYING)
    MatchSeat.objects.create(match=match, seat=0, user=ece, connected=True)
    MatchSeat.objects.create(match=match, seat=1, user=fatma, connected=False)  # away
    MatchSeat.objects.create(match=match, seat=2, bot_level="easy", connected=True)
    over = Match.objects.create(game="kut", seed="y", status=Match.Status.FINISHED)
    MatchSeat.objects.create(match=over, seat=0, user=fatma, connected=True)  # not running

    cards = {c.key: c for c in games.game_cards()}
    assert (cards["kut"].online, cards["kut"].open_tables) == (4, 1)  # ali ayse can ece
    assert (cards["toy"].online, cards["toy"].open_tables) == (1, 1)
    assert (cards["king"].online, cards["king"].open_tables) == (0, 0)
    html = cards_of(client_for(fatma).get(reverse("lobby:index")).content.decode())
    assert "4 oyuncu çevrimiçi" in html["kut"] and "1 açık masa" in html["kut"]


# --- games that are not playable yet ------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_game_not_playable_yet_cannot_be_chosen_anywhere(players, later):
    """All five games have their tables (issues 18–21); a registered game without a
    ``table_template`` (the bare toy, "later") stands for the next one."""
    ali = players[0]
    assert not game_web.playable("later")
    client = await sync_to_async(client_for)(ali)
    page = await sync_to_async(client.get)(reverse("lobby:game", args=["later"]))
    html = page.content.decode()
    assert page.status_code == 200 and "yakında" in html and 'name="opt_' not in html
    assert reverse("lobby:create") not in html and 'id="lobby-tables"' not in html
    response = await sync_to_async(client.post)(reverse("lobby:play_now"), {"game": "later"})
    assert response.status_code == 302
    page = await sync_to_async(client.get)(response.url)
    assert "Bu oyun burada henüz oynanamıyor." in page.content.decode()
    response = await sync_to_async(client.post)(
        reverse("lobby:create"), {"game": "later", "rated": "1", "private": "0", "level": "orta"}
    )
    assert response.status_code == 400
    for game in ("later", "nosuchgame"):
        with pytest.raises(LobbyError) as info:
            await sync_to_async(services.table_create)(host=ali, game=game)
        assert info.value.code == "bad_game"
        with pytest.raises(LobbyError):
            await sync_to_async(services.play_now)(ali, game=game)
    assert not await sync_to_async(Table.objects.exists)()
    unknown = await sync_to_async(client.get)("/lobby/nosuchgame/")
    assert unknown.status_code == 404
    cookie = await sync_to_async(session_cookie)(ali)
    comm, ok, code = await ws_connect("/ws/lobby/later/", cookie)
    assert not ok and code == 4004


# --- a game's lobby and the compact create-table dialog -----------------------------------------


def dialog_of(html: str) -> str:
    return html.split('<dialog id="new-table"', 1)[1].split("</dialog>", 1)[0]


@pytest.mark.django_db
def test_kut_lobby_has_its_list_and_a_compact_dialog_with_kuts_options(players):
    page = client_for(players[0]).get(reverse("lobby:game", args=["kut"]))
    html = page.content.decode()
    assert page.status_code == 200 and '<h1 class="game-name">KÜT</h1>' in html
    assert 'data-lobby-socket="/ws/lobby/kut/"' in html and "Hemen Oyna" in html
    dialog = dialog_of(html)
    # KÜT's own option from games/kut/templates/kut/options.html: 5, 8 or 12 tasks (K-M2)
    assert re.findall(r'name="opt_tasks" value="(\d+)"', dialog) == ["5", "8", "12"]
    assert re.search(r'name="opt_tasks" value="8" checked', dialog)
    # the portal's: rated/test, level (P-7), public/private, bots, watchers
    assert 'name="rated"' in dialog and 'name="private"' in dialog
    assert re.findall(r'name="level" value="(\w+)"', dialog) == ["acemi", "orta", "usta"]
    assert "Acemi" in dialog and "Orta" in dialog and "Usta" in dialog
    assert 'name="bots_allowed"' in dialog and 'name="watchers_allowed"' in dialog
    # KÜT's move time is fixed (K-N6), it has one seat count and no partners
    for absent in ('name="move_seconds"', 'name="partners"', 'name="seat_count"'):
        assert absent not in dialog
    assert 'name="game" value="kut"' in dialog


@pytest.mark.django_db
def test_the_dialog_creates_a_kut_table_with_the_chosen_options(players):
    ali = players[0]
    response = client_for(ali).post(reverse("lobby:create"), {
        "game": "kut", "opt_tasks": "12", "rated": "1", "private": "1", "level": "acemi",
        "bots_allowed": "on",
    })  # fmt: skip
    table = Table.objects.get(host=ali)
    assert response.status_code == 302 and response.url == reverse("lobby:table", args=[table.pk])
    assert table.game == "kut" and table.options == {"tasks": 12}
    assert (table.rated, table.private, table.level, table.bot_level) == (
        True, True, "acemi", "easy")  # fmt: skip
    assert table.move_seconds == 45 and table.seat_count == 4 and not table.partners
    assert table.bots_allowed and not table.watchers_allowed
    page = client_for(ali).get(response.url).content.decode()
    assert "12 görev" in page and "KÜT" in page


@pytest.mark.django_db
def test_bad_dialog_input_is_shown_in_the_dialog_and_changes_nothing(players):
    client = client_for(players[0])
    base = {"game": "kut", "rated": "1", "private": "0", "level": "orta"}
    for bad in ({"opt_tasks": "7"}, {"opt_tasks": "ş"}, {"opt_tasks": "8", "opt_colour": "1"},
                {**{f"opt_x{i}": "1" for i in range(20)}}, {"opt_tasks": "1" * 100},
                {"level": "grandmaster"}, {"rated": "2"}):  # fmt: skip
        response = client.post(reverse("lobby:create"), {**base, **bad})
        assert response.status_code == 400, bad
        dialog = dialog_of(response.content.decode())
        assert 'data-open-on-load="1"' in dialog and 'class="form-errors"' in dialog, bad
    response = client.post(reverse("lobby:create"), {**base, "opt_tasks": "7"})
    assert "Bu oyun için sunulan seçeneklerden birini seç." in dialog_of(response.content.decode())
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_the_dialog_offers_move_time_partners_and_seats_only_where_the_game_has_them(players, toy):
    ali, ayse, can = players[:3]
    html = client_for(ali).get(reverse("lobby:game", args=["toy"])).content.decode()
    dialog = dialog_of(html)
    # P-6: 30–300 s in 15-s steps, the game's default chosen, rated tables only
    seconds = [int(s) for s in re.findall(r'<option value="(\d+)"', dialog)]
    assert seconds == list(range(30, 301, 15))
    assert re.search(r'<option value="60" selected>', dialog) and "data-rated-only" in dialog
    assert 'name="partners"' in dialog  # P-8
    assert re.findall(r'name="seat_count" value="(\d)"', dialog) == ["2", "4"]
    assert 'name="opt_' not in dialog  # no options template: the generic one has none

    form = {"game": "toy", "rated": "1", "private": "0", "level": "usta", "opt_hands": "1",
            "move_seconds": "75", "seat_count": "4", "partners": "on"}  # fmt: skip
    assert client_for(ali).post(reverse("lobby:create"), form).status_code == 302
    table = Table.objects.get(host=ali)
    assert (table.game, table.options, table.move_seconds, table.seat_count, table.partners) == (
        "toy", {"hands": 1}, 75, 4, True)  # fmt: skip
    assert table.seats.count() == 4 and table.level == "usta"

    # a test table has no move time (P-3), whatever was posted
    test = {**form, "rated": "0", "seat_count": "2", "partners": ""}
    assert client_for(ayse).post(reverse("lobby:create"), test).status_code == 302
    table = Table.objects.get(host=ayse)
    assert table.move_seconds is None and table.seat_count == 2 and table.seats.count() == 2

    for bad in ({"move_seconds": "31"}, {"move_seconds": "315"}, {"move_seconds": "15"},
                {"seat_count": "3"}, {"seat_count": "2", "partners": "on"}):  # fmt: skip
        response = client_for(can).post(reverse("lobby:create"), {**form, **bad})
        assert response.status_code == 400, bad
    assert not Table.objects.filter(host=can).exists()


# --- Hemen Oyna per game ---------------------------------------------------------------------


@pytest.mark.django_db
def test_play_now_per_game_joins_that_games_tables_only(players, toy):
    ali, ayse, can, deniz = players[:4]
    kut = services.table_create(game="kut", host=ali)
    toy_table = services.table_create(host=ayse, game="toy", seat_count=2, options={"hands": 3})
    response = client_for(can).post(reverse("lobby:play_now"), {"game": "toy"})
    assert response.url == reverse("lobby:table", args=[toy_table.pk])
    assert [s.user for s in toy_table.seats.order_by("seat")] == [ayse, can]
    # the toy table is full: Hemen Oyna for toy starts a short toy match against bots
    # (issue 29), never the KÜT table
    response = client_for(deniz).post(reverse("lobby:play_now"), {"game": "toy"})
    table = Table.objects.get(host=deniz)
    assert table.game == "toy" and response.url == reverse("game:match", args=[table.match_id])
    assert kut.seats.filter(user__isnull=False).count() == 1
    ece = players[4]
    response = client_for(ece).post(reverse("lobby:play_now"), {"game": "kut"})
    assert response.url == reverse("lobby:table", args=[kut.pk])
    assert services.play_now(make_user("gul"), game="kut").pk == kut.pk


# --- live lists per game ------------------------------------------------------------------------


async def next_html(comm, target: str) -> str:
    while True:
        msg = await ws_receive(comm)
        if msg["type"] == "html" and msg["target"] == target:
            return msg["html"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_each_game_socket_gets_its_own_tables_and_the_portal_gets_the_counts(players, toy):
    ali, ayse, can = players[:3]
    cookie = await sync_to_async(session_cookie)(can)
    kut_socket, ok1, _ = await ws_connect("/ws/lobby/kut/", cookie)
    toy_socket, ok2, _ = await ws_connect("/ws/lobby/toy/", cookie)
    portal, ok3, _ = await ws_connect("/ws/lobby/", cookie)
    assert ok1 and ok2 and ok3
    await next_html(kut_socket, "lobby-tables")
    await next_html(toy_socket, "lobby-tables")
    cards = await next_html(portal, "lobby-games")
    assert "0 açık masa" in cards_of(cards)["toy"]

    table = await sync_to_async(services.table_create)(
        host=ali, game="toy", seat_count=2, options={"hands": 1}
    )
    html = await next_html(toy_socket, "lobby-tables")
    assert f'id="table-{table.pk}"' in html and "Buraya otur" in html
    assert await kut_socket.receive_nothing(timeout=0.3)  # another game's table: not here
    cards = cards_of(await next_html(portal, "lobby-games"))
    assert "1 açık masa" in cards["toy"] and "1 oyuncu çevrimiçi" in cards["toy"]
    assert "0 açık masa" in cards["kut"]

    kut = await sync_to_async(services.table_create)(game="kut", host=ayse)
    html = await next_html(kut_socket, "lobby-tables")
    assert f'id="table-{kut.pk}"' in html and "8 görev" in html
    assert await toy_socket.receive_nothing(timeout=0.3)
    assert "1 açık masa" in cards_of(await next_html(portal, "lobby-games"))["kut"]
    for comm in (kut_socket, toy_socket, portal):
        await comm.disconnect()


# --- leaderboards, Maçlarım, records ------------------------------------------------------------


@pytest.mark.django_db
def test_leaderboards_per_game_and_level(players, toy, later, client):
    ali, ayse, can, deniz = players[:4]
    Ranking.objects.create(user=ali, game="kut", level="orta", points=3, matches=4)
    Ranking.objects.create(user=ayse, game="kut", level="usta", points=7, matches=8)
    Ranking.objects.create(user=can, game="toy", level="orta", points=1, matches=1)
    Ranking.objects.create(user=deniz, game="kut", level="acemi", points=0, matches=0)  # unranked

    def board(query: str) -> list[str]:
        html = client.get(reverse("lobby:leaderboard") + query).content.decode()
        body = html.split('<table class="board">', 1)[1] if '<table class="board">' in html else ""
        return re.findall(r"<td>(\w+)</td>", body)

    assert board("") == ["ali"]  # KÜT, Orta by default
    assert board("?game=kut&level=usta") == ["ayse"]
    assert board("?game=toy&level=orta") == ["can"]
    assert board("?game=kut&level=acemi") == []
    assert board("?game=<b>&level=zz") == ["ali"]  # unknown filters: the default board
    assert board("?game=later") == ["ali"]  # not playable: no board of its own yet
    html = client.get(reverse("lobby:leaderboard") + "?game=kut&level=usta").content.decode()
    tabs = html.split('class="tabs board-games"', 1)[1].split("</ul>", 1)[0]
    games_tabs = ["KÜT", "King", "Kastet", "Kelimeki", "Onluk"]  # issues 19, 20, 21
    assert re.findall(r">(\w+|KÜT)</a>", tabs) == games_tabs
    assert 'href="?game=kut&amp;level=usta" aria-current="page">KÜT' in tabs
    levels = html.split('class="tabs board-levels"', 1)[1].split("</ul>", 1)[0]
    assert 'href="?game=kut&amp;level=usta" aria-current="page">Usta' in levels
    assert "Acemi" in levels and "Orta" in levels


def finished_match(game: str, users: list, rated: bool = True) -> Match:
    match = Match.objects.create(
        game=game, seed="s", status=Match.Status.FINISHED, rated=rated,
        finished_at=timezone.now(), options={"tasks": 5} if game == "kut" else {"hands": 1},
    )  # fmt: skip
    for seat, user in enumerate(users):
        MatchSeat.objects.create(match=match, seat=seat, user=user,
                                 bot_level="" if user else "easy")  # fmt: skip
    return match


@pytest.mark.django_db
def test_my_matches_lists_every_game_with_a_game_filter(players, toy):
    ali, ayse = players[:2]
    kut = finished_match("kut", [ali, ayse, None, None])
    onluk = finished_match("toy", [ali, ayse])
    finished_match("toy", [ali, ayse], rated=False)  # a test table: never listed (P-3)
    client = client_for(ali)

    def listed(query: str = "") -> list[int]:
        page = client.get(reverse("lobby:history") + query)
        assert page.status_code == 200
        return [row.match.pk for row in page.context["rows"]]

    assert sorted(listed()) == sorted([kut.pk, onluk.pk])
    assert listed("?game=kut") == [kut.pk] and listed("?game=toy") == [onluk.pk]
    assert listed("?game=king") == [] and sorted(listed("?game=<x>")) == sorted([kut.pk, onluk.pk])
    html = client.get(reverse("lobby:history") + "?game=toy").content.decode()
    tabs = html.split('class="tabs history-games"', 1)[1].split("</ul>", 1)[0]
    assert "Tüm oyunlar" in tabs and 'href="?game=toy" aria-current="page">Onluk' in tabs
    assert 'data-game="toy">Onluk</span>' in html


@pytest.mark.django_db
def test_profiles_show_records_per_game_and_level(players, toy):
    ali, ayse = players[:2]
    Ranking.objects.create(user=ali, game="kut", level="usta", points=2, matches=3, wins=2)
    Ranking.objects.create(user=ali, game="kut", level="orta", points=-1, matches=2, losses=1)
    Ranking.objects.create(user=ali, game="toy", level="acemi", points=1, matches=1, wins=1)
    Ranking.objects.create(user=ayse, game="kut", level="usta", points=5, matches=5, wins=5)
    records = games.records_by_game(ali)
    assert [(r.key, r.name, [lv.level for lv in r.levels]) for r in records] == [
        ("kut", "KÜT", ["orta", "usta"]), ("toy", "Onluk", ["acemi"])]  # fmt: skip
    usta = records[0].levels[1]
    assert (usta.points, usta.matches, usta.wins, usta.position) == (2, 3, 2, 2)  # ayse first
    for html in (client_for(ali).get(reverse("accounts:profile")).content.decode(),
                 Client().get(reverse("player", args=["ali"])).content.decode()):  # fmt: skip
        assert "Oyunlara göre kayıtlar" in html
        kut = html.split('data-game="kut"', 1)[1].split("</table>", 1)[0]
        assert "<caption>KÜT</caption>" in kut and "Usta" in kut and "Orta" in kut
        assert '<td class="num ranking-points">-1</td>' in kut
        assert "?game=kut&amp;level=usta" in kut
        assert "<caption>Onluk</caption>" in html.split('data-game="toy"', 1)[1]
    assert (
        "Henüz puanlı maç yok."
        in client_for(players[2]).get(reverse("accounts:profile")).content.decode()
    )
