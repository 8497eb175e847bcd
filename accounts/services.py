"""Account services and selectors (``<entity>_<verb>``)."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.cache import cache
from django.http import HttpRequest

from .models import User


def user_display_name(user: AbstractBaseUser | None) -> str:
    """The name other players see: the display name, else the username."""
    if user is None or not getattr(user, "is_authenticated", False):
        return ""
    return (getattr(user, "display_name", "") or "").strip() or user.get_username()


def user_display_name_update(user: User, display_name: str) -> User:
    user.display_name = display_name.strip()
    user.save(update_fields=["display_name"])
    return user


# ------------------------------------------------------------------ login throttle
# Counters live in the default cache, so with Redis they are shared by every process.


def client_ip(request: HttpRequest | None) -> str:
    """The client's address, as far as this site can trust it (issue 16).

    ``KUT_TRUSTED_PROXIES`` = 0 (the default): the socket's peer, ``REMOTE_ADDR`` (daphne
    without ``--proxy-headers``, straight on the network).  N > 0: the site runs behind N
    proxies, each appending the address it saw to ``X-Forwarded-For``: the client is the
    N-th entry from the right.  Everything left of it was sent by the client and is never
    trusted (daphne's ``--proxy-headers`` would take the *leftmost* entry as
    ``REMOTE_ADDR``, one the client picked: ``kut_site.peer`` keeps the socket's peer
    there instead).  A request with fewer entries did not come through the proxies: the
    socket's peer then."""
    if request is None:
        return "unknown"
    return _client_address(request.META.get("REMOTE_ADDR"),
                           request.META.get("HTTP_X_FORWARDED_FOR", ""))  # fmt: skip


def scope_client_ip(scope: dict) -> str:
    """``client_ip`` for a websocket's ASGI scope (the same trust rules): the peer
    daphne saw, or the N-th entry from the right of ``X-Forwarded-For``."""
    client = scope.get("client") or ()
    forwarded = b", ".join(v for k, v in scope.get("headers") or () if k == b"x-forwarded-for")
    return _client_address(client[0] if client else None, forwarded.decode("latin-1"))


def _client_address(peer: str | None, forwarded_for: str) -> str:
    peer = peer or "unknown"
    trusted = settings.KUT_TRUSTED_PROXIES
    if trusted <= 0:
        return peer
    forwarded = [a.strip() for a in forwarded_for.split(",")]
    forwarded = [a for a in forwarded if a]
    if len(forwarded) < trusted:
        return peer
    return forwarded[-trusted][:64]


def _key(kind: str, value: str) -> str:
    digest = hashlib.sha256(value.strip().lower().encode()).hexdigest()[:32]
    return f"kut.login-failures.{kind}.{digest}"


def _keys(username: str, ip: str) -> list[tuple[str, int]]:
    keys = [(_key("ip", ip), settings.KUT_LOGIN_FAILURES_PER_IP)]
    if username:
        keys.append((_key("user", username), settings.KUT_LOGIN_FAILURES_PER_USERNAME))
    return keys


def login_is_throttled(username: str, ip: str) -> bool:
    """True when this address used up its failures for the window, or this username did
    and this address has failed too.  An address with no recent failure may still try a
    throttled username (issue 16: five wrong passwords a minute from anywhere must not
    lock the owner out); its first failure ends that."""
    keys = _keys(username, ip)
    counts = cache.get_many([key for key, _limit in keys])
    ip_key, ip_limit = keys[0]
    ip_failures = counts.get(ip_key, 0)
    if ip_failures >= ip_limit:
        return True
    return ip_failures > 0 and any(counts.get(key, 0) >= limit for key, limit in keys[1:])


def login_failure_record(username: str, ip: str) -> None:
    """Count one failed login; the window starts with the first failure."""
    window = settings.KUT_LOGIN_WINDOW_SECONDS
    for key, _limit in _keys(username, ip):
        if not cache.add(key, 1, timeout=window):
            try:
                cache.incr(key)
            except ValueError:  # expired between add() and incr()
                cache.add(key, 1, timeout=window)


def login_failures_clear(username: str) -> None:
    """A successful login forgives that username's earlier failures (not the address's)."""
    cache.delete(_key("user", username))


# ------------------------------------------------- sign-up and password reset throttle


def _hashed(value: str) -> str:
    return hashlib.sha256(value.strip().lower().encode()).hexdigest()[:32]


def request_allowed(kind: str, *, limits: list[tuple[str, int]], window: int) -> bool:
    """Count one request of ``kind`` against each ``(value, limit)`` (an address, an
    e-mail…) in the current ``window`` (shared by every process, kut_site.counters);
    False when any is over its limit (issue 16: 15 accounts in 7 s, 10 reset mails to
    one address in a row).  A store that cannot be reached lets the request through."""
    from kut_site import counters

    allowed = True
    for value, limit in limits:
        try:
            count = counters.hit(f"{kind}.{_hashed(value)}", window)
        except Exception:
            return True
        allowed = allowed and count <= limit
    return allowed


def user_bot_level_remember(user, level: str) -> None:
    """The bots' level ``user`` just chose (``easy``/``normal``/``hard``): *Hemen Oyna*
    plays its match against bots at it (issue 29).  Anything else is ignored."""
    if user is None or not getattr(user, "is_authenticated", False):
        return
    if level in ("easy", "normal", "hard") and user.bot_level != level:
        user.bot_level = level
        User.objects.filter(pk=user.pk).update(bot_level=level)
