"""Who moves next when nobody is clicking: bots (after a short human-like delay) and,
through the beat sweep, timers.

In production a Celery task is scheduled for each bot move (``KUT_BOTS_INLINE`` off);
the sweep in ``game.tasks`` is the guarantee if a task is lost.  With ``KUT_BOTS_INLINE``
(the embedded set-up, one web process) a bot's move runs in the process that committed
the change, at ``Match.bot_due``, on a timer thread (``_timers``): at a human pace like
production, and its broadcast reaches this process's sockets.  With "fast bots"
(``KUT_BOT_DELAY_SECONDS`` 0, tests) they run right after the commit, in a loop guarded
against re-entrance so that a table of bots does not recurse.
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.utils import timezone

from game import services, tasks
from game.models import Match

log = logging.getLogger(__name__)
_local = threading.local()


def kick(match_id: int) -> None:
    """After a commit: if a bot is due, schedule its move for ``Match.bot_due`` (the
    human-like ``KUT_BOT_DELAY_SECONDS``, or at once for an away seat, K-N7).  The task
    carries the version, so a late or doubled one does nothing."""
    match = Match.objects.filter(pk=match_id).values("bot_due", "version", "status").first()
    if not match or match["bot_due"] is None or match["status"] != Match.Status.PLAYING:
        return
    if getattr(settings, "KUT_BOTS_INLINE", False):
        wait = (match["bot_due"] - timezone.now()).total_seconds()
        if settings.KUT_BOT_DELAY_SECONDS <= 0:
            run_inline(match_id)
        elif not _in_celery_task():
            _later(match_id, match["version"], wait)
        # else: a change the embedded worker made (a timeout): that process holds no
        # sockets, so its moves would be seen only on the next sync.  The web process
        # takes the move over when a client asks for the state (``adopt``); the sweep
        # plays it after BOT_GRACE if nobody does (no browser open).
        return
    options = {}
    wait = (match["bot_due"] - timezone.now()).total_seconds()
    if wait > 0.05:
        options["countdown"] = wait
    try:
        tasks.match_bot_turn.apply_async((match_id, match["version"]), **options)
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
        steps = 0
        while _local.pending and steps < limit:
            mid = _local.pending.pop()
            while steps < limit and services.match_play_bot(mid):
                steps += 1
    finally:
        _local.pending = None


# --- the embedded set-up's paced bots: one timer per match --------------------------------

_timers: dict[int, threading.Timer] = {}
_timers_lock = threading.Lock()


def _later(match_id: int, version: int, wait: float) -> None:
    """Play the match's next bot move after ``wait`` seconds in this process (a newer
    change replaces the timer; a stale one finds another version and does nothing)."""
    timer = threading.Timer(max(0.0, wait), _fire, (match_id, version))
    timer.daemon = True
    with _timers_lock:
        old = _timers.pop(match_id, None)
        _timers[match_id] = timer
    if old is not None:
        old.cancel()
    timer.start()


def _fire(match_id: int, version: int) -> None:
    from django.db import close_old_connections, connection

    with _timers_lock:
        if _timers.get(match_id) is threading.current_thread():
            del _timers[match_id]
    try:
        close_old_connections()
        services.match_play_bot(match_id, version)
    except services.ServiceError:  # the match is gone
        pass
    except Exception:
        log.exception("the bot move of match %s failed", match_id)
    finally:
        connection.close()


def pending_timers() -> int:
    """How many paced bot moves wait in this process (tests)."""
    with _timers_lock:
        return len(_timers)


def _in_celery_task() -> bool:
    try:
        from celery import current_task

        return bool(current_task and current_task.request.id)
    except Exception:
        return False


def adopt(match_id: int) -> None:
    """The embedded set-up's web process, when a client asks for the state: schedule the
    match's due bot move here, where its sockets are (a timer already set is replaced by
    one for the same move: nothing is played twice)."""
    if getattr(settings, "KUT_BOTS_INLINE", False) and settings.KUT_BOT_DELAY_SECONDS > 0:
        kick(match_id)
