"""The broadcast's frames: no database work after the commit of a move (issue 10's hot
path).  That each seat's frame equals its own snapshot, for every game, is the contract
suite's (tests/contract)."""

from __future__ import annotations

import json
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from game import broadcast, changes, services
from game.frames import frame_parts
from game.models import Match
from games.kut.engine import bots
from games.kut.engine.match import MatchState
from games.kut.engine.views import view_for

pytestmark = pytest.mark.django_db(transaction=True)


def _play(m: Match, moves: int, rng: random.Random) -> Match:
    for _ in range(moves):
        m.refresh_from_db()
        hand = MatchState.from_dict(m.state).hand
        action = bots.choose(view_for(hand, hand.turn), "normal", rng)
        services.match_apply_action(m.pk, hand.turn, action, m.version)
    m.refresh_from_db()
    return m


def frame_texts(match, seats, watchers: bool = False):
    """The texts a change sends: each seat's, then the watchers' (None unless
    ``watchers``), joined from the broadcast's parts as each socket sends them."""
    texts = [
        None if p is None else changes.part_text(p)
        for p in frame_parts(match, seats, watchers=watchers)
    ]
    return texts[:-1], texts[-1]


def _without_clock(text: str) -> dict:
    frame = json.loads(text)
    frame["match"].pop("server_time")
    return frame


def test_a_move_reads_nothing_again_after_its_commit(players, monkeypatch):
    """BEGIN, the locked match row, its seats with users (one statement on PostgreSQL,
    issue 22), the log row and the match row (one statement on PostgreSQL), COMMIT: the
    broadcast reuses the seats and the state the move read under the lock."""
    m = _play(
        services.match_create(game="kut", options={"tasks": 5}, users=players, seed="queries"),
        3,
        random.Random(4),
    )
    sent = []
    monkeypatch.setattr(broadcast.fanout, "publish", _record(sent))
    hand = MatchState.from_dict(m.state).hand
    action = bots.choose(view_for(hand, hand.turn), "normal", random.Random(5))
    with CaptureQueriesContext(connection) as queries:
        services.match_apply_action(m.pk, hand.turn, action, m.version)
    statements = [q["sql"].split()[0].upper() for q in queries.captured_queries]
    if connection.vendor == "postgresql":  # game.rows: the log row and the match, at once
        assert statements.count("SELECT") == 1, statements
        assert statements.count("WITH") == 1 and len(statements) == 4, statements
    else:
        assert statements.count("SELECT") == 2, statements
        assert statements.count("INSERT") == 1 and statements.count("UPDATE") == 1, statements
    assert len(sent) == 1
    m.refresh_from_db()
    assert [json.loads(t)["version"] for t in sent[0]["seats"]] == [m.version] * 4
    for seat in range(4):
        assert json.loads(sent[0]["seats"][seat])["me"] == seat


def _record(sent: list):
    def publish(topic, parts):
        texts = [None if p is None else changes.part_text(p) for p in parts]
        sent.append({"topic": topic, "seats": texts[:4], "watch": texts[broadcast.WATCHERS]})

    return publish
