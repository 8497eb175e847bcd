"""Fixtures for history, replays and public pages: players, logged-in clients."""

from __future__ import annotations

import pytest

from accounts.models import User
from tests.clients import client_for  # noqa: F401 - the tests here import it from this conftest

PASSWORD = "kirmizi-yedi-okey-42"


@pytest.fixture(autouse=True)
def _history_settings(settings):
    settings.KUT_BOTS_INLINE = True
    settings.KUT_BOT_DELAY_SECONDS = 0
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", "testserver"]


def make_user(name: str, **extra) -> User:
    return User.objects.create_user(
        username=name, email=f"{name}@example.com", password=PASSWORD, **extra
    )


@pytest.fixture
def players(db):
    """ali, ayse, can, deniz."""
    return [make_user(n) for n in ("ali", "ayse", "can", "deniz")]


@pytest.fixture(scope="package")
def played(django_db_setup, django_db_blocker):
    """Two rated 5-task matches played to the end once for this package (each takes a
    few seconds): seats 0 and 1 are the players rp_ali and rp_ayse (moving as an easy
    bot would, through the service), seats 2 and 3 bots.  Committed, and deleted after
    the package; tests here must not flush the database (no transactional_db)."""
    from django.test import override_settings

    from game import services
    from game.models import Match
    from tests.history.play import play_out

    with (
        django_db_blocker.unblock(),
        override_settings(KUT_BOTS_INLINE=True, KUT_BOT_DELAY_SECONDS=0, KUT_TURN_SECONDS=3600),
    ):
        users = [make_user("rp_ali"), make_user("rp_ayse"), make_user("rp_outsider")]
        matches = []
        for i, seed in enumerate(("replay-seed-1", "replay-seed-2")):
            match = services.match_create(
                game="kut",
                options={"tasks": 5},
                users=[users[0], users[1], None, None],
                bot_levels=["", "", "easy", "normal"],
                rated=True,
                seed=seed,
            )
            matches.append(play_out(match.pk, seed=i))
    yield type("Played", (), {"users": users, "matches": matches})
    with django_db_blocker.unblock():
        Match.objects.filter(pk__in=[m.pk for m in matches]).delete()
        User.objects.filter(pk__in=[u.pk for u in users]).delete()
