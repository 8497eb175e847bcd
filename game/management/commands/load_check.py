"""What the database says about the load harness's matches (``tools/load``), as JSON::

    python manage.py load_check --matches 17,18,19 [--wait-disconnected 30] [--abort]

Per match: its status and version and the whole action log as
``[version, seat, kind, actor]`` rows in version order, so that the harness can compare
each client's acknowledged actions with what was stored and check that versions run
1, 2, 3… without a gap or a double.  ``--wait-disconnected S`` first waits up to S
seconds until no seat of these matches is marked connected (the clients have closed:
how long the server takes to process the disconnects).  ``--abort`` then stops the still-running ones
(``services.match_abort``) so that a finished run leaves nothing for the sweep.
"""

from __future__ import annotations

import json
import time

from django.core.management.base import BaseCommand, CommandError

from game import services
from game.models import Match, MatchAction, MatchSeat


class Command(BaseCommand):
    help = "Print the status, version and action log of load-test matches as JSON."

    def add_arguments(self, parser):
        parser.add_argument("--matches", required=True, help="comma-separated match ids")
        parser.add_argument("--abort", action="store_true", help="then abort running ones")
        parser.add_argument("--wait-disconnected", type=float, default=0.0, metavar="SECONDS")

    def handle(self, *args, matches: str, abort: bool, wait_disconnected: float, **options):
        try:
            ids = sorted({int(x) for x in matches.split(",") if x.strip()})
        except ValueError:
            raise CommandError("--matches takes comma-separated integers") from None
        t0 = time.monotonic()
        connected = MatchSeat.objects.filter(match_id__in=ids, connected=True)
        still = connected.count()
        while still and time.monotonic() - t0 < wait_disconnected:
            time.sleep(0.25)
            still = connected.count()
        waited = round(time.monotonic() - t0, 2)
        rows = {
            m["pk"]: {"id": m["pk"], "status": m["status"], "version": m["version"], "log": []}
            for m in Match.objects.filter(pk__in=ids).values("pk", "status", "version")
        }
        log = (
            MatchAction.objects.filter(match_id__in=ids, layout_version=0)  # shared changes
            .order_by("match_id", "version")
            .values_list("match_id", "version", "seat", "kind", "actor")
        )
        for mid, version, seat, kind, actor in log.iterator(chunk_size=5000):
            rows[mid]["log"].append([version, seat, kind, actor])
        aborted = 0
        if abort:
            for mid, row in rows.items():
                if row["status"] in (Match.Status.PLAYING, Match.Status.BETWEEN):
                    try:
                        services.match_abort(mid)
                        aborted += 1
                    except services.ServiceError:
                        pass
        missing = [i for i in ids if i not in rows]
        out = {"matches": list(rows.values()), "missing": missing, "aborted": aborted,
               "still_connected": still, "disconnect_wait_seconds": waited}  # fmt: skip
        json.dump(out, self.stdout)
        self.stdout.write("")
