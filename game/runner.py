"""Who moves next when nobody is clicking: bots (after a short human-like delay) and,
through the beat sweep, timers.

In production a Celery task is scheduled for each bot move (``KUT_BOTS_INLINE`` off);
the sweep in ``game.tasks`` is the guarantee if a task is lost.  In tests the bots run
inline right after the commit, in a loop guarded against re-entrance so that a table of
bots does not recurse.
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.utils import timezone

log = logging.getLogger(__name__)
_local = threading.local()


def kick(match_id: int) -> None:
    """After a commit: if a bot is due, schedule its move for ``Match.bot_due`` (the
    human-like ``KUT_BOT_DELAY_SECONDS``, or at once for an away seat, K-N7).  The task
    carries the version, so a late or doubled one does nothing."""
    from game.models import Match

    match = Match.objects.filter(pk=match_id).values("bot_due", "version", "status").first()
    if not match or match["bot_due"] is None or match["status"] != Match.Status.PLAYING:
        return
    if getattr(settings, "KUT_BOTS_INLINE", False):
        run_inline(match_id)
        return
    from game.tasks import match_bot_turn

    options = {}
    wait = (match["bot_due"] - timezone.now()).total_seconds()
    if wait > 0.05:
        options["countdown"] = wait
    try:
        match_bot_turn.apply_async((match_id, match["version"]), **options)
    except Exception:  # the broker is down: the beat sweep will pick the move up
        log.warning("could not schedule the bot move of match %s", match_id, exc_info=True)


def run_inline(match_id: int, limit: int = 5000) -> None:
    """Apply bot moves until a human is to act (tests, the embedded trial hand)."""
    pending = getattr(_local, "pending", None)
    if pending is not None:
        pending.add(match_id)  # an outer loop is running: let it continue this match
        return
    _local.pending = {match_id}
    try:
        from game.services import match_play_bot

        steps = 0
        while _local.pending and steps < limit:
            mid = _local.pending.pop()
            while steps < limit and match_play_bot(mid):
                steps += 1
    finally:
        _local.pending = None
