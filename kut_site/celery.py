"""The Celery app (``celery -A kut_site worker`` / ``celery -A kut_site beat``).

Configuration comes from Django settings under the ``CELERY_`` namespace; tasks are
autodiscovered from each installed app's ``tasks`` module.
"""

from __future__ import annotations

import logging
import os
import time

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kut_site.settings")

logger = logging.getLogger(__name__)

app = Celery("kut_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_configure.connect
def _make_filesystem_broker_folders(sender: Celery, **kwargs) -> None:
    """kombu's filesystem transport expects its folders to exist."""
    options = sender.conf.broker_transport_options or {}
    for key in ("data_folder_in", "data_folder_out"):
        folder = options.get(key)
        if folder:
            os.makedirs(folder, exist_ok=True)


@app.task(name="kut_site.heartbeat", ignore_result=True)
def heartbeat() -> float:
    """A harmless periodic task: proves beat -> broker -> worker works."""
    from django.core.cache import cache

    now = time.time()
    cache.set("kut.celery.heartbeat", now, timeout=600)
    logger.info("KÜT heartbeat %.0f", now)
    return now
