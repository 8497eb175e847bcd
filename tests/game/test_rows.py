"""game.rows: the write path's SQL on PostgreSQL gives exactly what the ORM gives.

The same seeded matches are played through the services twice, once on each path (on
SQLite both runs take the ORM path), and every stored row, log entry and frame is
compared."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.forms.models import model_to_dict
from django.utils import timezone

from game import broadcast, changes, rows, services
from game.engine.errors import RuleError
from game.models import HandResult, Match, MatchAction, MatchSeat
from games.kut.engine import bots
from games.kut.engine.match import MatchState
from games.kut.engine.views import view_for

pytestmark = pytest.mark.django_db(transaction=True)

MATCH_FIXED = ("id", "created_at", "seed")  # differ between two matches by nature
TIMES = ("turn_started", "deadline", "bot_due", "finished_at")  # compared from created_at


def _sql_where_possible(monkeypatch, fast: bool) -> None:
    monkeypatch.setattr(rows, "_fast", fast and connection.vendor == "postgresql")


def _play(players, fast: bool, monkeypatch, moves: int = 400) -> tuple[Match, list]:
    _sql_where_possible(monkeypatch, fast)
    sent: list = []

    def record(topic, parts):
        texts = [None if p is None else changes.part_text(p) for p in parts]
        sent.append({"topic": topic, "seats": texts[:4], "watch": texts[broadcast.WATCHERS]})

    monkeypatch.setattr(broadcast.fanout, "publish", record)
    t0 = timezone.now().replace(microsecond=0)
    m = services.match_create(
        game="kut", options={"tasks": 5}, users=players, seed="rows-same-seed", rated=True, now=t0
    )
    Match.objects.filter(pk=m.pk).update(created_at=t0)  # times compared from here
    services.match_seat_connected(m.pk, 2, True)
    rng = random.Random(11)
    for i in range(moves):
        m.refresh_from_db()
        if m.status == Match.Status.BETWEEN:
            services.match_next_hand(m.pk, m.version, force=True, now=m.deadline)
            continue
        if m.status != Match.Status.PLAYING:
            break
        hand = MatchState.from_dict(m.state).hand
        now = m.turn_started + timedelta(seconds=1)  # within the turn
        if i % 37 == 5:  # a turn that ran out: the timeout is applied first (K-N7)
            services.match_expire_turn(m.pk, m.version, now=m.deadline + timedelta(seconds=1))
            continue
        action = bots.choose(view_for(hand, hand.turn), "normal", rng)
        services.match_apply_action(m.pk, hand.turn, action, m.version, now=now)
    m.refresh_from_db()
    return m, sent


def _frames(sent: list, m: Match) -> list:
    base = int(m.created_at.timestamp() * 1000)
    out = []
    for message in sent:
        # a seat with no socket (marked disconnected) gets no frame built: None on both paths
        frames = [None if t is None else json.loads(t) for t in message["seats"]]
        for f in filter(None, frames):
            f["match"].pop("server_time")
            f["match"].pop("id")
            for k in ("deadline", "turn_started"):
                if f["match"][k] is not None:
                    f["match"][k] -= base
        out.append(frames)
    return out


def _fields(m: Match) -> dict:
    out = {k: v for k, v in model_to_dict(m).items() if k not in MATCH_FIXED}
    for k in TIMES:
        if out[k] is not None:
            out[k] -= m.created_at
    return out


def _log(m: Match) -> list:
    return list(m.actions.order_by("version").values_list(
        "version", "hand_no", "seat", "kind", "payload", "actor"))  # fmt: skip


def test_the_sql_path_stores_and_sends_what_the_orm_path_does(players, monkeypatch):
    orm, orm_sent = _play(players, False, monkeypatch)
    fast, fast_sent = _play(players, True, monkeypatch)
    assert orm.version > 100 and HandResult.objects.filter(match=orm).exists()
    assert _fields(orm) == _fields(fast)
    assert _log(orm) == _log(fast)
    assert list(HandResult.objects.filter(match=orm).values_list("hand_no", "scores", "detail")) \
        == list(HandResult.objects.filter(match=fast).values_list("hand_no", "scores", "detail"))  # fmt: skip
    assert _frames(orm_sent, orm) == _frames(fast_sent, fast)
    seats = lambda m: list(m.seats.order_by("seat").values(  # noqa: E731
        "seat", "user_id", "bot_level", "away", "connected", "left"))  # fmt: skip
    assert seats(orm) == seats(fast)


def test_the_locked_row_and_seats_are_complete_instances(players, monkeypatch):
    m = services.match_create(
        game="kut", options={"tasks": 8}, users=players[:3] + [None], seed="rows-inst", rated=True
    )
    MatchSeat.objects.filter(match=m, seat=1).update(away=True, away_since=m.created_at)
    players[0].display_name = "Ayşe"
    players[0].save()
    for fast in (False, True):
        _sql_where_possible(monkeypatch, fast)

        with transaction.atomic():
            locked = rows.lock_match(m.pk)
            assert model_to_dict(locked) == model_to_dict(Match.objects.get(pk=m.pk))
            assert locked.deadline == m.deadline and locked.state == m.state
            seats = rows.seats_of(locked)
            assert rows.lock_match(10**9) is None
        orm = list(MatchSeat.objects.filter(match=m).order_by("seat"))
        assert [model_to_dict(s) for s in seats] == [model_to_dict(s) for s in orm]
        assert [s.user.display_name if s.user else None for s in seats] == [
            "Ayşe", "", "", None]  # fmt: skip
        assert seats[1].away_since == m.created_at
        with transaction.atomic():  # the lock and the seats in one statement (issue 22)
            locked, both = rows.lock_match_with_seats(m.pk)
            assert model_to_dict(locked) == model_to_dict(Match.objects.get(pk=m.pk))
            assert rows.lock_match_with_seats(10**9)[0] is None
        both = both if both is not None else rows.seats_of(locked)
        assert [model_to_dict(s) for s in both] == [model_to_dict(s) for s in orm]
        assert [(s.user.pk, s.user.username, s.user.display_name) if s.user else None
                for s in both] == [(s.user.pk, s.user.username, s.user.display_name)
                                   if s.user else None for s in seats]  # fmt: skip
        assert both[1].away_since == m.created_at and both[1].away_since.utcoffset() is not None


def test_a_refused_action_stores_nothing_on_either_path(players, monkeypatch):
    for fast in (False, True):
        _sql_where_possible(monkeypatch, fast)
        m = services.match_create(
            game="kut", options={"tasks": 5}, users=players, seed=f"rows-refused-{fast}"
        )
        hand = MatchState.from_dict(m.state).hand
        with pytest.raises(RuleError):
            services.match_apply_action(m.pk, (hand.turn + 1) % 4, {"type": "draw"}, m.version)
        assert Match.objects.get(pk=m.pk).version == m.version
        assert MatchAction.objects.filter(match=m).count() == 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements: PostgreSQL")
def test_the_moves_statements_are_prepared_once_per_connection(players, monkeypatch, settings):
    """PostgreSQL plans the move's statements once per connection (DB_PREPARED_STATEMENTS,
    on by default), not on every move; Django's own queries stay unprepared."""
    _sql_where_possible(monkeypatch, True)
    assert connection.settings_dict["OPTIONS"].get("prepare_threshold") == 10**9
    m = services.match_create(game="kut", options={"tasks": 5}, users=players, seed="rows-prepared")
    for _ in range(6):
        m.refresh_from_db()
        hand = MatchState.from_dict(m.state).hand
        action = bots.choose(view_for(hand, hand.turn), "normal", random.Random(3))
        services.match_apply_action(m.pk, hand.turn, action, m.version)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements")
        prepared = cursor.fetchall()
    plan = rows._plan()
    uses = {sql: n for sql, n in prepared}
    for statement in (plan.lock_seats,):  # a move locks and reads its seats at once
        as_sent = next((s for s in uses if s.startswith(statement.split("%s")[0])), None)
        assert as_sent is not None, f"not prepared: {statement[:60]}"
        assert uses[as_sent] >= 6  # one preparation, reused on every move
    assert all(s.startswith(("SELECT m.", "SELECT s.", "WITH logged", "UPDATE")) for s in uses), (
        uses
    )


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plan")
def test_a_moves_lock_reads_its_players_by_key_whatever_the_planner_prefers(players):
    """Issue 22: the lock reads the four seats' users by primary key.  With a plain join
    and statistics from when the site was small, PostgreSQL hash-joined the seats with a
    sequential scan of every user (half a millisecond per move at 2,000 users, more with
    every sign-up).  Here the planner is told to avoid nested loops, as stale statistics
    would lead it to: the users must still be read by key, one lookup per seat."""
    from django.contrib.auth import get_user_model

    User = get_user_model()
    User.objects.bulk_create(User(username=f"kalabalik{i}") for i in range(2000))
    match = services.match_create(game="kut", users=list(players), seed="plan")
    plan = rows._plan()

    def scans(node):
        yield node
        for child in node.get("Plans", ()):
            yield from scans(child)

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_nestloop = off")
        for statement in (plan.lock_seats, plan.seats):
            cursor.execute("EXPLAIN (FORMAT JSON) " + statement, [match.pk])
            nodes = cursor.fetchone()[0]
            nodes = json.loads(nodes) if isinstance(nodes, str) else nodes
            user_scans = [n for n in scans(nodes[0]["Plan"])
                          if n.get("Relation Name") == User._meta.db_table]  # fmt: skip
            assert user_scans, statement
            for n in user_scans:  # a keyed lookup, not a scan of the whole table
                assert "Index" in n["Node Type"] and User._meta.pk.column in n.get(
                    "Index Cond", ""
                ), n
