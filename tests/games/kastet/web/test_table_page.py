"""Kastet on the site (issue 20, item 1): the table page is there (``registry.playable``),
in Turkish first and in English, holding no tiles of its own (S-V2: the rack comes over
the socket, one seat's view); the lobby's option names are Kastet's.  The live table is
played in tests/e2e/test_kastet.py."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.urls import reverse

from game import services
from game import web as game_web
from game.engine import registry
from game.models import Match
from tests.clients import client_for, page_strings

pytestmark = pytest.mark.django_db

KASTET = registry.get("kastet")


def kastet_match(players, **kwargs) -> Match:
    kwargs.setdefault("seed", "kastet-page")
    kwargs.setdefault("rated", False)
    return services.match_create(
        game="kastet", options={"hands": 1}, users=players, host=players[0], **kwargs
    )


def strings_of(response) -> dict:
    return page_strings(response, "ks-strings")


def test_kastet_is_playable_with_its_own_table():
    assert game_web.web("kastet").table_template == "kastet/table.html"
    assert game_web.playable("kastet")
    for path in ("kastet/table.js", "kastet/groups.js", "kastet/table.css", "okey/tiles.js"):
        assert finders.find(path), path
    # the rack order is the seat's own: a private action (S-X4)
    assert KASTET.private_kinds == frozenset({"arrange"})


def test_the_table_page_in_turkish_first(players):
    match = kastet_match(players)
    response = client_for(players[1]).get(reverse("game:match", args=[match.pk]))
    assert response.status_code == 200
    assert "kastet/table.html" in [t.name for t in response.templates]
    html = response.content.decode()
    assert "okey/board.css" in html and "kastet/table.css" in html
    assert "kastet/table.js" in html and "kut/table.js" not in html
    assert 'id="kx-config"' in html  # templates/game/_extras.html: rematch, free seats
    assert 'data-seat="1"' in html
    # S-L8, S-U1, S-N3 and the two areas of section 5, in Turkish
    for word in ("Aç", "Geri Al", "Pas", "Seri alanı", "Çift alanı", "Oyundan"):
        assert word in html, word
    strings = strings_of(response)
    assert strings["errors"]["pairs_need_26_groups"].startswith("Çiftler ancak 26")
    assert (
        strings["errors"]["invalid_group"] == "Masadaki her grup geçerli bir seri ya da küt olmalı."
    )
    assert strings["slots_used"] == "{n}/{total} yer"
    # the page itself holds no tiles: the rack comes over the socket, one seat's view
    assert "data-face" not in html and "data-id" not in html
    assert match.seed not in html


def test_the_table_page_in_english(players):
    match = kastet_match(players)
    response = client_for(players[0], "en").get(reverse("game:match", args=[match.pk]))
    html = response.content.decode()
    for word in ("Open", "Undo", "Pass", "Run area", "Pair area"):
        assert word in html, word
    assert strings_of(response)["pairs_closed"] == "Pairs open when all 26 slots are full."


def test_every_engine_code_has_a_message():
    """Every refusal the engine can give (games/kastet/engine/rules.py CODES) reaches the
    player as a sentence of their language, never as a code."""
    from games.kastet.engine.rules import CODES
    from games.kastet.web import kastet_strings

    errors = kastet_strings()["errors"]
    assert set(CODES) <= set(errors), set(CODES) - set(errors)


def test_a_test_table_is_not_rated_in_the_engines_options_either(players):
    """S-M2: Kastet keeps "rated" and the move time among its options; the platform
    gives it the table's settings, not the engine's defaults."""
    test = kastet_match(players)
    assert test.options["rated"] is False and KASTET.from_dict(test.state).rated is False
    rated = kastet_match(players, seed="kastet-rated", rated=True, move_seconds=120)
    assert rated.options["rated"] is True and rated.options["move_seconds"] == 120


def test_the_create_table_options_are_kastets_own():
    """games/kastet/templates/kastet/options.html posts opt_<name>: every name and value is one
    that Kastet's clean_options takes (S-M2; ``partners`` is the platform's, P-8)."""
    html = render_to_string("kastet/options.html", {"form": None})
    fields = re.findall(r'name="opt_(\w+)" value="(\w+)"', html)
    assert {name for name, _ in fields} == {"hands"}
    assert sorted(int(v) for _, v in fields) == [1, 3, 5, 7, 9, 11]
    for name, value in fields:
        assert KASTET.clean_options({name: int(value)})[name] == int(value)


def test_the_rematch_card_offers_kastets_hands(players):
    """The rematch chooses Kastet's own length (S-M2: 1 … 11 hands), never KÜT's tasks."""
    from django.utils import timezone, translation

    from game import rematch
    from lobby.templatetags.history_tags import table_extras_config

    old = kastet_match([players[0], None, None, None])
    with translation.override("en"):
        config = table_extras_config(old, "token")
    assert config["rematch_choices"] == [{"value": 1, "label": "1 hand"}] + [
        {"value": n, "label": f"{n} hands"} for n in (3, 5, 7, 9, 11)
    ]
    Match.objects.filter(pk=old.pk).update(
        status=Match.Status.FINISHED, finished_at=timezone.now(), deadline=None, bot_due=None
    )
    new = rematch.rematch_offer(old.pk, players[0], 3)
    assert new is not None and new.game == "kastet" and new.options["hands"] == 3
    assert "tasks" not in new.options


# --- the lobby (issue 20, item 2) --------------------------------------------------------------


@pytest.mark.parametrize("partners", [False, True])
def test_the_lobby_offers_rated_kastet_tables_individual_and_partners(players, partners):
    """The lobby's Kastet page has the create dialog with Kastet's hands (S-M2) and the
    partners choice (S-M3, P-8); the table made is rated with the move time, shows its
    hands on its summary badge, and starts a Kastet match with bots in the free seats."""
    from lobby import services as lobby_services
    from lobby.models import Table

    host = players[0]
    client = client_for(host)
    html = client.get(reverse("lobby:game", args=["kastet"])).content.decode()
    for n in (1, 3, 5, 7, 9, 11):
        assert f'name="opt_hands" value="{n}"' in html
    assert 'name="partners"' in html and "opt_length" not in html
    form = {"game": "kastet", "opt_hands": "3", "rated": "1", "private": "0",
            "level": "usta", "move_seconds": "90", "bots_allowed": "on"}  # fmt: skip
    if partners:
        form["partners"] = "on"
    response = client.post(reverse("lobby:create"), form)
    assert response.status_code in (200, 302), response.content[:500]
    table = Table.objects.get(host=host)
    assert table.game == "kastet" and table.options["hands"] == 3
    assert table.rated and table.move_seconds == 90 and table.partners is partners
    assert "3 el" in client.get(reverse("lobby:game", args=["kastet"])).content.decode()
    match = lobby_services.table_start(table.pk, host, fill_with_bots=True)
    assert match.game == "kastet" and match.rated and match.partners is partners
    st = KASTET.from_dict(match.state)
    assert st.hands == 3 and st.partners is partners and st.rated
    assert st.move_seconds == 90  # the engine keeps the table's own move time (S-M2)
    page = client.get(reverse("game:match", args=[match.pk]))
    assert page.status_code == 200 and "kastet/table.html" in [t.name for t in page.templates]
