"""Issue "One site, five games": a two-seat game the platform has never heard of, added
by one registry line (tests/platform/conftest.py), plays through the service path, a
real consumer with its secrets kept, the timers, the bots, history and ranking."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async

from game import services
from game.models import HandResult, Match, MatchAction
from game.tasks import sweep
from lobby import history
from lobby.models import Ranking, RankingResult
from lobby.ranking import match_rank
from tests.game.conftest import connect, receive, session_cookie


def _state(match_id):
    return Match.objects.get(pk=match_id)


@pytest.mark.django_db
def test_toy_game_service_path_timers_history_and_ranking(players):
    a, b = players[:2]
    match = services.match_create(game="toy", options={"hands": 3}, users=[a, b], rated=True)
    assert match.move_seconds == 30  # P-6: the game's default move time
    assert match.seats.count() == 2 and match.deadline - match.turn_started == timedelta(seconds=30)
    chosen = services.match_create(
        game="toy", options={"hands": 1}, users=[b, a], rated=True, move_seconds=135
    )  # P-6: the host's choice, 15-s steps
    assert chosen.deadline - chosen.turn_started == timedelta(seconds=135)
    with pytest.raises(services.ServiceError):
        services.match_create(game="toy", users=[a, b], move_seconds=140)
    start = match.turn_started
    # the timer: an overdue turn is completed by the game's own timeout (adds 1)
    late = match.deadline + timedelta(seconds=1)
    assert services.match_expire_turn(match.pk, match.version, now=late)
    match.refresh_from_db()
    assert match.state["hand"]["count"] == 1 and match.turn_started > start
    assert MatchAction.objects.filter(match=match, kind="timeout", actor="timer").count() == 1
    # a refused action changes nothing
    version = match.version
    with pytest.raises(Exception) as err:
        services.match_apply_action(match.pk, match.state["hand"]["turn"] ^ 1,
                                    {"type": "add", "n": 2}, version)  # fmt: skip
    assert getattr(err.value, "code", "") == "not_your_turn"
    assert _state(match.pk).version == version
    # play the hands out through the service path; the sweep deals the next hands
    now = late
    while True:
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        if match.status == Match.Status.BETWEEN:
            now = match.deadline + timedelta(seconds=1)
            assert sweep(now) >= 1
            continue
        seat = match.state["hand"]["turn"]
        services.match_apply_action(match.pk, seat, {"type": "add", "n": 3}, match.version, now=now)
    assert HandResult.objects.filter(match=match).count() == 3
    state = match.state
    assert state["totals"] == [sum(r["scores"][s] for r in state["results"]) for s in (0, 1)]
    # replaying the seed and the log gives the stored state (determinism)
    assert services.match_replay(match) == match.state
    # history: Maçlarım and the match record, for two seats
    assert list(history.match_history_for_user(a)) == [match]
    record = history.match_record(match)
    assert record["complete"] and len(record["players"]) == 2 and len(record["hands"]) == 3
    assert record["totals"] == state["totals"]
    # ranking: P-4, higher wins in this game
    match_rank(match.pk)
    winner = 0 if state["totals"][0] > state["totals"][1] else 1
    results = {r.seat: r.points for r in RankingResult.objects.filter(match=match)}
    if state["totals"][0] != state["totals"][1]:
        assert results == {winner: 1, 1 - winner: -1}
    assert Ranking.objects.filter(game="toy", level="orta").count() == 2


@pytest.mark.django_db(transaction=True)  # the bots run after each commit
def test_toy_game_bots_play_a_whole_match(players):
    match = services.match_create(game="toy", options={"hands": 3}, users=[players[0], None],
                                  bot_levels=["", "hard"], rated=False)  # fmt: skip
    while True:
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            if match.status == Match.Status.BETWEEN:
                services.match_next_hand(match.pk, match.version, force=True)
                continue
            break
        seat = match.state["hand"]["turn"]
        assert seat == 0  # the bot (inline in tests) has always answered already
        services.match_apply_action(match.pk, 0, {"type": "add", "n": 1}, match.version)
    assert match.status == Match.Status.FINISHED
    assert MatchAction.objects.filter(match=match, actor="bot").exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_toy_game_through_a_real_consumer_keeps_each_seats_secret(players):
    a, b = players[:2]
    match = await sync_to_async(services.match_create)(
        game="toy", options={"hands": 1}, users=[a, b], rated=False, seed="toy"
    )
    cookies = [await sync_to_async(session_cookie)(u) for u in (a, b)]
    socks = []
    for cookie in cookies:
        comm, ok, _ = await connect(match.pk, cookie)
        assert ok
        socks.append(comm)
    frames = [await receive(c) for c in socks]
    secrets = match.state["hand"]["secret"]
    for seat, frame in enumerate(frames):
        assert frame["me"] == seat and frame["hand"]["secret"] == secrets[seat]
        assert "secrets" not in frame["hand"]  # the other's bonus stays hidden
    turn = frames[0]["hand"]["turn"]
    version = frames[0]["version"]
    await socks[turn].send_json_to({"type": "action", "action": {"type": "add", "n": 3},
                                    "version": version})  # fmt: skip
    for seat, comm in enumerate(socks):
        frame = await receive(comm)
        while frame["version"] == version:  # presence frames of the sockets connecting
            frame = await receive(comm)
        assert frame["version"] == version + 1 and frame["hand"]["count"] == 3
        assert frame["hand"]["secret"] == secrets[seat] and "secrets" not in frame["hand"]
    # a bad action from the other seat: one error frame, nothing changes
    await socks[turn].send_json_to({"type": "action", "action": {"type": "add", "n": 9},
                                    "version": version + 1})  # fmt: skip
    error = await receive(socks[turn])
    assert error["type"] == "error" and error["code"] == "bad_action"
    for comm in socks:
        await comm.disconnect()
