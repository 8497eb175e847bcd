"""Two real daphne processes sharing PostgreSQL and Redis: a full hand played over real
websockets with the seats split across the processes, and a process killed mid-hand
and started again (issue 5, "Done when": multi-process and restart).

Every frame every seat receives is checked against the stored state of its version:
only the seat's own tiles and public tiles, never the deck, the deal or the seed.
"""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from game import services
from game.engine import registry
from game.models import HandResult, Match, MatchAction
from games.kut.engine import bots
from games.kut.engine.match import MatchState
from games.okey.engine.tiles import NUM_TILES
from tests.game.conftest import session_cookie
from tests.games.kut.engine.test_properties import all_tiles, check_view_secrecy

KUT = registry.get("kut")  # the game's view, as the frames carry it

# The fixtures come from livestack as a plugin; its asserts are rewritten like a test's.
pytest.register_assert_rewrite("tests.game.livestack")
from tests.game.livestack import (  # noqa: E402 (after the rewrite registration)
    Player,
    close_all,
    open_players,
    requires_services,
    wait_all,
)

pytest_plugins = ["tests.game.livestack"]  # daphne_stack, daphnes, ws_loop, …
pytestmark = [requires_services, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Seeds whose first hand the normal bot (rng 5) finishes in 57 and 44 actions; a median
# hand takes ~115 actions, ~0.2 s each over real sockets on a loaded 2-core machine.
# Any seed is a valid test, these only keep it short.
SHORT_HANDS = ("live-22", "live-33")


def _stored(match_id: int):
    m = Match.objects.get(pk=match_id)
    return m, MatchState.from_dict(m.state)


def _play(run, match_id, conns: dict[int, Player], rng, states: dict, sent: list,
          stop=lambda hand: False) -> None:  # fmt: skip
    """Drive the seat whose turn it is with the normal bot on its latest frame, one
    action at a time, until the hand ends or ``stop(hand)``; every socket in ``conns``
    must see each new version.  ``states`` collects the stored hand of every version."""
    while True:
        m, ms = _stored(match_id)
        hand = ms.hand
        states[m.version] = hand
        if m.status != Match.Status.PLAYING or stop(hand):
            return
        player = conns[hand.turn]
        assert player.version == m.version, (player.version, m.version)
        action = bots.choose(player.latest["hand"], "normal", rng)
        assert action is not None
        run(player.act(action, m.version))
        run(wait_all(conns.values(), m.version + 1))
        sent.append((m.version + 1, hand.turn, action))
        assert len(sent) < 2000, "the hand does not end"


def _check_frames(players, states: dict, seed: str) -> int:
    """Every frame of every socket holds only what its seat may see at that version."""
    n = 0
    for p in players:
        assert p.frames, f"seat {p.seat} got no frame"
        for frame, raw in zip(p.frames, p.raw, strict=True):
            assert frame["me"] == p.seat
            check_view_secrecy(states[frame["version"]], p.seat, frame["hand"])
            assert seed not in raw and '"seed"' not in raw
            n += 1
    return n


def _check_log(match_id: int, sent: list) -> Match:
    """Versions contiguous, every accepted action logged as sent, replay == state."""
    m, ms = _stored(match_id)
    log = {a.version: a for a in MatchAction.objects.filter(match_id=match_id)}
    assert sorted(log) == list(range(1, m.version + 1))
    for version, seat, action in sent:
        row = log[version]
        assert (row.seat, row.kind, row.actor) == (seat, action["type"], "human")
        assert row.payload == json.loads(json.dumps(action))
    assert services.match_replay(m).to_dict() == ms.to_dict()
    assert sorted(all_tiles(ms.hand)) == list(range(NUM_TILES))
    return m


def test_a_full_hand_over_two_daphne_processes(daphnes, players, ws_loop):
    run = ws_loop.run_until_complete
    m = services.match_create(
        game="kut", options={"tasks": 8}, users=players, rated=False, seed=SHORT_HANDS[0]
    )
    cookies = [session_cookie(u) for u in players]
    servers = [daphnes.a, daphnes.a, daphnes.b, daphnes.b]
    conns = run(open_players(m.pk, cookies, servers))
    states: dict = {}
    sent: list = []
    try:
        _play(run, m.pk, conns, random.Random(5), states, sent)
    finally:
        run(close_all(conns.values()))
    m = _check_log(m.pk, sent)
    hand = states[m.version]
    assert m.status == Match.Status.BETWEEN and hand.over
    assert HandResult.objects.filter(match=m, hand_no=1).exists()
    assert all(p.latest["hand"]["over"] and p.version == m.version for p in conns.values())
    # both processes carried moves to the other one's sockets
    assert {seat for _, seat, _ in sent} == {0, 1, 2, 3}
    checked = _check_frames(conns.values(), states, m.seed)
    assert checked >= 4 * len(sent)


def test_a_killed_process_restarts_and_the_hand_goes_on(daphnes, players, ws_loop):
    run = ws_loop.run_until_complete
    m = services.match_create(
        game="kut", options={"tasks": 8}, users=players, rated=False, seed=SHORT_HANDS[1]
    )
    cookies = [session_cookie(u) for u in players]
    servers = [daphnes.a, daphnes.a, daphnes.b, daphnes.b]
    conns = run(open_players(m.pk, cookies, servers))
    old = list(conns.values())
    states: dict = {}
    sent: list = []
    rng = random.Random(5)
    try:
        # a few turns, then crash B while a seat of A is to move
        _play(run, m.pk, conns, rng, states, sent,
              stop=lambda h: h.table_turn >= 6 and h.turn in (0, 1))  # fmt: skip
        daphnes.b.kill()
        run(_closed(conns[2], conns[3]))
        # A's players keep playing while B is down: seats 2 and 3 miss these frames
        a_only = {s: conns[s] for s in (0, 1)}
        before = len(sent)
        _play(run, m.pk, a_only, rng, states, sent, stop=lambda h: h.turn in (2, 3))
        assert len(sent) > before
        port, starts = daphnes.b.port, daphnes.b.starts
        daphnes.b.start()
        assert daphnes.b.port == port and daphnes.b.starts == starts + 1
        # new sockets, same cookies: the snapshot on connect is the exact current view
        back = run(open_players(m.pk, cookies, servers, seats=(2, 3)))
        mm, ms = _stored(m.pk)
        for seat, p in back.items():
            first = p.frames[0]
            assert first["version"] == mm.version
            assert first["hand"] == json.loads(json.dumps(KUT.view_for(ms, seat)))
        conns.update(back)
        _play(run, m.pk, conns, rng, states, sent)
    finally:
        run(close_all(conns.values()))
        run(close_all(old))
    m = _check_log(m.pk, sent)
    assert m.status == Match.Status.BETWEEN and states[m.version].over
    assert all(p.latest["hand"]["over"] for p in conns.values())
    _check_frames([*old, *back.values()], states, m.seed)


async def _closed(*players: Player) -> None:
    """The sockets of a killed process end (the kernel resets the connections)."""
    for p in players:
        await asyncio.wait_for(p.ws.wait_closed(), 10)
