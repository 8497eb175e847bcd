"""Calls released together from threads with their own database connections (and so
their own transactions): the race tests' one way to make two writers overlap
(tests/game/test_claim_race.py, tests/game/test_guest_race.py)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable

from django.db import IntegrityError, connection

from game import services
from game.engine.errors import EngineError


def in_threads(calls: dict[Hashable, Callable[[], object]], timeout: float = 30) -> dict:
    """Run each call in a thread of its own, all released by one barrier.  Returns, per
    key, None (it went through) or the code it was refused with (``integrity_error``:
    the database refused a second writer that the service let through)."""
    barrier = threading.Barrier(len(calls))
    outcome: dict = {}

    def run(key, call):
        try:
            barrier.wait(timeout=10)
            call()
            outcome[key] = None
        except (services.ServiceError, EngineError) as exc:
            outcome[key] = exc.code
        except IntegrityError:
            outcome[key] = "integrity_error"
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=item) for item in calls.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    assert len(outcome) == len(calls), "a racing thread hung"
    return outcome
