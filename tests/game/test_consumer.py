"""The match socket: authentication and seats, a full hand over four sockets with
every frame checked for secrets, refusals with error frames, reconnects."""

from __future__ import annotations

import json
import random

import pytest
from asgiref.sync import sync_to_async

from game import services
from game.models import Match, MatchSeat
from games.kut.engine import bots
from games.kut.engine.match import MatchState
from tests.game.conftest import connect, receive, session_cookie
from tests.games.kut.engine.test_properties import check_view_secrecy

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@sync_to_async
def make_match(players, **kw):
    kw.setdefault("seed", "consumer")
    kw.setdefault("rated", False)
    m = services.match_create(game="kut", options={"tasks": 8}, users=players, **kw)
    return m.pk, [session_cookie(u) for u in players]


@sync_to_async
def load(match_id):
    m = Match.objects.get(pk=match_id)
    return m, MatchState.from_dict(m.state)


async def test_only_authenticated_users_with_the_right_origin(players):
    mid, cookies = await make_match(players)
    comm, ok, code = await connect(mid, None)
    assert not ok
    comm, ok, code = await connect(mid, cookies[0], origin="http://evil.example")
    assert not ok
    comm, ok, _ = await connect(mid, cookies[0])
    assert ok
    frame = await receive(comm)
    assert frame["type"] == "state" and frame["me"] == 0 and "rack" in frame["hand"]
    await comm.disconnect()


async def test_watchers_only_where_allowed_and_never_see_a_rack(players, django_user_model):
    outsider = await sync_to_async(django_user_model.objects.create_user)(
        username="izleyici", password="kirmizi-yedi-okey-42")  # fmt: skip
    cookie = await sync_to_async(session_cookie)(outsider)
    mid, _ = await make_match(players)
    comm, ok, code = await connect(mid, cookie)
    assert not ok and code == 4003
    mid2, _ = await make_match(players, watchers_allowed=True, seed="w2")
    comm, ok, _ = await connect(mid2, cookie)
    assert ok
    frame = await receive(comm)
    assert frame["me"] is None and "rack" not in frame["hand"]
    await comm.send_to(text_data=json.dumps({"type": "action", "action": {"type": "draw"}}))
    err = await next_error(comm)
    assert err["code"] == "watcher"
    await comm.disconnect()


async def next_error(comm) -> dict:
    """The next error frame (state frames, e.g. presence updates, are skipped)."""
    while True:
        f = await receive(comm)
        if f["type"] == "error":
            return f


async def _drain(comms, version):
    """Read frames until every socket has seen ``version``; returns the last frames."""
    latest = {}
    for seat, comm in enumerate(comms):
        while True:
            f = await receive(comm)
            if f["type"] == "state":
                latest[seat] = f
                if f["version"] >= version:
                    break
    return latest


async def test_four_players_play_a_hand_and_see_only_their_own_tiles(players):
    mid, cookies = await make_match(players)
    comms = []
    for c in cookies:
        comm, ok, _ = await connect(mid, c)
        assert ok
        comms.append(comm)
    m, ms = await load(mid)
    frames = await _drain(comms, m.version)
    rng = random.Random(4)
    checked = 0
    while True:
        m, ms = await load(mid)
        if m.status != Match.Status.PLAYING:
            break
        hand = ms.hand
        for seat in range(4):
            view = frames[seat]["hand"]
            check_view_secrecy(hand, seat, view)
            checked += 1
        seat = hand.turn
        action = bots.choose(frames[seat]["hand"], "normal", rng)
        await comms[seat].send_to(text_data=json.dumps(
            {"type": "action", "action": action, "version": m.version}))  # fmt: skip
        frames = await _drain(comms, m.version + 1)
    m, ms = await load(mid)
    assert m.status == Match.Status.BETWEEN and ms.hand.over
    assert all(frames[s]["hand"]["over"] for s in range(4)) and checked > 100
    for comm in comms:
        await comm.disconnect()


async def test_refusals_get_an_error_frame_and_change_nothing(players):
    mid, cookies = await make_match(players)
    m, ms = await load(mid)
    turn = ms.hand.turn
    other = (turn + 1) % 4
    comm, ok, _ = await connect(mid, cookies[other])
    await receive(comm)
    cases = [
        # out of turn, even when the message names the seat whose turn it is
        (json.dumps({"type": "action", "seat": turn, "version": m.version,
                     "action": {"type": "discard", "tile": "R1"}}), "not_your_turn"),
        (json.dumps({"type": "action", "action": {"type": "draw"}, "version": 0}),
         "stale_version"),
        ("{not json", "bad_json"),
        (json.dumps([1, 2, 3]), "bad_json"),
        (json.dumps({"type": "fly"}), "unknown_message"),
        (json.dumps({"type": "action", "action": {"type": "teleport"}}), "unknown_action"),
        (json.dumps({"type": "action", "action": "draw"}), "bad_action"),
        (json.dumps({"type": "action", "action": {"type": "draw"}, "version": "x"}),
         "bad_action"),
        ("x" * (17 * 1024), "too_large"),
    ]  # fmt: skip
    for text, code in cases:
        await comm.send_to(text_data=text)
        err = await next_error(comm)
        assert err["code"] == code, (code, err)
        assert err["message"]
    m2, _ = await load(mid)
    assert m2.version == m.version and m2.state == m.state
    await comm.disconnect()


async def test_floods_are_rate_limited(players):
    mid, cookies = await make_match(players)
    comm, ok, _ = await connect(mid, cookies[0])
    await receive(comm)
    for _ in range(60):
        await comm.send_to(text_data=json.dumps({"type": "ping"}))
    codes = []
    while len(codes) < 60:
        f = await receive(comm)
        if f["type"] != "state":
            codes.append(f.get("code") or f["type"])
    assert "rate_limited" in codes and "pong" in codes
    await comm.disconnect()


async def test_reconnect_restores_the_exact_view_and_the_turn_continues(players):
    mid, cookies = await make_match(players)
    m, ms = await load(mid)
    seat = ms.hand.turn
    comm, ok, _ = await connect(mid, cookies[seat])
    frame = await receive(comm)
    ids = [c["id"] for c in frame["hand"]["rack"]["cells"] if c]
    cells = [None] * 32
    for i, tid in enumerate(ids):
        cells[31 - 2 * i if i < 16 else i] = tid
    await comm.send_to(text_data=json.dumps({"type": "action", "version": frame["version"],
        "action": {"type": "layout", "cells": cells, "separators": [2, 20]}}))  # fmt: skip
    frame = await receive(comm)
    while not frame["hand"]["rack"]["separators"]:  # presence frames may come first
        frame = await receive(comm)
    assert frame["hand"]["rack"]["separators"] == [2, 20]
    await comm.disconnect()
    comm, ok, _ = await connect(mid, cookies[seat])
    again = await receive(comm)
    assert again["hand"]["rack"] == frame["hand"]["rack"]  # the snapshot on connect
    assert [c["id"] if c else None for c in again["hand"]["rack"]["cells"]] == cells
    assert again["version"] == frame["version"]
    tile = ids[0]
    await comm.send_to(text_data=json.dumps({"type": "action", "version": again["version"],
        "action": {"type": "discard", "tile_id": tile}}))  # fmt: skip
    after = await receive(comm)
    while after["version"] <= again["version"]:  # presence frames come first
        after = await receive(comm)
    assert after["version"] == again["version"] + 1
    assert after["hand"]["turn"] == (seat + 1) % 4
    await comm.disconnect()


async def test_a_second_tab_replaces_the_first_which_is_told_why(players):
    mid, cookies = await make_match(players)
    first, ok, _ = await connect(mid, cookies[0])
    assert ok
    await receive(first)
    second, ok, _ = await connect(mid, cookies[0])
    assert ok
    err = await next_error(first)
    assert err["code"] == "replaced" and err["message"]
    assert (await first.receive_output(timeout=5))["type"] == "websocket.close"
    frame = await receive(second)
    assert frame["type"] == "state" and frame["me"] == 0
    m, _ = await load(mid)
    seat = await sync_to_async(lambda: m.seats.get(seat=0).connected)()
    assert seat  # the replaced tab's close did not mark the player offline
    await second.disconnect()


async def test_p13_an_old_sockets_late_close_leaves_the_new_sockets_seat_connected(players):
    """P-13: the server may learn that a player's old socket closed (a dropped network,
    a tab closed before it heard it was replaced) after the player's new socket
    connected.  That late close must not mark the seat disconnected — after the drop
    grace a bot would play a connected player's turns.  Only the newest socket's close
    counts."""
    mid, cookies = await make_match(players)
    seat_of = sync_to_async(lambda: MatchSeat.objects.get(match_id=mid, seat=0))
    first, ok, _ = await connect(mid, cookies[0])
    assert ok
    await receive(first)
    old_socket = (await seat_of()).socket
    assert old_socket.strip()
    second, ok, _ = await connect(mid, cookies[0])
    assert ok
    await receive(second)
    seat = await seat_of()
    assert seat.connected and seat.socket.strip() and seat.socket != old_socket
    # the old socket's close handled now, after the new one connected
    await sync_to_async(services.match_seat_connected)(mid, 0, False, socket=old_socket)
    seat = await seat_of()
    assert seat.connected and seat.disconnected_at is None
    # the newest socket's close counts
    await second.disconnect()
    seat = await seat_of()
    assert not seat.connected and seat.disconnected_at is not None
    await first.disconnect()
