"""The Celery queues' names, read by the settings and by the scripts that start a worker
(``scripts/devstack.py``, the browser tests' site) without Django: the site's queue
(``KUT_CELERY_QUEUE``) and, issue 31, the analysis queue of its own."""

from __future__ import annotations

from collections.abc import Mapping


def default_queue(env: Mapping[str, str]) -> str:
    return env.get("KUT_CELERY_QUEUE") or "celery"


def analysis_queue(env: Mapping[str, str]) -> str:
    """``KUT_ANALYSIS_QUEUE``, else ``analysis`` — or ``<site queue>-analysis`` for a site
    (or test run) with a queue of its own on a shared Redis."""
    site = default_queue(env)
    return env.get("KUT_ANALYSIS_QUEUE") or ("analysis" if site == "celery" else f"{site}-analysis")


def worker_queues(env: Mapping[str, str]) -> str:
    """``-Q`` of a worker that does everything (the embedded set-up's one worker)."""
    return f"{default_queue(env)},{analysis_queue(env)}"
