"""Tables for the load harness (``tools/load``): users with live sessions and matches of
humans (and bots), printed as JSON on stdout::

    python manage.py load_setup --tables 50 [--game kut] [--seats 4] [--bots 0]
        [--bot-levels easy,normal,hard] [--options JSON] [--tasks 12] [--rated]
        [--prefix load] [--first-user 0] [--close-running]

``--bots B``: the last B seats of every table are bots (issue 30: bots at their real pace
in the same run), their level taken from ``--bot-levels`` in turn, table by table.
``--options`` are the game's own (its ``clean_options`` checks them); ``--tasks`` is
KÜT's (kept for the KÜT runs).  ``--first-user`` numbers the users of several set-ups of
one run (the mix) apart.

Users are named ``<prefix>_<n>`` and reused between runs; they get an unusable password
(no hashing cost) and a fresh database session each.  Output::

    {"cookie_name": "sessionid",
     "matches": [{"id": 17, "game": "<key>", "bots": {"3": "hard"},
                  "seats": [{"seat": 0, "user_id": 3, "cookie": "…"}, …]}, …]}

``--close-running`` first aborts every running match whose seats are all ``<prefix>_``
users (the tables a previous run left behind), so they cost the sweep nothing.
"""

from __future__ import annotations

import json
from importlib import import_module

import orjson
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.models import User
from game import services
from game.engine import registry
from game.engine.protocol import BOT_LEVELS
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
    """Abort running matches seated only by ``<prefix>_`` users and bots (left by earlier
    runs)."""
    running = Match.objects.filter(status__in=[Match.Status.PLAYING, Match.Status.BETWEEN])
    people = MatchSeat.objects.filter(user__isnull=False)
    foreign = people.exclude(user__username__startswith=f"{prefix}_")
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
        parser.add_argument("--game", required=True, help="the game's key (registry)")
        parser.add_argument("--seats", type=int, default=0, help="seats (0: the game's most)")
        parser.add_argument("--bots", type=int, default=0, help="bot seats per table (the last)")
        parser.add_argument("--bot-levels", default="easy,normal,hard",
                            help="the bots' levels, in turn table by table")  # fmt: skip
        parser.add_argument("--options", default="", help="the game's options as JSON")
        parser.add_argument("--first-user", type=int, default=0, help="first user number")
        parser.add_argument("--tasks", type=int, default=12, choices=(5, 8, 12),
                            help="a game's tasks, where its options have them")  # fmt: skip
        parser.add_argument(
            "--rated", action="store_true",
            help="rated tables (turn timers run: set KUT_TURN_SECONDS high); default test",
        )  # fmt: skip
        parser.add_argument("--prefix", default="load", help="user name prefix")
        parser.add_argument("--close-running", action="store_true")

    def handle(self, *args, tables: int, tasks: int, rated: bool, prefix: str,
               close_running: bool, game: str, seats: int, bots: int, bot_levels: str,
               first_user: int, **options):  # fmt: skip
        if tables < 1:
            raise CommandError("--tables must be at least 1")
        if not prefix.isidentifier():
            raise CommandError("--prefix must be letters, digits and _")
        try:
            spec = registry.get(game)
        except KeyError:
            raise CommandError(f"unknown game {game!r}") from None
        n = seats or max(spec.seat_counts)
        if n not in spec.seat_counts:
            raise CommandError(f"{game} is played by {spec.seat_counts} seats, not {n}")
        if not 0 <= bots < n:
            raise CommandError("--bots must leave at least one human seat")
        levels = [x for x in bot_levels.split(",") if x]
        if not levels or any(x not in BOT_LEVELS for x in levels):
            raise CommandError(f"--bot-levels takes {', '.join(BOT_LEVELS)}")
        try:
            game_options = orjson.loads(options["options"]) if options["options"] else {}
        except orjson.JSONDecodeError:
            raise CommandError("--options must be a JSON object") from None
        if "tasks" in spec.clean_options({}):  # a game counted in tasks (KÜT's K-M2)
            game_options.setdefault("tasks", tasks)
        closed = abort_leftovers(prefix) if close_running else 0
        humans = n - bots
        users = load_users(prefix, first_user + humans * tables)[first_user:]
        out = []
        for t in range(tables):
            people = users[humans * t : humans * (t + 1)]
            level = levels[t % len(levels)]
            with transaction.atomic():
                match = services.match_create(
                    game=game,
                    options=game_options,
                    users=[*people, *[None] * bots],
                    bot_levels=[level] * n,
                    rated=rated,
                    host=people[0],
                    watchers_allowed=False,
                )
                seated = [
                    {"seat": i, "user_id": u.pk, "cookie": session_for(u)}
                    for i, u in enumerate(people)
                ]
            out.append({"id": match.pk, "game": game, "seats": seated,
                        "bots": {str(s): level for s in range(humans, n)}})  # fmt: skip
        json.dump(
            {
                "cookie_name": settings.SESSION_COOKIE_NAME,
                "closed_before": closed,
                "rated": rated,
                "tasks": tasks,
                "game": game,
                "matches": out,
            },
            self.stdout,
        )
        self.stdout.write("")
