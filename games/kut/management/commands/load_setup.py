"""KÜT's tables for the load harness (``tools/load``, whose clients play KÜT): users with
live sessions and KÜT matches of four humans, printed as JSON on stdout.  KÜT's own
command (its home's ``management/commands``; the platform's ``load_check`` reads any
game's log)::

    python manage.py load_setup --tables 50 [--tasks 12] [--rated] [--prefix load]
        [--close-running]

Users are named ``<prefix>_<n>`` and reused between runs; they get an unusable password
(no hashing cost) and a fresh database session each.  Output::

    {"cookie_name": "sessionid",
     "matches": [{"id": 17, "seats": [{"seat": 0, "user_id": 3, "cookie": "…"}, …]}, …]}

``--close-running`` first aborts every running match whose seats are all ``<prefix>_``
users (the tables a previous run left behind), so they cost the sweep nothing.
"""

from __future__ import annotations

import json
from importlib import import_module

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.models import User
from game import services
from game.models import Match, MatchSeat

BACKEND = "django.contrib.auth.backends.ModelBackend"


def load_users(prefix: str, count: int) -> list[User]:
    """``count`` users ``<prefix>_0…`` (created when missing), in name order."""
    names = [f"{prefix}_{i}" for i in range(count)]
    have = {u.username: u for u in User.objects.filter(username__in=names)}
    missing = [
        User(username=n, display_name=n, email=f"{n}@load.invalid", password=make_password(None))
        for n in names
        if n not in have
    ]
    if missing:
        User.objects.bulk_create(missing, batch_size=500)
        have = {u.username: u for u in User.objects.filter(username__in=names)}
    return [have[n] for n in names]


def session_for(user: User) -> str:
    """A new logged-in session of ``user`` (what ``login()`` stores); returns its key."""
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = user._meta.pk.value_to_string(user)
    store[BACKEND_SESSION_KEY] = BACKEND
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


def abort_leftovers(prefix: str) -> int:
    """Abort running matches seated only by ``<prefix>_`` users (left by earlier runs)."""
    running = Match.objects.filter(status__in=[Match.Status.PLAYING, Match.Status.BETWEEN])
    foreign = MatchSeat.objects.exclude(user__username__startswith=f"{prefix}_")
    ids = running.exclude(pk__in=foreign.values("match_id")).values_list("pk", flat=True)
    done = 0
    for pk in list(ids):
        try:
            services.match_abort(pk)
            done += 1
        except services.ServiceError:
            pass
    return done


class Command(BaseCommand):
    help = "Create load-test users, sessions and four-human matches; print them as JSON."

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, required=True, help="matches to create")
        parser.add_argument("--tasks", type=int, default=12, choices=(5, 8, 12))
        parser.add_argument(
            "--rated", action="store_true",
            help="rated tables (turn timers run: set KUT_TURN_SECONDS high); default test",
        )  # fmt: skip
        parser.add_argument("--prefix", default="load", help="user name prefix")
        parser.add_argument("--close-running", action="store_true")

    def handle(self, *args, tables: int, tasks: int, rated: bool, prefix: str,
               close_running: bool, **options):  # fmt: skip
        if tables < 1:
            raise CommandError("--tables must be at least 1")
        if not prefix.isidentifier():
            raise CommandError("--prefix must be letters, digits and _")
        closed = abort_leftovers(prefix) if close_running else 0
        users = load_users(prefix, 4 * tables)
        out = []
        for t in range(tables):
            four = users[4 * t : 4 * t + 4]
            with transaction.atomic():
                match = services.match_create(
                    game="kut",
                    options={"tasks": tasks},
                    users=four,
                    rated=rated,
                    host=four[0],
                    watchers_allowed=False,
                )
                seats = [
                    {"seat": i, "user_id": u.pk, "cookie": session_for(u)}
                    for i, u in enumerate(four)
                ]
            out.append({"id": match.pk, "seats": seats})
        json.dump(
            {
                "cookie_name": settings.SESSION_COOKIE_NAME,
                "closed_before": closed,
                "rated": rated,
                "tasks": tasks,
                "matches": out,
            },
            self.stdout,
        )
        self.stdout.write("")
