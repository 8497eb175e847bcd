"""A player's action: the one path every move takes (consumer, bot, admin), a seat's
private rack layout and *Geri döndüm* (K-N7)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from game import events, rows
from game.engine.errors import EngineError
from game.errors import ServiceError
from game.models import Match, MatchAction, MatchSeat
from game.services.core import (
    SERVER_TYPES,
    Outcome,
    _finish_hand_if_over,
    _locked,
    _locked_with_seats,
    _now,
    _save,
    _seats,
    _spec,
    _ts,
    _turn_key,
    hand_no_of,
)
from game.services.timers import _apply_timeout


def match_apply_action(match_id: int, seat: int, action: dict, expected_version: int | None,
                       now: datetime | None = None,
                       actor: str = MatchAction.Actor.HUMAN) -> Outcome:  # fmt: skip
    """Apply one action of ``seat``.  Raises ServiceError or an EngineError (whose
    ``code`` is stable); nothing of the refused action is saved."""
    now = _now(now)
    if isinstance(action, dict) and action.get("type") == "back":
        return match_back(match_id, seat)  # *Geri döndüm* (K-N7)
    error: Exception | None = None
    with transaction.atomic():
        match, seats = _locked_with_seats(match_id)  # one round trip on PostgreSQL
        if match.status != Match.Status.PLAYING:
            raise ServiceError("match_not_running")
        kind = action.get("type") if isinstance(action, dict) else None
        kind = kind if isinstance(kind, str) else None  # a list is not a type (fuzzer)
        if actor == MatchAction.Actor.HUMAN and kind in SERVER_TYPES:
            raise ServiceError("unknown_action")  # only the server times a seat out (K-N7)
        if kind in _spec(match).private_kinds:
            return _apply_layout(match, seat, action, actor, seats)
        if expected_version is not None and expected_version != match.version:
            raise ServiceError("stale_version", f"now at {match.version}")
        seats = seats if seats is not None else _seats(match)
        _check_seated(seats, seat, actor)
        spec = _spec(match)
        st = spec.from_dict(match.state)
        happened: list = []
        if match.deadline is not None and now >= match.deadline:
            happened += _apply_timeout(match, spec, st, seats, now)  # the timer ran out first
            if match.status != Match.Status.PLAYING:
                raise ServiceError("match_not_running")
        turn_before = _turn_key(spec, st)
        try:
            if match.kind == Match.Kind.TRIAL and actor == MatchAction.Actor.HUMAN:
                spec.tutorial.check_action(st, seat, action)  # K-X1: keep to the script
            happened += spec.apply(st, seat, action, _ts(now))
        except EngineError as exc:
            error = exc
        if error is None:
            if actor == MatchAction.Actor.HUMAN:
                s = seats[seat]
                if s.away:
                    s.away = False  # the player acts again (K-N7)
                    s.away_since = None
                    s.save(update_fields=["away", "away_since"])
            _finish_hand_if_over(match, spec, st, now)
            if match.kind == Match.Kind.TRIAL:
                if spec.tutorial.completed(st) and seats[spec.tutorial.human_seat].user_id:
                    events.after_commit(events.tutorial_completed, game=match.game,
                                        user_id=seats[spec.tutorial.human_seat].user_id)  # fmt: skip
            kind = action.get("type", "") if isinstance(action, dict) else ""
            _save(match, spec, st, seats, now, turn_before,
                  (seat, kind, spec.log_form(action), actor))  # fmt: skip
    if error is not None:
        raise error
    return Outcome(match, happened)


def _check_seated(seats: list[MatchSeat], seat, actor: str) -> None:
    """A player who left (K-X3) has left: nothing more of theirs is applied, whatever
    socket it comes from (issue 16)."""
    if actor == MatchAction.Actor.HUMAN and isinstance(seat, int) and 0 <= seat < len(seats):
        if seats[seat].left:
            raise ServiceError("left")


def _apply_layout(match: Match, seat: int, action: dict, actor: str, seats=None) -> Outcome:
    """A seat's private rack layout (K-R2..K-R4, issue 16): the seat's own business.  It
    never changes the shared version (no other seat's move becomes stale, so no version
    is checked either), never moves a deadline or a bot's turn, applies no overdue
    timeout and does not count as the player acting again (K-N7's *away*).  Only this
    seat's sockets get the new frame; it is logged with the seat's ``layout_version``
    so that replays rebuild the rack exactly.  ``seats``: read with the lock, if they were."""
    seats = seats if seats is not None else _seats(match)
    _check_seated(seats, seat, actor)
    spec = _spec(match)
    st = spec.from_dict(match.state)
    happened = spec.apply(st, seat, action, 0.0)  # an illegal layout raises: nothing is saved
    match.state = spec.to_dict(st)
    own = seats[seat]
    own.layout_version += 1
    row = MatchAction(
        match=match, version=match.version, layout_version=own.layout_version,
        hand_no=hand_no_of(spec, st), seat=seat, kind=action["type"],
        payload=spec.log_form(action), actor=actor,
    )  # fmt: skip
    rows.save_layout(match, own, row)
    events.after_commit(events.seat_changed, match_id=match.pk, match=match, seats=seats,
                        state=st, seat=seat)  # fmt: skip
    return Outcome(match, happened)


def match_back(match_id: int, seat: int) -> Outcome:
    """K-N7: the player of an away seat says *Geri döndüm*: they play their seat again
    from now on (the same as acting again, without a move).  Nothing in the hand
    changes, so the version stays; everyone gets the new seat labels."""
    with transaction.atomic():
        match = _locked(match_id)
        if not match.running:
            raise ServiceError("match_not_running")
        s = match.seats.filter(seat=seat).first()
        if s is None or s.left or not s.human:
            raise ServiceError("not_seated")
        if not s.away:
            raise ServiceError("not_away")
        s.away = False
        s.away_since = None
        s.save(update_fields=["away", "away_since"])
        events.after_commit(events.presence_changed, match_id=match_id)
    return Outcome(match, [])
