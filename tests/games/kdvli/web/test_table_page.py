"""KDVli Okey on the site (issue 18, item 4): the table page, its strings in both
languages, the lobby's option names, and the platform's void hand (V-E2, V-M5).  The
live table is played in tests/e2e/test_kdvli.py."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.urls import reverse

from game import services
from game import web as game_web
from game.engine import registry
from game.models import HandResult, Match
from tests.clients import client_for, page_strings

pytestmark = pytest.mark.django_db

KDVLI = registry.get("kdvli")


def kdvli_match(players, **kwargs) -> Match:
    kwargs.setdefault("seed", "kdvli-page")
    kwargs.setdefault("rated", False)
    return services.match_create(
        game="kdvli", options={"hands": 3}, users=players, host=players[0], **kwargs
    )


def strings_of(response) -> dict:
    return page_strings(response, "kv-strings")


def test_kdvli_is_playable_with_its_own_table():
    assert game_web.web("kdvli").table_template == "kdvli/table.html"
    assert game_web.playable("kdvli")
    for path in ("kdvli/table.js", "kdvli/table.css", "okey/tiles.js"):
        assert finders.find(path), path


def test_the_table_page_in_turkish_first(players):
    match = kdvli_match(players)
    response = client_for(players[1]).get(reverse("game:match", args=[match.pk]))
    assert response.status_code == 200
    assert "kdvli/table.html" in [t.name for t in response.templates]
    html = response.content.decode()
    # KÜT's board and rack styles, KDVli's own script and styles, the shared extras
    assert "okey/board.css" in html and "kdvli/table.css" in html
    assert "kdvli/table.js" in html and "kut/table.js" not in html
    assert 'id="kx-config"' in html  # templates/game/_extras.html: rematch, free seats
    assert 'data-seat="1"' in html
    # the buttons of V-I1, V-R2, V-F1 and the V-S5 panel, in Turkish
    for word in ("Gösterge", "Seri Diz", "Çift Diz", "Bitir", "Masa ayarları"):
        assert word in html, word
    strings = strings_of(response)
    assert strings["my_points"] == "Şu anki puanın: {n}"
    assert strings["errors"]["invalid_finish"].startswith("Bitmek için")
    # V-M1, P-8: partners are named on the seat cards and in Masa ayarları
    assert strings["partner"] == "Eş: {name}" and strings["team_badge"] == "Takım {t}"
    assert strings["team_total"] == "Takım toplamı {n}"
    # the page itself holds no tiles: the rack comes over the socket, one seat's view
    assert "data-face" not in html and "data-id" not in html
    assert match.state["hand"]["deal"]["salt"] not in html and match.seed not in html


def test_the_table_page_in_english(players):
    match = kdvli_match(players)
    response = client_for(players[0], "en").get(reverse("game:match", args=[match.pk]))
    html = response.content.decode()
    for word in ("Indicator", "Arrange runs", "Arrange pairs", "Finish", "Table settings"):
        assert word in html, word
    assert strings_of(response)["my_points"] == "Your points now: {n}"


def test_the_create_table_options_are_kdvlis_own():
    """games/kdvli/templates/kdvli/options.html posts opt_<name>: every name and value is one
    that KDVli's clean_options takes (``partners`` is the platform's, P-8)."""
    html = render_to_string("kdvli/options.html", {"form": None})
    fields = re.findall(r'name="opt_(\w+)" value="(\w+)"', html)
    assert {name for name, _ in fields} == {"hands"}
    for name, value in fields:
        assert KDVLI.clean_options({name: int(value)})[name] == int(value)


def test_a_void_hand_writes_nothing_and_is_dealt_again_with_a_new_shuffle(
    players, django_capture_on_commit_callbacks
):
    """V-E2, V-M5 on the platform: the deck runs out, no hand result is written, the
    pause follows, and the same hand number is dealt again from a new shuffle."""
    match = kdvli_match(players)
    state = match.state
    hand = state["hand"]
    first_commitment = hand["deal"]["commitment"]
    hand["deck"] = []  # the deck has run out: the starter's first discard ends the hand
    match.save(update_fields=["state"])
    seat = hand["turn"]
    view = KDVLI.view_for(KDVLI.from_dict(state), seat)
    assert view["can"]["discard"]
    tile = next(c for c in view["rack"]["cells"] if c)
    services.match_apply_action(
        match.pk, seat, {"type": "discard", "tile_id": tile["id"]}, match.version
    )
    match.refresh_from_db()
    assert match.status == Match.Status.BETWEEN
    assert match.state["hand"]["void"] and HandResult.objects.filter(match=match).count() == 0
    assert services.match_next_hand(match.pk, force=True)
    match.refresh_from_db()
    again = match.state["hand"]
    assert match.status == Match.Status.PLAYING and match.state["hand_no"] == 1
    assert again["starter"] == hand["starter"]
    assert again["deal"]["commitment"] != first_commitment  # a new shuffle


def test_a_rematch_of_a_kdvli_match_chooses_the_hands_again(players):
    """The rematch from the table's extras chooses the game's own length (KDVli: hands,
    V-M2), never KÜT's ``tasks`` option."""
    from django.utils import timezone

    from game import rematch

    old = kdvli_match([players[0], None, None, None])
    Match.objects.filter(pk=old.pk).update(
        status=Match.Status.FINISHED, finished_at=timezone.now(), deadline=None, bot_due=None
    )
    with pytest.raises(Exception) as err:
        rematch.rematch_offer(old.pk, players[0], 4)  # not a KDVli length
    assert getattr(err.value, "code", "") == "bad_choice"
    new = rematch.rematch_offer(old.pk, players[0], 5)
    assert new is not None and new.game == "kdvli" and new.rematch_of_id == old.pk
    assert new.options["hands"] == 5 and "tasks" not in new.options


def test_bots_chance_is_fixed_only_for_the_browser_tests(players, settings):
    """``_test_bot_rng``: with DEBUG and KUT_TEST_SEEDS a bot's chance comes from the
    match seed and the turn (the seeded browser test); never otherwise."""
    match = kdvli_match(players)
    st = KDVLI.from_dict(match.state)
    settings.DEBUG, settings.KUT_TEST_SEEDS = False, True
    assert services._test_bot_rng(match, KDVLI, st, 1) is None
    settings.DEBUG, settings.KUT_TEST_SEEDS = True, False
    assert services._test_bot_rng(match, KDVLI, st, 1) is None
    settings.KUT_TEST_SEEDS = True
    a = services._test_bot_rng(match, KDVLI, st, 1).random()
    assert a == services._test_bot_rng(match, KDVLI, st, 1).random()
    assert a != services._test_bot_rng(match, KDVLI, st, 2).random()


def test_the_rematch_card_offers_kdvlis_hands_not_tasks(players):
    """The rematch card words the choice as hands (V-M2) with KDVli's own lengths."""
    from django.utils import translation

    from lobby.templatetags.history_tags import table_extras_config

    match = kdvli_match([players[0], None, None, None])
    with translation.override("en"):
        config = table_extras_config(match, "token")
    assert config["rematch_choices"] == [
        {"value": n, "label": f"{n} hands"} for n in (3, 5, 7, 9, 11)
    ]
    assert "{choice}" in config["strings"]["rematch"]["invited"]
