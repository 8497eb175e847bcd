"""A seat's rack layout is private (issue 16): it never moves the shared version, a
deadline or a bot's turn, is never sent to another seat, and replays exactly."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from game import services
from game.models import Match, MatchAction
from games.kut.engine import bots
from games.kut.engine.match import MatchState
from games.kut.engine.views import view_for
from tests.game.conftest import connect, receive, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def _row(mid):
    m = Match.objects.get(pk=mid)
    return m.version, m.deadline, m.bot_due, m.turn_started


def test_layout_moves_change_nothing_the_other_seats_act_on(players, settings):
    """With a bot on turn and its move due in 30 s: 20 layout moves of seat 0 leave the
    version, the deadline, the bot's due time and the turn's start alone; another seat's
    move made on the version it saw before them is not stale; the log keeps them with
    the seat's own layout version and the replay rebuilds the rack."""
    settings.KUT_BOTS_INLINE = False
    settings.KUT_BOT_DELAY_SECONDS = 30
    now = timezone.now()
    m = services.match_create(
        game="kut", options={"tasks": 5}, users=players, rated=True, seed="s6", now=now
    )
    seats = m.seats.order_by("seat")
    for s in seats[1:]:  # seats 1-3 are bots; seat 0 a human
        s.user = None
        s.bot_level = "normal"
        s.save()
    ms = MatchState.from_dict(Match.objects.get(pk=m.pk).state)
    turn = ms.hand.turn
    layout_seat = (turn + 1) % 4
    # the seat on turn arranges its own rack too; then a bot move is due in 30 s
    services.match_apply_action(m.pk, turn, {"type": "separator", "at": 4}, None, now=now)
    Match.objects.filter(pk=m.pk).update(bot_due=now + timedelta(seconds=30))
    before = _row(m.pk)
    for i in range(20):
        services.match_apply_action(m.pk, layout_seat, {"type": "separator", "at": 2 + i % 3},
                                    None, now=now + timedelta(seconds=20 + i))  # fmt: skip
    services.match_apply_action(m.pk, layout_seat, {"type": "arrange"}, before[0],
                                now=now + timedelta(seconds=41))  # fmt: skip
    assert _row(m.pk) == before
    # a move made on the version seen before the layout moves is not stale
    view = json.loads(json.dumps(view_for(ms.hand, turn)))
    move = bots.choose(view, "normal", random.Random(1))
    services.match_apply_action(m.pk, turn, move, before[0], now=now)
    m.refresh_from_db()
    assert m.version == before[0] + 1
    rows = MatchAction.objects.filter(match=m, seat=layout_seat, layout_version__gt=0)
    assert rows.count() == 21 and m.seats.get(seat=layout_seat).layout_version == 21
    assert set(rows.values_list("version", flat=True)) == {before[0]}
    assert services.match_replay(m).to_dict() == m.state


def test_layout_past_the_deadline_times_nobody_out(players):
    """An overdue turn is the timer's (the sweep's) to close, not a layout move's."""
    now = timezone.now()
    m = services.match_create(
        game="kut", options={"tasks": 5}, users=players, rated=True, seed="s7", now=now
    )
    later = now + timedelta(seconds=600)
    ms = MatchState.from_dict(m.state)
    services.match_apply_action(m.pk, (ms.hand.turn + 2) % 4, {"type": "arrange"}, None, now=later)
    assert not MatchAction.objects.filter(match=m, kind="timeout").exists()
    assert Match.objects.get(pk=m.pk).version == m.version


def test_a_client_sent_timeout_is_refused(players):
    """Only the server times a seat out (K-N7): a player's own timeout changes nothing."""
    m = services.match_create(
        game="kut", options={"tasks": 5}, users=players, rated=True, seed="s8"
    )
    turn = MatchState.from_dict(m.state).hand.turn
    with pytest.raises(services.ServiceError) as exc:
        services.match_apply_action(m.pk, turn, {"type": "timeout"}, m.version)
    assert exc.value.code == "unknown_action"
    assert Match.objects.get(pk=m.pk).version == m.version
    assert not MatchAction.objects.filter(match=m, kind="timeout").exists()


@pytest.mark.asyncio
async def test_only_the_seats_own_socket_gets_its_layout(players):
    """The layout frame goes to the seat's socket alone (same version, a higher
    ``layout``); the other seats' sockets get nothing."""
    m = await sync_to_async(services.match_create)(game="kut", options={"tasks": 5}, users=players, rated=False,
                                                    seed="s9")  # fmt: skip
    comms = []
    for u in players[:2]:
        comm, ok, _ = await connect(m.pk, await sync_to_async(session_cookie)(u))
        assert ok
        comms.append(comm)
    for comm in comms:  # snapshots and the presence frames of both connections
        while not await comm.receive_nothing(timeout=0.5):
            await receive(comm)
    await comms[0].send_json_to({"type": "action", "action": {"type": "separator", "at": 3}})
    frame = await receive(comms[0])
    assert frame["type"] == "state" and frame["version"] == m.version and frame["layout"] == 1
    assert frame["me"] == 0
    assert await comms[1].receive_nothing(timeout=1.0)
    await comms[0].send_json_to({"type": "action", "action": {"type": "timeout"}})
    err = await receive(comms[0])
    assert err["type"] == "error" and err["code"] == "unknown_action"
    for comm in comms:
        await comm.disconnect()
