"""A match's life: creating it and dealing hand 1, the next hand (K-M4), an admin's
abort and closing an abandoned table."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction

from game import events, portal, seat_gate
from game.engine import registry
from game.engine.fair import new_seed
from game.engine.protocol import InputError
from game.errors import ServiceError
from game.models import Match, MatchAction, MatchSeat
from game.services.core import (
    BOT_LEVELS,
    _locked,
    _now,
    _rng_for_hand,
    _rng_for_next_hand,
    _save,
    _seats,
    _spec,
    _turn_key,
    test_mode,
)
from game.services.seats import leave_rated_matches


def match_create(*, users: list, game: str, options: dict | None = None,
                 bot_levels: list | None = None, rated=True,
                 level: str = "orta", move_seconds: int | None = None, partners: bool = False,
                 watchers_allowed=False, host=None, seed: str | None = None,
                 now: datetime | None = None, rematch_of=None,
                 kind: str = Match.Kind.NORMAL, leave_others: bool = False,
                 guests: dict[int, str] | None = None,
                 test_options: dict | None = None, host_starts: bool = False) -> Match:  # fmt: skip
    """Create a match of ``game`` (a user or None per seat; None seats get a bot of
    ``bot_levels[seat]``, default the table level's, P-7) and deal hand 1
    (``match_start``).  ``options`` are the game's own (its ``clean_options`` checks
    them).  ``kind`` "trial": the game's guided first hand (``game.tutorial``).
    ``leave_others``: the players start this match themselves (the practice form, a
    lobby table, a rematch): P-5, it counts as leaving the rated matches of the same
    game they still sit in.  ``guests``: seat -> guest key, the seats of visitors
    without an account (issue 27, ``game.guests``; their ``users`` entry is None).
    ``test_options``: browser tests only (``DEBUG`` and ``KUT_TEST_SEEDS``, else
    refused): options the game reads at the deal that no player may choose
    (Kelimeki's short bag), added after ``clean_options``."""
    try:
        spec = registry.get(game)
    except KeyError:
        raise ServiceError("bad_game") from None
    options = dict(options or {})
    if spec.partners:
        options["partners"] = bool(partners)  # P-8: the game scores teams itself
    elif partners:
        raise ServiceError("bad_options")
    try:
        options = spec.clean_options(options)
    except InputError:
        raise ServiceError("bad_options") from None
    if len(users) not in spec.seat_counts:
        raise ServiceError("four_seats" if spec.seat_counts == (4,) else "bad_seat_count")
    try:
        default_level = portal.bot_level(level)
        move_seconds = portal.move_seconds(spec, move_seconds) if rated else None
    except portal.PortalError:
        raise ServiceError("bad_options") from None
    # A game that keeps the table's own settings among its options (King G-T1, Kastet
    # S-M2: rated or test, the move time) gets the table's, not its defaults; a test
    # table's move time is the game's own choice (none for King, unused for Kastet).
    if "rated" in options and options["rated"] != bool(rated):
        synced = {k: v for k, v in options.items() if k != "move_seconds"}
        synced["rated"] = bool(rated)
    else:
        synced = dict(options)
    if rated and "move_seconds" in options and move_seconds is not None:
        synced["move_seconds"] = move_seconds
    if synced != options:
        try:
            options = spec.clean_options(synced)
        except InputError:
            raise ServiceError("bad_options") from None
    if test_options:
        if not test_mode():
            raise ServiceError("bad_options")
        options = {**options, **test_options}
    guests = guests or {}
    levels = list(bot_levels or [default_level] * len(users))
    now = _now(now)
    for user in users:  # issue 27: the one gate (bans, P-11), before anything changes
        seat_gate.check(user, game, rated=rated, now=now)
    with transaction.atomic():
        for user in users if leave_others else ():
            if user is not None:
                leave_rated_matches(user, game, now)  # P-5: a new match counts as leaving
        match = Match.objects.create(
            game=game, options=options, level=level, move_seconds=move_seconds,
            partners=partners, rated=rated, watchers_allowed=watchers_allowed, host=host,
            seed=seed or new_seed(), rematch_of=rematch_of, kind=kind,
        )  # fmt: skip
        if host_starts and host is not None and host in users:
            users, levels = _host_first(spec, match, list(users), levels, host)
        for seat, user in enumerate(users):
            guest = "" if user is not None else guests.get(seat, "")
            level = "" if user is not None or guest else (levels[seat] or default_level)
            if level and level not in BOT_LEVELS:
                raise ServiceError("bad_bot_level")
            MatchSeat.objects.create(match=match, seat=seat, user=user, bot_level=level,
                                     guest_key=guest)  # fmt: skip
        match_start(match, now)
    return match


def _host_first(spec, match: Match, users: list, levels: list, host) -> tuple[list, list]:
    """The seats turned so that ``host`` sits where the deal's first move is (the deal
    itself, from the match's seed, is the same whoever sits where)."""
    state = spec.new_match(match.options, len(users), _rng_for_hand(match.seed, 1))
    acting = spec.to_act(state)
    if not acting:
        return users, levels
    shift = (acting[0] - users.index(host)) % len(users)
    turned = lambda xs: [xs[(i - shift) % len(xs)] for i in range(len(xs))]  # noqa: E731
    return turned(users), turned(levels)


def match_start(match: Match, now: datetime) -> None:
    """K-M6: draw the first starter and deal hand 1 (inside the creating transaction)."""
    st = match_initial_state(match)
    seats = _seats(match)
    match.status = Match.Status.PLAYING
    match.version = 0
    _save(match, _spec(match), st, seats, now, None, (None, "start", {}, MatchAction.Actor.SYSTEM))


def match_initial_state(match: Match):
    """The state before the first move: hand 1 dealt from the seed, or the guided first
    hand's scripted deal (the game's ``tutorial``)."""
    if match.kind == Match.Kind.TRIAL:
        return _spec(match).tutorial.initial_state(match.seed)
    seats = match.seats.count() or max(_spec(match).seat_counts)
    return _spec(match).new_match(match.options, seats, _rng_for_hand(match.seed, 1))


def match_next_hand(match_id: int, expected_version: int | None = None,
                    now: datetime | None = None, force: bool = False) -> bool:  # fmt: skip
    """K-M4: after the score table, deal the next task's hand (idempotent)."""
    now = _now(now)
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.BETWEEN:
            return False
        if expected_version is not None and expected_version != match.version:
            return False
        if not force and match.deadline is not None and now < match.deadline:
            return False
        seats = _seats(match)
        spec = _spec(match)
        st = spec.from_dict(match.state)
        turn_before = _turn_key(spec, st)
        steps = match.actions.filter(kind="next_hand").count()
        spec.start_next_hand(st, _rng_for_next_hand(match.seed, len(spec.hand_results(st)), steps))
        match.status = Match.Status.PLAYING
        match.deadline = None
        _save(
            match,
            spec,
            st,
            seats,
            now,
            turn_before,
            (None, "next_hand", {"type": "next_hand"}, MatchAction.Actor.SYSTEM),
        )
        return True


def match_abort(match_id: int, now: datetime | None = None) -> None:
    """Admin: stop a running match; nothing is written to any ranking."""
    now = _now(now)
    with transaction.atomic():
        match = _locked(match_id)
        if not match.running:
            raise ServiceError("match_not_running")
        match.status = Match.Status.ABORTED
        match.finished_at = now
        match.deadline = None
        match.bot_due = None
        match.version += 1
        match.save()
        mid = match.pk
        events.after_commit(events.match_changed, match_id=mid)


def abandon_reason(match: Match, seats: list[MatchSeat], now: datetime) -> str | None:
    """Housekeeping: why a running match should be closed as abandoned, or None.

    ``no_humans``: no human player is left at the table (K-X3; ``match_leave`` closes the
    table itself, this catches the rest, e.g. deleted accounts).  ``inactive``: no human
    is connected and none has acted for ``KUT_ABANDON_AFTER_SECONDS`` (e.g. a test table,
    which has no timer, left behind on a human's turn)."""
    humans = [s for s in seats if s.human and not s.left]
    if not humans:
        return "no_humans"
    if any(s.connected for s in humans):
        return None
    last = (
        match.actions.filter(actor=MatchAction.Actor.HUMAN)
        .order_by("-version")
        .values_list("created_at", flat=True)
        .first()
    ) or match.created_at
    if now - last >= timedelta(seconds=settings.KUT_ABANDON_AFTER_SECONDS):
        return "inactive"
    return None


def match_close_abandoned(match_id: int, expected_version: int | None = None,
                          now: datetime | None = None) -> str | None:  # fmt: skip
    """Close a running match as abandoned if ``abandon_reason`` says so, checked again
    under the row lock (idempotent: a stale version or a match that came back to life
    does nothing).  Returns the reason, or None when nothing was done.  The finish
    hooks are called after commit, as for every match that ends."""
    now = _now(now)
    with transaction.atomic():
        try:
            match = _locked(match_id)
        except ServiceError:
            return None
        if not match.running:
            return None
        if expected_version is not None and expected_version != match.version:
            return None
        seats = _seats(match)
        reason = abandon_reason(match, seats, now)
        if reason is None:
            return None
        spec = _spec(match)
        st = spec.from_dict(match.state)
        match.status = Match.Status.ABANDONED
        match.finished_at = now
        match.deadline = None
        events.after_commit(events.match_finished, match_id=match.pk)
        _save(
            match,
            spec,
            st,
            seats,
            now,
            _turn_key(spec, st),
            (None, "abandon", {"type": "abandon", "reason": reason}, MatchAction.Actor.SYSTEM),
        )
        return reason
