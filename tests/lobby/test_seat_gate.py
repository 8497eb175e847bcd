"""Issue 27, items 5 and 8: one gate for every way onto a seat (``game.seat_gate``).

Every way a player gets a seat — the lobby's table (create, join, an invite, play now,
the start), the host's *Devam* (P-12: the request and the answer), a rematch (the
offer, a yes, the start), a recorded Kelimeki game against the AI and the practice form —
applies the same checks as the lobby: a ban, the habitual-leaver bar at rated seats
(P-11), and P-5's one running rated match per game (a new match, or a taken seat, counts
as leaving the running one).  A refusal is a clear Turkish message and changes nothing.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from game import rematch, seat_gate
from game import services as game_services
from game.models import Match, MatchSeat
from lobby import services
from lobby.models import RankingResult, Table
from tests.lobby.conftest import client_for

pytestmark = pytest.mark.django_db

BANNED = "Hesabın askıya alındı"  # "Your account is suspended…", Turkish by default
BARRED = "Puanlı masalara"  # "…You can join rated tables again after <date>…"


@pytest.fixture(autouse=True)
def _one_leave_bars(settings):
    settings.KUT_LEAVER_THRESHOLD = 1  # P-11's habit, made short for these tests


def ban(user):
    User.objects.filter(pk=user.pk).update(is_banned=True)


def bar(user):
    """One ranked leave a minute ago: barred from rated tables (P-11) for two hours."""
    match = game_services.match_create(
        game="kut", options={"tasks": 5}, users=[None, None, None, None], seed="bar"
    )
    Match.objects.filter(pk=match.pk).update(status=Match.Status.ABANDONED)
    RankingResult.objects.create(
        match=match, user=user, game="kut", seat=0, outcome="left_loss", points=-1, left=True,
        left_at=timezone.now() - timedelta(minutes=1),
    )  # fmt: skip


CHECKS = {"banned": (ban, BANNED), "barred": (bar, BARRED)}


def refusal(fn, *args, **kw) -> str:
    """The player's message of the refusal ``fn`` raised (LobbyError or the gate's)."""
    with pytest.raises((services.LobbyError, game_services.ServiceError)) as info:
        fn(*args, **kw)
    return str(getattr(info.value, "message", "") or info.value.code)


def running_rated(user, game="kut") -> list[int]:
    return seat_gate.running_rated(user, game)


def left_seat_match(host, leaver, game="kut"):
    """A running rated match of ``host``, ``leaver`` (who has left: seat 1 is free, P-12)
    and two bots."""
    options = {"tasks": 5} if game == "kut" else {}
    match = game_services.match_create(game=game, options=options, host=host, seed="gate",
                                       users=[host, leaver, None, None])  # fmt: skip
    game_services.match_leave(match.pk, leaver)
    return match


def finished(users, host, seed="rematch"):
    match = game_services.match_create(
        game="kut", options={"tasks": 5}, users=users, host=host, seed=seed
    )
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED,
                                             finished_at=timezone.now())  # fmt: skip
    return match


# --- each way onto a rated seat x each check (ban, P-11) ------------------------------------
# ``way(players, check)`` applies the check to players[1] at the moment that way would
# seat them, and returns (the message players[1] is given, or None where the refusal is
# another's business — the host's start or *Devam* —, whether players[1] got a seat).


def via_table_create(players, check):
    user = players[1]
    check(user)
    text = refusal(services.table_create, game="kut", host=user, rated=True)
    return text, Table.objects.filter(host=user).exists()


def via_table_join(players, check):
    table = services.table_create(game="kut", host=players[0], rated=True)
    check(players[1])
    text = refusal(services.table_join, table.pk, players[1])
    return text, table.seats.filter(user=players[1]).exists()


def via_invite(players, check):
    table = services.table_create(game="kut", host=players[0], rated=True, private=True)
    check(players[1])
    token = services.invite_current(table).token
    text = refusal(services.invite_accept, token, players[1])
    return text, table.seats.filter(user=players[1]).exists()


def via_table_start(players, check):
    """Sat down before the ban or the bar: the start seats them at no match."""
    table = services.table_create(game="kut", host=players[0], rated=True)
    services.table_join(table.pk, players[1])
    check(players[1])
    with pytest.raises(services.LobbyError) as info:
        services.table_start(table.pk, players[0], fill_with_bots=True)
    assert info.value.code == "not_full"  # the host: their seat is free again
    return None, MatchSeat.objects.filter(user=players[1]).exists()


def via_seat_request(players, check):
    match = left_seat_match(players[0], players[2])
    check(players[1])
    text = refusal(game_services.match_seat_request, match.pk, players[1], 1)
    asked = MatchSeat.objects.filter(match=match, request_user=players[1]).exists()
    return text, asked or MatchSeat.objects.filter(match=match, user=players[1]).exists()


def via_seat_answer(players, check):
    """Asked while free to, then banned or barred: the host's *Devam* seats nobody."""
    match = left_seat_match(players[0], players[2])
    game_services.match_seat_request(match.pk, players[1], 1)
    check(players[1])
    version = Match.objects.get(pk=match.pk).version
    assert refusal(game_services.match_seat_answer, match.pk, players[0], 1, True) == (
        "newcomer_refused"
    )  # the host's message: test_the_host_is_told_why_devam_seats_nobody
    assert Match.objects.get(pk=match.pk).version == version  # nothing changed
    return None, MatchSeat.objects.filter(match=match, user=players[1]).exists()


def via_rematch_offer(players, check):
    old = finished([players[1], players[0], None, None], host=players[1])
    check(players[1])
    text = refusal(rematch.rematch_offer, old.pk, players[1], 5)
    return text, Match.objects.filter(rematch_of=old).exists()


def via_rematch_answer(players, check):
    old = finished([players[0], players[1], players[2], None], host=players[0])
    rematch.rematch_offer(old.pk, players[0], 5)
    check(players[1])
    text = refusal(rematch.rematch_answer, old.pk, players[1], True)
    assert (Match.objects.get(pk=old.pk).rematch_offer.get("answers") or {}) == {}
    return text, MatchSeat.objects.filter(user=players[1], match__rematch_of=old).exists()


def via_rematch_start(players, check):
    """Said yes, then banned or barred: a bot plays the seat of the rematch."""
    old = finished([players[0], players[1], players[2], None], host=players[0])
    rematch.rematch_offer(old.pk, players[0], 5)
    rematch.rematch_answer(old.pk, players[1], True)
    check(players[1])
    new = rematch.rematch_start(old.pk, players[0])
    assert new.seats.get(seat=1).bot_level  # a bot plays the seat
    return None, new.seats.filter(user=players[1]).exists()


WAYS = [via_table_create, via_table_join, via_invite, via_table_start, via_seat_request,
        via_seat_answer, via_rematch_offer, via_rematch_answer, via_rematch_start]  # fmt: skip


@pytest.mark.parametrize("check", sorted(CHECKS))
@pytest.mark.parametrize("way", WAYS, ids=lambda f: f.__name__[4:])
def test_every_way_onto_a_rated_seat_applies_the_ban_and_the_leaver_bar(players, way, check):
    apply, words = CHECKS[check]
    text, seated = way(players, apply)
    assert not seated
    if text is not None:
        assert words in text, text  # the player's own message, in Turkish
        if check == "barred":
            assert "test masaları sana açık" in text  # and what is still open to them


def test_the_host_is_told_why_devam_seats_nobody(players):
    """The host's *Devam* for a player barred since asking: a message for the host (the
    request stays for them to decline), not the player's own."""
    match = left_seat_match(players[0], players[2])
    game_services.match_seat_request(match.pk, players[1], 1)
    bar(players[1])
    host = client_for(players[0])
    reply = host.post(reverse("game:seat_answer", args=[match.pk]), {"seat": "1", "accept": "1"})
    assert reply.status_code == 400 and reply.json()["ok"] is False
    assert "reddet" in reply.json()["message"].lower()  # "…Decline the request."
    assert MatchSeat.objects.get(match=match, seat=1).request_user == players[1]
    decline = host.post(reverse("game:seat_answer", args=[match.pk]), {"seat": "1", "accept": "0"})
    assert decline.json() == {"ok": True}


def test_the_devam_page_tells_a_barred_player_why_and_asks_nothing(players):
    match = left_seat_match(players[0], players[2])
    bar(players[1])
    page = client_for(players[1]).post(reverse("game:seat_take", args=[match.pk]), {"seat": "1"})
    assert page.status_code == 400 and BARRED in page.content.decode()
    assert MatchSeat.objects.get(match=match, seat=1).request_user is None


def test_the_rematch_view_gives_the_gates_message(players):
    old = finished([players[0], players[1], None, None], host=players[0])
    rematch.rematch_offer(old.pk, players[0], 5)
    bar(players[1])
    reply = client_for(players[1]).post(reverse("lobby:rematch_answer", args=[old.pk]),
                                        {"accept": "1"}, HTTP_ACCEPT="application/json")  # fmt: skip
    assert reply.status_code == 409 and BARRED in reply.json()["message"]


def test_play_now_never_seats_a_barred_player_at_a_rated_table_nor_a_banned_one(players):
    services.table_create(game="kut", host=players[0], rated=True)
    bar(players[1])
    assert not services.play_now(players[1], game="kut").rated  # a test table instead (P-11)
    ban(players[2])
    assert BANNED in refusal(services.play_now, players[2], game="kut")


def test_the_practice_form_and_every_new_match_refuse_a_banned_player(players):
    """The service every new match goes through (lobby start, rematch, practice, the
    recorded Kelimeki game) applies the gate too: no way round it."""
    ban(players[1])
    for rated in (False, True):
        assert BANNED in refusal(game_services.match_create, game="kut", options={"tasks": 5}, rated=rated,
                                 users=[players[1], None, None, None])  # fmt: skip
    bar(players[2])
    assert BARRED in refusal(game_services.match_create, game="kut", options={"tasks": 5},
                             users=[players[2], None, None, None])  # fmt: skip
    practice = game_services.match_create(game="kut", options={"tasks": 5}, rated=False,
                                          users=[players[2], None, None, None])  # fmt: skip
    assert practice.seats.filter(user=players[2]).exists()  # test tables stay open (P-11)
    assert not MatchSeat.objects.filter(user=players[1]).exists()


def test_kelimeki_against_the_ai_refuses_a_ban_but_has_no_leaver_bar(players):
    """W-X5: P-11 does not apply to Kelimeki; a ban does."""
    ban(players[1])
    assert BANNED in refusal(services.table_create, host=players[1], game="kelimeki",
                             seat_count=2, private=True)  # fmt: skip
    bar(players[2])
    table = services.table_create(host=players[2], game="kelimeki", seat_count=2, private=True)
    match = services.table_start(table.pk, players[2], fill_with_bots=True)
    assert match.rated and match.seats.filter(user=players[2]).exists()


# --- P-5: one running rated match per game ---------------------------------------------------


def test_p5_devam_makes_the_replacement_leave_their_running_match(players):
    """Item 8: *Devam* seated a player in two running rated matches of one game.  Taking
    the seat counts as leaving the running one, as starting a new match does (P-5)."""
    ali, ayse, can, deniz = players[:4]
    playing = game_services.match_create(
        game="kut", options={"tasks": 5}, users=[can, deniz, None, None], seed="p5a"
    )
    match = left_seat_match(ali, ayse)
    page = client_for(can).get(reverse("game:seat_take", args=[match.pk]))
    assert "sayılır" in page.content.decode()  # warned before asking: it counts as leaving
    game_services.match_seat_request(match.pk, can, 1)
    assert running_rated(can) == [playing.pk]  # asking changes nothing yet
    game_services.match_seat_answer(match.pk, ali, 1, True)
    assert running_rated(can) == [match.pk]
    mine = MatchSeat.objects.get(match=playing, seat=0)
    assert mine.left and mine.user == can  # a bot plays it; the leave is counted (P-5)


@pytest.mark.parametrize("way", ["table_start", "invite", "rematch", "practice"])
def test_p5_every_new_match_leaves_the_running_one(players, way):
    ali, ayse = players[:2]
    playing = game_services.match_create(
        game="kut", options={"tasks": 5}, users=[ayse, None, None, None], seed="p5"
    )
    if way in ("table_start", "invite"):
        table = services.table_create(game="kut", host=ali, rated=True, private=way == "invite")
        if way == "invite":
            services.invite_accept(services.invite_current(table).token, ayse)
        else:
            services.table_join(table.pk, ayse)
        new = services.table_start(table.pk, ali, fill_with_bots=True)
    elif way == "rematch":
        old = finished([ali, ayse, None, None], host=ali)
        rematch.rematch_offer(old.pk, ali, 5)
        new = rematch.rematch_answer(old.pk, ayse, True)
    else:
        new = game_services.match_create(game="kut", options={"tasks": 5}, rated=False, leave_others=True,
                                         users=[ayse, None, None, None])  # fmt: skip
    assert new.seats.filter(user=ayse).exists()
    assert MatchSeat.objects.get(match=playing, user=ayse).left
    assert running_rated(ayse) == ([new.pk] if new.rated else [])


def test_p5_does_not_apply_to_kelimeki_several_games_at_once(players):
    """W-X4: a player may have several Kelimeki games running at once."""
    ayse = players[1]
    started = []
    for _ in range(2):
        table = services.table_create(host=ayse, game="kelimeki", seat_count=2, private=True)
        started.append(services.table_start(table.pk, ayse, fill_with_bots=True))
    first, second = started
    assert not MatchSeat.objects.get(match=first, user=ayse).left
    assert {first.pk, second.pk} <= set(
        Match.objects.filter(seats__user=ayse, status=Match.Status.PLAYING).values_list(
            "pk", flat=True))  # fmt: skip
