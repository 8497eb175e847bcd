"""Issue 29 for Kastet in a real browser: the rules guide opened from the table's "?" (over
the running match) and from the lobby, in Turkish and English; a turn that runs out is
told in Kastet's words, once (S-N7); every touch target of the table at least 40×40 on a
phone held sideways, with the run area full of groups; the final card's buttons on the
screen and its "Kalan taşlar".  Screenshots: ``var/screenshots/kastet-desktop.png`` and
``kastet-phone.png``."""

from __future__ import annotations

import random
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from playwright.sync_api import Browser, expect

from game import services
from game.engine import registry
from game.models import Match, MatchAction
from tests.e2e.guide import guide_from_lobby, guide_over_table
from tests.e2e.test_kastet import KastetTable
from tests.e2e.test_table import DESKTOP, PHONE_LANDSCAPE, make_user, new_context
from tests.e2e.touch import screenshot, smallest, targets, too_small
from tests.history.play import play_as_humans

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

GAME = registry.get("kastet")
OPEN = "() => Number(document.getElementById('kt').dataset.version) >= 0"


def create(settings, users, seed: str, *, rated=False, move_seconds=None, hands=1) -> Match:
    """A Kastet match made here; bots that move first do so inline, in a thread of their
    own (Playwright's event loop runs in this one)."""
    settings.KUT_BOTS_INLINE = True
    settings.KUT_TEST_SEEDS = True

    def make():
        try:
            return services.match_create(
                game="kastet", options={"hands": hands}, users=users, rated=rated,
                level="orta", host=users[0], seed=seed, move_seconds=move_seconds,
            )  # fmt: skip
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(make).result()


def open_table(context, match: Match) -> KastetTable:
    table = KastetTable(context.new_page())
    table.page.goto(f"/match/{match.pk}/")
    table.wait(OPEN)
    return table


@pytest.mark.parametrize("language, title, section", [
    ("tr", "Kastet · Nasıl Oynanır", "Çift alanı"),
    ("en", "Kastet · How to play", "The pair area"),
])  # fmt: skip
def test_the_guide_from_the_table_and_the_lobby(live_site, browser: Browser, settings,
                                                language, title, section):  # fmt: skip
    user = make_user(f"kastet_rehber_{language}", "Rana")
    match = create(settings, [user, None, None, None], seed=f"kastet-guide-{language}")
    locale = "tr-TR" if language == "tr" else "en-GB"
    context = new_context(browser, live_site, user, viewport=DESKTOP, locale=locale)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_site.url}])
    table = open_table(context, match)
    page = table.page
    version = table.facts()["version"]
    page.locator(".kt-bar .guide-open").click()  # the table's "?"
    guide_over_table(
        page,
        title,
        section,
        drawn=".ks-group",  # the table's own groups
        scroll_to="#ortak, #shared",
        shot=f"kastet-guide-over-table-{language}",
    )
    facts = table.facts()  # the match went on underneath
    assert facts["version"] >= version and facts["status"] == "playing"
    assert table.sockets and len(table.sockets) == 1  # the same socket, never reopened
    guide_from_lobby(page, "kastet", title)
    assert table.errors == [], table.errors
    context.close()


def test_s_n7_a_turn_that_runs_out_is_told_once_in_kastets_words(live_site, browser: Browser,
                                                                 settings):  # fmt: skip
    """Rated, 30 s a move (the least S-M2 allows): the player starts a draft and lets the
    time run out; the server draws a tile for them and drops the draft, and the table
    says so once — the frames that follow (the bots' moves) do not say it again."""
    user = make_user("kastet_uyuyan", "Cem")
    match = create(settings, [user, None, None, None], seed="kastet-timeout", rated=True,
                   move_seconds=30)  # fmt: skip
    context = new_context(browser, live_site, user, viewport=PHONE_LANDSCAPE, has_touch=True)
    table = open_table(context, match)
    page = table.page
    assert table.wait_my_move() == "play"
    # a draft: a rack tile onto a new group (S-L8), not sent
    page.locator(".kt-cell.has-tile").first.tap()
    page.locator(".ks-new").tap()
    expect(page.locator("#kt")).to_have_attribute("data-dirty", "1")
    note = page.locator('.kt-note[data-kind="timeout"] .kt-note-text')
    expect(note).to_have_text(
        "Süren doldu: senin yerine desteden bir taş çekildi. Göndermediğin taslak geri alındı.",
        timeout=90_000,
    )
    expect(page.locator("#kt")).to_have_attribute("data-dirty", "0")
    assert MatchAction.objects.filter(match=match, kind="timeout", seat=0).count() == 1
    st = GAME.from_dict(Match.objects.get(pk=match.pk).state)
    assert st.hand.rack_count(0) == 15  # S-N7: the tile was drawn
    screenshot(page, "kastet-timeout-phone")
    small = too_small(page)  # the note's Close included
    assert small == [], small
    page.locator('.kt-note[data-kind="timeout"] button').click()
    expect(note).to_have_count(0)
    # the frames still carry the note until the seat acts: the bots' moves, and a private
    # rack arrangement (S-X4, which is no act on the turn) bring it again — not shown again
    assert table.wait_my_move() == "play"
    src = page.locator(".kt-cell.has-tile").first
    dst = page.locator(".kt-cell:not(.has-tile)").last
    table.act(lambda: src.drag_to(dst))
    st = GAME.from_dict(Match.objects.get(pk=match.pk).state)
    assert st.hand.timeouts[0] == 1 and GAME.timeout_notes(st)[0]["seat"] == 0
    page.wait_for_timeout(500)
    expect(note).to_have_count(0)
    assert page.locator("#kt").get_attribute("data-timeout-notes") == "1"
    table.act(page.locator(".kt-deck").click)  # the player plays on
    assert table.errors == [], table.errors
    context.close()


def _groups_and_my_turn(match: Match) -> bool:
    if match.status != Match.Status.PLAYING:
        return False
    st = GAME.from_dict(match.state)
    return st.hand.turn == 0 and len(st.hand.table) >= 6 and not st.hand.undo


def test_phone_touch_targets_and_screenshots(live_site, browser: Browser, settings):
    """At 844×390 every interactive element of the table — the run area's tiles and each
    group's "+" included, on the player's turn with groups on the table — is at least
    40×40 CSS px (tests/e2e/touch.py); desktop and phone screenshots."""
    people = [
        make_user(f"kastet_tel_{n}", name) for n, name in enumerate("Ada Bora Cem Dila".split())
    ]
    match = create(settings, people, seed="kastet-phone")
    match = play_as_humans(match, level="hard", rng=random.Random(3), until=_groups_and_my_turn,
                           max_steps=4000)  # fmt: skip
    context = new_context(browser, live_site, people[0], viewport=DESKTOP, has_touch=True)
    table = open_table(context, match)
    page = table.page
    assert table.wait_my_move() == "play"
    expect(page.locator(".ks-group").first).to_be_visible()
    screenshot(page, "kastet-desktop")
    page.set_viewport_size(PHONE_LANDSCAPE)
    page.wait_for_timeout(300)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 844
    found = targets(page)
    # the run area's tiles and each group's "+" are among them (S-L8: the player's turn)
    assert page.locator(".ks-group .ks-tile").count() >= 18 and page.locator(".ks-end").count() >= 6
    assert sum("sonuna" in t["name"] for t in found) >= 2
    small = too_small(page)
    w, h = smallest(page)
    print(f"kastet phone 844x390: {len(found)} targets, smallest {w}x{h}; too small: {small}")
    screenshot(page, "kastet-phone")
    assert small == [], small
    # tap a rack tile: the selection mode (where the tile may go) keeps every target big
    page.locator(".kt-cell.has-tile").first.tap()
    small = too_small(page)
    assert small == [], small
    assert table.errors == [], table.errors
    context.close()


def test_the_final_card_shows_its_buttons_and_the_tiles_left(live_site, browser: Browser,
                                                             settings):  # fmt: skip
    """S-M4, S-V3: the final card lists every rack's tiles as "Kalan taşlar" (tiles, not
    letters) and its buttons lie inside a phone's screen held sideways."""
    people = [
        make_user(f"kastet_son_{n}", name) for n, name in enumerate("Ada Bora Cem Dila".split())
    ]
    match = play_as_humans(create(settings, people, seed="kastet-final"), level="easy",
                           rng=random.Random(4), max_steps=4000)  # fmt: skip
    context = new_context(browser, live_site, people[0], viewport=PHONE_LANDSCAPE, has_touch=True)
    table = open_table(context, match)
    page = table.page
    card = page.locator(".kt-overlay[data-kind=final]")
    expect(card.locator("h2")).to_have_text("Maç bitti")
    expect(card.locator(".ks-cap")).to_have_text("Kalan taşlar")
    expect(card).not_to_contain_text(re.compile("harf"))
    buttons = card.locator(".kt-final-actions a, .kt-final-actions button")
    assert buttons.count() >= 1
    for i in range(buttons.count()):
        button = buttons.nth(i)
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= 390, box
        assert box["x"] >= 0 and box["x"] + box["width"] <= 844, box
        assert box["width"] >= 40 and box["height"] >= 40, box
    screenshot(page, "kastet-final-phone")
    small = too_small(page)  # the rematch offer's buttons too
    print(f"kastet final card 844x390: smallest {smallest(page)}; too small: {small}")
    assert small == [], small
    assert table.errors == [], table.errors
    context.close()
