"""Shared test set-up.

Backends follow the environment exactly as the site does: embedded defaults (SQLite,
in-memory channel layer, local-memory cache) unless ``DATABASE_URL`` / ``REDIS_URL`` are
set, in which case the same tests run on PostgreSQL and Redis. The report header says
which ones this run uses.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config):
    from django.conf import settings

    # Hashing with PBKDF2 at full strength costs ~0.3 s a password on these machines.
    # Tests run in-process with a fast hasher; the start-up test's server keeps the real one.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # The test process's own connections: not pooled.  Tests run the ORM from threads
    # of their own that never give a pooled connection back (daphne's calls and Celery
    # tasks do); the site processes the tests start keep the pool (issue 16).
    settings.DATABASES["default"].get("OPTIONS", {}).pop("pool", None)
    # "Fast bots" (issue 15): in the test process every bot move runs at once unless a
    # test asks for the human pace (``settings.KUT_BOT_DELAY_SECONDS``).
    settings.KUT_BOT_DELAY_SECONDS = 0
    # Issue 31: no analysis queued for every match a test finishes (no worker takes the
    # queue here); the analysis tests turn it on ("inline") or call it themselves.
    settings.KUT_ANALYSIS = "off"
    _flush_survives_deadlocks()


def _is_deadlock(exc: BaseException | None) -> bool:
    while exc is not None:
        if "deadlock detected" in str(exc):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def retry_deadlocks(teardown, attempts: int = 5, pause: float = 0.2):
    """``teardown`` run again (up to ``attempts`` times in all) while it fails on a
    deadlock; any other failure, or the last one, is raised."""
    import functools
    import time

    @functools.wraps(teardown)
    def wrapper(self):
        for attempt in range(attempts):
            try:
                return teardown(self)
            except Exception as exc:
                if attempt == attempts - 1 or not _is_deadlock(exc):
                    raise
                time.sleep(pause * (attempt + 1))

    wrapper._retries_deadlocks = True
    return wrapper


def _flush_survives_deadlocks(attempts: int = 5) -> None:
    """A transactional test ends with ``flush`` (TRUNCATE of every table).  On
    PostgreSQL the live site of the browser and live tests (daphne, the Celery worker
    and its beat sweep every second) keeps reading the same tables, and TRUNCATE's
    table-by-table exclusive locks can close a cycle with such a reader: PostgreSQL
    then aborts one of the two ("deadlock detected").  When the aborted one is the
    flush, nothing was truncated (its transaction rolled back): try again.  A CI run
    failed so (stop 32: ``test_a_timeout_is_never_silent…``'s teardown)."""
    from django.test import TransactionTestCase

    original = TransactionTestCase._fixture_teardown
    if getattr(original, "_retries_deadlocks", False):
        return
    _fixture_teardown = retry_deadlocks(original, attempts)
    TransactionTestCase._fixture_teardown = _fixture_teardown


def pytest_sessionstart(session):
    # before pytest-django sets up the test database: what killed runs left behind
    # would sweep it (tests/orphans.py)
    from tests import orphans

    killed = orphans.reap()
    if killed:
        print(f"reaped {len(killed)} site processes of earlier, killed test runs: {killed}")


def pytest_report_header(config):
    from django.conf import settings

    database = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    cache = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    broker = settings.CELERY_BROKER_URL.split("://", 1)[0]
    return [
        f"kut backends: database={database}, channel layer={layer}, cache={cache}, "
        f"celery broker={broker}"
    ]


BROWSER_FIXTURES = {"page", "context", "browser", "browser_context_args"}


def is_browser_test(item) -> bool:
    return "e2e" in item.path.parts or bool(
        BROWSER_FIXTURES & set(getattr(item, "fixturenames", ()))
    )


@pytest.hookimpl(trylast=True)  # after pytest-django's own reordering
def pytest_collection_modifyitems(items):
    # Browser tests last: pytest-asyncio tests that run after Playwright's event loop
    # fail ("Runner.run() cannot be called from a running event loop").
    items.sort(key=is_browser_test)


@pytest.fixture
def isolated_cache(settings):
    """A cache namespace of this test's own (login counters etc. in Redis or locmem)."""
    caches = {name: dict(config) for name, config in settings.CACHES.items()}
    for config in caches.values():
        config["KEY_PREFIX"] = f"test-{uuid.uuid4().hex}"
    settings.CACHES = caches
    from django.core.cache import cache

    yield cache


@pytest.fixture(autouse=True)
def _no_signup_throttle_unless_tested(settings):
    """Sign-ups and password resets are throttled per address (issue 16), and guests'
    games, previews and moves and the games against the AI (issue 27); every test signs
    up and plays from 127.0.0.1 and, with Redis, the counts outlive a test.  Tests of
    the throttles set their own limits."""
    settings.KUT_SIGNUPS_PER_IP = 10**6
    settings.KUT_PASSWORD_RESETS_PER_IP = 10**6
    settings.KUT_PASSWORD_RESETS_PER_EMAIL = 10**6
    # issue 27 (game.limits): every test's guests come from 127.0.0.1 too
    settings.KUT_GUEST_GAMES_PER_SESSION = settings.KUT_GUEST_GAMES_PER_IP = 10**6
    settings.KUT_PREVIEWS_PER_SESSION = settings.KUT_PREVIEWS_PER_IP = 10**6
    settings.KUT_GUEST_SOCKET_REQUESTS_PER_IP = 10**6
    settings.KUT_AI_GAMES_PER_USER = settings.KUT_AI_GAMES_RUNNING_PER_USER = 10**6


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """channels-redis binds its locks to the event loop that first used the layer; each
    async test runs in a loop of its own, so every test gets a fresh layer instance (and
    fresh fan-out hubs, kut_site.fanout)."""
    from channels.layers import channel_layers

    from kut_site import fanout, sockets

    channel_layers.backends.clear()
    fanout.reset()
    sockets.reset()  # sockets per user (issue 16): no count left by an earlier test
    yield
    channel_layers.backends.clear()
    fanout.reset()
