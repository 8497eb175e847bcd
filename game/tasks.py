"""Celery tasks: fetch by id, call the same services (all idempotent: they carry the
expected version, so a retried or doubled task does nothing twice).

Deadlines are data on the ``Match`` row (``deadline``, ``bot_due``); beat runs
``match_sweep`` about every second, and that sweep is the guarantee that every overdue
turn, finished hand and due bot move is handled even if a per-move task is lost.
``match_housekeeping`` (every minute) closes tables nobody plays at any more.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from game import analysis, guests, portal, services
from game import move_mail as mail
from game.models import Match, MatchAction, MatchSeat

log = logging.getLogger(__name__)

BATCH = 200  # matches per kind and sweep; the rest wait for the next second
# A due bot move is first left to its own task (``runner.kick`` schedules one for
# ``bot_due``); the sweep plays it only when it is this late, i.e. when that task was
# lost.  Without the grace the sweep and the task race for every move each second.
BOT_GRACE = timedelta(seconds=2)


@shared_task(ignore_result=True, acks_late=True)
def match_bot_turn(match_id: int, expected_version: int | None = None) -> bool:
    """One bot move (scheduled by ``game.runner.kick`` after each commit).  A redelivered
    or late copy carries an old version and does nothing."""
    try:
        return services.match_play_bot(match_id, expected_version)
    except services.ServiceError:  # the match is gone
        return False


def _each(rows, step, now: datetime, what: str) -> int:
    """Call ``step(pk, version, now)`` for each row; one broken match never stops the
    sweep for the others."""
    done = 0
    for pk, version in rows:
        try:
            done += bool(step(pk, version, now))
        except Exception:
            log.exception("match %s: %s failed at version %s", pk, what, version)
    return done


def sweep(now: datetime) -> int:
    """Apply everything that is due at ``now``: overdue turns get their timeout (K-N6,
    K-N7) — a bot-controlled seat's overdue turn gets the bot's move instead, bots never
    time out (``services._apply_timeout``) —, finished hands their next deal (K-M4), bots
    whose move task is overdue by ``BOT_GRACE`` one move.  Returns how many changes were
    made."""
    playing = Match.objects.filter(status=Match.Status.PLAYING)
    overdue = playing.filter(deadline__lte=now).order_by("deadline")
    done = _each(
        overdue.values_list("pk", "version")[:BATCH], services.match_expire_turn, now, "timeout"
    )
    between = Match.objects.filter(status=Match.Status.BETWEEN, deadline__lte=now)
    rows = between.order_by("deadline").values_list("pk", "version")[:BATCH]
    done += _each(rows, services.match_next_hand, now, "next hand")
    done += drops(now)
    # evaluated now, after the timeouts above: the versions are the fresh ones
    due = playing.filter(bot_due__lte=now - BOT_GRACE).order_by("bot_due")
    done += _each(
        due.values_list("pk", "version")[:BATCH], services.match_play_bot, now, "bot move"
    )
    return done


def drops(now: datetime) -> int:
    """P-13: a bot takes the turns of players whose socket has been gone for
    ``KUT_DROP_GRACE_SECONDS``; one who has not come back within
    ``KUT_AWAY_LEAVE_SECONDS`` has left the match (P-5)."""
    gone = MatchSeat.objects.filter(
        match__status__in=[Match.Status.PLAYING, Match.Status.BETWEEN],
        connected=False, disconnected_at__isnull=False, left=False, user__isnull=False,
    ).exclude(match__game__in=portal.games_without_leaving_rules())  # fmt: skip
    grace = now - timedelta(seconds=settings.KUT_DROP_GRACE_SECONDS)
    limit = now - timedelta(seconds=settings.KUT_AWAY_LEAVE_SECONDS)
    # rows of (match id, seat) for _each's (pk, version) pairs
    left = gone.filter(disconnected_at__lte=limit).values_list("match_id", "seat")[:BATCH]
    done = _each(list(left), services.match_drop_leave, now, "drop leave")
    dropped = gone.filter(disconnected_at__lte=grace, away=False, bot_level="")
    return done + _each(list(dropped.values_list("match_id", "seat")[:BATCH]),
                        services.match_seat_dropped, now, "drop")  # fmt: skip


@shared_task(ignore_result=True)
def match_sweep() -> int:
    """Beat, about every second (``CELERY_BEAT_SCHEDULE``)."""
    return sweep(timezone.now())


def housekeeping(now: datetime) -> int:
    """Close running matches that nobody plays any more (``services.abandon_reason``:
    no human left, K-X3; or no human connected nor acting for
    ``KUT_ABANDON_AFTER_SECONDS``).  The service checks again under the row lock."""
    cutoff = now - timedelta(seconds=settings.KUT_ABANDON_AFTER_SECONDS)
    running = Match.objects.filter(status__in=[Match.Status.PLAYING, Match.Status.BETWEEN])
    humans = MatchSeat.objects.filter(
        Q(user__isnull=False) | ~Q(guest_key=""), match=OuterRef("pk"), left=False
    )  # a user's or a guest's seat (issue 27)
    recent = MatchAction.objects.filter(
        match=OuterRef("pk"), actor=MatchAction.Actor.HUMAN, created_at__gt=cutoff
    )
    candidates = (
        running.annotate(
            has_human=Exists(humans),
            has_connected=Exists(humans.filter(connected=True)),
            acted=Exists(recent),
        )
        .filter(
            Q(has_human=False)
            | Q(has_connected=False, acted=False, created_at__lte=cutoff)
            & ~Q(game__in=portal.games_without_leaving_rules())
        )  # a correspondence game is never idle
        .order_by("pk")
    )
    rows = candidates.values_list("pk", "version")[:BATCH]

    def close(pk: int, version: int, now: datetime) -> str | None:
        # No version pin: bots may move such a match every second, and the reason is
        # checked again under the row lock (a closed match is not running: idempotent).
        return services.match_close_abandoned(pk, None, now)

    return _each(rows, close, now, "housekeeping")


@shared_task(ignore_result=True)
def match_housekeeping() -> int:
    """Beat, every minute."""
    return housekeeping(timezone.now())


@shared_task(ignore_result=True)
def move_mail() -> int:
    """Beat, every minute: reminder and forfeit e-mails of long move clocks (Kelimeki,
    W-X3, W-L4; ``game.move_mail``)."""
    return mail.run(timezone.now())


@shared_task(ignore_result=True)
def guest_cleanup() -> int:
    """Beat, every hour (issue 27): unrecorded games without a move for 7 days (W-X3) are
    deleted and expired sessions cleared (``game.guests.cleanup``)."""
    deleted, _cleared = guests.cleanup(timezone.now())
    if deleted:
        log.info("deleted %s unrecorded games without a move for 7 days", deleted)
    return deleted


@shared_task(ignore_result=True, acks_late=True)
def match_analyse(match_id: int) -> bool:
    """Issue 31: analyse the next hand of a match that is over (``game.analysis``), on
    the queue ``KUT_ANALYSIS_QUEUE`` (``CELERY_TASK_ROUTES``), then queue the next hand:
    one hand per task, so the worker is never held long.  A doubled or redelivered task
    finds the hand stored and moves on."""
    more = analysis.analyse_next(match_id)
    if more:
        match_analyse.apply_async((match_id,), queue=settings.KUT_ANALYSIS_QUEUE)
    return more


def schedule_analysis(match_id: int) -> None:
    """After a match ended (its commit is done, ``game.receivers``): its analysis in the
    background, as ``KUT_ANALYSIS`` says — ``queue`` (``match_analyse`` on
    ``KUT_ANALYSIS_QUEUE``), ``inline`` (right here: tests) or ``off``.  A trial hand or an
    unrecorded game has none (``analysis.eligible``)."""
    mode = settings.KUT_ANALYSIS
    if mode == "off":
        return
    match = Match.objects.filter(pk=match_id).only("game", "kind", "status").first()
    if match is None or not analysis.eligible(match):
        return
    if mode == "inline":
        analysis.analyse_match(match_id)
        return
    try:
        match_analyse.apply_async((match_id,), queue=settings.KUT_ANALYSIS_QUEUE)
    except Exception:  # the broker is down: ``manage.py analyse_matches`` catches up
        log.warning("could not queue the analysis of match %s", match_id, exc_info=True)
