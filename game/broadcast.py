"""The match's broadcasts: every change is followed by each seat's new frame.

Never the whole state: each seat gets that seat's view, the watchers the watcher view.
Frames carry the match version so that a client that misses one notices the gap and asks
for a fresh snapshot.  Issue 22: a socket that asked for change frames gets, after its
first snapshot, only what changed since the frame it got last (``game.changes``, made in
``MatchConsumer.fanout_deliver`` from the parts published here).

One change is ONE message on the fan-out topic ``match.<id>`` (``kut_site.fanout``),
holding each seat's frame and the watcher frame (last) as ready JSON pieces, built once
for all (``game.frames.frame_parts``); each process with sockets of the match receives it
once and each socket forwards only its own part (``MatchConsumer.fanout_deliver``).
It is published from the thread that committed the change, right after the commit.
The other messages to sockets (a second tab, a ban's kick: ``accounts.bans``) go
through the channel layer.
"""

from __future__ import annotations

import logging

from game.frames import frame_parts
from game.models import Match
from kut_site import fanout

log = logging.getLogger(__name__)

WATCHERS = -1  # the part of a broadcast for the watchers: the last; parts 0..n-1 are the seats


def match_topic(match_id: int) -> str:
    """Every socket of a match, seats and watchers (``match_broadcast``)."""
    return f"match.{match_id}"


def match_broadcast(match_id: int, match: Match | None = None, seats=None, ms=None,
                    presence: bool = False) -> None:  # fmt: skip
    """Send every seat its own view and the watchers theirs (after commit).  ``match``,
    ``seats`` and ``ms``: the row, its seats (with users) and its state as just committed
    (else they are reloaded).  ``presence``: only the seat labels changed (a socket came
    or went, P-12, K-N7's *back*): the seats marked disconnected get nothing (issue 22:
    a table's sockets opening or closing at once cost a frame per seat still there, not
    four; a seat that missed one gets the next one whole or as a change from the frame
    it has, ``game.changes``)."""
    if match is None:
        try:
            match = Match.objects.get(pk=match_id)
        except Match.DoesNotExist:
            return
    if seats is None:
        seats = list(match.seats.select_related("user").order_by("seat"))
    # K-X3, issue 16: a seat whose player left is the bot's; no socket gets its frame (the
    # leaver's are closed, and this holds even if that message was lost).  Issue 22: a
    # bot's seat has no socket at all (a socket is bound to its user's or its guest's
    # seat): its frame is not even built (against bots, three of a move's five views).
    skip = {s.seat for s in seats if s.left or not s.human or (presence and not s.connected)}
    parts = frame_parts(match, seats, ms, watchers=match.watchers_allowed, skip=skip)
    try:
        fanout.publish(match_topic(match_id), parts)
    except Exception:  # Redis unreachable: a committed change stays; clients resync
        log.warning("broadcast to match %s failed", match_id, exc_info=True)


def seat_broadcast(match_id: int, match: Match, seats, ms, seat: int) -> None:
    """A change only ``seat`` may see (its rack layout): the seat's frame to that seat's
    sockets, nothing to the other seats or the watchers (issue 16)."""
    parts = frame_parts(match, seats, ms, only=seat)  # the seat's part; None for the rest
    try:
        fanout.publish(match_topic(match_id), parts)
    except Exception:  # Redis unreachable: the seat's client resyncs
        log.warning("layout frame to match %s failed", match_id, exc_info=True)


def seat_owner_group(match_id: int, seat: int) -> str:
    """The sockets of the player sitting at ``seat`` (in every process)."""
    return f"match.{match_id}.seat.{seat}.owner"


def seat_left(match_id: int, seat: int) -> None:
    """K-X3, issue 16: the player left: close that seat's sockets in every process at
    once (``MatchConsumer.seat_left``); the service refuses their actions meanwhile."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(seat_owner_group(match_id, seat), {"type": "seat.left"})
    except Exception:  # a committed leave stands; the service refuses what they send
        log.warning("closing the sockets of match %s seat %s failed", match_id, seat)
