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
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from game.frames import frame_texts
from game.models import Match

log = logging.getLogger(__name__)
_held = threading.local()


def match_group(match_id: int) -> str:
    """Every socket of a match, seats and watchers (``match_broadcast``)."""
    return f"match.{match_id}"


def match_broadcast(match_id: int, match: Match | None = None, seats=None, ms=None) -> None:
    """Send every seat its own view and the watchers theirs (after commit).  ``match``,
    ``seats`` and ``ms``: the row, its seats (with users) and its state as just committed
    (else they are reloaded)."""
    layer = get_channel_layer()
    if layer is None:
        return
    if match is None:
        try:
            match = Match.objects.get(pk=match_id)
        except Match.DoesNotExist:
            return
    if seats is None:
        seats = list(match.seats.select_related("user").order_by("seat"))
    texts, watch = frame_texts(match, seats, ms, watchers=match.watchers_allowed)
    message = {"type": "match.frames", "seats": texts, "watch": watch}
    items = getattr(_held, "items", None)
    if items is not None:  # a socket's action: its consumer sends it (``held``)
        items.append((match_id, message))
        return
    # One trip into async code: outside an event loop (Celery, the inline bots) every
    # async_to_sync call makes a new loop, and channels-redis a new Redis connection.
    async_to_sync(_send_frames)(layer, match_id, message)


async def _send_frames(layer, match_id: int, message: dict) -> None:
    try:
        await layer.group_send(match_group(match_id), message)
    except Exception:  # a full channel must not undo a committed action
        log.warning("broadcast to match %s failed", match_id)


@contextmanager
def held() -> Iterator[list]:
    """Inside, in this thread, match broadcasts are built but kept (in order) instead of
    sent; the caller sends them with ``send_held`` from its event loop.  A socket's
    action runs in a worker thread: without this, that thread would wait after the
    commit for the busy event loop to do the Redis sends, holding a pool thread and a
    database connection idle (tools/load, issue 10)."""
    outer = getattr(_held, "items", None)
    items: list = []
    _held.items = items
    try:
        yield items
    finally:
        _held.items = outer


async def send_held(items: list) -> None:
    layer = get_channel_layer()
    for match_id, message in items:
        await _send_frames(layer, match_id, message)


def user_kick(user_id: int, reason: str) -> None:
    """Close every live socket of a user (bans, a second tab)."""
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(f"user.{user_id}", {"type": "user.kick", "reason": reason})
