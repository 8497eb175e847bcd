"""Makes ``before28.json``: rows written by the site as it was before issue 28 (commit
d3783cc, the parent of the issue's first commit), for ``tests/platform/test_old_data.py``.

Run it with that commit's code and a database of its own::

    git worktree add --detach /work/wt/before28 d3783cc
    cd /work/wt/before28 && python /path/to/tests/platform/old_data/make.py OUT.json

It migrates a fresh SQLite database with that code's migrations, makes four players
(one who had done KÜT's trial hand, ``User.trial_done``), and for each of the five games
a rated match played to its end and one still running a few moves in, every move sent
through ``match_apply_action`` as a player's socket sends it (the easy bot's choice from
the seat's own view), then dumps the accounts, game and lobby rows as JSON.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from pathlib import Path

QUICK = {"kut": {"tasks": 5}, "kdvli": {"hands": 3}, "king": {"length": 4},
         "kastet": {"hands": 1}, "kelimeki": {}}  # fmt: skip


def main(out: str) -> None:
    sys.path.insert(0, os.getcwd())
    folder = Path(tempfile.mkdtemp(prefix="before28-"))
    (folder / "before28_settings.py").write_text(
        "from kut_site.settings import *  # noqa\n"
        f"DATABASES = {{'default': {{'ENGINE': 'django.db.backends.sqlite3', "
        f"'NAME': {str(folder / 'db.sqlite3')!r}}}}}\n"
        "PASSWORD_HASHERS = ['django.contrib.auth.hashers.MD5PasswordHasher']\n"
        "KUT_BOTS_INLINE = True\nKUT_BOT_DELAY_SECONDS = 0\nKUT_TURN_SECONDS = 3600\n"
    )
    sys.path.insert(0, str(folder))
    os.environ["DJANGO_SETTINGS_MODULE"] = "before28_settings"
    import django

    django.setup()
    from django.core.management import call_command

    from accounts.models import User
    from game import services
    from game.models import Match
    from tests.history.play import play_as_humans

    call_command("migrate", verbosity=0)
    users = [User.objects.create_user(username=f"eski{i}", email=f"eski{i}@example.com",
                                      password="kirmizi-yedi-okey-42") for i in range(4)]  # fmt: skip
    User.objects.filter(pk=users[0].pk).update(trial_done=True)
    for key, options in QUICK.items():
        seats = 2 if key == "kelimeki" else 4
        for kind in ("done", "running"):
            match = services.match_create(
                game=key, options=options, users=users[:seats], host=users[0], rated=True,
                seed=f"before28-{key}-{kind}",
            )  # fmt: skip
            until = None if kind == "done" else (lambda m: m.version >= 7)
            match = play_as_humans(match, rng=random.Random(7), until=until, max_steps=6000)
            assert (match.status == Match.Status.FINISHED) == (kind == "done"), (key, kind)
    with open(out, "w", encoding="utf-8") as fh:
        call_command("dumpdata", "accounts", "game", "lobby", stdout=fh)


if __name__ == "__main__":
    main(sys.argv[1])
