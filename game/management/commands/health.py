"""The health checks of the Celery processes, for a supervisor (``deploy/systemd``)::

    python manage.py health --worker [--name worker@host]   # the worker answers a ping
    python manage.py health --beat [--max-age 180]          # beat is scheduling

Exit status 0: healthy, or nothing this process could mend (the broker is down: restarting
the worker or beat would not bring Redis back); 1: restart it.  One line on stdout (0)
or stderr (1) says why.

* ``--worker``: the worker named ``--name`` (any worker without it) answers a ``ping``
  over the broker within ``--timeout`` seconds (what ``celery inspect ping`` does), so a
  worker that is alive but no longer consumes (issue 27: one that lost the broker for
  good) is told from a busy one.
* ``--beat``: beat sends ``kut_site.heartbeat`` every minute and the worker that runs it
  records the time in the cache (``kut_site.celery.HEARTBEAT_KEY``).  A heartbeat older than
  ``--max-age`` seconds while a worker answers means beat is not scheduling.  When no
  worker answers, the worker's own check restarts the worker, not beat.  No heartbeat
  recorded at all (a new Redis, or the first minute after Redis lost its keys) is not
  judged.
"""

from __future__ import annotations

import time

from django.core.cache import cache
from django.core.management.base import BaseCommand, CommandError


def broker_reachable(app, timeout: float) -> bool:
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=timeout)
        return True
    except Exception:
        return False


def ping(app, name: str | None, timeout: float) -> list[str]:
    """The names of the workers that answered."""
    replies = app.control.ping(destination=[name] if name else None, timeout=timeout)
    return [node for reply in replies or [] for node in reply]


class Command(BaseCommand):
    help = "Health check of the Celery worker (--worker) or of beat (--beat): exit 1 = restart it."

    def add_arguments(self, parser):
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--worker", action="store_true", help="the worker answers a ping")
        which.add_argument("--beat", action="store_true", help="beat's heartbeat is recent")
        parser.add_argument("--name", help="the worker's node name (-n), e.g. worker@host")
        parser.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS")
        parser.add_argument("--max-age", type=float, default=180.0, metavar="SECONDS",
                            help="--beat: the oldest acceptable heartbeat")  # fmt: skip

    def handle(self, *args, worker: bool, beat: bool, name: str | None, timeout: float,
               max_age: float, **options):  # fmt: skip
        from kut_site.celery import HEARTBEAT_KEY, app

        if not broker_reachable(app, timeout):
            self.stdout.write("the broker is unreachable: not this process's fault")
            return
        answered = ping(app, name, timeout)
        if worker:
            if not answered:
                raise CommandError(f"no worker answered a ping in {timeout:.0f} s"
                                   + (f" ({name})" if name else ""), returncode=1)  # fmt: skip
            self.stdout.write(f"ok: {', '.join(sorted(answered))}")
            return
        if not answered:
            self.stdout.write("no worker answers: the worker's own check restarts it")
            return
        stamp = cache.get(HEARTBEAT_KEY)
        if stamp is None:
            self.stdout.write("no heartbeat recorded yet: not judged")
            return
        age = time.time() - float(stamp)
        if age > max_age:
            raise CommandError(f"the last heartbeat is {age:.0f} s old (more than "
                               f"{max_age:.0f} s): beat is not scheduling", returncode=1)  # fmt: skip
        self.stdout.write(f"ok: heartbeat {age:.0f} s ago")
