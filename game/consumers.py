"""The match socket ``/ws/match/<id>/`` — thin: parse, call the service, reply.

A user is bound to their own seat (from the session, never from the message); watchers
get the watcher view only where the table allows watching.  A guest (issue 27, no
account) is bound to the seat their session's guest token opens (``game.guests``) and
to nothing else: no other match, no watching; their sockets and requests are counted
under their guest identity, and their requests also per client address.  Replies: every seat gets its
new view through the broadcast; the sender alone gets an error frame in Turkish.  Bad
input (malformed JSON, unknown types, frames over 16 KiB, floods) gets an error frame
and changes nothing.
"""

from __future__ import annotations

import json
import logging
import time

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from accounts.bans import user_is_banned
from accounts.services import scope_client_ip
from game import changes, guests, limits, runner, services
from game.broadcast import WATCHERS, match_topic, seat_owner_group
from game.engine.errors import EngineError
from game.frames import frame_text, match_frame
from game.messages import message_for
from game.models import Match
from kut_site import counters, fanout, sockets

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 16 * 1024
RATE_PER_SECOND = 10.0  # sustained messages per connection
RATE_BURST = 30.0
# Per user, across all their sockets in every process (the count lives in the shared
# cache): at most this many requests that reach the database (actions and syncs) per
# window.  One socket alone never reaches it (its bucket allows 30 + 10 x 5 = 80 in 5 s);
# a player flooding from several tabs or processes does.
USER_RATE_LIMIT = 100
USER_RATE_WINDOW = 5  # seconds
# A ping is answered here, with no database and no shared counter (issue 16).
PING = '{"type":"ping"}'
PONG = '{"type":"pong"}'


def user_request_allowed(user_id: int | str) -> bool:
    """Count one request of ``user_id`` (a user's pk, or a guest's identity,
    ``game.guests.identity``) in the current window; False over the limit.  A store
    that cannot be reached lets it through (the per-socket limit still holds)."""
    try:
        count = counters.hit(f"socket-requests.{user_id}", USER_RATE_WINDOW)
    except Exception:
        log.warning("socket rate counter unavailable for user %s", user_id, exc_info=True)
        return True
    return count <= USER_RATE_LIMIT


class MatchConsumer(AsyncWebsocketConsumer):
    match_id: int
    game: str | None = None  # the match's game (its key), once connected
    seat: int | None = None
    topic: str | None = None
    counted = False  # this socket counts against the user's limit (kut_site.sockets)
    left = False  # the player left the match (K-X3): nothing more is sent or taken
    # issue 22: the client takes change frames (``?frames=change``, ``game.changes``)
    change_frames = False
    sent: changes.Entry | None = None  # the fan-out frame this socket got last
    sent_key: tuple = (-1, 0)  # (version, layout) of the last frame it got
    # who this socket counts for: the user's pk, or a guest's identity (issue 27)
    who: int | str | None = None
    guest = False  # a visitor without an account (game.guests)
    client_ip = "unknown"

    # -- connection ------------------------------------------------------------------
    async def connect(self):
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            if user_is_banned(user):  # a banned player cannot act (accounts.bans)
                await self.close(code=4003)
                return
            self.who = user.pk
        else:  # issue 27: a guest, by their session's guest token (nothing else)
            self.who = await database_sync_to_async(guests.identity)(
                None, self.scope.get("session")
            )
            if self.who is None:
                await self.close(code=4001)
                return
            self.guest = True
            self.client_ip = scope_client_ip(self.scope)
        # issue 16: at most KUT_SOCKETS_PER_USER sockets per user (or guest), over all
        # processes
        self.counted = await sync_to_async(sockets.enter, thread_sensitive=False)(
            self.who, self.channel_name
        )
        if not self.counted:
            await self.close(code=4029)
            return
        self.refreshed = time.monotonic()
        try:
            self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        except (KeyError, ValueError):
            await self._refuse(4004)
            return
        info = await self._seat_info(user)
        if info is None:
            await self._refuse(4004)
            return
        seat, watchers_allowed = info
        if seat is None and (self.guest or not watchers_allowed):
            await self._refuse(4003)  # a guest never watches (issue 27)
            return
        self.seat = seat
        self.topic = match_topic(self.match_id)  # fanout_deliver picks this socket's frame
        self.change_frames = b"frames=change" in self.scope.get("query_string", b"").split(b"&")
        self.tokens = RATE_BURST
        self.stamp = time.monotonic()
        self.replaced = False
        if seat is not None:
            # one active connection per seat: an older tab is told why and closed
            self.owner_group = seat_owner_group(self.match_id, seat)
            await self.channel_layer.group_send(self.owner_group, {"type": "seat.replaced"})
            await self.channel_layer.group_add(self.owner_group, self.channel_name)
        if not self.guest:  # a user's sockets (a ban's kick, accounts.bans)
            await self.channel_layer.group_add(f"user.{user.pk}", self.channel_name)
        await self.accept()
        await fanout.join(self.topic, self)  # before the snapshot: no change falls between
        if seat is not None:
            await database_sync_to_async(services.match_seat_connected)(
                self.match_id, seat, True, socket=self.channel_name
            )
        await self.send_snapshot()

    async def _refuse(self, code: int) -> None:
        await self._uncount()
        await self.close(code=code)

    async def _uncount(self) -> None:
        if self.counted:
            self.counted = False
            await sync_to_async(sockets.leave, thread_sensitive=False)(self.who, self.channel_name)

    async def disconnect(self, code):
        await self._uncount()
        try:
            await self._leave_groups()
        finally:
            # the layer's Redis connections a burst of sockets opened go back (issue 16)
            await sockets.trim_idle_connections(self.channel_layer)

    async def _leave_groups(self):
        if self.topic:
            await fanout.leave(self.topic, self)
            if not self.guest:
                user = self.scope.get("user")
                await self.channel_layer.group_discard(f"user.{user.pk}", self.channel_name)
            if self.seat is not None:
                await self.channel_layer.group_discard(self.owner_group, self.channel_name)
            if self.seat is not None and not self.replaced:
                await database_sync_to_async(services.match_seat_connected)(
                    self.match_id, self.seat, False, socket=self.channel_name
                )

    @database_sync_to_async
    def _seat_info(self, user):
        try:
            match = Match.objects.get(pk=self.match_id)
        except Match.DoesNotExist:
            return None
        # a user's seat, else (an unrecorded game) the seat of the session's guest token
        seat = guests.seat_for(match, user, self.scope.get("session"))
        self.game = match.game  # its own error messages (game.messages.message_for)
        return seat, not self.guest and services.may_view(match, user)

    @database_sync_to_async
    def _frame(self) -> dict | None:
        """The snapshot; None when the player left the seat (K-X3: the bot's now)."""
        match = Match.objects.get(pk=self.match_id)
        seats = list(match.seats.select_related("user"))
        if self.seat is not None and any(s.seat == self.seat and s.left for s in seats):
            return None
        return match_frame(match, self.seat, seats)

    async def send_snapshot(self):
        frame = await self._frame()
        if frame is None:
            await self.seat_left({})
        else:
            await self.send_full(frame)

    async def send_full(self, frame: dict) -> None:
        """A snapshot read from the database: the next fan-out frame goes out whole
        (what it would be diffed against is not this one)."""
        self.sent, self.sent_key = None, changes.key_of(frame)
        await self.send(text_data=frame_text(frame))

    async def send_error(self, code: str, version=None):
        await self.send(text_data=json.dumps(
            {"type": "error", "code": code, "message": message_for(code, self.game),
             "version": version},
            ensure_ascii=False,
        ))  # fmt: skip

    # -- input ---------------------------------------------------------------------------
    def _allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(RATE_BURST, self.tokens + (now - self.stamp) * RATE_PER_SECOND)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def receive(self, text_data=None, bytes_data=None):
        if self.left:
            return  # closing: the player left the match
        if text_data == PING:  # the cheap path: no parsing, no database (issue 16)
            if self._allow():
                await self.send(text_data=PONG)
                await self._keep_counted()
            else:
                await self.send_error("rate_limited")
            return
        if text_data is None:
            await self.send_error("bad_json")
            return
        if len(text_data.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
            await self.send_error("too_large")
            return
        if not self._allow():
            await self.send_error("rate_limited")
            return
        try:
            msg = json.loads(text_data)
        except (ValueError, RecursionError):
            await self.send_error("bad_json")
            return
        if not isinstance(msg, dict):
            await self.send_error("bad_json")
            return
        kind = msg.get("type")
        if kind == "sync":
            await self.handle_sync()
        elif kind == "ping":
            await self.send(text_data=PONG)
            await self._keep_counted()
        elif kind == "action":
            await self.handle_action(msg)
        else:
            await self.send_error("unknown_message")

    async def _keep_counted(self) -> None:
        """Now and then, the socket's place in the shared count is renewed."""
        if self.counted and time.monotonic() - self.refreshed > sockets.REFRESH_AFTER:
            self.refreshed = time.monotonic()
            await sync_to_async(sockets.refresh, thread_sensitive=False)(
                self.who, self.channel_name
            )

    async def handle_action(self, msg: dict):
        if self.seat is None:
            await self.send_error("watcher")
            return
        action = msg.get("action")
        version = msg.get("version")
        if not isinstance(action, dict) or (
            version is not None and (isinstance(version, bool) or not isinstance(version, int))
        ):
            await self.send_error("bad_action")
            return
        try:
            # In the thread pool, not the one thread every other sync call of this process
            # shares: one table's database and Redis waits do not hold up all the others'
            # moves (each thread has its own connection; the row lock orders one match).
            error = await database_sync_to_async(self._act, thread_sensitive=False)(action, version)
        except Exception:  # never crash the socket; the player gets a clear message
            log.exception("action failed on match %s", self.match_id)
            await self.send_error("server_error")
            return
        if error is None:
            return
        if isinstance(error, services.ServiceError) and error.code == "left":
            await self.seat_left({})  # K-X3: says so and closes
        elif isinstance(error, services.ServiceError):
            await self.send_error(error.code)
            if error.code == "stale_version":
                await self.send_snapshot()
        elif isinstance(error, EngineError):
            await self.send_error(error.code)
        else:
            log.error("action failed on match %s", self.match_id, exc_info=error)
            await self.send_error("server_error")

    async def handle_sync(self):
        try:
            frame = await database_sync_to_async(self._sync_frame, thread_sensitive=False)()
        except Exception:  # e.g. the database is briefly unreachable: say so, stay open
            log.exception("snapshot failed on match %s", self.match_id)
            await self.send_error("server_error")
            return
        if frame == "left":
            await self.seat_left({})  # says so and closes
        elif isinstance(frame, str):
            await self.send_error(frame)
        else:
            await self.send_full(frame)

    def _sync_frame(self) -> dict | str:
        """A snapshot on request (counted against the per-user limit), or the code of
        the error that refuses it."""
        if not self._request_allowed():
            return "rate_limited"
        runner.adopt(self.match_id)  # embedded: a bot move the worker left is played here
        match = Match.objects.get(pk=self.match_id)
        seats = list(match.seats.select_related("user"))
        if self.seat is not None and any(s.seat == self.seat and s.left for s in seats):
            return "left"  # K-X3: the seat is the bot's now, and so is its rack
        return match_frame(match, self.seat, seats)

    def _act(self, action: dict, version: int | None) -> Exception | None:
        """One action, with the per-user limit counted in the same thread hop.  Returns
        the error that refused it, if any (its broadcast was published on commit)."""
        try:
            if not self._request_allowed():
                raise services.ServiceError("rate_limited")
            services.match_apply_action(self.match_id, self.seat, action, version)
        except Exception as exc:
            return exc
        return None

    def _request_allowed(self) -> bool:
        """The per-visitor limit of requests (a user's, a guest's, issue 27) and, for a
        guest, the limit of all guests at their client address."""
        if not user_request_allowed(self.who):
            return False
        return not self.guest or limits.guest_socket_allowed(self.client_ip)

    async def dispatch(self, message):
        """Channels runs ``close_old_connections`` in the sync thread before every handler
        (a thread hop per message).  Every database call of ``receive`` goes through
        ``database_sync_to_async``, which does the same clean-up in its own thread: skip
        the hop for the socket's input."""
        if message.get("type") == "websocket.receive":
            await self.websocket_receive(message)
        else:
            await super().dispatch(message)

    # -- fan-out and group messages ---------------------------------------------------------------------
    async def fanout_deliver(self, parts: list):
        """One change of the match (``game.broadcast``, through ``kut_site.fanout``): the
        frames of all four seats and the watchers as JSON text; this socket sends its
        own seat's only, a watcher the watcher frame."""
        part = WATCHERS % len(parts) if self.seat is None else self.seat  # watchers: the last
        mine = parts[part]  # [version, layout, me, match, hand] (game.frames.frame_parts)
        if mine is None or self.left:
            return
        if not self.change_frames:
            await self.send(text_data=changes.part_text(mine))
            return
        # issue 22: the change from the frame this socket got last, when that is the
        # part's previous frame in this process (made once per part, for every socket)
        memo = fanout.hub().memo(self.topic)
        entry = changes.entry(memo, part, mine)
        if entry is None or entry.key < self.sent_key:
            return  # an older frame than this socket has: a client would ignore it
        change = None
        if self.sent is not None and entry.base is self.sent:
            change = entry.change_text(memo)
        self.sent, self.sent_key = entry, entry.key
        await self.send(text_data=change or entry.text)

    async def fanout_resync(self):
        """Broadcasts may have been lost (the fan-out's Redis connection broke): a fresh
        snapshot (not counted against the player's request limit)."""
        try:
            await self.send_snapshot()
        except Exception:  # the database may be down too: the client's own sync remains
            log.warning("resync failed on match %s", self.match_id, exc_info=True)

    async def seat_replaced(self, event):
        """The same player opened this seat in another tab: this one steps aside."""
        self.replaced = True
        await self.send_error("replaced")
        await self.close(code=4009)

    async def seat_left(self, event):
        """The player left the match (``services.match_leave``, any process): this
        socket stops at once (K-X3, issue 16)."""
        self.left = True
        self.replaced = True  # the seat's presence is no longer this socket's to set
        await self.send_error("left")
        await self.close(code=4010)

    async def user_kick(self, event):
        await self.send_error(event.get("reason", "kicked"))
        await self.close(code=4008)
