"""How many sockets one user holds open, across every process (issue 16: one account
opened 1,000 sockets and slowed every other table).

Each process counts its own sockets exactly (``_local``); with ``REDIS_URL`` every
socket is also a member of the user's sorted set in Redis, scored by when it expires
(``SOCKET_TTL`` seconds after it was last refreshed: a process that dies without closing
its sockets stops counting once they expire).  A socket is refused when either count is
at ``KUT_SOCKETS_PER_USER`` already.  The calls are synchronous (one Redis round trip
on the process's client, ``kut_site.redis_client``): callers run them in a thread.

``trim_idle_connections`` gives back the channel layer's idle Redis connections after a
socket closes (a burst of connects grows the layer's pool, which never shrinks).
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings

from kut_site import redis_client

log = logging.getLogger(__name__)

# Seconds a socket counts in Redis without a refresh (the table pings every 25 s; a
# process that died leaves its sockets counted this long at most).
SOCKET_TTL = 120
REFRESH_AFTER = 30
KEEP_IDLE_CONNECTIONS = 4  # idle Redis connections the channel layer may keep

_lock = threading.Lock()
_local: dict[int, int] = {}
_script = None
_ENTER = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""


def limit() -> int:
    return settings.KUT_SOCKETS_PER_USER


def _key(user_id: int) -> str:
    prefix = settings.CACHES["default"].get("KEY_PREFIX", "")
    return f"{prefix}:sockets.{user_id}"


def _enter_script():
    global _script
    client = redis_client.client()
    if _script is None or _script.registered_client is not client:
        _script = client.register_script(_ENTER)
    return _script


def enter(user_id: int, socket_id: str) -> bool:
    """Count a new socket of ``user_id``; False (nothing counted) when the user holds
    ``KUT_SOCKETS_PER_USER`` already, in this process or in all of them.  A Redis that
    cannot be reached leaves the per-process limit alone in force."""
    with _lock:
        if _local.get(user_id, 0) >= limit():
            return False
        _local[user_id] = _local.get(user_id, 0) + 1
    if not settings.REDIS_URL:
        return True
    now = time.time()
    try:
        ok = _enter_script()(
            keys=[_key(user_id)],
            args=[now, now + SOCKET_TTL, limit(), socket_id, SOCKET_TTL],
        )
    except Exception:
        log.warning("socket counter unavailable for user %s", user_id, exc_info=True)
        return True
    if not ok:
        _drop_local(user_id)
    return bool(ok)


def refresh(user_id: int, socket_id: str) -> None:
    """The socket is still open: it counts for another ``SOCKET_TTL`` seconds."""
    if settings.REDIS_URL:
        try:
            client = redis_client.client()
            client.zadd(_key(user_id), {socket_id: time.time() + SOCKET_TTL}, xx=True)
            client.expire(_key(user_id), SOCKET_TTL)
        except Exception:
            log.warning("socket counter refresh failed for user %s", user_id, exc_info=True)


def leave(user_id: int, socket_id: str) -> None:
    """A counted socket closed."""
    _drop_local(user_id)
    if settings.REDIS_URL:
        try:
            redis_client.client().zrem(_key(user_id), socket_id)
        except Exception:
            log.warning("socket counter unavailable for user %s", user_id, exc_info=True)


def _drop_local(user_id: int) -> None:
    with _lock:
        left = _local.get(user_id, 0) - 1
        if left > 0:
            _local[user_id] = left
        else:
            _local.pop(user_id, None)


async def trim_idle_connections(layer, keep: int = KEEP_IDLE_CONNECTIONS) -> int:
    """Close the channel layer's idle Redis connections beyond ``keep`` (this event
    loop's pools; channels-redis keeps every connection a burst opened).  Returns how
    many were closed."""
    import asyncio

    layers = getattr(layer, "_layers", None)
    if not layers:
        return 0
    loop_layer = layers.get(asyncio.get_running_loop())
    if loop_layer is None:
        return 0
    closed = 0
    for redis in list(getattr(loop_layer, "_connections", {}).values()):
        pool = getattr(redis, "connection_pool", None)
        idle = getattr(pool, "_available_connections", None)
        if not isinstance(idle, list):
            continue
        while len(idle) > keep:
            conn = idle.pop(0)  # the longest idle first
            try:
                await conn.disconnect()
            except Exception:  # already broken: dropped all the same
                pass
            closed += 1
    return closed


def reset() -> None:
    """Tests: forget every count (a test's communicators may never have closed)."""
    with _lock:
        _local.clear()
    if settings.REDIS_URL:
        client = redis_client.client()
        keys = list(client.scan_iter(match=_key("*"), count=1000))
        if keys:
            client.delete(*keys)
