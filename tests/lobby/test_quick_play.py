"""Issue 29 item 6: *Hemen Oyna* seats the player at once, in every game (and the toy
game) — at an open table where players wait, else at a short match against bots that
starts at once, at the bots' level the player chose last; and the invite page names the
game and its options (issue 29 item 5), for every game the registry holds."""

from __future__ import annotations

import pytest
from django.urls import reverse

from game import web as game_web
from game.engine import registry
from game.models import Match
from lobby import services
from lobby.models import Table
from tests.lobby.conftest import client_for, make_user

GAMES = [key for key in registry.GAMES if game_web.playable(key)]


def test_every_game_and_the_toy_are_in_the_list():
    assert {"kut", "kdvli", "king", "kastet", "kelimeki", "toy"} <= set(GAMES)


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_play_now_with_nobody_waiting_starts_a_short_match_against_bots(game):
    spec = registry.get(game)
    newcomer = make_user("yeni")
    response = client_for(newcomer).post(reverse("lobby:play_now"), {"game": game})
    table = Table.objects.get(host=newcomer)
    match = table.match
    assert response.status_code == 302
    assert response.url == reverse("game:match", args=[match.pk])  # straight to the table
    assert match.status == Match.Status.PLAYING and match.game == game
    seats = list(match.seats.order_by("seat"))
    assert len(seats) == min(spec.seat_counts)
    mine = [s.seat for s in seats if s.user_id == newcomer.pk]
    assert len(mine) == 1 and all(s.bot_level == "normal" for s in seats if s.seat != mine[0])
    # the new player sits where the deal's first move is: they move at once
    assert mine[0] in spec.to_act(spec.from_dict(match.state))
    # a test match where the game has them (P-3); the game's short options
    assert match.rated == (not spec.practice_tables) and table.private
    for option, value in spec.quick_options.items():
        assert match.options[option] == value


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_play_now_joins_a_table_where_a_player_waits(game):
    spec = registry.get(game)
    host, newcomer = make_user("ev"), make_user("misafir")
    waiting = services.table_create(host=host, game=game, seat_count=max(spec.seat_counts))
    assert services.play_now(newcomer, game=game).pk == waiting.pk
    assert waiting.seats.filter(user=newcomer).exists() and waiting.match_id is None


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_play_now_plays_the_bots_at_the_level_chosen_last(game):
    player = make_user("usta")
    table = services.table_create(host=player, game=game, level="usta")  # hard bots
    services.table_close(table.pk, player)
    player.refresh_from_db()
    assert player.bot_level == "hard"
    table = services.play_now(player, game=game)
    levels = {s.bot_level for s in table.match.seats.all() if not s.user_id}
    assert levels == {"hard"}


@pytest.mark.django_db
def test_a_table_never_waiting_for_a_player_is_not_joined():
    """A table with only bots besides its host is joined; one whose host left is not
    a table where players wait (it cannot be one: its host sits there)."""
    host, newcomer = make_user("ev"), make_user("misafir")
    table = services.table_create(host=host, game="kut")
    services.table_add_bot(table.pk, host)
    assert services.play_now(newcomer, game="kut").pk == table.pk


@pytest.mark.django_db
def test_the_limits_of_games_against_bots_apply(settings):
    settings.KUT_AI_GAMES_RUNNING_PER_USER = 1
    player = make_user("hizli")
    first = services.play_now(player, game="kut")
    assert first.match.status == Match.Status.PLAYING
    # the match is running; the player's table seat is done: a second one is refused
    with pytest.raises(services.LobbyError) as info:
        services.play_now(player, game="kut")
    assert "1" in info.value.message and info.value.code == "bot_games"
    response = client_for(player).post(reverse("lobby:play_now"), {"game": "kut"}, follow=True)
    assert response.status_code == 200 and Match.objects.filter(host=player).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_the_invite_page_names_the_game_and_its_options(game):
    spec = registry.get(game)
    host = make_user("ev")
    options = dict(spec.quick_options)
    table = services.table_create(
        host=host, game=game, options=options, seat_count=max(spec.seat_counts)
    )
    invite = services.invite_current(table)
    body = client_for(make_user("davetli")).get(reverse("lobby:invite", args=[invite.token]))
    text = body.content.decode()
    assert body.status_code == 200 and spec.name in text
    assert "None" not in text
    if game != "kut":
        assert "görev" not in text  # KÜT's tasks belong to KÜT's tables only
    card_summary = game_web.web(game).part("summary")
    if card_summary != "game/_summary.html" and options:
        assert "badge" in text.split("invite-table", 1)[1].split("</p>", 1)[0]
