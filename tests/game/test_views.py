"""Game pages: the practice entry, the table page, leaving, the install help and the
service worker (issue 8).  The live table itself is tested in tests/e2e/test_table.py."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from game import services
from game.engine import registry
from game.models import Match
from game.web import GameWeb, web
from tests.clients import client_for

pytestmark = pytest.mark.django_db


def table_strings(response) -> dict:
    found = re.search(
        r'<script id="kt-strings" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    assert found, "the table's strings are missing"
    return json.loads(found.group(1))


def make_match(players, **kwargs) -> Match:
    kwargs.setdefault("seed", "views")
    kwargs.setdefault("rated", False)
    return services.match_create(
        game="kut", options={"tasks": 5}, users=players, host=players[0], **kwargs
    )


# --- practice ---------------------------------------------------------------------------------


def test_practice_creates_a_test_match_against_three_bots(
    players, django_capture_on_commit_callbacks
):
    client = client_for(players[0])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("kut:practice"), {"tasks": "8", "level": "hard"})
    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("game:match", args=[match.pk])
    assert match.options["tasks"] == 8 and not match.rated and match.host == players[0]
    assert match.deadline is None  # P-3: no move timer at a test table
    seats = list(match.seats.order_by("seat"))
    assert seats[0].user == players[0] and seats[0].bot_level == ""
    assert [(s.user, s.bot_level) for s in seats[1:]] == [(None, "hard")] * 3
    # The bots moved inline until it was the human's turn.
    assert match.state["hand"]["turn"] == 0


def test_practice_needs_a_login_and_a_post(players):
    response = Client().post(reverse("kut:practice"), {"tasks": "5", "level": "normal"})
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]
    assert client_for(players[0]).get(reverse("kut:practice")).status_code == 405
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    "data", [{"tasks": "7", "level": "normal"}, {"tasks": "5", "level": "genius"}, {}]
)
def test_practice_refuses_bad_input_with_a_message(players, data):
    client = client_for(players[0])
    response = client.post(reverse("kut:practice"), data, follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == reverse("home")
    assert "5, 8 ya da 12 görev" in response.content.decode()
    assert not Match.objects.exists()


def test_a_fixed_seed_only_for_the_browser_tests(players, settings):
    client = client_for(players[0])
    client.post(reverse("kut:practice"), {"tasks": "5", "level": "easy", "seed": "sabit"})
    assert Match.objects.get().seed != "sabit"  # not in production
    Match.objects.all().delete()
    settings.DEBUG = True
    settings.KUT_TEST_SEEDS = False
    client.post(reverse("kut:practice"), {"tasks": "5", "level": "easy", "seed": "sabit"})
    assert Match.objects.get().seed != "sabit"  # DEBUG alone is not enough
    Match.objects.all().delete()
    settings.KUT_TEST_SEEDS = True
    client.post(reverse("kut:practice"), {"tasks": "5", "level": "easy", "seed": "sabit"})
    assert Match.objects.get().seed == "sabit"


def test_the_home_page_offers_practice_to_players(players):
    page = client_for(players[0]).get(reverse("home")).content.decode()
    assert f'action="{reverse("kut:practice")}"' in page
    assert "Botlara karşı oyna" in page
    assert reverse("kut:practice") not in Client().get(reverse("home")).content.decode()


# --- the table page ----------------------------------------------------------------------------


def test_the_table_page_for_a_seated_player(players):
    match = make_match(players)
    response = client_for(players[2]).get(reverse("game:match", args=[match.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert f'data-match="{match.pk}"' in page and 'data-seat="2"' in page
    assert "kut/table.js" in page and "okey/board.css" in page and "kut/table.css" in page
    for label in ("Görevi Aç", "Yan Yana Aç", "İşle", "Diz", "Son Hamleyi Geri Al",
                  "Atılan Taşı Al", "Oyundan Çık", "Masayı yatay aç.",
                  "Oyundan çıkmak istediğine emin misin?"):  # fmt: skip
        assert label in page, label
    strings = table_strings(response)
    # the end-of-hand table links to the in-browser shuffle check (issue 11)
    assert strings["verify_url"] == reverse("game:verify")
    assert strings["verify_shuffle"] == "Bu elin karıştırmasını doğrula"
    assert strings["task_texts"] == {
        "1": "4'lü küt",
        "2": "4'lü seri",
        "3": "4'lü küt + 5'li seri",
        "4": "5 çift",
        "5": "Elden bitiş",
    }
    assert strings["colours"]["R"] == "kırmızı" and strings["fake_okey"] == "sahte okey"
    assert strings["errors"]["task_mismatch"].startswith("Dizilim görevi tutmuyor")
    # Nothing secret is in the page: the seed and the deal travel only as seat views.
    assert match.seed not in page
    assert '"cells"' not in page and '"separators"' not in page


def test_the_table_in_english_has_no_turkish_labels(players):
    match = make_match(players)
    client = client_for(players[0], "en")
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    response = client.get(reverse("game:match", args=[match.pk]))
    page = response.content.decode()
    assert "Open task" in page and "Görevi Aç" not in page
    strings = table_strings(response)
    assert strings["colours"]["R"] == "red" and strings["task_texts"]["5"] == "Finish from hand"
    assert strings["errors"]["not_your_turn"] == "It is not your turn."


def test_the_table_page_is_404_for_outsiders_and_asks_strangers_to_log_in(
    players, django_user_model
):
    match = make_match(players)
    outsider = django_user_model.objects.create_user(username="yabanci", password="x-y-z-123")
    assert client_for(outsider).get(reverse("game:match", args=[match.pk])).status_code == 404
    assert client_for(outsider).get(reverse("game:match", args=[99999])).status_code == 404
    response = Client().get(reverse("game:match", args=[match.pk]))
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]


# --- leaving ------------------------------------------------------------------------------------


def test_leaving_hands_the_seat_to_a_bot_and_goes_to_the_lobby(players):
    match = make_match(players)
    client = client_for(players[1])
    response = client.post(reverse("game:leave", args=[match.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("lobby:index")
    seat = match.seats.get(seat=1)
    assert seat.left and seat.bot_controlled
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING  # three humans are still playing
    # The player is no longer at the table: the page and a second leave are 404.
    assert client.get(reverse("game:match", args=[match.pk])).status_code == 404
    assert client.post(reverse("game:leave", args=[match.pk])).status_code == 404


def test_the_last_human_leaving_closes_the_table(players):
    match = make_match([players[0], None, None, None])
    client = client_for(players[0])
    assert client.get(reverse("game:leave", args=[match.pk])).status_code == 405
    client.post(reverse("game:leave", args=[match.pk]))
    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED  # K-X3


def test_leaving_a_match_you_are_not_in_is_404(players, django_user_model):
    match = make_match(players)
    outsider = django_user_model.objects.create_user(username="yabanci", password="x-y-z-123")
    assert client_for(outsider).post(reverse("game:leave", args=[match.pk])).status_code == 404
    assert client_for(outsider).post(reverse("game:leave", args=[424242])).status_code == 404


# --- installable web app -------------------------------------------------------------------------


def test_the_service_worker_is_served_from_the_root():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    config = json.loads(re.search(r"const CONFIG = (\{.*?\});", body).group(1))
    assert config["cache"].startswith("kut-static-")
    assert "/static/kut/table.js" in config["assets"]
    assert "/static/manifest.webmanifest" in config["assets"]
    # Only static files are cached: the game itself needs the server.
    assert config["staticPrefix"] == "/static/"
    assert all(asset.startswith("/static/") for asset in config["assets"])


def test_every_cached_asset_and_icon_exists():
    from game.views import sw_assets

    for path in sw_assets():
        assert finders.find(path), path
    manifest = json.loads(open(finders.find("manifest.webmanifest"), encoding="utf-8").read())
    assert manifest["name"] == "KÜT" and manifest["display"] == "standalone"
    assert manifest["orientation"] == "landscape" and manifest["start_url"].startswith("/")
    for icon in manifest["icons"]:
        assert finders.find(icon["src"]), icon["src"]


def test_the_platform_caches_its_own_assets_and_each_game_lists_its_own():
    """Issue 28: the service worker's list is the platform's files (no game's home in it)
    followed by what each game's web side lists (``GameWeb.assets``; KÜT: its table's)."""
    from game.views import SW_ASSETS, sw_assets

    homes = {*registry.GAMES, "okey"}
    for path in SW_ASSETS:
        assert not homes & set(path.split("/")[:-1]), path
    listed = sw_assets()
    assert listed[: len(SW_ASSETS)] == SW_ASSETS and len(set(listed)) == len(listed)
    assert web("kut").assets and set(web("kut").assets) <= set(listed)
    assert GameWeb("any").assets == ()


def test_the_install_help_and_the_manifest_link():
    page = Client().get(reverse("game:install")).content.decode()
    assert "KÜT’ü ana ekrandan aç" in page and "Ana Ekrana Ekle" in page
    home = Client().get(reverse("home")).content.decode()
    assert 'rel="manifest"' in home and "manifest.webmanifest" in home
    # registered by a static script (the CSP allows no inline one, issue 16)
    assert 'src="/static/js/sw-register.js" data-sw="/sw.js"' in home
    assert reverse("game:install") in home
