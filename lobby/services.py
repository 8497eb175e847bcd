"""The one write path for tables (``<entity>_<verb>``): create, join, leave, bots,
start, close, play now, and invite links.

Every function locks the table row (``select_for_update``) in a transaction, so joins
and starts on one table are serialised; the seat rows add database guarantees on top:
exactly four per table (unique ``(table, seat)`` + ``seat < 4``), a seat is filled only
by a conditional ``UPDATE … WHERE empty``, and a partial unique index keeps a user at
one open table.  Refusals raise ``LobbyError(code)`` (``lobby.messages`` turns the code
into a Turkish message) and change nothing.  After commit the lobby list and the
table's page are pushed to connected clients (``lobby.broadcast``).
"""

from __future__ import annotations

import logging
import re
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Q
from django.urls import reverse
from django.utils import timezone

from accounts.bans import moderation_log_record
from accounts.models import ModerationLog
from accounts.services import user_bot_level_remember
from game import limits, portal, seat_gate
from game import services as game_services
from game import web as game_web
from game.engine import registry
from game.engine.protocol import InputError
from game.models import Match
from lobby.messages import message_for
from lobby.models import SEATS, Table, TableInvite, TableSeat

log = logging.getLogger(__name__)

BOT_LEVELS = tuple(game_services.BOT_LEVELS)
LEVEL_OF_BOT = {bot: level for level, bot in portal.BOT_LEVEL_OF.items()}
TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


class LobbyError(Exception):
    """A refused lobby request; ``code`` is stable, ``message`` is for the player."""

    def __init__(self, code: str, **params):
        self.code = code
        self.params = params
        super().__init__(code)

    @property
    def message(self) -> str:
        return message_for(self.code, **self.params)


# --- helpers ---------------------------------------------------------------------------


def _now(now: datetime | None) -> datetime:
    return now or timezone.now()


def _locked(table_id) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise LobbyError("no_such_table") from None


def _seats(table: Table) -> list[TableSeat]:
    return list(table.seats.order_by("seat"))


def _require_open(table: Table) -> None:
    if table.status == Table.Status.STARTED:
        raise LobbyError("table_started")
    if table.status == Table.Status.CLOSED:
        raise LobbyError("table_closed")


def _require_host(table: Table, user) -> None:
    if user is None or table.host_id != user.pk:
        raise LobbyError("not_host")


def _seat_index(seat, count: int = SEATS) -> int:
    try:
        index = int(seat)
    except (TypeError, ValueError):
        raise LobbyError("bad_seat") from None
    if not 0 <= index < count:
        raise LobbyError("bad_seat")
    return index


def _check_may_sit(user, *, rated: bool, game: str, now: datetime) -> None:
    """The seat gate (``game.seat_gate``: bans, the P-11 bar at rated tables), as the
    lobby's refusal."""
    try:
        seat_gate.check(user, game, rated=rated, now=now)
    except seat_gate.SeatRefused as exc:
        raise LobbyError(exc.code, **exc.params) from None


def _seated_elsewhere(user, table: Table | None = None) -> bool:
    qs = TableSeat.objects.filter(user=user, active=True)
    if table is not None:
        qs = qs.exclude(table=table)
    return qs.exists()


def _changed(table: Table, *, lobby: bool = True) -> None:
    """Push the table's page (and the public list) to connected clients after commit."""
    from lobby import broadcast

    table_id, public, game = table.pk, not table.private, table.game
    transaction.on_commit(lambda: broadcast.table_changed(table_id))
    if lobby and public:
        transaction.on_commit(lambda: broadcast.lobby_changed(game))


def _deactivate(table: Table) -> None:
    TableSeat.objects.filter(table=table).update(active=False)


# --- tables ------------------------------------------------------------------------------


def table_create(*, host, game: str, options: dict | None = None,
                 level: str | None = None, bot_level: str | None = None,
                 move_seconds: int | None = None, partners: bool = False,
                 seat_count: int | None = None, rated: bool = True, private: bool = False,
                 bots_allowed: bool = True, watchers_allowed: bool = False,
                 now: datetime | None = None) -> Table:  # fmt: skip
    """Open a table of ``game`` with ``host`` in seat 0 and an invite link.  ``options``
    are the game's own (checked by its ``clean_options``); ``level`` is P-7's
    (``bot_level`` the older way to say it); ``move_seconds`` P-6's (rated tables)."""
    now = _now(now)
    if not game_web.playable(game):  # unknown, or still being built (shown as yakında)
        raise LobbyError("bad_game")
    spec = registry.get(game)
    options = dict(options or {})
    if spec.partners:
        options["partners"] = bool(partners)  # P-8: the game scores teams itself
    try:
        options = spec.clean_options(options)
    except InputError:
        raise LobbyError("bad_options") from None
    if level is None:
        if bot_level is not None and bot_level not in BOT_LEVELS:
            raise LobbyError("bad_bot_level")
        level = LEVEL_OF_BOT.get(bot_level or "normal")
    if level not in portal.LEVELS:
        raise LobbyError("bad_level")
    seat_count = seat_count or max(spec.seat_counts)
    if seat_count not in spec.seat_counts:
        raise LobbyError("bad_seat_count")
    if partners and not (spec.partners and seat_count == 4):
        raise LobbyError("no_partners")
    if not rated and not spec.practice_tables:
        raise LobbyError("bad_options")  # P-3 narrowed: no test tables (Kelimeki, W-X5)
    try:
        move_seconds = portal.move_seconds(spec, move_seconds) if rated else None
    except portal.PortalError:
        raise LobbyError("bad_move_seconds") from None
    _check_may_sit(host, rated=rated, game=game, now=now)
    with transaction.atomic():
        if _seated_elsewhere(host):
            raise LobbyError("seated_elsewhere")
        table = Table.objects.create(
            game=game, host=host, options=options, level=level, move_seconds=move_seconds,
            partners=partners, seat_count=seat_count, rated=rated, private=private,
            bots_allowed=bots_allowed, watchers_allowed=watchers_allowed,
        )  # fmt: skip
        try:
            with transaction.atomic():
                TableSeat.objects.bulk_create(
                    [
                        TableSeat(
                            table=table,
                            seat=i,
                            user=host if i == 0 else None,
                            joined_at=now if i == 0 else None,
                        )
                        for i in range(seat_count)
                    ]  # fmt: skip
                )
        except IntegrityError:  # a concurrent join elsewhere won the race
            raise LobbyError("seated_elsewhere") from None
        _invite_new(table, host)
        _changed(table)
    user_bot_level_remember(host, portal.bot_level(level))  # Hemen Oyna's level (issue 29)
    return table


def table_join(table_id, user, seat=None, *, via_invite: bool = False,
               now: datetime | None = None) -> TableSeat:  # fmt: skip
    """Sit ``user`` at the table (in ``seat``, or the first empty one).  Private tables
    only through an invite link.  Joining a table one already sits at changes nothing."""
    now = _now(now)
    with transaction.atomic():
        table = _locked(table_id)
        _require_open(table)
        seats = _seats(table)
        for s in seats:
            if s.user_id == user.pk:
                return s
        if table.private and not via_invite:
            raise LobbyError("private_table")
        _check_may_sit(user, rated=table.rated, game=table.game, now=now)
        free = [s for s in seats if s.empty]
        if not free:
            raise LobbyError("table_full")
        if seat is None or seat == "":
            target = free[0]
        else:
            target = seats[_seat_index(seat, len(seats))]
            if not target.empty:
                raise LobbyError("seat_taken")
        if _seated_elsewhere(user, table):
            raise LobbyError("seated_elsewhere")
        try:
            with transaction.atomic():
                filled = TableSeat.objects.filter(
                    pk=target.pk, user__isnull=True, bot_level=""
                ).update(user=user, joined_at=now)
        except IntegrityError:  # the user sat down elsewhere at the same moment
            raise LobbyError("seated_elsewhere") from None
        if filled != 1:
            raise LobbyError("seat_taken")
        _changed(table)
    target.refresh_from_db()
    return target


def table_leave(table_id, user, *, now: datetime | None = None) -> Table:
    """Stand up.  When the host leaves before the start, the table closes."""
    now = _now(now)
    with transaction.atomic():
        table = _locked(table_id)
        _require_open(table)
        seat = table.seats.filter(user=user).first()
        if seat is None:
            raise LobbyError("not_seated")
        if table.host_id == user.pk:
            _close(table, now)
        else:
            seat.user = None
            seat.joined_at = None
            seat.save(update_fields=["user", "joined_at"])
        _changed(table)
    return table


def table_leave_all(user, *, now: datetime | None = None) -> int:
    """Free every open seat of ``user`` (a ban): returns how many tables they left."""
    left = 0
    for table_id in TableSeat.objects.filter(user=user, active=True).values_list(
        "table_id", flat=True
    ):
        try:
            table_leave(table_id, user, now=now)
            left += 1
        except LobbyError:
            pass
    return left


def table_add_bot(table_id, user, seat=None, level: str | None = None) -> TableSeat:
    """Host: put a bot (of ``level``, default the table's) in an empty seat."""
    with transaction.atomic():
        table = _locked(table_id)
        _require_host(table, user)
        _require_open(table)
        if not table.bots_allowed:
            raise LobbyError("bots_not_allowed")
        level = level or table.bot_level
        if level not in BOT_LEVELS:
            raise LobbyError("bad_bot_level")
        seats = _seats(table)
        if seat is None or seat == "":
            free = [s for s in seats if s.empty]
            if not free:
                raise LobbyError("table_full")
            target = free[0]
        else:
            target = seats[_seat_index(seat, len(seats))]
            if not target.empty:
                raise LobbyError("seat_not_empty")
        target.bot_level = level
        target.save(update_fields=["bot_level"])
        _changed(table)
    return target


def table_remove_bot(table_id, user, seat) -> TableSeat:
    """Host: take a bot off its seat."""
    with transaction.atomic():
        table = _locked(table_id)
        _require_host(table, user)
        _require_open(table)
        seats = _seats(table)
        target = seats[_seat_index(seat, len(seats))]
        if not target.bot_level:
            raise LobbyError("not_a_bot")
        target.bot_level = ""
        target.save(update_fields=["bot_level"])
        _changed(table)
    return target


def table_start(table_id, user, *, fill_with_bots: bool = False, host_starts: bool = False,
                now: datetime | None = None) -> Match:  # fmt: skip
    """Host: start the match once all four seats are filled (with ``fill_with_bots``,
    bots of the table's level take the empty seats first).  Players banned since they
    sat down lose their seat and the start is refused until the table is full again.
    ``host_starts``: the host sits where the deal's first move is (a quick match)."""
    now = _now(now)
    error: LobbyError | None = None
    with transaction.atomic():
        table = _locked(table_id)
        _require_host(table, user)
        _require_open(table)
        seats = _seats(table)
        for s in seats:  # the gate again: banned, or barred from rated tables, since
            if s.user_id and not seat_gate.allowed(s.user, table.game, rated=table.rated,
                                                   now=now):  # fmt: skip
                s.user = None
                s.save(update_fields=["user"])
                error = LobbyError("not_full")
        if fill_with_bots and error is None:
            if not table.bots_allowed:
                raise LobbyError("bots_not_allowed")
            for s in seats:
                if s.empty:
                    s.bot_level = table.bot_level
                    s.save(update_fields=["bot_level"])
        if error is None and any(s.empty for s in seats):
            raise LobbyError("not_full")
        if error is None:
            spec = registry.get(table.game)
            options = table.options
            options = spec.options_for_seats(options, [s.user_id is not None for s in seats])
            try:
                match = game_services.match_create(
                    game=table.game,
                    options=options,
                    level=table.level,
                    move_seconds=table.move_seconds,
                    partners=table.partners,
                    users=[s.user for s in seats],
                    bot_levels=[s.bot_level for s in seats],
                    rated=table.rated,
                    watchers_allowed=table.watchers_allowed,
                    host=table.host,
                    now=now,
                    # P-5: starting a new match counts as leaving (not where the game
                    # has no leaving rules: several Kelimeki games at once, W-X4)
                    leave_others=spec.leaving_rules,
                    host_starts=host_starts,
                )
            except game_services.ServiceError as exc:
                log.warning("table %s could not start: %s", table.pk, exc)
                raise LobbyError("start_failed") from None
            table.status = Table.Status.STARTED
            table.match = match
            table.started_at = now
            table.save(update_fields=["status", "match", "started_at"])
            _deactivate(table)
            _started(table, match, [s.user_id for s in seats if s.user_id])
        _changed(table)
    if error is not None:
        raise error
    return match


def _started(table: Table, match: Match, user_ids: list[int]) -> None:
    from lobby import broadcast

    url = reverse("game:match", args=[match.pk])
    table_id = table.pk
    transaction.on_commit(lambda: broadcast.table_started(table_id, url, user_ids))


def _close(table: Table, now: datetime) -> None:
    table.status = Table.Status.CLOSED
    table.closed_at = now
    table.save(update_fields=["status", "closed_at"])
    _deactivate(table)
    table.invites.filter(revoked_at__isnull=True).update(revoked_at=now)


def table_close(table_id, user, *, by_admin: bool = False, reason: str = "",
                now: datetime | None = None) -> Table:  # fmt: skip
    """Close an open table: the host, or staff (``by_admin``: logged for moderation)."""
    now = _now(now)
    with transaction.atomic():
        table = _locked(table_id)
        if not by_admin:
            _require_host(table, user)
        _require_open(table)
        _close(table, now)
        if by_admin:
            moderation_log_record(
                actor=user,
                action=ModerationLog.Action.TABLE_CLOSE,
                target=table,
                target_user=table.host,
                reason=reason,
            )
        _changed(table)
    return table


def play_now(user, *, game: str, now: datetime | None = None) -> Table:
    """*Hemen Oyna* (issue 29): seat the player at once — at the table they sit at
    already; else at the fullest open public table of ``game`` where players wait and
    they may join; else at a short match against bots that starts at once
    (``quick_match``)."""
    now = _now(now)
    current = TableSeat.objects.filter(user=user, active=True).select_related("table").first()
    if current is not None:
        return current.table
    if not game_web.playable(game):
        raise LobbyError("bad_game")
    _check_may_sit(user, rated=False, game=game, now=now)  # a ban
    barred = not seat_gate.allowed(user, game, rated=True, now=now)
    candidates = (
        Table.objects.filter(status=Table.Status.OPEN, private=False, game=game)
        .annotate(
            taken=Count("seats", filter=Q(seats__user__isnull=False) | ~Q(seats__bot_level="")),
            humans=Count("seats", filter=Q(seats__user__isnull=False)),
        )
        .filter(taken__lt=F("seat_count"), humans__gt=0)
        .order_by("-taken", "created_at", "pk")
    )
    if barred:
        candidates = candidates.filter(rated=False)
    for table in candidates[:20]:
        try:
            table_join(table.pk, user, now=now)
        except LobbyError:
            continue  # filled up or closed meanwhile: try the next one
        return table
    return quick_match(user, game=game, now=now)


def quick_match(user, *, game: str, now: datetime | None = None) -> Table:
    """A short match of ``game`` against bots, started at once (issue 29): the game's
    ``quick_options`` (KÜT's 5 tasks, King's 4 hands…), the fewest seats it is played
    by, the bots at the level the player chose last (``User.bot_level``; normal at
    first).  A test match (P-3: unrated, no move clock) where the game has them; a game
    without test tables plays its recorded game against the bots (Kelimeki's W-L1), so
    a player barred from rated tables (P-11) is told why.  A private table of the
    player's own, so it is in their history and offers a rematch like any other.  The
    limits of games against bots apply (``game.limits``, issue 27 item 9).  The player
    sits where the deal's first move is, so their first move comes at once."""
    now = _now(now)
    spec = registry.get(game)
    refusal = limits.bot_game_refusal(user, game)
    if refusal is not None:
        raise LobbyError("bot_games", text=limits.message(refusal))
    level = user.bot_level if user.bot_level in BOT_LEVELS else "normal"
    table = table_create(
        host=user, game=game, options=dict(spec.quick_options), bot_level=level,
        seat_count=min(spec.seat_counts), rated=not spec.practice_tables, private=True,
        now=now,
    )  # fmt: skip
    # the new player moves first: they sit where the deal's first move is
    table_start(table.pk, user, fill_with_bots=True, host_starts=True, now=now)
    table.refresh_from_db()
    return table


# --- invite links ------------------------------------------------------------------------


def _invite_new(table: Table, user) -> TableInvite:
    return TableInvite.objects.create(table=table, token=secrets.token_urlsafe(24), created_by=user)


def _invite_max_age() -> timedelta:
    return timedelta(seconds=settings.KUT_INVITE_MAX_AGE_SECONDS)


def invite_expires_at(invite: TableInvite) -> datetime:
    return invite.created_at + _invite_max_age()


def invite_current(table: Table, now: datetime | None = None) -> TableInvite | None:
    """The table's live invite link (newest, not withdrawn, not expired), if any."""
    now = _now(now)
    return (
        table.invites.filter(revoked_at__isnull=True, created_at__gt=now - _invite_max_age())
        .order_by("-created_at", "-pk")
        .first()
    )


def invite_renew(table_id, user, *, now: datetime | None = None) -> TableInvite:
    """Host: withdraw the current link and make a new one."""
    now = _now(now)
    with transaction.atomic():
        table = _locked(table_id)
        _require_host(table, user)
        _require_open(table)
        table.invites.filter(revoked_at__isnull=True).update(revoked_at=now)
        invite = _invite_new(table, user)
        _changed(table, lobby=False)
    return invite


def invite_revoke(table_id, user, *, now: datetime | None = None) -> int:
    """Host: withdraw every link of the table; returns how many were live."""
    now = _now(now)
    with transaction.atomic():
        table = _locked(table_id)
        _require_host(table, user)
        revoked = table.invites.filter(revoked_at__isnull=True).update(revoked_at=now)
        _changed(table, lobby=False)
    return revoked


def invite_check(token: str, now: datetime | None = None) -> TableInvite:
    """The invite behind ``token``, or ``LobbyError``: invalid, table started or closed,
    revoked, expired."""
    now = _now(now)
    if not isinstance(token, str) or not TOKEN_RE.match(token):
        raise LobbyError("invite_invalid")
    invite = TableInvite.objects.select_related("table", "table__host").filter(token=token).first()
    if invite is None:
        raise LobbyError("invite_invalid")
    _require_open(invite.table)  # "the match has started" says more than "withdrawn"
    if invite.revoked_at is not None:
        raise LobbyError("invite_revoked")
    if invite_expires_at(invite) <= now:
        raise LobbyError("invite_expired")
    return invite


def invite_accept(token: str, user, *, now: datetime | None = None) -> TableSeat:
    """Sit ``user`` at the invite's table (private tables included)."""
    now = _now(now)
    invite = invite_check(token, now)
    return table_join(invite.table_id, user, via_invite=True, now=now)
