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
    """The client's address as the server saw it (run daphne with --proxy-headers behind a
    trusted proxy so this is the real client, never a client-chosen header)."""
    if request is None:
        return "unknown"
    return request.META.get("REMOTE_ADDR") or "unknown"


def _key(kind: str, value: str) -> str:
    digest = hashlib.sha256(value.strip().lower().encode()).hexdigest()[:32]
    return f"kut.login-failures.{kind}.{digest}"


def _keys(username: str, ip: str) -> list[tuple[str, int]]:
    keys = [(_key("ip", ip), settings.KUT_LOGIN_FAILURES_PER_IP)]
    if username:
        keys.append((_key("user", username), settings.KUT_LOGIN_FAILURES_PER_USERNAME))
    return keys


def login_is_throttled(username: str, ip: str) -> bool:
    """True when this username or this address used up its failures for the window."""
    keys = _keys(username, ip)
    counts = cache.get_many([key for key, _limit in keys])
    return any(counts.get(key, 0) >= limit for key, limit in keys)


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
