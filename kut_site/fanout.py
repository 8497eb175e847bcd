"""Fan-out of ready frames to the sockets of a topic: one delivery per process.

A topic is, say, one match's sockets (``game.broadcast``).  The publisher hands over
the frames already rendered, one text per *part* (a match: the four seats' frames and
the watchers' frame); every process holding sockets of the topic receives the message
ONCE, reads it once and gives each of its sockets its own part.  Nothing here is
specific to one game.

Why not a channel-layer group: channels-redis delivers a group message once per socket
— a Redis list push for each, and in the receiving process a blocking pop, a decode and
a consumer dispatch for each — which was a fifth of the web process's CPU per move and
most of Redis's (tools/load, issue 10).  Here a change costs one ``PUBLISH`` from the
thread that committed it, and per process one message read.

* With ``REDIS_URL``: Redis pub/sub, channel ``<KUT_CHANNEL_PREFIX>.fanout.<topic>``;
  a process subscribes to exactly the topics its sockets belong to (several daphne
  processes behind a proxy each get what their own sockets need).
* Without it (the embedded set-up: one web process): delivered within the process.

Delivery is at most once, as on any channel layer: frames carry the match version, and a
client that sees a gap asks for a snapshot.  When a process's subscription breaks
(Redis restarted or unreachable) it reconnects and then asks every one of its members
to ``fanout_resync`` (send its socket a fresh snapshot), because whatever was published
meanwhile is gone.

A member is any object with two coroutine methods::

    async def fanout_deliver(self, parts: list[str]) -> None
    async def fanout_resync(self) -> None
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import weakref
from collections.abc import Sequence

import msgpack
from django.conf import settings

log = logging.getLogger(__name__)

SUBSCRIBE_WAIT_SECONDS = 2.0  # join() waits this long at most for Redis to confirm
RECONNECT_DELAYS = (0.2, 0.5, 1.0, 2.0)  # then every 2 s
PUBLISH_CONNECTIONS = 16  # per event loop, for publishing from async code


def _prefix() -> str:
    prefix = settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("prefix") or "site"
    return f"{prefix}.fanout."


def _encode(parts: Sequence[str | None]) -> bytes:
    return msgpack.packb(list(parts), use_bin_type=True)


def _decode(data: bytes) -> list:
    return msgpack.unpackb(data, raw=False)


class Hub:
    """The members of each topic in one event loop (one daphne process), and in Redis
    mode that loop's one subscription connection."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self._loop = weakref.ref(loop)
        self.topics: dict[str, weakref.WeakSet] = {}
        # per topic, what its members keep between messages (``memo``)
        self.memos: dict[str, dict] = {}
        self.redis_mode = bool(settings.REDIS_URL)
        self.prefix = _prefix()
        # the subscription connection's name in Redis (CLIENT LIST)
        self.client_name = f"{self.prefix}{os.getpid()}.{id(self):x}"
        self._lock = asyncio.Lock()
        self._pubsub = None
        self._client = None
        self._publisher = None
        self._reader: asyncio.Task | None = None
        self._subscribed: set[str] = set()  # channels asked for on this connection
        self._broken = False
        self._waiting: dict[str, asyncio.Future] = {}
        self._wake = asyncio.Event()

    @property
    def loop(self):
        return self._loop()

    # -- members --------------------------------------------------------------------
    async def join(self, topic: str, member) -> None:
        """Add ``member`` to ``topic``; in Redis mode, return once this process is
        subscribed (so nothing published after a snapshot read can be missed)."""
        self.topics.setdefault(topic, weakref.WeakSet()).add(member)
        if self.redis_mode:
            await self._reconcile(topic)

    async def leave(self, topic: str, member) -> None:
        members = self.topics.get(topic)
        if members is not None:
            members.discard(member)
            if not members:
                del self.topics[topic]
                self.memos.pop(topic, None)
        if self.redis_mode:
            await self._reconcile(topic)

    def memo(self, topic: str) -> dict:
        """A dict the members of ``topic`` in this process share between messages (the
        match sockets keep each part's last frame there, ``game.changes``); dropped
        with the topic's last member."""
        found = self.memos.get(topic)
        if found is None:
            found = self.memos[topic] = {}
        return found

    async def deliver(self, topic: str, parts: list) -> None:
        members = self.topics.get(topic)
        if not members:
            return
        for member in list(members):
            try:
                await member.fanout_deliver(parts)
            except Exception:  # a socket closing under us: the others still get theirs
                log.debug("fan-out delivery to %r failed", member, exc_info=True)

    # -- Redis subscription ---------------------------------------------------------
    async def _reconcile(self, topic: str) -> None:
        """Subscribe to ``topic`` while it has members here, unsubscribe when not."""
        channel = self.prefix + topic
        waiter = None
        async with self._lock:
            want = bool(self.topics.get(topic))
            try:
                await self._ensure_connection()
                if want and channel not in self._subscribed:
                    waiter = self._waiting.setdefault(channel, self.loop.create_future())
                    await self._pubsub.subscribe(channel)
                    self._subscribed.add(channel)
                    self._wake.set()
                elif not want and channel in self._subscribed:
                    self._subscribed.discard(channel)
                    await self._pubsub.unsubscribe(channel)
                elif want:
                    waiter = self._waiting.get(channel)
            except Exception:  # the reader reconnects and subscribes every topic
                log.warning("fan-out: could not (un)subscribe %s", channel, exc_info=True)
                self._broken = True
                self._wake.set()
                return
        if waiter is not None:
            try:
                await asyncio.wait_for(asyncio.shield(waiter), SUBSCRIBE_WAIT_SECONDS)
            except TimeoutError:
                log.warning("fan-out: Redis did not confirm the subscription to %s", channel)

    async def _ensure_connection(self) -> None:
        if self._pubsub is None:
            import redis.asyncio as aioredis
            from redis.asyncio.retry import Retry
            from redis.backoff import NoBackoff

            # No silent retries: a broken subscription must be noticed (and members
            # resynced), not quietly re-established with messages lost in between.
            self._client = aioredis.Redis.from_url(
                settings.REDIS_URL, socket_timeout=None, socket_connect_timeout=5,
                retry=Retry(NoBackoff(), 0), client_name=self.client_name,
            )  # fmt: skip
            self._pubsub = self._client.pubsub()
        if self._reader is None or self._reader.done():
            self._reader = self.loop.create_task(self._read())

    async def _read(self) -> None:
        failures = 0
        while True:
            try:
                if self._broken:
                    await self._resubscribe()
                    failures = 0
                if not self._subscribed:
                    self._wake.clear()
                    await self._wake.wait()
                    continue
                message = await self._pubsub.get_message(timeout=30.0)
                if message is None:
                    continue
                kind = message["type"]
                channel = message["channel"].decode()
                if kind == "message":
                    await self.deliver(channel[len(self.prefix) :], _decode(message["data"]))
                elif kind == "subscribe":
                    waiter = self._waiting.pop(channel, None)
                    if waiter is not None and not waiter.done():
                        waiter.set_result(None)
            except asyncio.CancelledError:
                raise
            except Exception:
                self._broken = True
                delay = RECONNECT_DELAYS[min(failures, len(RECONNECT_DELAYS) - 1)]
                failures += 1
                log.warning("fan-out: Redis subscription lost; again in %.1f s", delay,
                            exc_info=failures == 1)  # fmt: skip
                await asyncio.sleep(delay)

    async def _resubscribe(self) -> None:
        """A new connection, every topic of this process subscribed again, and every
        member told to resync (what was published meanwhile is lost)."""
        async with self._lock:
            old, self._pubsub = self._pubsub, self._client.pubsub()
            try:
                await old.aclose()
            except Exception:
                pass
            self._subscribed = {self.prefix + t for t, members in self.topics.items() if members}
            if self._subscribed:
                await self._pubsub.subscribe(*self._subscribed)  # raises if still down
            self._broken = False
        log.info("fan-out: subscription back (%d topics); resyncing", len(self._subscribed))
        for members in list(self.topics.values()):
            for member in list(members):
                try:
                    await member.fanout_resync()
                except Exception:
                    log.debug("fan-out resync of %r failed", member, exc_info=True)

    async def publish(self, topic: str, parts: Sequence[str | None]) -> None:
        if not self.redis_mode:
            await self.deliver(topic, list(parts))
            return
        if self._publisher is None:
            import redis.asyncio as aioredis

            # Many sockets may publish at once: they wait for one of a few connections
            # (a plain pool refuses past its limit: "Too many connections").
            pool = aioredis.BlockingConnectionPool.from_url(
                settings.REDIS_URL, max_connections=PUBLISH_CONNECTIONS, timeout=5,
                socket_timeout=5,
            )  # fmt: skip
            self._publisher = aioredis.Redis(connection_pool=pool)
        await self._publisher.publish(self.prefix + topic, _encode(parts))

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        for closing in (self._pubsub, self._client, self._publisher):
            if closing is not None:
                try:
                    await closing.aclose()
                except Exception:
                    pass


_hubs: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_hubs_lock = threading.Lock()


def hub() -> Hub:
    """The hub of the running event loop (made on first use)."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        with _hubs_lock:
            found = _hubs.setdefault(loop, Hub(loop))
    return found


async def join(topic: str, member) -> None:
    await hub().join(topic, member)


async def leave(topic: str, member) -> None:
    await hub().leave(topic, member)


async def apublish(topic: str, parts: Sequence[str | None]) -> None:
    """``publish`` from async code, on this event loop's connection (in the embedded
    set-up: to this loop's members)."""
    await hub().publish(topic, parts)


def publish(topic: str, parts: Sequence[str | None]) -> None:
    """Send ``parts`` to every member of ``topic`` in every process.  Sync code only
    (a worker thread, Celery, a management command): in Redis mode one ``PUBLISH`` on
    the process's sync client; else handed to this process's event loops.  Raises
    when Redis cannot be reached (the caller logs it: a committed change stays)."""
    if settings.REDIS_URL:
        from kut_site import redis_client

        redis_client.client().publish(_prefix() + topic, _encode(parts))
        return
    decoded = list(parts)
    with _hubs_lock:
        hubs = list(_hubs.items())
    for loop, found in hubs:
        if topic not in found.topics:
            continue
        try:
            asyncio.run_coroutine_threadsafe(found.deliver(topic, decoded), loop)
        except RuntimeError:  # that loop is closed
            with _hubs_lock:
                _hubs.pop(loop, None)


def reset() -> None:
    """Forget every hub (tests: each test runs its own event loop)."""
    with _hubs_lock:
        _hubs.clear()
