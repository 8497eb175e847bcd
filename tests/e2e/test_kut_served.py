"""Issue 29 for KÜT in a real browser: the rules guide opened from the table's "?" (over
the running match) and from the lobby, in Turkish and English; every touch target of
the table at least 40×40 on a phone held sideways; the lobby never offers *Buraya otur*
at the player's own table.  Screenshots: ``KUT_SCREENSHOTS``."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from lobby import services as lobby_services
from tests.e2e.test_table import (
    DESKTOP,
    Table,
    create_match,
    make_user,
    new_context,
    shot,
)

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _guide_frame(page):
    dialog = page.locator("dialog.guide-dialog")
    expect(dialog).to_be_visible()
    return dialog, page.frame_locator("dialog.guide-dialog iframe")


@pytest.mark.parametrize("language, title, section", [
    ("tr", "Nasıl Oynanır", "Görev listesi"),
    ("en", "How to play", "The task list"),
])  # fmt: skip
def test_the_guide_from_the_table_and_the_lobby(live_site, browser: Browser, settings,
                                                language, title, section):  # fmt: skip
    user = make_user(f"rehber_{language}", "Rana")
    match = create_match(settings, [user, None, None, None], seed=f"kut-guide-{language}")
    locale = "tr-TR" if language == "tr" else "en-GB"
    context = new_context(browser, live_site, user, viewport=DESKTOP, locale=locale)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_site.url}])
    me = Table(context.new_page(), f"guide-{language}")
    me.open(match.pk)
    page = me.page
    version = me.version
    page.locator('.kt-tool[data-action="help"]').click()
    page.locator(".kt-help-dialog [data-guide-open]").click()
    dialog, frame = _guide_frame(page)
    expect(frame.locator("h1")).to_have_text(title)
    expect(frame.locator("h2", has_text=section)).to_have_count(1)
    expect(frame.locator(".site-header")).to_have_count(0)  # the guide alone
    shot(page, f"kut-guide-over-table-{language}")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert me.version >= version and me.data("status") in ("playing", "between")  # still live
    # the lobby of the game links the same guide
    page.goto("/lobby/kut/")
    page.get_by_test_id("guide-link").first.click()
    expect(page.locator("article.guide h1")).to_have_text(title)
    me.assert_clean()
    context.close()


def test_the_lobby_offers_no_seat_at_ones_own_table(live_site, browser: Browser):
    host = make_user("ev_sahibi29", "Eda")
    table = lobby_services.table_create(host=host, game="kut")
    context = new_context(browser, live_site, host, viewport=DESKTOP)
    page = context.new_page()
    page.goto("/lobby/kut/")
    card = page.locator(f"#table-{table.pk}")
    expect(card).to_have_class(__import__("re").compile("is-mine"))
    expect(card.get_by_role("button", name="Buraya otur")).to_have_count(0)
    expect(card.locator(".badge-mine")).to_be_visible()
    # another player sees the empty seats offered
    other = new_context(browser, live_site, make_user("misafir29", "Gül"), viewport=DESKTOP)
    theirs = other.new_page()
    theirs.goto("/lobby/kut/")
    expect(
        theirs.locator(f"#table-{table.pk}").get_by_role("button", name="Buraya otur")
    ).to_have_count(3)
    context.close()
    other.close()
