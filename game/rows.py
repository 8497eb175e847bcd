"""Row access of the locked write path (``game.services``): the match row under its lock,
its seats with their users, and the new version stored with its log row.

On PostgreSQL these are three plain SQL statements, prepared once from the models'
metadata: a move costs BEGIN, two SELECTs, one INSERT-and-UPDATE and COMMIT.  The ORM
spends more CPU building those statements and their model instances than the rules
engine spends on the move (about 3 ms against 1 ms per move here, ``tools/load``,
issue 10), and a daphne process serves every socket of its tables on one core.  The
instances returned are ordinary model instances, complete (every concrete field); a
seat's user carries the fields the frames show (others load on access).

Elsewhere (SQLite in the embedded set-up) the same functions use the ORM.
``tests/game/test_rows.py`` plays the same seeded matches through both and compares
the stored rows, the log and the frames.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import orjson
import psycopg
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import JSONField
from psycopg.types.json import Jsonb

from game.models import Match, MatchAction, MatchSeat

# Every field a change of the match may touch (the services set nothing else on a match
# inside the write path; the rest is fixed at creation).
MUTABLE_FIELDS = (
    "status", "state", "version", "turn_started", "deadline", "bot_due", "rematch_offer",
    "finished_at",
)  # fmt: skip
USER_FIELDS = ("id", "username", "display_name")

_fast: bool | None = None  # tests switch it off to compare the ORM path


def fast() -> bool:
    return connection.vendor == "postgresql" if _fast is None else _fast


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _columns(fields, alias: str) -> str:
    return ", ".join(f"{alias}.{_q(f.column)}" for f in fields)


class _Plan(NamedTuple):
    """The statements and the fields they read and write, built once from the models."""

    lock: str
    seats: str
    save: str
    save_logged: str
    save_layout: str
    match_fields: tuple
    seat_fields: tuple
    user_fields: tuple
    mutable_fields: tuple
    action_fields: tuple


@functools.cache
def _plan() -> _Plan:
    User = get_user_model()
    m_fields = tuple(Match._meta.concrete_fields)
    s_fields = tuple(MatchSeat._meta.concrete_fields)
    u_fields = tuple(User._meta.get_field(n) for n in USER_FIELDS)
    a_fields = tuple(f for f in MatchAction._meta.concrete_fields if not f.primary_key)
    mutable = tuple(Match._meta.get_field(n) for n in MUTABLE_FIELDS)
    seat_col = MatchSeat._meta.get_field
    lock = (
        f"SELECT {_columns(m_fields, 'm')} FROM {_q(Match._meta.db_table)} m "
        f"WHERE m.{_q(Match._meta.pk.column)} = %s FOR UPDATE"
    )
    seats = (
        f"SELECT {_columns(s_fields, 's')}, {_columns(u_fields, 'u')} "
        f"FROM {_q(MatchSeat._meta.db_table)} s LEFT JOIN {_q(User._meta.db_table)} u "
        f"ON u.{_q(User._meta.pk.column)} = s.{_q(seat_col('user').column)} "
        f"WHERE s.{_q(seat_col('match').column)} = %s "
        f"ORDER BY s.{_q(seat_col('seat').column)}"
    )
    sets = ", ".join(f"{_q(f.column)} = %s" for f in mutable)
    update = f"UPDATE {_q(Match._meta.db_table)} SET {sets} WHERE {_q(Match._meta.pk.column)} = %s"
    insert = (
        f"INSERT INTO {_q(MatchAction._meta.db_table)} "
        f"({', '.join(_q(f.column) for f in a_fields)}) "
        f"VALUES ({', '.join(['%s'] * len(a_fields))})"
    )
    # a seat's private layout change: its log row, the seat's layout version, the state
    layout = (
        f"WITH logged AS ({insert}), seat AS (UPDATE {_q(MatchSeat._meta.db_table)} "
        f"SET {_q(seat_col('layout_version').column)} = %s "
        f"WHERE {_q(seat_col('match').column)} = %s AND {_q(seat_col('seat').column)} = %s) "
        f"UPDATE {_q(Match._meta.db_table)} SET {_q(Match._meta.get_field('state').column)} = %s "
        f"WHERE {_q(Match._meta.pk.column)} = %s"
    )
    return _Plan(lock, seats, update, f"WITH logged AS ({insert}) {update}", layout,
                 m_fields, s_fields, u_fields, mutable, a_fields)  # fmt: skip


class _PreparedCursor(psycopg.Cursor):
    """Server-side binding, and every statement prepared on its connection the first
    time: PostgreSQL then skips parsing and planning on each move (its CPU per move
    about 1.5 -> 1.1 ms, issue 10).  The rest of the site keeps Django's
    client-side binding."""

    def execute(self, query, params=None, *, prepare=None, binary=None):
        return super().execute(query, params, prepare=True, binary=binary)


def _cursor():
    """A Django cursor (its error translation) over a prepared one.  While queries are
    logged (DEBUG, ``CaptureQueriesContext``) Django's own cursor, whose log shows the
    statements with their values."""
    if connection.queries_logged:
        return connection.cursor()
    connection.ensure_connection()
    return connection.make_cursor(_PreparedCursor(connection.connection))


def _instance(model, fields, values):
    """A model instance from database values, as the ORM would make it (JSON with
    orjson: the same values, a fraction of the time on a match's state)."""
    converted = []
    for f, v in zip(fields, values, strict=True):
        if v is not None and isinstance(f, JSONField) and f.decoder is None:
            v = orjson.loads(v)
        elif v is not None and hasattr(f, "from_db_value"):
            v = f.from_db_value(v, None, connection)
        converted.append(v)
    return model.from_db(connection.alias, [f.attname for f in fields], converted)


def lock_match(match_id: int) -> Match | None:
    """The match row, locked until the transaction ends (None: no such match)."""
    if not fast():
        return Match.objects.select_for_update().filter(pk=match_id).first()
    with _cursor() as cursor:
        cursor.execute(_plan().lock, [match_id])
        row = cursor.fetchone()
    return None if row is None else _instance(Match, _plan().match_fields, row)


def seats_of(match: Match) -> list[MatchSeat]:
    """The four seats in order, each with its user (None for a bot seat)."""
    if not fast():
        return list(match.seats.select_related("user").order_by("seat"))
    plan = _plan()
    with _cursor() as cursor:
        cursor.execute(plan.seats, [match.pk])
        rows = cursor.fetchall()
    seats = []
    n = len(plan.seat_fields)
    User = get_user_model()
    for row in rows:
        seat = _instance(MatchSeat, plan.seat_fields, row[:n])
        seat.user = None if row[n] is None else _instance(User, plan.user_fields, row[n:])
        seat.match = match
        seats.append(seat)
    return seats


def save_match(match: Match, log: MatchAction | None) -> None:
    """Store the match's changing fields (``MUTABLE_FIELDS``) and, with ``log``, its new
    log row, in one statement."""
    if not fast():
        if log is not None:
            log.save(force_insert=True)
        match.save(update_fields=MUTABLE_FIELDS)
        return
    plan = _plan()
    params = [
        Jsonb(match.state, dumps=orjson.dumps)  # the engine's own dict: plain JSON types
        if f.name == "state"
        else f.get_db_prep_save(getattr(match, f.attname), connection)
        for f in plan.mutable_fields
    ]
    params.append(match.pk)
    statement = plan.save
    if log is not None:
        statement = plan.save_logged
        logged = [
            f.get_db_prep_save(f.pre_save(log, add=True), connection)  # auto_now_add too
            for f in plan.action_fields
        ]
        params = logged + params
    with _cursor() as cursor:
        cursor.execute(statement, params)
        if cursor.rowcount != 1:
            raise Match.DoesNotExist(f"match {match.pk} was not updated")


def save_layout(match: Match, seat: MatchSeat, log: MatchAction) -> None:
    """Store a seat's private layout change: the match's state only (no shared field:
    not the version, not a deadline), the seat's ``layout_version`` and the log row, in
    one statement."""
    if not fast():
        log.save(force_insert=True)
        seat.save(update_fields=["layout_version"])
        match.save(update_fields=["state"])
        return
    plan = _plan()
    logged = [f.get_db_prep_save(f.pre_save(log, add=True), connection) for f in plan.action_fields]
    params = [*logged, seat.layout_version, match.pk, seat.seat,
              Jsonb(match.state, dumps=orjson.dumps), match.pk]  # fmt: skip
    with _cursor() as cursor:
        cursor.execute(plan.save_layout, params)
        if cursor.rowcount != 1:
            raise Match.DoesNotExist(f"match {match.pk} was not updated")
