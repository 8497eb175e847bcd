"""E-mails about a game's own long move clock (Kelimeki, kelimeki.md W-X3, W-L4).

The clock itself is the platform's: ``Match.deadline`` set from the game's
``move_seconds_for`` (48 h live, 7 days against the AI) and enforced by the beat sweep
(``game.tasks.sweep`` → ``services.match_expire_turn`` → the game's ``on_timeout``: the
forfeit, W-E6), whether or not anyone is connected.  This module, run by beat every
minute (``game.tasks.move_mail``), writes to the player:

* a **reminder** once per turn when ``KUT_MOVE_REMINDER_SECONDS`` (12 h) are left of a
  live turn, or ``KUT_MOVE_REMINDER_LONG_SECONDS`` (24 h) of a longer one (7 days
  against the AI) — **Decision** (the spec asks only for the forfeit e-mail);
* a **forfeit** notice once per seat when the timer forfeited it (W-L4: −2 k-lig).

Each e-mail is recorded (``MoveNotice``, unique per match, seat, kind and turn) before it
is sent, so it goes at most once; a failed send removes the record and is tried again a
minute later.  Turkish first (the site's language); nothing in it comes from a rack or
the bag (P-1, W-T5): only the game's link, the opponents' names, the deadline and the
scores, which every player sees.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

import orjson
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from game.engine import registry
from game.models import Match, MatchAction, MatchSeat, MoveNotice

log = logging.getLogger(__name__)
User = get_user_model()

FORFEIT_LOOKBACK = timedelta(days=7)  # forfeits older than this are not written about
BATCH = 200


def own_clock_games() -> list[str]:
    """The games with their own move clock (``move_seconds_for``)."""
    out = []
    for key in registry.GAMES:
        try:
            if registry.get(key).move_seconds_for is not None:
                out.append(key)
        except ImportError:
            continue
    return out


def reminder_lead(spec, options: dict) -> timedelta:
    """How long before the deadline the reminder goes (Decision: 12 h of a 48 h turn,
    24 h of a 7-day one)."""
    clock = spec.move_seconds_for(options or {})
    short = settings.KUT_MOVE_REMINDER_SECONDS
    return timedelta(
        seconds=short if clock <= 48 * 3600 else settings.KUT_MOVE_REMINDER_LONG_SECONDS
    )


def _link(match: Match) -> str:
    return f"{settings.KUT_SITE_URL.rstrip('/')}{reverse('game:match', args=[match.pk])}"


def _opponents(seats: list[MatchSeat], seat: int) -> str:
    names = [str(s.user) if s.user_id and not s.bot_level else "AI" for s in seats
             if s.seat != seat]  # fmt: skip
    return ", ".join(names)


def _send(notice_kw: dict, user, template: str, context: dict) -> bool:
    """Record the notice, then send; at most once (the unique record)."""
    if not user or not user.email:
        return False
    try:
        with transaction.atomic():
            notice = MoveNotice.objects.create(user=user, **notice_kw)
    except IntegrityError:
        return False  # sent already
    with translation.override(settings.LANGUAGE_CODE):  # Turkish first
        subject = render_to_string(f"emails/{template}_subject.txt", context).strip()
        body = render_to_string(f"emails/{template}.txt", context)
    try:
        send_mail(" ".join(subject.split()), body, None, [user.email])
    except Exception:
        log.exception("move e-mail %s for match %s failed", template, notice_kw["match"].pk)
        notice.delete()  # tried again next time
        return False
    return True


def remind(now: datetime) -> int:
    """One reminder per turn of a human whose deadline is near."""
    games = own_clock_games()
    if not games:
        return 0
    longest = max(settings.KUT_MOVE_REMINDER_SECONDS, settings.KUT_MOVE_REMINDER_LONG_SECONDS)
    due = Match.objects.filter(status=Match.Status.PLAYING, game__in=games, deadline__gt=now,
                               deadline__lte=now + timedelta(seconds=longest))  # fmt: skip
    sent = 0
    for match in due.order_by("deadline")[:BATCH]:
        try:
            spec = registry.get(match.game)
            if match.deadline - now > reminder_lead(spec, match.options):
                continue
            st = spec.from_dict(match.state)
            seats = list(match.seats.select_related("user").order_by("seat"))
            turn = orjson.dumps(spec.turn_key(st)).decode()[:64]
            for seat in spec.to_act(st):
                s = seats[seat]
                if s.user_id is None or s.bot_level or s.left:
                    continue
                context = {"user": s.user, "game": spec.name, "link": _link(match),
                           "deadline": timezone.localtime(match.deadline),
                           "hours": max(1, round((match.deadline - now).total_seconds() / 3600)),
                           "opponents": _opponents(seats, seat)}  # fmt: skip
                sent += _send({"match": match, "seat": seat, "kind": MoveNotice.Kind.REMINDER,
                               "turn": turn}, s.user, "move_reminder", context)  # fmt: skip
        except Exception:
            log.exception("move reminder for match %s failed", match.pk)
    return sent


def forfeits(now: datetime) -> int:
    """One e-mail per seat the timer forfeited (W-E6, W-L4)."""
    games = own_clock_games()
    if not games:
        return 0
    told = MoveNotice.objects.filter(match=OuterRef("match"), seat=OuterRef("seat"),
                                     kind=MoveNotice.Kind.FORFEIT)  # fmt: skip
    # the timer's forfeit, or the player's own (*Teslim ol*: a leave that forfeited, W-X5)
    forfeited = Q(kind="timeout") | Q(kind="leave", payload__forfeit=True)
    rows = (MatchAction.objects.filter(forfeited, match__game__in=games,
                                       created_at__gte=now - FORFEIT_LOOKBACK)
            .exclude(Exists(told)).select_related("match").order_by("created_at"))  # fmt: skip
    sent = 0
    for act in rows[:BATCH]:
        try:
            match = act.match
            spec = registry.get(match.game)
            seats = list(match.seats.select_related("user").order_by("seat"))
            s = seats[act.seat]
            user = s.user
            if act.kind == "leave":  # the seat is left: its player is the one who gave up
                user = User.objects.filter(pk=(act.payload or {}).get("user")).first()
            elif s.user_id is None or s.bot_level:
                continue
            if user is None:
                continue
            st = spec.from_dict(match.state)
            context = {"user": user, "game": spec.name, "link": _link(match),
                       "gave_up": act.kind == "leave",
                       "opponents": _opponents(seats, act.seat), "over": spec.match_over(st),
                       "scores": list(getattr(st, "scores", []) or [])}  # fmt: skip
            sent += _send({"match": match, "seat": act.seat, "kind": MoveNotice.Kind.FORFEIT,
                           "turn": ""}, user, "move_forfeit", context)  # fmt: skip
        except Exception:
            log.exception("forfeit e-mail for match %s failed", act.match_id)
    return sent


def run(now: datetime) -> int:
    return remind(now) + forfeits(now)
