"""Portal rules on seats: P-13 (a dropped player keeps the seat for 3 minutes while a
bot plays their turns, then has left) and P-12 (a human takes a left seat when the host
says *Devam*; the replacement loses no ranking points for a lost match)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from game import services
from game.models import HandResult, Match, MatchAction, MatchSeat
from game.tasks import sweep
from lobby.models import RankingResult
from lobby.ranking import match_rank

pytestmark = pytest.mark.django_db(transaction=True)  # bots run after each commit


@pytest.fixture
def outsider(db):
    return User.objects.create_user(username="yedek", email="y@example.com", password="x-y-z-123")


def _seat(match, n) -> MatchSeat:
    return MatchSeat.objects.get(match=match, seat=n)


def _human_turn_match(players, seed="p13"):
    """A rated match where seat 0 (a human) is to move (bots play seats 1-3 at once)."""
    m = services.match_create(
        game="kut", options={"tasks": 5}, users=[players[0], None, None, None], seed=seed
    )
    m.refresh_from_db()
    assert m.state["hand"]["turn"] == 0 or m.status != Match.Status.PLAYING
    return m


def test_p13_a_dropped_player_is_played_by_a_bot_after_the_grace_and_gets_the_seat_back(
    players, settings
):
    settings.KUT_DROP_GRACE_SECONDS = 15
    m = _human_turn_match(players)
    t0 = timezone.now()
    services.match_seat_connected(m.pk, 0, True)
    services.match_seat_connected(m.pk, 0, False, now=t0)
    version = Match.objects.get(pk=m.pk).version
    sweep(t0 + timedelta(seconds=5))  # a reload or a short network change: nothing
    assert not _seat(m, 0).away and Match.objects.get(pk=m.pk).version == version
    sweep(t0 + timedelta(seconds=16))
    seat = _seat(m, 0)
    assert seat.away and seat.dropped and seat.away_since == t0
    # the bot played seat 0's turn (inline in tests) and the others' after it
    assert MatchAction.objects.filter(match=m, seat=0, actor="bot").exists()
    services.match_seat_connected(m.pk, 0, True)  # back within 3 minutes: the seat is theirs
    seat = _seat(m, 0)
    assert not seat.away and not seat.dropped and seat.connected and not seat.left


def test_p13_p5_a_player_who_does_not_come_back_within_3_minutes_has_left(players, settings):
    settings.KUT_DROP_GRACE_SECONDS = 15
    settings.KUT_AWAY_LEAVE_SECONDS = 180
    m = _human_turn_match(players, seed="p13b")
    t0 = timezone.now()
    services.match_seat_connected(m.pk, 0, False, now=t0)
    sweep(t0 + timedelta(seconds=179))
    assert not _seat(m, 0).left
    sweep(t0 + timedelta(seconds=181))
    seat = _seat(m, 0)
    assert seat.left
    leave = MatchAction.objects.get(match=m, kind="leave")
    assert leave.payload == {"type": "leave", "user": players[0].pk, "reason": "dropped"}


def _left_seat_match(players):
    """A rated match of two humans and two bots in which players[1] (seat 1) has left."""
    m = services.match_create(game="kut", options={"tasks": 5}, users=[players[0], players[1], None, None], seed="p12",
                              host=players[0])  # fmt: skip
    services.match_leave(m.pk, players[1])
    return m


def test_p12_a_human_takes_a_left_seat_when_the_host_says_devam(players, outsider):
    m = _left_seat_match(players)
    # refusals: not free, already in the match, not the host, nothing asked
    with pytest.raises(services.ServiceError) as err:
        services.match_seat_request(m.pk, outsider, 2)
    assert err.value.code == "seat_not_vacant"
    for who in (players[1], players[0]):
        with pytest.raises(services.ServiceError) as err:
            services.match_seat_request(m.pk, who, 1)
        assert err.value.code == "already_in_match"  # a leaver does not come back (P-5)
    with pytest.raises(services.ServiceError) as err:
        services.match_seat_answer(m.pk, players[0], 1, True)
    assert err.value.code == "no_request"
    services.match_seat_request(m.pk, outsider, 1)
    assert _seat(m, 1).request_user == outsider
    with pytest.raises(services.ServiceError) as err:
        services.match_seat_answer(m.pk, outsider, 1, True)
    assert err.value.code == "not_host"
    version = Match.objects.get(pk=m.pk).version
    services.match_seat_answer(m.pk, players[0], 1, True)
    seat = _seat(m, 1)
    assert (seat.user, seat.replacement, seat.left, seat.left_user) == (
        outsider, True, False, players[1])  # fmt: skip
    m.refresh_from_db()
    assert m.version > version
    assert services.seat_of(m, outsider) == 1 and services.seat_of(m, players[1]) is None
    assert MatchAction.objects.filter(match=m, kind="replace").count() == 1
    assert services.match_replay(m).to_dict() == m.state  # the log still replays


def test_p12_the_host_may_decline(players, outsider):
    m = _left_seat_match(players)
    services.match_seat_request(m.pk, outsider, 1)
    services.match_seat_answer(m.pk, players[0], 1, False)
    seat = _seat(m, 1)
    assert seat.request_user is None and seat.left and seat.user == players[1]


@pytest.mark.parametrize("replacement_total, expected", [(500, ("last", 0)), (0, ("first", 1))])
def test_p12_the_replacement_loses_nothing_and_the_leaver_keeps_the_leave(
    players, outsider, replacement_total, expected
):
    m = _left_seat_match(players)
    services.match_seat_request(m.pk, outsider, 1)
    services.match_seat_answer(m.pk, players[0], 1, True)
    totals = [100, replacement_total, 200, 300]
    HandResult.objects.create(match=m, hand_no=1, scores=totals)
    Match.objects.filter(pk=m.pk).update(
        status=Match.Status.FINISHED, finished_at=timezone.now(),
        state={**m.state, "totals": totals},
    )  # fmt: skip
    match_rank(m.pk)
    rows = {r.user_id: (r.outcome, r.points) for r in RankingResult.objects.filter(match=m)}
    assert rows[outsider.pk] == expected
    assert rows[players[1].pk] == ("left_loss", -1)  # left in the first hand (P-5)


def test_p12_pages_ask_for_a_seat_and_the_host_answers(players, outsider):
    m = _left_seat_match(players)
    visitor = Client()
    visitor.force_login(outsider)
    url = reverse("game:seat_take", args=[m.pk])
    page = visitor.get(url)
    assert page.status_code == 200 and b'name="seat" value="1"' in page.content
    assert visitor.post(url, {"seat": "3"}).status_code == 400  # a bot's seat, not left
    assert visitor.post(url, {"seat": "1"}).status_code == 302
    assert "refresh" in visitor.get(url).content.decode()  # waits for the host
    answer = reverse("game:seat_answer", args=[m.pk])
    assert visitor.post(answer, {"seat": "1", "accept": "1"}).json()["ok"] is False
    host = Client()
    host.force_login(players[0])
    assert host.post(answer, {"seat": "1", "accept": "1"}).json() == {"ok": True}
    response = visitor.get(url)
    assert response.status_code == 302 and response.url == reverse("game:match", args=[m.pk])


def test_p13_a_late_close_of_an_older_socket_gives_no_bot_the_seat(players, settings):
    """P-13: the player reconnected (socket "b") before the server heard that the old
    socket ("a") closed; that late close changes nothing, so no bot takes the turns of
    a connected player after the grace.  The newest socket's close starts the grace."""
    settings.KUT_DROP_GRACE_SECONDS = 15
    m = _human_turn_match(players, seed="p13-late")
    t0 = timezone.now()
    services.match_seat_connected(m.pk, 0, True, socket="a")
    services.match_seat_connected(m.pk, 0, True, socket="b")
    services.match_seat_connected(m.pk, 0, False, now=t0, socket="a")
    sweep(t0 + timedelta(seconds=16))
    seat = _seat(m, 0)
    assert seat.connected and not seat.away and not seat.dropped
    assert not MatchAction.objects.filter(match=m, seat=0, actor="bot").exists()
    services.match_seat_connected(m.pk, 0, False, now=t0, socket="b")
    sweep(t0 + timedelta(seconds=16))
    seat = _seat(m, 0)
    assert not seat.connected and seat.away and seat.dropped
