"""``manage.py health``: the supervisor's checks of the Celery worker and beat (README,
Production: restart policy; ``deploy/systemd``).  Exit 1 means "restart it"; a process
is never blamed for a broker that is down, nor beat for a worker that does not answer.
The live worker answers in ``tests/game/test_celery_live.py``."""

from __future__ import annotations

import time

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from game.management.commands import health
from kut_site.celery import HEARTBEAT_KEY, heartbeat


@pytest.fixture
def world(monkeypatch, isolated_cache):
    """The broker's and the workers' answers, as the test says."""
    state = {"broker": True, "workers": ["worker@host"]}
    monkeypatch.setattr(health, "broker_reachable", lambda app, timeout: state["broker"])
    monkeypatch.setattr(health, "ping", lambda app, name, timeout: [
        w for w in state["workers"] if name in (None, w)])  # fmt: skip
    state["cache"] = isolated_cache
    return state


def run(*args: str) -> str:
    from io import StringIO

    out = StringIO()
    call_command("health", *args, stdout=out)
    return out.getvalue()


def test_a_worker_that_answers_is_healthy_one_that_does_not_is_restarted(world):
    assert run("--worker").startswith("ok: worker@host")
    assert run("--worker", "--name", "worker@host").startswith("ok")
    with pytest.raises(CommandError, match="no worker answered") as exc:
        run("--worker", "--name", "worker@other")
    assert exc.value.returncode == 1
    world["workers"] = []
    with pytest.raises(CommandError):
        run("--worker")


def test_nothing_is_restarted_while_the_broker_is_down(world):
    world["broker"] = False
    world["workers"] = []
    assert "unreachable" in run("--worker")
    assert "unreachable" in run("--beat")


def test_beat_is_judged_by_the_heartbeat_age(world):
    assert "not judged" in run("--beat")  # nothing recorded yet (a new Redis)
    heartbeat.apply()  # what the worker does when beat sends it
    assert run("--beat").startswith("ok: heartbeat 0 s ago")
    world["cache"].set(HEARTBEAT_KEY, time.time() - 200, timeout=None)
    with pytest.raises(CommandError, match="beat is not scheduling") as exc:
        run("--beat")
    assert exc.value.returncode == 1
    assert run("--beat", "--max-age", "300").startswith("ok")
    world["workers"] = []  # the worker is down: its own check restarts it, not beat
    assert "no worker answers" in run("--beat")


def test_the_heartbeat_never_expires(world, monkeypatch):
    """A dead beat must stay visible: the last heartbeat stays until a new one."""
    from django.core.cache import caches

    seen = {}
    monkeypatch.setattr(caches["default"], "set", lambda key, value, timeout=0: seen.update(
        {key: timeout}))  # fmt: skip
    heartbeat.apply()
    assert seen == {HEARTBEAT_KEY: None}


def test_one_of_worker_or_beat_is_required():
    with pytest.raises(CommandError):
        call_command("health")
