"""Celery tasks: fetch by id, call the same services (all idempotent: they carry the
expected version, so a retried or doubled task does nothing twice)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from game.models import Match


@shared_task(ignore_result=True)
def match_bot_turn(match_id: int, expected_version: int | None = None) -> bool:
    from game.services import match_play_bot

    return match_play_bot(match_id, expected_version)


@shared_task(ignore_result=True)
def match_sweep() -> int:
    """Beat, about every second: overdue turns get their timeout (K-N7), finished hands
    their next deal (K-M4), due bots their move.  Returns how many changes it made."""
    from game.services import match_expire_turn, match_next_hand, match_play_bot

    now = timezone.now()
    done = 0
    overdue = Match.objects.filter(status=Match.Status.PLAYING, deadline__lte=now).values_list(
        "pk", "version"
    )
    for pk, version in overdue[:200]:
        done += match_expire_turn(pk, version, now)
    between = Match.objects.filter(status=Match.Status.BETWEEN, deadline__lte=now).values_list(
        "pk", "version"
    )
    for pk, version in between[:200]:
        done += match_next_hand(pk, version, now)
    due = Match.objects.filter(status=Match.Status.PLAYING, bot_due__lte=now).values_list(
        "pk", "version"
    )
    for pk, version in due[:200]:
        done += match_play_bot(pk, version, now)
    return done
