"""The test suite's settings: the site's own, plus the toy game (``tests/toygame``),
registered by the one line every new game needs."""

import os

from game.engine import registry

# Parallel runs (pytest-xdist, scripts/test): each worker has its own test database
# (pytest-django's suffix) and, on a shared Redis, its own groups, counters and queue.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
if _WORKER:
    for _name in ("KUT_CHANNEL_PREFIX", "KUT_CACHE_PREFIX", "KUT_CELERY_QUEUE"):
        os.environ.setdefault(_name, f"kut-test-{_WORKER}")

registry.register("toy", "tests.toygame.engine")  # the toy game: its one registration line

from kut_site.settings import *  # noqa: E402, F403  (INSTALLED_APPS follows the registry)
