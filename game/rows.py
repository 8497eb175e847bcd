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
from datetime import datetime
from typing import NamedTuple

import orjson
import psycopg
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import DateTimeField, JSONField
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
    lock_seats: str
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
    # A seat's user by its primary key, one index lookup per seat.  A plain LEFT JOIN let
    # the planner hash-join the seats with a sequential scan of *every* user (with the
    # statistics of a growing table: half a millisecond of PostgreSQL per move at 2,000
    # users, issue 22, and worse with every sign-up); LATERAL with LIMIT keeps it to four
    # lookups.
    users = (
        f"LEFT JOIN LATERAL (SELECT * FROM {_q(User._meta.db_table)} uu "
        f"WHERE uu.{_q(User._meta.pk.column)} = s.{_q(seat_col('user').column)} LIMIT 1) u "
        f"ON true"  # LIMIT: the subquery is not flattened back into a join
    )
    lock = (
        f"SELECT {_columns(m_fields, 'm')} FROM {_q(Match._meta.db_table)} m "
        f"WHERE m.{_q(Match._meta.pk.column)} = %s FOR UPDATE"
    )
    seats = (
        f"SELECT {_columns(s_fields, 's')}, {_columns(u_fields, 'u')} "
        f"FROM {_q(MatchSeat._meta.db_table)} s {users} "
        f"WHERE s.{_q(seat_col('match').column)} = %s "
        f"ORDER BY s.{_q(seat_col('seat').column)}"
    )
    # the lock and the seats in one round trip (issue 22): the seats as one JSON array
    # of rows (each the seat's columns, then its user's)
    seat_row = ", ".join([*(f"s.{_q(f.column)}" for f in s_fields),
                          *(f"u.{_q(f.column)}" for f in u_fields)])  # fmt: skip
    lock_seats = (
        f"SELECT {_columns(m_fields, 'm')}, (SELECT json_agg(json_build_array({seat_row}) "
        f"ORDER BY s.{_q(seat_col('seat').column)}) "
        f"FROM {_q(MatchSeat._meta.db_table)} s {users} "
        f"WHERE s.{_q(seat_col('match').column)} = m.{_q(Match._meta.pk.column)}) "
        f"FROM {_q(Match._meta.db_table)} m "
        f"WHERE m.{_q(Match._meta.pk.column)} = %s FOR UPDATE OF m"
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
    return _Plan(lock, lock_seats, seats, update, f"WITH logged AS ({insert}) {update}", layout,
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


@functools.cache
def _loader(model, fields: tuple):
    """How to turn one row's values for ``fields`` into an instance of ``model``, built
    once per model: each field's converter (JSON with orjson: the same values, a fraction
    of the time on a match's state; a field's ``from_db_value``), and the instance made
    as ``Model.from_db`` makes it but without ``Model.__init__``'s per-field work (a fifth
    of the move path's SQL time, issue 22) — unless a signal listens to its init."""
    from django.db.models import signals
    from django.db.models.base import ModelState

    attnames = tuple(f.attname for f in fields)
    converters = []
    for f in fields:
        if isinstance(f, JSONField) and f.decoder is None:
            converters.append(orjson.loads)
        elif hasattr(f, "from_db_value"):
            converters.append(functools.partial(_from_db_value, f))
        else:
            converters.append(None)
    pairs = tuple(zip(attnames, converters, strict=True))
    plain = not (signals.pre_init.has_listeners(model) or signals.post_init.has_listeners(model))

    def load(values):
        converted = [v if conv is None or v is None else conv(v)
                     for (_, conv), v in zip(pairs, values, strict=True)]  # fmt: skip
        if not plain:
            return model.from_db(connection.alias, list(attnames), converted)
        obj = model.__new__(model)
        state = obj._state = ModelState()
        state.adding = False
        state.db = connection.alias
        obj.__dict__.update(zip(attnames, converted))
        return obj

    return load


def _from_db_value(field, value):
    return field.from_db_value(value, None, connection)


def _instance(model, fields, values):
    """A model instance from database values, as the ORM would make it."""
    return _loader(model, tuple(fields))(values)


def lock_match(match_id: int) -> Match | None:
    """The match row, locked until the transaction ends (None: no such match)."""
    if not fast():
        return Match.objects.select_for_update().filter(pk=match_id).first()
    with _cursor() as cursor:
        cursor.execute(_plan().lock, [match_id])
        row = cursor.fetchone()
    return None if row is None else _instance(Match, _plan().match_fields, row)


def lock_match_with_seats(match_id: int) -> tuple[Match | None, list[MatchSeat] | None]:
    """``lock_match`` and ``seats_of`` in one statement on PostgreSQL (one round trip
    less per move: the seats come as JSON, converted to what the database would give);
    elsewhere ``(lock_match(match_id), None)`` and the caller reads the seats itself."""
    if not fast():
        return lock_match(match_id), None
    plan = _plan()
    with _cursor() as cursor:
        cursor.execute(plan.lock_seats, [match_id])
        row = cursor.fetchone()
    if row is None:
        return None, None
    n = len(plan.match_fields)
    match = _instance(Match, plan.match_fields, row[:n])
    data = row[n]
    if isinstance(data, (str, bytes)):
        data = orjson.loads(data)
    User = get_user_model()
    k = len(plan.seat_fields)
    seats = []
    for values in data or ():
        seat = _instance(MatchSeat, plan.seat_fields, _from_json(plan.seat_fields, values[:k]))
        user = values[k:]
        seat.user = (None if user[0] is None
                     else _instance(User, plan.user_fields, _from_json(plan.user_fields, user)))  # fmt: skip
        seat.match = match
        seats.append(seat)
    return match, seats


def _from_json(fields, values) -> list:
    """Column values as JSON gave them, as the database driver would: date-times parsed
    (JSON has them as ISO 8601 text); the rest as they are."""
    out = []
    for f, v in zip(fields, values, strict=True):
        if v is not None and isinstance(f, DateTimeField):
            v = datetime.fromisoformat(v)
        out.append(v)
    return out


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
