"""Issue 29 for King in a real browser: the rules guide from the table's "?" (over the
running match) and from the lobby, in Turkish and English; a timeout announced in King's
words; a replaced tab that takes the seat back with *Burada oyna*; every touch target at
least 40×40 on a phone held sideways (choice panel, hand, tools) with the screenshots
``var/screenshots/king-desktop.png`` / ``king-phone.png``; and the guided first hand
played through, step by step, on a phone."""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from playwright.sync_api import Browser, expect

from game import services
from game.engine.fair import SeededRNG
from game.models import Match, MatchAction
from games.king.engine import GAME
from tests.e2e import touch
from tests.e2e.guide import guide_from_lobby, guide_over_table
from tests.e2e.test_king import KingTable
from tests.e2e.test_table import DESKTOP, PHONE_LANDSCAPE, make_user, new_context

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

TIMEOUT = 30_000


def seed_where_seat_0_chooses(prefix: str) -> str:
    """A match seed whose first chooser (G-M3, drawn from the seed) is seat 0."""
    for i in range(100):
        seed = f"{prefix}-{i}"
        state = GAME.new_match({"length": 4}, 4, SeededRNG(f"{seed}:1"))
        if state.hand.chooser == 0:
            return seed
    raise AssertionError("no seed")


def king_match(settings, user, seed: str, rated: bool = False) -> Match:
    settings.KUT_BOTS_INLINE = True

    def create():
        try:
            return services.match_create(
                game="king", options={"length": 4}, users=[user, None, None, None],
                bot_levels=["", "easy", "easy", "easy"], rated=rated, host=user, seed=seed)  # fmt: skip
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(create).result()


def open_table(context, match_id: int) -> KingTable:
    table = KingTable(context.new_page())
    table.page.goto(f"/match/{match_id}/")
    table.wait("() => Number(document.getElementById('kg').dataset.version) >= 0")
    return table


def buttons_inside(page, selector: str) -> list[dict]:
    """The boxes of the buttons/links matched, and whether each lies inside the viewport."""
    return page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)].map((el) => {
            const r = el.getBoundingClientRect();
            return {w: r.width, h: r.height, inside: r.top >= 0 && r.left >= 0 &&
                    r.bottom <= innerHeight && r.right <= innerWidth};
        })""",
        selector,
    )


@pytest.mark.parametrize("language, title, section", [
    ("tr", "King nasıl oynanır", "Bir el: renge uymak"),
    ("en", "How to play King", "A trick: follow suit"),
])  # fmt: skip
def test_the_guide_from_the_table_and_the_lobby(live_site, browser: Browser, settings,
                                                language, title, section):  # fmt: skip
    user = make_user(f"king_rehber_{language}", "Rana")
    match = king_match(settings, user, f"king-guide-{language}")
    locale = "tr-TR" if language == "tr" else "en-GB"
    context = new_context(browser, live_site, user, viewport=DESKTOP, locale=locale)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_site.url}])
    table = open_table(context, match.pk)
    page = table.page
    version = int(table.data("version"))
    page.locator(".kg-bar [data-guide-open]").click()
    guide_over_table(
        page,
        title,
        section,
        drawn=".kg-card",  # the table's own cards
        scroll_to="#scoring",
        shot=f"king-guide-over-table-{language}",
    )
    assert int(table.data("version")) >= version
    assert table.data("status") in ("playing", "between")  # the match went on
    guide_from_lobby(page, "king", title)
    assert table.errors == [], table.errors
    context.close()


def test_a_timeout_is_announced_in_kings_words(live_site, browser: Browser, settings):
    """G-T2 (issue 29): when the player's time runs out the table says what the server
    chose or played for them, each timeout once: first the contract chosen for the
    chooser, then the card played."""
    user = make_user("king_uyuyan", "Cem")
    match = king_match(settings, user, seed_where_seat_0_chooses("king-timeout"), rated=True)
    assert match.move_seconds == 30  # King's shortest move time (G-T1)
    context = new_context(browser, live_site, user, viewport=PHONE_LANDSCAPE, has_touch=True)
    table = open_table(context, match.pk)
    page = table.page
    note = page.locator('.kg-note[data-kind="timeout"] .kg-note-text')
    expect(note).to_have_text(
        re.compile(r"^Süren doldu: senin yerine .+ seçildi\.$"), timeout=90_000
    )
    match.refresh_from_db()
    hand = match.state["hand"]
    contract = "Koz " + {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}[hand["trump"]]
    assert hand["contract"] == "koz" and contract in note.text_content()  # G-T2: the longest suit
    first = note.text_content()
    touch.screenshot(page, "king-timeout-note")
    page.locator('.kg-note[data-kind="timeout"]').get_by_role("button", name="Kapat").click()
    expect(note).to_have_count(0)
    # the bots play on; the same note never comes back, the next timeout has its own
    expect(note).to_have_text(
        re.compile(r"^Süren doldu: senin yerine .+ atıldı\.$"), timeout=90_000
    )
    assert MatchAction.objects.filter(match=match, kind="timeout", seat=0).count() == 2
    print(f"king timeout notes: {first} / {note.text_content()}")
    page.reload()  # each timeout once: not again after a reload
    table.wait("() => Number(document.getElementById('kg').dataset.version) >= 0")
    page.wait_for_timeout(1500)
    expect(note).to_have_count(0)
    assert table.errors == [], table.errors
    context.close()


def test_a_replaced_tab_takes_the_seat_back(live_site, browser: Browser, settings):
    """Close code 4009: the first tab shows *Burada oyna* (its clock stops, no frozen
    "0 sn"), the button takes the seat back and the second tab is replaced in turn."""
    user = make_user("king_iki_sekme", "Efe")
    match = king_match(settings, user, seed_where_seat_0_chooses("king-tabs"), rated=True)
    context = new_context(browser, live_site, user, viewport=DESKTOP)
    first = open_table(context, match.pk)
    expect(first.page.locator(".kg-timer")).to_be_visible()
    second = open_table(context, match.pk)
    replaced = first.page.locator('.kg-note[data-kind="replaced"]')
    expect(replaced).to_contain_text("Bu masa başka bir sekmede açık.")
    expect(first.page.locator(".kg-timer")).to_be_hidden()  # no clock left at "0 sn"
    first.page.wait_for_timeout(3000)
    expect(second.page.locator(".kg-note")).to_have_count(0)
    replaced.get_by_role("button", name="Burada oyna").click()
    expect(replaced).to_have_count(0)
    expect(second.page.locator('.kg-note[data-kind="replaced"]')).to_have_count(1)
    timer = first.page.locator(".kg-timer-text")
    expect(first.page.locator(".kg-timer")).to_be_visible()
    before = timer.text_content()
    first.page.wait_for_timeout(2200)
    after = timer.text_content()
    assert before != after and after != "0 sn", (before, after)  # the clock runs again
    # the tab that took the seat back plays: seat 0 chooses (G-Q2)
    expect(first.page.locator(".kg-choice")).to_be_visible()
    first.act(first.page.locator(".kg-trump-btn:enabled").first.click)
    assert first.errors == [] and second.errors == [], (first.errors, second.errors)
    context.close()


def test_every_touch_target_on_a_phone_and_the_screenshots(live_site, browser: Browser, settings):
    """Issue 29 item 5: at 844×390 every interactive element of King's table — the choice
    panel's buttons (G-Q2), the tools, the hand's cards — is 40×40 at least; the dialog's
    buttons lie inside the viewport.  Screenshots: phone and desktop."""
    user = make_user("king_telefon", "Ela")
    match = king_match(settings, user, seed_where_seat_0_chooses("king-touch"))
    context = new_context(browser, live_site, user, viewport=PHONE_LANDSCAPE, has_touch=True)
    table = open_table(context, match.pk)
    page = table.page
    expect(page.locator(".kg-choice")).to_be_visible()
    small = touch.too_small(page)
    found = touch.targets(page)
    contract_buttons = [
        t for t in found if t["tag"] == "button" and t["w"] and "almaz" in t["name"].lower()
    ]
    print(f"king phone, choice panel: {len(found)} targets, smallest {touch.smallest(page)}")
    assert contract_buttons, found
    assert small == [], small
    touch.screenshot(page, "king-phone-choice")
    table.act(page.locator(".kg-trump-btn:enabled").first.click)
    table.wait("() => document.getElementById('kg').dataset.myTurn === '1'")
    expect(page.locator(".kg-hand-card.is-playable").first).to_be_visible()
    small = touch.too_small(page)
    print(
        f"king phone, playing: {len(touch.targets(page))} targets, smallest {touch.smallest(page)}"
    )
    assert small == [], small
    touch.screenshot(page, "king-phone")
    page.locator("[data-action=scores]").click()
    dialog_buttons = buttons_inside(page, ".kg-scores-dialog[open] .kg-dialog-buttons button")
    assert dialog_buttons and all(b["inside"] and b["h"] >= 40 for b in dialog_buttons), (
        dialog_buttons
    )
    page.locator(".kg-scores-dialog").get_by_role("button", name="Kapat").click()
    context.close()
    desk = new_context(browser, live_site, user, viewport=DESKTOP)
    table = open_table(desk, match.pk)
    expect(table.page.locator(".kg-hand-card").first).to_be_visible()
    touch.screenshot(table.page, "king-desktop")
    assert table.errors == [], table.errors
    desk.close()


def test_the_guided_first_hand_played_through_on_a_phone(live_site, browser: Browser):
    """King's guided hand (issue 29): offered from the tutorial page, each of its four
    steps with its hint — choose No hearts, lead 2♣, follow with 3♦, give Q♥ — a card off
    the script refused with the reason, then the hand played out to the final card,
    whose buttons stay inside the phone's screen."""
    user = make_user("king_yeni", "Nil")
    context = new_context(browser, live_site, user, viewport=PHONE_LANDSCAPE, has_touch=True)
    page = context.new_page()
    table = KingTable(page)
    page.goto("/lobby/tutorial/king/")
    page.locator("form[action='/lobby/tutorial/king/'] button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/match/\d+/$"), timeout=TIMEOUT)
    match = Match.objects.get(pk=int(re.search(r"/match/(\d+)/", page.url).group(1)))
    assert (match.kind, match.game) == ("trial", "king")
    hint = page.locator(".kx-trial .kx-text")

    expect(hint).to_contain_text("Kupa almaz'ı seç", timeout=TIMEOUT)
    expect(page.locator(".kg-choice")).to_be_visible()
    small = touch.too_small(page)
    print(f"king guided hand, phone: smallest {touch.smallest(page)}")
    assert small == [], small
    touch.screenshot(page, "king-guided-choice-phone")
    table.act(page.locator(".kg-contract-btn[data-contract=kupa_almaz]").click)

    expect(hint).to_contain_text("sinek 2'ni aç")
    errors = int(table.data("errors"))
    page.locator(".kg-hand-card[data-card='AC']").click()  # legal, but not the script's
    table.wait(f"() => Number(document.getElementById('kg').dataset.errors) > {errors}")
    expect(page.locator(".kg-toast-error")).to_contain_text("ipucunun söylediği kartı at")
    table.errors.clear()  # the refusal was the test's own doing
    table.act(page.locator(".kg-hand-card[data-card='2C']").click)

    expect(hint).to_contain_text("Karo 3'ünü at", timeout=TIMEOUT)
    table.wait("() => document.getElementById('kg').dataset.myTurn === '1'")
    expect(page.locator(".kg-hand-card.is-playable")).to_have_count(4)  # the diamonds only
    table.act(page.locator(".kg-hand-card[data-card='3D']").click)

    expect(hint).to_contain_text("kupa kızını maça asına ver", timeout=TIMEOUT)
    table.wait("() => document.getElementById('kg').dataset.myTurn === '1'")
    expect(page.locator(".kg-hand-card.is-playable")).to_have_count(4)  # the hearts only (G-P7)
    table.act(page.locator(".kg-hand-card[data-card='QH']").click)
    expect(hint).to_contain_text("Aferin", timeout=TIMEOUT)

    t0 = time.monotonic()
    while True:
        state = table.wait_mine()
        if state in ("finished", "between"):
            break
        table.act(page.locator(".kg-hand-card.is-playable").first.click)
        assert time.monotonic() - t0 < 180
    final = page.locator(".kg-overlay[data-kind=final]")
    expect(final).to_be_visible(timeout=TIMEOUT)
    boxes = buttons_inside(page, ".kg-final-actions a")
    print(f"king guided hand final buttons: {boxes}")
    assert len(boxes) == 2 and all(b["inside"] and b["h"] >= 40 for b in boxes), boxes
    touch.screenshot(page, "king-guided-final-phone")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert table.errors == [], table.errors
    context.close()
