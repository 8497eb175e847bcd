"""Counters shared by every process, in fixed time windows (rate limits).

With ``REDIS_URL`` a hit is ONE Redis round trip (a script: ``INCR``, and ``EXPIRE`` on
the window's first hit) on the process's one client (``kut_site.redis_client``).
Django's Redis cache would cost three (``add``, then ``exists`` + ``incr``) and a new
client object per call, and its per-context cache handles gave every socket its own
connection pool: about a tenth of a move's server time (tools/load, issue 10).  Without Redis (the embedded set-up, one web process) the
Django cache (local memory) holds the counts.
"""

from __future__ import annotations

import time

from django.conf import settings

from kut_site import redis_client

_script = None
_HIT = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return count
"""


def _hit_script():
    global _script
    client = redis_client.client()
    if _script is None or _script.registered_client is not client:
        _script = client.register_script(_HIT)
    return _script


def hit(name: str, window: int) -> int:
    """Count one hit of ``name`` in the current ``window`` (seconds, aligned to the
    clock) and return the window's count so far, this hit included.  Raises when the
    store cannot be reached (the caller decides whether to fail open)."""
    prefix = settings.CACHES["default"].get("KEY_PREFIX", "")  # tests: isolated_cache
    key = f"{prefix}:count.{name}.{int(time.time() // window)}"
    if settings.REDIS_URL:
        return int(_hit_script()(keys=[key], args=[2 * window]))
    from django.core.cache import cache

    try:
        return cache.incr(key)
    except ValueError:  # the window's first hit
        return 1 if cache.add(key, 1, timeout=2 * window) else cache.incr(key)
