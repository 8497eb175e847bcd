"""Who sits where: sockets coming and going (P-13), leaving (K-X3, P-5; a game's
forfeit, W-X5) and replacing a player who left (P-12)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction

from game import events, seat_gate
from game.engine.errors import EngineError
from game.errors import ServiceError
from game.models import Match, MatchAction, MatchSeat
from game.services.core import (
    _finish_hand_if_over,
    _locked,
    _now,
    _save,
    _schedule,
    _seats,
    _spec,
    _ts,
    _turn_key,
    hand_no_of,
)


def leave_rated_matches(user, game: str, now: datetime | None = None) -> list[int]:
    """P-5: starting a new match of the same game counts as leaving every rated match
    of that game the player is still seated in and that is still running (K-X3: a bot
    takes the seat; the ranking counts the leave when that match ends).  Returns their
    ids.  Nothing at a game without leaving rules (several at once, Kelimeki's W-X4)."""
    left = []
    for match_id in seat_gate.running_rated(user, game):
        try:
            match_leave(match_id, user, now)
        except ServiceError:  # closed or left meanwhile
            continue
        left.append(match_id)
    return left


def match_seat_connected(match_id: int, seat: int, connected: bool,
                         now: datetime | None = None, socket: str | None = None) -> None:  # fmt: skip
    """A seat's socket came or went: one UPDATE, then everyone gets the new labels.  (A
    move committed just before may still show the old flag until the next frame: its
    broadcast labels the seats it read under its lock.  Not worth taking the match's
    row lock on every connect and disconnect.)  P-13: the moment of the drop is kept;
    a player who comes back gets the seat back from the bot that stood in for the drop.

    ``socket`` (the consumer's channel name): the newest socket owns the seat's
    presence, and the close of any other one changes nothing — the server may learn of
    an old socket's close after the player's new socket connected (a reconnect after a
    network drop, a tab that closed before it was told it was replaced), and that late
    close must not hand a connected player's turns to a bot (P-13)."""
    seats = MatchSeat.objects.filter(match_id=match_id, seat=seat)
    if connected:
        fields = {"connected": True, "disconnected_at": None}
        if socket is not None:
            fields["socket"] = socket
        updated = seats.update(**fields)
        seats.filter(dropped=True).update(dropped=False, away=False, away_since=None)
    else:
        if socket is not None:
            seats = seats.filter(socket=socket)
        updated = seats.update(connected=False, disconnected_at=_now(now))
    if updated:
        events.after_commit(events.presence_changed, match_id=match_id)


def match_seat_dropped(match_id: int, seat_no: int, now: datetime | None = None) -> bool:
    """P-13: the seat's player has had no socket for ``KUT_DROP_GRACE_SECONDS``: a bot
    plays their turns from now on; the seat stays theirs (for ``KUT_AWAY_LEAVE_SECONDS``
    in all, ``match_drop_leave``).  Checked again under the row lock; idempotent."""
    now = _now(now)
    grace = timedelta(seconds=settings.KUT_DROP_GRACE_SECONDS)
    with transaction.atomic():
        match = _locked(match_id)
        if not match.running:
            return False
        seats = _seats(match)
        s = seats[seat_no]
        if (s.connected or s.left or s.away or s.bot_level or s.user_id is None
                or s.disconnected_at is None or now - s.disconnected_at < grace):  # fmt: skip
            return False
        s.away, s.dropped, s.away_since = True, True, s.disconnected_at
        s.save(update_fields=["away", "dropped", "away_since"])
        if match.status == Match.Status.PLAYING:
            spec = _spec(match)
            st = spec.from_dict(match.state)
            _schedule(match, spec, st, seats, now, False)
            match.save(update_fields=["bot_due"])
        mid = match.pk
        events.after_commit(events.match_changed, match_id=mid)
    return True


def match_drop_leave(match_id: int, seat_no: int, now: datetime | None = None) -> bool:
    """P-13, P-5: a dropped player who has not come back for ``KUT_AWAY_LEAVE_SECONDS``
    has left the match (the seat is then free for a replacement, P-12)."""
    now = _now(now)
    limit = timedelta(seconds=settings.KUT_AWAY_LEAVE_SECONDS)
    s = MatchSeat.objects.filter(match_id=match_id, seat=seat_no).select_related("user").first()
    if (s is None or s.connected or s.left or s.user_id is None or s.disconnected_at is None
            or now - s.disconnected_at < limit):  # fmt: skip
        return False
    try:
        match_leave(match_id, s.user, now, reason="dropped")
    except ServiceError:
        return False
    return True


def match_seat_request(match_id: int, user, seat_no, now: datetime | None = None) -> MatchSeat:
    """P-12: ``user`` asks to take a seat that was left (a bot plays it meanwhile); the
    host answers with *Devam* (``match_seat_answer``) or declines.  The seat gate
    (``game.seat_gate``: bans, P-11) refuses at once with its message."""
    now = _now(now)
    try:
        seat_no = int(seat_no)
    except (TypeError, ValueError):
        raise ServiceError("bad_seat") from None
    with transaction.atomic():
        match = _locked(match_id)
        if not match.running or match.kind != Match.Kind.NORMAL:
            raise ServiceError("match_not_running")
        seats = _seats(match)
        if not 0 <= seat_no < len(seats):
            raise ServiceError("bad_seat")
        if any(s.user_id == user.pk or s.left_user_id == user.pk for s in seats):
            raise ServiceError("already_in_match")  # a leaver does not come back (P-5)
        s = seats[seat_no]
        if not s.left or s.user_id is None or not _spec(match).leaving_rules:
            raise ServiceError("seat_not_vacant")  # W-X5: no P-12 where leaving forfeits
        if s.request_user_id is not None and s.request_user_id != user.pk:
            raise ServiceError("seat_requested")
        seat_gate.check(user, match.game, rated=match.rated, now=now)  # issue 27
        s.request_user, s.request_at = user, now
        s.save(update_fields=["request_user", "request_at"])
        events.after_commit(events.presence_changed, match_id=match_id)
        return s


def match_seat_answer(match_id: int, host, seat_no, accept: bool,
                      now: datetime | None = None) -> MatchSeat:  # fmt: skip
    """P-12: the host answers a request: *Devam* seats the replacement (who loses no
    ranking points if the match is lost and gains them if it is won), or declines.
    *Devam* passes the seat gate again (``newcomer_refused``: banned or barred since
    the request; the request stays for the host to decline) and, as a new match would
    (P-5), makes the replacement leave the rated matches of the game they still play."""
    now = _now(now)
    try:
        seat_no = int(seat_no)
    except (TypeError, ValueError):
        raise ServiceError("bad_seat") from None
    with transaction.atomic():
        match = _locked(match_id)
        if match.host_id is None or host is None or match.host_id != host.pk:
            raise ServiceError("not_host")
        if not match.running:
            raise ServiceError("match_not_running")
        seats = _seats(match)
        if not 0 <= seat_no < len(seats) or seats[seat_no].request_user_id is None:
            raise ServiceError("no_request")
        s = seats[seat_no]
        newcomer = s.request_user
        if accept and not seat_gate.allowed(newcomer, match.game, rated=match.rated, now=now):
            raise ServiceError("newcomer_refused")  # issue 27: banned or barred since
        s.request_user, s.request_at = None, None
        if not accept:
            s.save(update_fields=["request_user", "request_at"])
            events.after_commit(events.presence_changed, match_id=match_id)
            return s
        leave_rated_matches(newcomer, match.game, now)  # P-5: as a new match would
        s.left_user, s.left_user_at = s.user, s.left_at
        s.user, s.replacement = newcomer, True
        s.left, s.left_at, s.away, s.away_since, s.dropped = False, None, False, None, False
        s.connected, s.disconnected_at = False, None
        s.save()
        spec = _spec(match)
        st = spec.from_dict(match.state)
        _save(
            match, spec, st, seats, now, _turn_key(spec, st),
            (s.seat, "replace", {"type": "replace", "user": newcomer.pk}, MatchAction.Actor.SYSTEM),
        )  # fmt: skip
        return s


def match_leave(match_id: int, user, now: datetime | None = None,
                reason: str = "exit") -> MatchSeat:  # fmt: skip
    """K-X3: the player leaves; a bot takes the seat for the rest of the match.  When no
    human is left, the match is closed as abandoned."""
    now = _now(now)
    with transaction.atomic():
        match = _locked(match_id)
        seat = match.seats.filter(user=user, left=False).first()
        if seat is None:
            raise ServiceError("not_seated")
        seat.left = True
        seat.left_at = now
        spec = _spec(match)
        st = spec.from_dict(match.state)
        seat.left_in_hand = hand_no_of(spec, st)
        seat.save(update_fields=["left", "left_at", "left_in_hand"])
        left_seat = seat.seat
        events.after_commit(events.seat_closed, match_id=match_id, seat=left_seat)
        if match.running:
            events.after_commit(events.player_left, match_id=match_id, user_id=user.pk)
        seats = _seats(match)
        humans = [s for s in seats if s.human and not s.left]
        if not match.running:
            match.save()
            return seat
        payload = {"type": "leave", "user": user.pk, "reason": reason}
        turn_before = _turn_key(spec, st)
        if _forfeits(spec, st, seat.seat, now):  # W-X5: leaving is the game's forfeit
            payload["forfeit"] = True
            _finish_hand_if_over(match, spec, st, now)
        if match.running and not humans:  # K-X3: no human left: the table closes
            match.status = Match.Status.ABANDONED
            match.finished_at = now
            match.deadline = None
            events.after_commit(events.match_finished, match_id=match.pk)
        _save(
            match, spec, st, seats, now, turn_before,
            (seat.seat, "leave", payload, MatchAction.Actor.SYSTEM),
        )  # fmt: skip
        return seat


def _forfeits(spec, st, seat: int, now: datetime) -> bool:
    """A game without P-5's leaving rules (``leaving_rules = False``) whose GAME has
    ``forfeit``: leaving is that game's forfeit of the seat (Kelimeki W-X5, W-E6) — the
    engine takes it out of play instead of a bot playing on for it.  False when the game
    has no such hook or the engine had nothing to do (the seat forfeited already)."""
    if spec.forfeit is None or spec.leaving_rules:
        return False
    try:
        spec.forfeit(st, seat, _ts(now))
    except EngineError:
        return False
    return True
