"""The only module that talks to the channel layer.

Every change is followed by a full per-seat snapshot (never a delta, never the whole
state): each seat's group gets that seat's view, the watchers' group the watcher view.
Frames carry the match version so that a client that misses one (channel layers may
drop messages) notices the gap and asks for a fresh snapshot.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from game.frames import match_frame
from game.models import Match

log = logging.getLogger(__name__)


def seat_group(match_id: int, seat: int) -> str:
    return f"match.{match_id}.seat.{seat}"


def watch_group(match_id: int) -> str:
    return f"match.{match_id}.watch"


def match_broadcast(match_id: int) -> None:
    """Send every seat its own view and the watchers theirs (after commit)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        match = Match.objects.get(pk=match_id)
    except Match.DoesNotExist:
        return
    seats = list(match.seats.select_related("user").order_by("seat"))
    send = async_to_sync(layer.group_send)
    for seat in range(4):
        frame = match_frame(match, seat, seats)
        try:
            send(seat_group(match_id, seat), {"type": "match.frame", "frame": frame})
        except Exception:  # a full channel must not undo a committed action
            log.warning("broadcast to seat %s of match %s failed", seat, match_id)
    try:
        send(watch_group(match_id), {"type": "match.frame",
                                     "frame": match_frame(match, None, seats)})  # fmt: skip
    except Exception:
        log.warning("broadcast to watchers of match %s failed", match_id)


def user_kick(user_id: int, reason: str) -> None:
    """Close every live socket of a user (bans, a second tab)."""
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(f"user.{user_id}", {"type": "user.kick", "reason": reason})
