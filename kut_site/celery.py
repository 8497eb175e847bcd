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


def _atomic_filesystem_put() -> None:
    """kombu's filesystem transport creates a message file and then writes it, so a
    polling worker can read it empty and die with ``JSONDecodeError`` (seen within a
    minute with a one-second beat).  Write to a hidden temporary name, then rename: the
    worker only ever sees whole messages.  Used by the embedded (no broker) set-up."""
    import uuid
    from time import monotonic

    from kombu.transport import filesystem
    from kombu.utils.encoding import str_to_bytes
    from kombu.utils.json import dumps

    if getattr(filesystem.Channel._put, "kut_atomic", False):
        return

    def _put(self, queue, payload, **kwargs):
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        temp = os.path.join(self.data_folder_out, "." + name + ".tmp")  # never listed
        with open(temp, "wb") as fh:
            fh.write(str_to_bytes(dumps(payload)))
        os.replace(temp, final)

    _put.kut_atomic = True
    filesystem.Channel._put = _put


@app.on_after_configure.connect
def _make_filesystem_broker_folders(sender: Celery, **kwargs) -> None:
    """kombu's filesystem transport expects its folders to exist."""
    options = sender.conf.broker_transport_options or {}
    for key in ("data_folder_in", "data_folder_out"):
        folder = options.get(key)
        if folder:
            os.makedirs(folder, exist_ok=True)
    if str(sender.conf.broker_url or "").startswith("filesystem"):
        _atomic_filesystem_put()  # in every process that publishes (web, beat, worker)


HEARTBEAT_KEY = "kut.celery.heartbeat"


@app.task(name="kut_site.heartbeat", ignore_result=True)
def heartbeat() -> float:
    """A harmless periodic task: proves beat -> broker -> worker works.  The time stays
    in the cache (no expiry: an old one is the news) for ``manage.py health --beat``."""
    from django.core.cache import cache

    now = time.time()
    cache.set(HEARTBEAT_KEY, now, timeout=None)
    logger.info("KÜT heartbeat %.0f", now)
    return now
