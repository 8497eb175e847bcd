"""The test database's flush survives a deadlock with the live site (tests/conftest.py).

On PostgreSQL a transactional test's teardown (TRUNCATE of every table) can deadlock with
the live site's beat sweep; PostgreSQL aborts one of the two.  A CI run failed when it
aborted the flush (stop 32): the teardown now tries again, and only on a deadlock."""

from __future__ import annotations

import pytest
from django.core.management.base import CommandError
from django.db import OperationalError
from django.test import TransactionTestCase

from tests.conftest import retry_deadlocks


def _failing(errors: list[BaseException]):
    calls = []

    def teardown(self):
        calls.append(self)
        if errors:
            raise errors.pop(0)
        return "flushed"

    return teardown, calls


def _deadlock() -> CommandError:
    try:
        try:
            raise OperationalError("deadlock detected\nDETAIL: Process 1 waits for ...")
        except OperationalError as exc:
            raise CommandError("Database test_test couldn't be flushed.") from exc
    except CommandError as error:
        return error


def test_a_flush_that_lost_a_deadlock_is_run_again():
    teardown, calls = _failing([_deadlock(), _deadlock()])
    assert retry_deadlocks(teardown, attempts=5, pause=0)("case") == "flushed"
    assert calls == ["case"] * 3


def test_other_failures_and_the_last_deadlock_are_raised():
    teardown, calls = _failing([CommandError("the SQL was invalid")])
    with pytest.raises(CommandError, match="invalid"):
        retry_deadlocks(teardown, attempts=5, pause=0)("case")
    assert len(calls) == 1
    teardown, calls = _failing([_deadlock() for _ in range(3)])
    with pytest.raises(CommandError) as raised:
        retry_deadlocks(teardown, attempts=3, pause=0)("case")
    assert isinstance(raised.value.__cause__, OperationalError) and len(calls) == 3


def test_every_transactional_test_tears_down_through_the_retry():
    assert getattr(TransactionTestCase._fixture_teardown, "_retries_deadlocks", False)
