"""Slow HTTP clients are cut off (issue 16: 1,500 connections that sent a partial
request head were held for 70 s each).

What closes such a connection under daphne is Twisted's ``HTTPChannel``: its only
timer is an *idle* timeout (``HTTPFactory.timeOut``, 60 s, not a daphne option), which
every byte received starts again: a client sending one byte of header a minute is
never cut off.  daphne's ``--http-timeout`` only limits how long the *application*
takes once the request is in.

``install`` (called by ``kut_site.asgi`` inside a daphne process) adds a deadline:
a request must arrive whole (head and body) within ``KUT_HTTP_REQUEST_SECONDS`` of
the connection opening or of the previous response; otherwise the connection is
aborted.  The idle timeout becomes ``KUT_HTTP_IDLE_SECONDS``.  A websocket upgrade is
a complete request as soon as its head is in: the socket itself is not limited.
"""

from __future__ import annotations

import logging
import os

log = logging.getLogger(__name__)

_installed = False


def _seconds(name: str, default: float) -> float:
    from django.conf import settings

    return float(getattr(settings, name, default))


def install() -> None:
    global _installed
    if _installed:
        return
    from twisted.internet import reactor
    from twisted.web import http

    request_seconds = _seconds("KUT_HTTP_REQUEST_SECONDS", 10)
    idle_seconds = _seconds("KUT_HTTP_IDLE_SECONDS", 30)
    channel = http.HTTPChannel
    made, done, content = channel.connectionMade, channel.requestDone, channel.allContentReceived
    factory_init = http.HTTPFactory.__init__

    def _arm(self) -> None:
        _disarm(self)
        self._kut_deadline = reactor.callLater(request_seconds, _expire, self)

    def _disarm(self) -> None:
        call = getattr(self, "_kut_deadline", None)
        if call is not None and call.active():
            call.cancel()
        self._kut_deadline = None

    def _expire(self) -> None:
        self._kut_deadline = None
        if self._handlingRequest or self.transport is None:
            return
        log.info("cutting off a slow HTTP client (no whole request in %s s)", request_seconds)
        self.transport.abortConnection()

    def connectionMade(self):
        made(self)
        _arm(self)

    def allContentReceived(self):
        _disarm(self)  # the request is in: the application's time is --http-timeout's
        return content(self)

    def requestDone(self, request):
        result = done(self, request)
        if self.persistent and not self._handlingRequest:
            _arm(self)  # keep-alive: the next request has the same deadline
        return result

    def connectionLost(self, reason, _lost=channel.connectionLost):
        _disarm(self)
        return _lost(self, reason)

    def factory__init__(self, *args, **kwargs):
        factory_init(self, *args, **kwargs)
        self.timeOut = idle_seconds

    channel.connectionMade = connectionMade
    channel.allContentReceived = allContentReceived
    channel.requestDone = requestDone
    channel.connectionLost = connectionLost
    http.HTTPFactory.__init__ = factory__init__
    _installed = True


def under_daphne() -> bool:
    import sys

    return "daphne.cli" in sys.modules or os.environ.get("KUT_SLOW_CLIENT_LIMITS") == "1"
