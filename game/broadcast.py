"""The only module that talks to the channel layer.

Every change is followed by a full per-seat snapshot (never a delta, never the whole
state): each seat gets that seat's view, the watchers the watcher view.  Frames carry
the match version so that a client that misses one (channel layers may drop messages)
notices the gap and asks for a fresh snapshot.

One change is ONE channel-layer message to the match's group ``match.<id>``, holding the
four seat frames (and the watcher frame where watching is allowed) as ready JSON text;
each socket forwards only its own seat's text (``MatchConsumer.match_frames``).  With
channels-redis a group send costs four Redis round trips, so one send instead of five
(four seats and the watchers) and one serialisation per frame instead of one per socket
is most of what a move costs the server (tools/load, issue 10).
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from game.frames import frame_text, match_frame
from game.models import Match

log = logging.getLogger(__name__)


def match_group(match_id: int) -> str:
    """Every socket of a match, seats and watchers (``match_broadcast``)."""
    return f"match.{match_id}"


def match_broadcast(match_id: int, match: Match | None = None) -> None:
    """Send every seat its own view and the watchers theirs (after commit).  ``match``:
    the row as just committed (else it is reloaded)."""
    layer = get_channel_layer()
    if layer is None:
        return
    if match is None:
        try:
            match = Match.objects.get(pk=match_id)
        except Match.DoesNotExist:
            return
    seats = list(match.seats.select_related("user").order_by("seat"))
    message = {
        "type": "match.frames",
        "seats": [frame_text(match_frame(match, seat, seats)) for seat in range(4)],
        "watch": frame_text(match_frame(match, None, seats)) if match.watchers_allowed else None,
    }
    # One trip into async code: outside an event loop (Celery, the inline bots) every
    # async_to_sync call makes a new loop, and channels-redis a new Redis connection.
    async_to_sync(_send_frames)(layer, match_id, message)


async def _send_frames(layer, match_id: int, message: dict) -> None:
    try:
        await layer.group_send(match_group(match_id), message)
    except Exception:  # a full channel must not undo a committed action
        log.warning("broadcast to match %s failed", match_id)


def user_kick(user_id: int, reason: str) -> None:
    """Close every live socket of a user (bans, a second tab)."""
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(f"user.{user_id}", {"type": "user.kick", "reason": reason})
