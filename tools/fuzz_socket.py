"""Fuzz the match socket: ``python tools/fuzz_socket.py --frames 20000``.

Plays matches of four human seats through ``kut_site.asgi.application`` (in-process
websockets, the real consumer, services and engine) while hypothesis draws every frame:
legal moves, valid moves at the wrong time or from the wrong seat, other seats' and the
deck's tile ids, mutated moves, random JSON, unicode, huge numbers, deep nesting,
binary and oversized frames.  After each frame it checks that the socket is still open
and answered, that a bad frame got exactly one error frame and changed nothing, that
the version moved by one exactly when a frame was accepted, and that all 106 tiles are
accounted for; after each match, that the log replays to the state (the oracle is in
``tests/security/fuzzkit.py``; CI runs a sample of it in
``tests/security/test_fuzz_socket.py``).

Backends follow the environment as the site's do (``DATABASE_URL``, ``REDIS_URL``;
SQLite and the in-memory layer without them).  The run uses a database of its own
(created and dropped here: ``test_fuzz_<pid>``) and, on Redis, a channel-layer prefix
of its own, so it can run beside the site and other tests.  Exit status 0: no crash, no
lost tile, every check held.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kut_site.settings")
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("LOG_LEVEL", "ERROR")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=20000, help="frames to send")
    parser.add_argument("--batch", type=int, default=25, help="frames per hypothesis example")
    parser.add_argument("--seed", type=int, default=None,
                        help="hypothesis seed: the same seed replays the same run (default: "
                        "a random one, printed)")  # fmt: skip
    parser.add_argument(
        "--dump",
        default="fuzz-failure.json",
        help="where a failing run writes the match and its last frames",
    )
    parser.add_argument("--tasks", type=int, default=5, choices=(5, 8, 12))
    args = parser.parse_args(argv)
    if args.seed is None:
        args.seed = random.randrange(2**32)

    import django

    django.setup()
    from django.conf import settings
    from django.db import connections
    from django.test.utils import setup_databases, teardown_databases

    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", "testserver"]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.KUT_BOTS_INLINE = True
    config = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
    if "prefix" in config:
        config["prefix"] = f"kut-fuzz-{uuid.uuid4().hex[:10]}"
    if "KEY_PREFIX" in settings.CACHES["default"]:
        settings.CACHES["default"]["KEY_PREFIX"] = f"kut-fuzz-{uuid.uuid4().hex[:10]}"
    db = connections["default"].settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        name = str(Path(tempfile.gettempdir()) / f"kut-fuzz-{os.getpid()}.sqlite3")
    else:
        name = f"test_fuzz_{os.getpid()}"
    db.setdefault("TEST", {})["NAME"] = name

    from game import consumers

    old_config = setup_databases(verbosity=0, interactive=False)
    try:
        from accounts.models import User
        from tests.game.conftest import session_cookie
        from tests.security.fuzzkit import FuzzFailure, Harness, close_loop, new_loop, run_fuzz

        consumers.RATE_PER_SECOND = consumers.RATE_BURST = 1e9  # floods are tested apart
        if hasattr(consumers, "USER_RATE_LIMIT"):
            consumers.USER_RATE_LIMIT = 10**9
        users = [
            User.objects.create_user(username=f"fuzz{i}", password="kirmizi-yedi-okey-42")
            for i in range(4)
        ]
        cookies = [session_cookie(u) for u in users]
        loop = new_loop()
        harness = Harness(users, cookies, loop, tasks=args.tasks, seed="fuzz-tool")
        print(f"fuzzing /ws/match/<id>/ with {args.frames} frames, seed {args.seed} "
              f"({db['ENGINE'].rsplit('.', 1)[-1]}, "
              f"{settings.CHANNEL_LAYERS['default']['BACKEND'].rsplit('.', 1)[-1]})",
              flush=True)  # fmt: skip
        progress = _Progress(harness)
        harness.on_frame = progress
        ok = True
        try:
            stats = run_fuzz(harness, args.frames, batch=args.batch, seed=args.seed)
        except FuzzFailure as exc:
            ok = False
            stats = harness.stats
            print(f"FAILED: {exc}", flush=True)
        except Exception as exc:  # hypothesis re-raises the failure with the draws
            ok = False
            stats = harness.stats
            print(f"FAILED: {type(exc).__name__}: {str(exc)[:4000]}", flush=True)
        finally:
            if not ok and harness.match_id is not None:
                harness.dump(args.dump)
                print(f"the failing match and its last frames: {args.dump}")
            close_loop(loop)
        print(f"result: {stats.line()}")
        print(f"frame kinds: {dict(sorted(stats.kinds.items()))}")
        print(f"error codes: {dict(sorted(stats.codes.items()))}")
        return 0 if ok and stats.crashes == 0 and stats.lost_tiles == 0 else 1
    finally:
        _end_other_sessions(connections["default"])
        connections.close_all()
        teardown_databases(old_config, verbosity=0)


def _end_other_sessions(connection) -> None:
    """The sockets' database threads may leave sessions open (a failed run stops them
    mid-call): PostgreSQL refuses to drop a database in use."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


class _Progress:
    def __init__(self, harness):
        self.harness = harness
        self.last = time.monotonic()

    def __call__(self) -> None:
        stats = self.harness.stats
        if stats.frames % 1000 == 0:
            print(f"  {stats.line()}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
