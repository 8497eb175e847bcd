"""One finished, analysed match of each game with an analysis, made once for the package
(committed; deleted after it): tests here must not flush the database."""

from __future__ import annotations

import pytest

from tests.history.conftest import make_user, players  # noqa: F401 - the tests here use players


@pytest.fixture(autouse=True)
def _analysis_settings(settings):
    settings.KUT_BOTS_INLINE = True
    settings.KUT_BOT_DELAY_SECONDS = 0
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", "testserver"]


@pytest.fixture(scope="package")
def analysed(django_db_setup, django_db_blocker):
    """``{game: match}``: a short match of each game, finished by ``an_<game>`` (seat 0)
    against bots, and its analysis stored (``game.analysis.analyse_match``)."""
    from accounts.models import User
    from game import analysis
    from game.models import Match
    from tests.analysis.matches import ANALYSED, finished_match

    with django_db_blocker.unblock():
        users = {game: make_user(f"an_{game}") for game in ANALYSED}
        outsider = make_user("an_outsider")
        matches = {game: finished_match(game, users[game]) for game in ANALYSED}
        for match in matches.values():
            analysis.analyse_match(match.pk)
    yield type("Analysed", (), {"users": users, "matches": matches, "outsider": outsider})
    with django_db_blocker.unblock():
        Match.objects.filter(pk__in=[m.pk for m in matches.values()]).delete()
        User.objects.filter(pk__in=[u.pk for u in [*users.values(), outsider]]).delete()
