"""One synchronous Redis client per process (``REDIS_URL``), for the site's own small
Redis calls from sync code: shared counters (``kut_site.counters``) and publishing to
the fan-out (``kut_site.fanout``).  Its connection pool is thread-safe; building a
client per call (as Django's cache does) costs more than the call itself.
"""

from __future__ import annotations

import threading

from django.conf import settings

_lock = threading.Lock()
_clients: dict[str, object] = {}


def client():
    """The process's client for ``settings.REDIS_URL`` (made on first use)."""
    url = settings.REDIS_URL
    found = _clients.get(url)
    if found is None:
        with _lock:
            found = _clients.get(url)
            if found is None:
                import redis

                # threads wait for a free connection rather than fail past the limit
                pool = redis.BlockingConnectionPool.from_url(
                    url, max_connections=64, timeout=5, socket_timeout=5
                )
                found = _clients[url] = redis.Redis(connection_pool=pool)
    return found
