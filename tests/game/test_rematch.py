"""Rematch (K-X2) and leaving (K-X3, P-5): the host's invitation, answers and the start,
refusals; leaving mid-match hands the seat to a bot and is ranked per P-5; the last
human leaving closes the table.  Services, views and the match socket."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from game import rematch, services, tutorial
from game.frames import match_frame
from game.models import Match, MatchAction, MatchSeat
from games.kut.engine.match import MatchState
from lobby.models import Ranking, RankingResult
from tests.clients import client_for
from tests.game.conftest import connect, receive, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def finished(users, *, host=None, rated=True, levels=None, seed="rematch"):
    """A match that has just finished (its play is not what these tests are about)."""
    match = services.match_create(
        game="kut",
        options={"tasks": 5},
        users=users,
        bot_levels=levels,
        rated=rated,
        host=host or users[0],
        seed=seed,
    )
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED, finished_at=timezone.now(), deadline=None, bot_due=None
    )
    match.refresh_from_db()
    return match


def seating(match) -> list:
    return [
        (s.user if s.user_id else None, s.bot_level)
        for s in match.seats.select_related("user").order_by("seat")
    ]


def rematch_frame(match, seat=0) -> dict:
    match.refresh_from_db()
    return match_frame(match, seat)["match"].get("rematch")


# --- rematch: services ------------------------------------------------------------------------


def test_host_rematch_with_one_player_accepting_and_one_declining(players):
    ali, ayse, can = players[:3]
    old = finished([ali, ayse, can, None], levels=["", "", "", "hard"])
    assert rematch.rematch_offer(old.pk, ali, 8) is None  # two players to ask
    info = rematch_frame(old, seat=1)
    assert info == {"choice": 8, "by": ali.pk, "asked": [1, 2], "answers": {}, "match_id": None,
                    "url": None}  # fmt: skip
    assert rematch.rematch_answer(old.pk, ayse, True) is None  # can has not answered
    assert rematch_frame(old)["answers"] == {"1": "yes"}
    new = rematch.rematch_answer(old.pk, can, False)  # the last answer starts it
    assert new is not None and new.rematch_of_id == old.pk
    assert (new.options["tasks"], new.rated, new.host_id, new.kind) == (8, True, ali.pk, "normal")
    assert seating(new) == [(ali, ""), (ayse, ""), (None, "normal"), (None, "hard")]
    state = MatchState.from_dict(new.state)
    assert state.totals == [0, 0, 0, 0] and state.hand_no == 1  # totals from zero (K-X2)
    assert new.status == Match.Status.PLAYING and new.seed != old.seed
    info = rematch_frame(old, seat=2)
    assert info["match_id"] == new.pk and info["url"] == reverse("game:match", args=[new.pk])
    assert info["answers"] == {"1": "yes", "2": "no"}
    # the decline costs nothing: can is not in the new match at all (no P-5 possible)
    assert not MatchSeat.objects.filter(match=new, user=can).exists()
    assert services.seat_of(new, can) is None and services.seat_of(new, ayse) == 1
    # starting again returns the same rematch
    assert rematch.rematch_start(old.pk, ali).pk == new.pk
    with pytest.raises(services.ServiceError) as info:
        rematch.rematch_answer(old.pk, ayse, True)
    assert info.value.code == "rematch_started"


def test_the_host_starts_without_waiting_and_leavers_are_not_asked(players):
    ali, ayse, can, deniz = players
    old = finished([ali, ayse, can, deniz])
    MatchSeat.objects.filter(match=old, user=can).update(  # can left during the match
        left=True, left_at=timezone.now(), left_in_hand=2
    )
    rematch.rematch_offer(old.pk, ali, 5)
    assert rematch_frame(old)["asked"] == [1, 3]  # can left: not asked
    rematch.rematch_answer(old.pk, deniz, True)
    rematch.rematch_offer(old.pk, ali, 12)  # a new choice asks everyone again
    assert rematch_frame(old)["answers"] == {} and rematch_frame(old)["choice"] == 12
    rematch.rematch_answer(old.pk, deniz, True)
    new = rematch.rematch_start(old.pk, ali)  # ayse has not answered: a bot plays for her
    assert new.options["tasks"] == 12
    assert seating(new) == [(ali, ""), (None, "normal"), (None, "normal"), (deniz, "")]


def test_alone_with_bots_the_rematch_starts_at_once(players):
    ali = players[0]
    old = finished([ali, None, None, None], rated=False, levels=["", "easy", "hard", "easy"])
    new = rematch.rematch_offer(old.pk, ali, 5)
    assert new is not None and not new.rated
    assert seating(new) == [(ali, ""), (None, "easy"), (None, "hard"), (None, "easy")]


def test_rematch_refusals(players):
    ali, ayse, can = players[:3]
    old = finished([ali, ayse, None, None])

    def code(fn, *args, **kw):
        with pytest.raises(services.ServiceError) as info:
            fn(*args, **kw)
        return info.value.code

    assert code(rematch.rematch_offer, old.pk, ayse, 8) == "not_host"
    assert code(rematch.rematch_offer, old.pk, ali, 7) == "bad_choice"
    assert code(rematch.rematch_answer, old.pk, ayse, True) == "no_offer"
    assert code(rematch.rematch_start, old.pk, ali) == "no_offer"
    assert code(rematch.rematch_offer, 999999, ali, 8) == "no_such_match"
    running = services.match_create(
        game="kut", options={"tasks": 5}, users=[ali, ayse, None, None], seed="on"
    )
    assert code(rematch.rematch_offer, running.pk, ali, 8) == "match_not_over"
    rematch.rematch_offer(old.pk, ali, 8)
    assert code(rematch.rematch_answer, old.pk, can, True) == "not_seated"
    assert code(rematch.rematch_answer, old.pk, ali, True) == "not_seated"  # the host
    assert code(rematch.rematch_start, old.pk, ayse) == "not_host"
    practice = tutorial.tutorial_create(can, "kut")
    Match.objects.filter(pk=practice.pk).update(status=Match.Status.FINISHED)
    assert code(rematch.rematch_offer, practice.pk, can, 8) == "no_rematch"
    left_host = finished([ali, ayse, None, None], seed="gone")
    services.match_leave(left_host.pk, ali)  # leaving after the end: no longer seated
    assert code(rematch.rematch_offer, left_host.pk, ali, 8) == "not_host"


# --- rematch: the views (what the table's script calls) -----------------------------------------


def test_rematch_views_answer_json_and_keep_banned_players_out(players):
    ali, ayse, can = players[:3]
    old = finished([ali, ayse, can, None])
    json_accept = {"HTTP_ACCEPT": "application/json"}
    offer = reverse("lobby:rematch_offer", args=[old.pk])
    answer = reverse("lobby:rematch_answer", args=[old.pk])
    refused = client_for(ayse).post(offer, {"choice": "8"}, **json_accept)
    assert refused.status_code == 409 and refused.json()["code"] == "not_host"
    assert "kurucusu" in refused.json()["message"]  # Turkish, from the catalogue
    assert (
        client_for(ali).post(offer, {"choice": "x"}, **json_accept).json()["code"] == "bad_choice"
    )
    assert client_for(ali).post(offer, {"choice": "8"}, **json_accept).json() == {
        "ok": True, "match_id": None, "url": None,
    }  # fmt: skip
    assert client_for(ayse).post(answer, {"accept": "1"}, **json_accept).json()["ok"]
    User.objects.filter(pk=ayse.pk).update(is_banned=True)  # banned since: a bot plays
    reply = client_for(can).post(answer, {"accept": "1"}, **json_accept).json()
    new = Match.objects.get(rematch_of=old)
    assert reply == {"ok": True, "match_id": new.pk, "url": reverse("game:match", args=[new.pk])}
    assert seating(new) == [(ali, ""), (None, "normal"), (can, ""), (None, "normal")]
    plain = client_for(ali).post(reverse("lobby:rematch_start", args=[old.pk]))
    assert plain.status_code == 302 and plain["Location"] == reverse("game:match", args=[new.pk])
    assert client_for(ali).get(offer).status_code == 405


# --- rematch and leaving: the match socket -------------------------------------------------------


@pytest.mark.asyncio
async def test_the_invitation_and_the_start_reach_the_players_sockets(players):
    ali, ayse = players[:2]
    old = await sync_to_async(finished)([ali, ayse, None, None])
    cookies = [await sync_to_async(session_cookie)(u) for u in (ali, ayse)]
    host_comm, ok, _ = await connect(old.pk, cookies[0])
    guest_comm, ok2, _ = await connect(old.pk, cookies[1])
    assert ok and ok2
    await receive(host_comm)
    await receive(guest_comm)

    async def next_rematch(comm, want):
        while True:  # presence frames come too
            frame = await receive(comm)
            info = frame["match"].get("rematch")
            if frame["type"] == "state" and info and want(info):
                return frame

    await sync_to_async(rematch.rematch_offer)(old.pk, ali, 8)
    frame = await next_rematch(guest_comm, lambda i: True)
    assert frame["me"] == 1 and frame["match"]["rematch"]["choice"] == 8
    assert frame["match"]["rematch"]["asked"] == [1] and frame["match"]["host_id"] == ali.pk
    await sync_to_async(rematch.rematch_answer)(old.pk, ayse, False)  # declines
    frame = await next_rematch(host_comm, lambda i: i["match_id"])
    new_id = frame["match"]["rematch"]["match_id"]
    assert frame["match"]["rematch"]["answers"] == {"1": "no"}
    new = await sync_to_async(Match.objects.get)(pk=new_id)
    assert await sync_to_async(seating)(new) == [(ali, ""), (None, "normal"), (None, "normal"),
                                                 (None, "normal")]  # fmt: skip
    comm, ok, code = await connect(new_id, cookies[1])  # ayse has no seat there
    assert not ok and code == 4003
    await host_comm.disconnect()
    await guest_comm.disconnect()


def _turn(match_id: int) -> int:
    return MatchState.from_dict(Match.objects.get(pk=match_id).state).hand.turn


def _move(match_id: int, seat: int) -> None:
    """The human at ``seat`` draws and discards (any legal, plain turn)."""
    match = Match.objects.get(pk=match_id)
    hand = MatchState.from_dict(match.state).hand
    if hand.phase == "take":
        services.match_apply_action(match_id, seat, {"type": "draw"}, match.version)
        match.refresh_from_db()
        hand = MatchState.from_dict(match.state).hand
    tile = hand.ids[hand.racks[seat].tiles()[-1]]
    services.match_apply_action(match_id, seat, {"type": "discard", "tile_id": tile}, match.version)


@pytest.mark.asyncio
async def test_leaving_mid_match_a_bot_takes_over_p5_is_recorded_and_the_last_leaver_closes(
    players,
):
    ali, ayse = players[:2]
    match = await sync_to_async(services.match_create)(
        game="kut",
        options={"tasks": 5},
        users=[ali, ayse, None, None],
        rated=True,
        seed="leave-mid",
        host=ali,
    )
    cookies = [await sync_to_async(session_cookie)(u) for u in (ali, ayse)]
    stay, ok, _ = await connect(match.pk, cookies[1])
    assert ok
    await receive(stay)

    # ali presses Oyundan Çık (K-X3): the view calls match_leave
    leave_url = reverse("game:leave", args=[match.pk])
    response = await sync_to_async(lambda: client_for(ali).post(leave_url))()
    assert response.status_code == 302
    while True:
        frame = await receive(stay)
        if frame["match"]["seats"][0]["left"]:
            break
    assert frame["match"]["status"] == "playing" and frame["me"] == 1
    seat = await sync_to_async(MatchSeat.objects.get)(match=match, seat=0)
    assert seat.left and seat.bot_controlled and seat.left_in_hand == 1
    # a bot plays ali's seat from now on: play ayse's turns until seat 0 has moved
    for _ in range(12):
        bot_moves = await sync_to_async(
            MatchAction.objects.filter(match=match, seat=0, actor="bot").count
        )()
        if bot_moves:
            break
        if await sync_to_async(_turn)(match.pk) == 1:
            await sync_to_async(_move)(match.pk, 1)
    assert bot_moves > 0
    assert not await sync_to_async(
        MatchAction.objects.filter(match=match, seat=0, actor="human").exists
    )()
    # ayse, the last human, leaves too: the table closes as abandoned (K-X3)
    await sync_to_async(services.match_leave)(match.pk, ayse)
    while True:  # issue 16: the leaver's own socket is told and closed at once
        frame = await receive(stay)
        if frame["type"] == "error":
            break
    assert frame["code"] == "left"
    assert (await stay.receive_output(timeout=5))["type"] == "websocket.close"
    m = await sync_to_async(Match.objects.get)(pk=match.pk)
    assert m.status == "abandoned"

    # P-5 through the lobby's ranking: both left during the first hand: a loss each
    results = await sync_to_async(
        lambda: {
            r.user.username: (r.outcome, r.points, r.left, r.completed_hands)
            for r in RankingResult.objects.filter(match=match).select_related("user")
        }
    )()
    assert results == {
        "oyuncu0": ("left_loss", -1, True, 0),
        "oyuncu1": ("left_loss", -1, True, 0),
    }
    ranking = await sync_to_async(Ranking.objects.get)(user=ali, game="kut")
    assert (ranking.points, ranking.leaves, ranking.losses) == (-1, 1, 1)
    after = await sync_to_async(lambda: client_for(ali).post(leave_url))()
    assert after.status_code == 404  # no longer seated


# --- rematch: a game without its own rematch choice ------------------------------------------


def test_a_game_without_rematch_choice_gets_a_plain_rematch(players, monkeypatch):
    """``choices_for`` is generic: a game whose GAME has no ``rematch_choice`` is offered
    nothing to choose and keeps its options — no KÜT tasks are forced on it.  (KÜT's own
    GAME is stripped of its choice here to stand for such a game.)"""
    from game.engine import registry

    kut = registry.get("kut")
    assert rematch.choices_for("kut") == ("tasks", (5, 8, 12))
    assert rematch.choices_for("kdvli") == ("hands", (3, 5, 7, 9, 11))
    assert rematch.choices_for("no-such-game") == (None, ())
    monkeypatch.setattr(kut, "rematch_choice", None)  # the protocol's default
    assert rematch.choices_for("kut") == (None, ())

    ali, ayse = players[:2]
    old = finished([ali, ayse, None, None], levels=["", "", "hard", "easy"])
    # the table offers the host one plain "Play again" button (posting 0), not none
    from lobby.templatetags.history_tags import table_extras_config

    cfg = table_extras_config(old, "token")
    assert cfg["rematch_choices"] == [{"value": 0, "label": ""}]
    options = dict(old.options)

    def code(*args):
        with pytest.raises(services.ServiceError) as info:
            rematch.rematch_offer(*args)
        return info.value.code

    assert code(old.pk, ali, 8) == "bad_choice"  # nothing to choose: a number is refused
    assert code(old.pk, ali, "8") == "bad_choice"
    assert rematch.rematch_offer(old.pk, ali, None) is None  # ayşe is asked
    assert rematch_frame(old)["choice"] is None
    new = rematch.rematch_answer(old.pk, ayse, True)
    assert new is not None and new.options == options  # the same options, nothing forced
    assert seating(new) == [(ali, ""), (ayse, ""), (None, "hard"), (None, "easy")]
    # The form posts no number (the view reads it as 0): the same plain offer.
    again = finished([ali, None, None, None], seed="plain")
    new = client_for(ali).post(reverse("lobby:rematch_offer", args=[again.pk]), {},
                               HTTP_ACCEPT="application/json").json()  # fmt: skip
    assert new["ok"] and Match.objects.get(pk=new["match_id"]).options == again.options
