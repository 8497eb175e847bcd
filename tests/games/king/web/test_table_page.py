"""King on the site (issue 19, items 3 and 4): the lobby offers King tables with King's
own option names, the match page is King's card table with its translated strings, and
a King match's record shows King's score table by contract (G-Q3), not KÜT's columns.
The live table itself is played in tests/e2e/test_king.py."""

from __future__ import annotations

import json
import random
import re
from html import unescape as html_unescape

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from game import services
from game import web as game_web
from game.fairness import verify_url
from game.models import Match
from games.king.engine import GAME
from games.king.engine.match import recorded_check
from lobby.models import Table
from tests.clients import client_for, page_strings
from tests.history.play import play_as_humans

pytestmark = pytest.mark.django_db


def king_strings(response) -> dict:
    return page_strings(response, "kg-strings")


def king_match(players, length=4, rated=False) -> Match:
    return services.match_create(
        game="king", options={"length": length}, users=list(players), host=players[0],
        rated=rated, seed="king-views",
    )  # fmt: skip


def play_out(match: Match) -> Match:
    """Every seat plays the easy bot's move until the match is over (G-M6)."""
    return play_as_humans(match, rng=random.Random(7), max_steps=400)


# --- the lobby -------------------------------------------------------------------------------


def test_king_is_playable_and_its_dialog_posts_kings_own_option(players):
    assert game_web.playable("king")
    assert game_web.web("king").table_template == "king/table.html"
    client = client_for(players[0])
    html = client.get(reverse("lobby:game", args=["king"])).content.decode()
    # G-M2: 4, 8, 12 or 20 hands, posted under clean_options' name "length"
    for n in (4, 8, 12, 20):
        assert f'name="opt_length" value="{n}"' in html
    assert "opt_hands" not in html
    response = client.post(reverse("lobby:create"), {
        "game": "king", "opt_length": "4", "rated": "1", "private": "0", "level": "orta",
        "move_seconds": "45", "bots_allowed": "on",
    })  # fmt: skip
    assert response.status_code in (200, 302), response.content[:500]
    table = Table.objects.get(host=players[0])
    assert table.game == "king" and table.options["length"] == 4
    assert table.rated and table.move_seconds == 45  # P-6
    lobby = client.get(reverse("lobby:game", args=["king"])).content.decode()
    assert "4 el" in lobby  # the table's summary badge


def test_a_bad_king_length_is_refused_and_nothing_is_made(players):
    client = client_for(players[0])
    response = client.post(reverse("lobby:create"), {
        "game": "king", "opt_length": "5", "rated": "1", "private": "0", "level": "orta",
    })  # fmt: skip
    assert response.status_code == 400
    assert not Table.objects.exists()


# --- the table page ---------------------------------------------------------------------------


def test_the_match_page_is_kings_card_table_in_turkish(players):
    match = king_match(players)
    response = client_for(players[0]).get(reverse("game:match", args=[match.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="kg"' in html and 'id="kt"' not in html
    assert "king/table.js" in html and "king/table.css" in html
    assert 'id="kx-config"' in html  # trial / rematch / free seats: table-extras.js
    assert "Son el" in html and "Puan tablosu" in html and "4 renk" in html
    strings = king_strings(response)
    assert strings["contracts"]["kiz_almaz"] == "Kız almaz"
    assert strings["contracts"]["koz"] == "Koz"
    # G-Q2's reasons, speaking to the player as "sen"
    assert strings["reasons"] == {
        "no_ceza_left": "Ceza hakkın kalmadı",
        "no_koz_left": "Koz hakkın kalmadı",
        "contract_used_up": "İki kez oynandı",
    }
    assert strings["choosing"] == "{name} oyun seçiyor…"


def test_the_table_speaks_english_when_asked(players):
    match = king_match(players)
    response = client_for(players[0], "en").get(reverse("game:match", args=[match.pk]))
    strings = king_strings(response)
    assert strings["contracts"]["kiz_almaz"] == "No queens"
    assert strings["reasons"]["contract_used_up"] == "Played twice"
    assert "Last trick" in response.content.decode()


def test_the_kut_table_is_unchanged(players):
    match = services.match_create(game="kut", options={"tasks": 5}, users=list(players), host=players[0], rated=False,
                                  seed="kut")  # fmt: skip
    html = client_for(players[0]).get(reverse("game:match", args=[match.pk])).content.decode()
    assert 'id="kt"' in html and 'id="kg"' not in html


def test_the_static_files_exist():
    for path in ("king/table.js", "king/table.css"):
        assert finders.find(path), path
    css = open(finders.find("king/table.css"), encoding="utf-8").read()
    assert "prefers-reduced-motion" in css and ".four-colours" in css
    js = open(finders.find("king/table.js"), encoding="utf-8").read()
    assert 'new CustomEvent("kut:frame"' in js and "localStorage" in js


# --- the match record --------------------------------------------------------------------------


def test_a_king_match_record_shows_the_score_table_by_contract(players):
    match = play_out(king_match(players, length=4, rated=True))
    st = GAME.from_dict(match.state)
    assert len(st.results) == 4
    client = client_for(players[0])
    response = client.get(reverse("lobby:history_match", args=[match.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="board king-hands"' in html
    assert "İşlek" not in html and "Görev" not in html and "Watch" not in html
    assert "4 el" in html
    names = {"el_almaz": "El almaz", "kupa_almaz": "Kupa almaz", "erkek_almaz": "Erkek almaz",
             "kiz_almaz": "Kız almaz", "rifki": "Rıfkı", "son_iki": "Son iki", "koz": "Koz"}  # fmt: skip
    for r in st.results:
        row = re.search(rf'<tr data-hand="{r["hand_no"]}">(.*?)</tr>', html, re.S).group(1)
        assert names[r["contract"]] in row
        cells = re.findall(r'<td class="num score">(-?\d+)</td>', row)
        assert [int(c) for c in cells] == r["scores"]
        # G-V2: the deal is kept in the record with P-2's check
        link = re.search(r'<a class="king-verify" href="([^"]+)"', row).group(1)
        assert html_unescape(link) == verify_url(recorded_check(r))
        assert r["fair"]["commitment"] in link
    foot = re.search(r"<tfoot>(.*?)</tfoot>", html, re.S).group(1)
    assert [int(v) for v in re.findall(r'<td class="num">(-?\d+)</td>', foot)] == st.totals


def test_a_kut_match_record_keeps_its_columns(players):
    match = services.match_create(game="kut", options={"tasks": 5}, users=list(players), host=players[0], rated=False,
                                  seed="kut")  # fmt: skip
    html = client_for(players[0]).get(reverse("lobby:history_match", args=[match.pk]))
    assert "king-hands" not in html.content.decode()


# --- rematch (G-X5) ------------------------------------------------------------------------------


def test_a_king_rematch_chooses_the_number_of_hands_again(players):
    from game import rematch
    from game.services import ServiceError

    old = play_out(king_match(players[:1] + [None, None, None], length=4, rated=False))
    page = client_for(players[0]).get(reverse("game:match", args=[old.pk])).content.decode()
    config = json.loads(
        re.search(r'<script id="kx-config" type="application/json">(.*?)</script>', page, re.S)
        .group(1)
    )  # fmt: skip
    assert config["rematch_choices"] == [{"value": n, "label": f"{n} el"} for n in (4, 8, 12, 20)]
    with pytest.raises(ServiceError) as info:
        rematch.rematch_offer(old.pk, players[0], 5)  # KÜT's task count: not a King length
    assert info.value.code == "bad_choice"
    new = rematch.rematch_offer(old.pk, players[0], 8)  # nobody to ask: it starts at once
    assert new.game == "king" and new.rematch_of_id == old.pk
    assert new.options["length"] == 8 and "tasks" not in new.options
    st = GAME.from_dict(new.state)
    assert st.length == 8 and st.totals == [0, 0, 0, 0] and st.results == []  # G-Q4


def test_the_kut_rematch_still_offers_tasks(players):
    match = services.match_create(game="kut", options={"tasks": 5}, users=list(players), host=players[0], rated=False,
                                  seed="kut")  # fmt: skip
    page = client_for(players[0]).get(reverse("game:match", args=[match.pk])).content.decode()
    assert '"rematch_choices": [{"value": 5, "label": "5 g\\u00f6rev"}' in page


def test_a_king_test_table_from_the_lobby_has_no_move_time(players):
    from lobby import services as lobby_services

    client = client_for(players[0])
    client.post(reverse("lobby:create"), {
        "game": "king", "opt_length": "8", "rated": "0", "private": "0", "level": "orta",
        "bots_allowed": "on",
    })  # fmt: skip
    table = Table.objects.get(host=players[0])
    assert not table.rated and table.move_seconds is None  # P-3
    match = lobby_services.table_start(table.pk, players[0], fill_with_bots=True)
    assert match.game == "king" and not match.rated and match.deadline is None
    assert GAME.from_dict(match.state).length == 8
