"""Issue 15 (feel-b) without a browser: the rules guide (item 3), the table's words and
assets (items 4, 8, 11), the Turkish that speaks to the player as *sen* (item 11),
``/favicon.ico`` and "Botlara karşı yeniden oyna" only after a match against bots."""

from __future__ import annotations

import re

import polib
import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from game import services
from games.kut.web import table_strings
from games.okey.templatetags import okey_tiles as kut_tiles
from games.okey.templatetags.okey_tiles import tile_html
from lobby.templatetags.history_tags import table_extras_config
from tests.conftest import ROOT

pytestmark = pytest.mark.django_db

# KÜT's table draws its tiles in kut/view.js
VIEW_JS = (ROOT / "games" / "kut" / "static" / "kut" / "view.js").read_text()
# the okey tables' shared tile markup (KÜT's and KDVli's tables import it)
TILES_JS = (ROOT / "games" / "okey" / "static" / "okey" / "tiles.js").read_text()


def _user(name: str) -> User:
    return User.objects.create_user(username=name, password="yesil-cuha-masa-2024")


def _client(user: User, language: str = "tr") -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


# --- item 3: Nasıl Oynanır -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "title", "words"),
    [
        ("tr", "Nasıl Oynanır", ["Gösterge", "ceza taşı", "Okey değişimi", "Örnek el", "Diz"]),
        ("en", "How to play", ["Indicator", "penalty tile", "Okey exchange", "A worked hand"]),
    ],
)
def test_guide_in_both_languages_with_the_tables_tiles(client, language, title, words):
    """K-T1..K-T6 (tiles with colour-blind shapes, the okey's joker, the fake okey's
    clover), K-M3 (the task list), K-C3 (the penalty tile), K-S1..K-S5 (the worked hand)."""
    client.cookies["django_language"] = language
    page = client.get(reverse("guide", args=["kut"])).content.decode()
    assert f"<h1>{title}</h1>" in page
    for word in words:
        assert word in page, word
    # the table's own tile component: the same classes, shapes and pictures as the table
    assert '<span class="tile' not in page  # not the home page's decorative tiles
    for colour in "RYBK":
        assert f'<span class="kt-tile kt-c-{colour}" data-face="{colour}' in page
    assert page.count('<span class="kt-mark"></span>') >= 20
    assert 'class="kt-tile kt-okey"' in page and 'class="kt-tile kt-fake"' in page
    assert "okey/tiles.css" in page and "okey/board.css" not in page
    # the worked hand's scores (K-S1 -100, K-S3 11, K-S2 + K-S5 300, K-S3 + K-S4 104)
    for score in ("−100", ">11<", ">300<", ">104<", "−200"):
        assert score in page, score
    # every task of every list (K-M3)
    for task in (("4'lü küt + 5'li seri", "iki 4'lü küt", "5 çift") if language == "tr" else
                 ("küt of 4 + run of 5", "two küts of 4", "5 pairs")):  # fmt: skip
        assert task in page, task


def test_guide_templates_cite_the_rules():
    """Every section of both guides names the rule ids it follows (template comments)."""
    for language in ("tr", "en"):
        text = (ROOT / "games" / "kut" / "templates" / "kut" / f"guide_{language}.html").read_text()
        cited = set(re.findall(r"\b(K-[A-Z]\d+)", text))
        for rule in ("K-T1", "K-G1", "K-M3", "K-N1", "K-O1", "K-L1", "K-C1", "K-S1", "K-U1"):
            assert rule in cited, (language, rule)
        assert text.count("<h2") == 9


def _js_constant(name: str) -> str:
    body = re.search(rf"const {name} =\s*(.*?);\n", TILES_JS, re.S).group(1)
    return "".join(re.findall(r"'([^']*)'", body))


def test_the_tile_component_is_the_tables():
    """The pictures are the very strings of okey/tiles.js (CLOVER, JOKER), and the markup the
    class names tileHTML writes (K-T1, K-T4, colour-blind shapes)."""
    assert kut_tiles.CLOVER == _js_constant("CLOVER")
    assert kut_tiles.JOKER == _js_constant("JOKER")
    with translation.override("tr"):
        fake, fake_name = tile_html("F", "B3")
        okey, okey_name = tile_html("B3", "B3", "R10")
        plain, plain_name = tile_html("K7")
    assert str(fake) == f'<span class="kt-tile kt-fake" data-face="F">{kut_tiles.CLOVER}</span>'
    assert str(okey).startswith(
        '<span class="kt-tile kt-okey" data-face="B3"><svg class="kt-joker"'
    )
    assert '<span class="kt-okey-word">OKEY</span><span class="kt-as kt-c-R">10</span>' in str(okey)
    assert str(plain) == (
        '<span class="kt-tile kt-c-K" data-face="K7"><span class="kt-num">7</span>'
        '<span class="kt-mark"></span></span>'
    )
    # the same shape of markup in the tables' tileHTML (okey/tiles.js)
    assert 'tileHTML as okeyTileHTML } from "../okey/tiles.js"' in VIEW_JS
    assert (
        'class="kt-tile kt-c-${esc(colour)}" data-face="${esc(face)}"><span class="kt-num">'
        in TILES_JS
    )
    assert '<span class="kt-okey-word">OKEY</span>${as}</span>' in TILES_JS
    assert (plain_name, okey_name) == ("siyah 7", "okey, kırmızı 10 yerine")
    assert fake_name.startswith("sahte okey")


def test_guide_is_linked_from_home_and_the_tables_help(client):
    assert f'href="{reverse("guides")}"' in client.get(reverse("home")).content.decode()
    user = _user("rehber")
    match = services.match_create(game="kut", options={"tasks": 5}, users=[user, None, None, None],
                                  bot_levels=["", "easy", "easy", "easy"], rated=False)  # fmt: skip
    page = _client(user).get(reverse("game:match", args=[match.pk])).content.decode()
    help_dialog = page[page.index('class="kt-dialog kt-help-dialog"') :]
    assert "data-guide-open" in help_dialog.split("</dialog>")[0]  # opens the guide dialog
    guide = reverse("guide", args=["kut"])
    assert f'data-src="{guide}?embed=1"' in page and f'href="{guide}"' in page


def test_the_guide_is_framed_by_the_site_only_and_only_embedded(client):
    """Issue 29: the table's "?" frames the guide (?embed=1: no site header); that page
    alone may be framed, and by this site only; every other page by none (issue 16)."""
    url = reverse("guide", args=["kut"])
    page = client.get(url)
    assert (
        page["X-Frame-Options"] == "DENY"
        and "frame-ancestors 'none'" in page["Content-Security-Policy"]
    )
    assert 'class="site-header"' in page.content.decode()
    embedded = client.get(url + "?embed=1")
    assert embedded.status_code == 200 and embedded["X-Frame-Options"] == "SAMEORIGIN"
    policy = embedded["Content-Security-Policy"]
    assert "frame-ancestors 'self'" in policy and "'none'" not in policy.split("frame-ancestors")[1]
    body = embedded.content.decode()
    assert 'class="site-header"' not in body and "Nasıl Oynanır" in body


# --- items 4, 8: the table's words --------------------------------------------------------------


def test_table_strings_for_open_and_arrange_in_turkish():
    strings = table_strings()
    assert strings["open_no_tiles"].startswith("Taşların bu görevi henüz tutmuyor")
    assert "Diz" in strings["open_layout"] and strings["arrange_now"] == "Diz"
    assert strings["arrange_no_task"].startswith("Görev bu taşlarla henüz kurulamıyor")
    assert strings["you_short"] == "Sen"


def test_trial_step_one_hint_mentions_separators(rf):
    """Item 8: the trial's first hint (K-X1, K-O5) says a separator sets the küt apart."""
    user = _user("deneyen")
    match = services.match_create(game="kut", options={"tasks": 5}, users=[user, None, None, None],
                                  bot_levels=["", "easy", "easy", "easy"], rated=False)  # fmt: skip
    hints = table_extras_config(match, "token")["strings"]["hints"]
    assert "ayraç" in hints["open"] and "mavi 7" in hints["open"]


# --- item 11: the small things -------------------------------------------------------------------

SIZ = re.compile(
    r"\b(siz|size|sizi|sizin|sizce|sizinle)\b"  # the pronoun
    r"|\w*(?<!yal)(?<!he)n[iıuü]z(?!ca)\w*"  # -(n)iz: hesabınız, girdiğiniz, oturuyorsunuz
    r"|\b\w+s[iı]n[iı]z\b",  # misiniz, yapabilirsiniz
    re.IGNORECASE,
)


def test_turkish_speaks_to_the_player_as_sen():
    po = polib.pofile(str(ROOT / "locale" / "tr" / "LC_MESSAGES" / "django.po"))
    found = []
    for entry in po.translated_entries():
        texts = [entry.msgstr] if entry.msgstr else list(entry.msgstr_plural.values())
        found += [(entry.msgid, m.group(0)) for t in texts for m in SIZ.finditer(t)]
    assert found == []
    for guide in (ROOT / "games").glob("*/templates/*/guide_tr.html"):
        text = re.sub(r"{%.*?%}|{#.*?#}", "", guide.read_text())
        assert [m.group(0) for m in SIZ.finditer(text)] == []


def test_the_siz_check_catches_siz():
    for text in ("Hesabınız askıya alındı.", "Emin misiniz?", "Lütfen size yazalım.",
                 "Masada oturuyorsunuz."):  # fmt: skip
        assert SIZ.search(text), text
    for text in ("Hesabın askıya alındı.", "Yalnızca davetle.", "Henüz yok.", "Emin misin?"):
        assert not SIZ.search(text), text


def test_favicon_ico_answers(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith("/img/favicon.svg")
    assert finders.find("img/favicon.svg")


def test_table_page_loads_no_htmx_but_other_pages_do(client):
    user = _user("htmxsiz")
    match = services.match_create(game="kut", options={"tasks": 5}, users=[user, None, None, None],
                                  bot_levels=["", "easy", "easy", "easy"], rated=False)  # fmt: skip
    c = _client(user)
    table = c.get(reverse("game:match", args=[match.pk])).content.decode()
    assert "htmx" not in table and "kut/table.js" in table
    assert "vendor/htmx/htmx.min.js" in c.get(reverse("home")).content.decode()


def test_play_against_bots_again_only_after_a_match_against_bots():
    humans = [_user(f"insan{i}") for i in range(4)]
    with_bots = services.match_create(game="kut", options={"tasks": 5}, users=[humans[0], None, None, None],
                                      bot_levels=["", "easy", "easy", "easy"], rated=False)  # fmt: skip
    no_bots = services.match_create(game="kut", options={"tasks": 5}, users=humans, bot_levels=["", "", "", ""],
                                    rated=False)  # fmt: skip
    c = _client(humans[0])
    assert (
        "Botlara karşı yeniden oyna"
        in c.get(reverse("game:match", args=[with_bots.pk])).content.decode()
    )
    page = c.get(reverse("game:match", args=[no_bots.pk])).content.decode()
    assert "Botlara karşı yeniden oyna" not in page and 'class="kt-again"' not in page


def test_replay_tiles_keep_the_colour_blind_shapes():
    """The replay draws each tile's shape as the table does (red ●, yellow ▲, blue ■,
    black ◆): replay.js adds the mark, the replay page shapes it per colour."""
    js = (ROOT / "games" / "okey" / "static" / "okey" / "replay.js").read_text()
    assert 'mark.className = "rp-mark"' in js
    css = (ROOT / "games" / "okey" / "templates" / "okey" / "replay.html").read_text()
    assert ".rp-tile.c-R .rp-mark { border-radius: 50%; }" in css
    for colour, shape in (("Y", "polygon(50% 0, 100% 100%, 0 100%)"),
                          ("K", "polygon(50% 0, 100% 50%, 50% 100%, 0 50%)")):  # fmt: skip
        assert f".rp-tile.c-{colour} .rp-mark {{ clip-path: {shape}" in css
