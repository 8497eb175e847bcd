"""Issue 29 item 7: each game's leaderboard explains that game's own ranking — P-4's
placings, or its own rating (P-9: KDVli's V-Q…, Kastet's S-P…), or Kelimeki's k-lig —
through the game's web side, never a template that names a game."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from game import web as game_web
from game.engine import registry
from tests.conftest import ROOT

GAMES = [key for key in registry.GAMES if game_web.playable(key)]
P4 = "sole first +1"


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_each_leaderboard_explains_its_own_ranking(game):
    page = Client().get(reverse("lobby:leaderboard") + f"?game={game}")
    with translation.override("tr"):
        words = str(game_web.web(game).ranking_text())
    assert page.status_code == 200 and words
    assert words in html.unescape(page.content.decode())  # the game's own, in Turkish
    # P-4's words only for a game that ranks by P-4 (no rating of its own, P-9)
    with translation.override("en"):
        english = str(game_web.web(game).ranking_text())
    uses_p4 = registry.get(game).rating is None and registry.get(game).ranked_by_level
    assert (P4 in english) == uses_p4, game


def test_no_platform_template_names_a_game():
    """The platform's templates ask the game's web side; none compares a game's key."""
    keys = "|".join(k for k in registry.GAMES if k != "toy")
    pattern = re.compile(rf"""==\s*["'](?:{keys})["']|["'](?:{keys})["']\s*==""")
    found = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "templates").rglob("*.html")
        if pattern.search(path.read_text())
    ]
    assert found == []
