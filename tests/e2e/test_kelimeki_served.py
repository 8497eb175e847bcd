"""Issue 29 for Kelimeki in a real browser (the real stack: ``live_site``):

* the rules guide from the table's "?" (the game stays live underneath) and from the
  lobby, in Turkish and English;
* a phone held upright (390×844): no "turn your phone", board cells ≥ 25 px, rack tiles
  about 60 px, double-tap and pinch zoom the board (cells ≥ 40 px); held sideways
  (844×390): cells ≥ 25 px, every other control ≥ 40×40 (``touch.py``); screenshots
  ``var/screenshots/kelimeki-desktop.png``, ``kelimeki-phone.png`` (and ``-upright``);
* two tabs of one seat: the replaced one offers *Burada oyna*, which takes the seat back;
* a move deadline that runs out (W-X3): the seat forfeits (W-E6), the table says so once;
  the end card's buttons inside a phone's screen;
* the guided first game, played through with its hints.

The paced AI answer for guests (the player's word scored, the AI "thinking", then its
word as a frame of its own) is ``test_kelimeki.py::test_the_ais_word_comes_after_the_
players_and_it_thinks_meanwhile``."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect

from game.models import Match
from games.kelimeki.engine import bots
from tests.e2e.guide import guide_from_lobby, guide_over_table
from tests.e2e.test_kelimeki import Board, start_game
from tests.e2e.test_table import DESKTOP, PHONE_LANDSCAPE, PHONE_UPRIGHT, make_user, new_context
from tests.e2e.touch import screenshot, targets

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

TIMEOUT = 30_000
ON_TOP = """(el) => { const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return Boolean(hit && (hit === el || el.contains(hit))); }"""
CELL = "document.querySelector(\".kk-cell[data-row='7'][data-col='7']\").getBoundingClientRect()"


def start_recorded(page, players: int = 2) -> Match:
    """A logged-in player's game against the AI that counts for k-lig (W-L1): a rated
    platform match with the 7-day clock (W-X3)."""
    page.goto("/kelimeki/")
    dialog = page.locator("dialog.kk-new-dialog")
    expect(dialog).to_be_visible()
    dialog.locator(f"input[name='players'][value='{players}']").check()
    dialog.get_by_role("button", name=re.compile("Başla|Start")).click()
    page.wait_for_url(re.compile(r"/match/\d+/$"), timeout=TIMEOUT)
    return Match.objects.get(pk=int(re.search(r"/match/(\d+)/", page.url).group(1)))


def cell_size(page) -> float:
    return page.evaluate(f"() => {CELL}.width")


def small_controls(page) -> tuple[list[dict], list[dict]]:
    """Every visible control under 40×40, and the board's squares (measured apart: the
    board is zoomed for a finger, issue 29)."""
    found = targets(page)
    cells = [t for t in found if "Satır" in t["name"] or "Row" in t["name"]]
    others = [t for t in found if t not in cells and (t["w"] < 40 or t["h"] < 40)]
    return others, cells


@pytest.mark.parametrize("language, title, section", [
    ("tr", "Kelimeki — Nasıl Oynanır", "Bölge vergisi"),
    ("en", "Kelimeki — How to play", "Zone tax"),
])  # fmt: skip
def test_the_guide_from_the_table_and_the_lobby(live_site, browser: Browser, language, title,
                                                section):  # fmt: skip
    user = make_user(f"kk_rehber_{language}", "Rana")
    locale = "tr-TR" if language == "tr" else "en-GB"
    context = new_context(browser, live_site, user, viewport=DESKTOP, locale=locale)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_site.url}])
    page = context.new_page()
    board = Board(page)
    start_recorded(page)
    board.wait_mine()
    version = board.data("version")
    page.locator(".kk-tools [data-guide-open]").click()
    guide_over_table(page, title, section, drawn=".kk-guide-board")  # the table's own board
    assert board.data("version") == version and board.data("myTurn") == "1"  # still live
    guide_from_lobby(page, "kelimeki", title)
    assert not board.errors, board.errors
    context.close()


def test_a_phone_upright_and_sideways(live_site, browser: Browser):
    """Issue 29 item 8: the upright layout (no request to turn the phone), zoom by double
    tap and pinch, and the touch sizes of the table held sideways."""
    context = browser.new_context(base_url=live_site.url, locale="tr-TR", viewport=PHONE_UPRIGHT,
                                  has_touch=True, is_mobile=True)  # fmt: skip
    page = context.new_page()
    board = Board(page, touch=True)
    start_game(page, "kolay", "kelimeki-e2e-phone", 20)
    board.wait_mine()
    expect(page.get_by_text("Telefonunu yan çevir")).to_have_count(0)
    cell = cell_size(page)
    rack = page.locator(".kk-rtile").first.bounding_box()
    play = page.get_by_role("button", name="Oyna", exact=True).bounding_box()
    print(f"upright 390×844: cell {cell:.1f} px, rack tile {rack['width']:.0f}×{rack['height']:.0f}, "
          f"Oyna {play['width']:.0f}×{play['height']:.0f}")  # fmt: skip
    assert cell >= 25 and rack["width"] >= 56 and rack["height"] >= 56
    assert play["width"] >= 40 and play["height"] >= 40 and play["y"] + play["height"] <= 844
    others, _cells = small_controls(page)
    assert not others, others
    screenshot(page, "kelimeki-upright")

    # a double tap zooms the board (and another one back); the tap does not lay a tile
    target = board.cell(7, 7)
    target.tap()
    target.tap()
    page.wait_for_function("() => document.getElementById('kk').dataset.zoom === '2.00'")
    zoomed = cell_size(page)
    print(f"double tap: cell {zoomed:.1f} px")
    assert zoomed >= 40
    expect(page.locator(".kk-tile.tent")).to_have_count(0)
    page.wait_for_timeout(400)  # not a third tap of the same double tap
    board.cell(7, 7).tap()
    board.cell(7, 7).tap()
    page.wait_for_function("() => document.getElementById('kk').dataset.zoom === '1.00'")
    # two fingers spread apart: the board grows with them
    box = page.locator(".kk-board").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = context.new_cdp_session(page)
    touch = "Input.dispatchTouchEvent"
    cdp.send(touch, {"type": "touchStart", "touchPoints": [{"x": cx - 20, "y": cy, "id": 1},
                                                            {"x": cx + 20, "y": cy, "id": 2}]})  # fmt: skip
    for k in range(1, 11):
        d = 20 + 10 * k
        cdp.send(touch, {"type": "touchMove", "touchPoints": [{"x": cx - d, "y": cy, "id": 1},
                                                               {"x": cx + d, "y": cy, "id": 2}]})  # fmt: skip
    cdp.send(touch, {"type": "touchEnd", "touchPoints": []})
    cdp.detach()
    pinched = cell_size(page)
    print(f"pinch: zoom {board.data('zoom')}, cell {pinched:.1f} px")
    assert float(board.data("zoom")) > 2 and pinched >= 40
    # a word laid on the zoomed board (taps) is previewed as valid
    move = bots.best_move(board.frame()["hand"])
    for p in move.to_action()["placements"]:
        board.cell(p["row"], p["col"]).scroll_into_view_if_needed()
        board.put(p, "tap")
    assert board.preview() == "valid"
    page.get_by_role("button", name="Geri Al").tap()

    # held sideways: the board the whole height, every control 40×40 at least
    page.set_viewport_size(PHONE_LANDSCAPE)
    board.page.locator("[data-action='zoom']").click()  # back to the whole board
    page.wait_for_function("() => document.getElementById('kk').dataset.zoom === '1.00'")
    cell = cell_size(page)
    others, cells = small_controls(page)
    found = [t for t in targets(page) if t not in cells]
    smallest = min(min(t["w"], t["h"]) for t in found)
    play = page.get_by_role("button", name="Oyna", exact=True).bounding_box()
    print(f"sideways 844×390: cell {cell:.1f} px, smallest control {smallest:.1f} px of "
          f"{len(found)}, Oyna {play['width']:.0f}×{play['height']:.0f}")  # fmt: skip
    assert cell >= 25 and not others, others
    assert play["width"] >= 40 and play["height"] >= 40 and play["y"] + play["height"] <= 390
    screenshot(page, "kelimeki-phone")
    page.set_viewport_size(DESKTOP)
    screenshot(page, "kelimeki-desktop")
    assert not board.errors, board.errors
    context.close()


def test_two_tabs_then_a_timeout_that_forfeits(live_site, browser: Browser):
    """Close code 4009: the replaced tab shows *Burada oyna*, which takes the seat back
    (the other tab is replaced in turn; the clock keeps its days).  Then the move
    deadline passes (W-X3): the seat forfeits (W-E6), the table says so once, and the end
    card's buttons are inside a phone's screen."""
    user = make_user("kk_iki_sekme", "Efe")
    context = new_context(browser, live_site, user, viewport=DESKTOP)
    first = Board(context.new_page())
    match = start_recorded(first.page)
    first.wait_mine()
    second = Board(context.new_page())
    second.page.goto(f"/match/{match.pk}/")
    second.wait_mine()
    note = first.page.locator('.kk-note[data-kind="replaced"]')
    expect(note).to_contain_text("başka bir sekmede")
    expect(second.page.locator(".kk-note")).to_have_count(0)
    note.get_by_role("button", name="Burada oyna").click()
    expect(note).to_have_count(0)
    expect(second.page.locator('.kk-note[data-kind="replaced"]')).to_have_count(1)
    first.wait_mine()
    clock = first.page.locator(".kk-clock")
    expect(clock).to_be_visible()
    expect(clock).to_contain_text("g")  # days left (W-X3), not a frozen "0 sn"
    assert "0 sn" not in clock.inner_text()
    second.page.close()

    # the deadline comes in 3 s (as if 7 days had passed) and the table is open when it
    # passes: the server's sweep forfeits the seat (2 players: the game ends)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() + timedelta(seconds=3))
    page = first.page
    page.reload()
    timeout = page.locator('.kk-note[data-kind="timeout-0"]')
    expect(timeout).to_contain_text("Süren doldu", timeout=TIMEOUT)
    expect(timeout).to_contain_text("7 gün içinde hamle yapmadığın için oyunu teslim")
    expect(timeout).to_contain_text("k-lig: −2")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    frame = first.frame()
    assert frame["match"]["timeouts"][0]["seat"] == 0 and frame["hand"]["forfeited"][0]
    expect(page.locator(".kk-overlay")).to_be_visible()
    timeout.get_by_role("button", name="Tamam").click()
    expect(timeout).to_have_count(0)
    page.reload()
    first.wait(f"() => Number(document.getElementById('kk').dataset.version) >= {match.version}")
    expect(page.locator(".kk-overlay")).to_be_visible()
    page.wait_for_timeout(1000)
    expect(page.locator(".kk-note")).to_have_count(0)  # said once
    # the end card on a phone held sideways: its buttons on the screen
    page.set_viewport_size(PHONE_LANDSCAPE)
    buttons = page.locator(".kk-final-actions .button")
    expect(buttons).to_have_count(2)
    for button in buttons.all():
        box = button.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 390, box
        assert box["width"] >= 40 and box["height"] >= 40, box
        # on top at its centre: neither the card's scrolling nor the rematch card hides it
        assert button.evaluate(ON_TOP), box
    screenshot(page, "kelimeki-phone-final")
    assert not first.errors, first.errors
    context.close()


def test_the_guided_first_game(live_site, browser: Browser):
    user = make_user("kk_ilk_oyun", "Deniz")
    context = new_context(browser, live_site, user, viewport=DESKTOP)
    page = context.new_page()
    board = Board(page)
    page.goto("/")
    offer = page.locator(".trial-offer[data-game='kelimeki']")
    expect(offer).to_contain_text("Kelimeki")
    offer.get_by_role("button").first.click()
    page.wait_for_url(re.compile(r"/match/\d+/$"), timeout=TIMEOUT)
    match = Match.objects.get(pk=int(re.search(r"/match/(\d+)/", page.url).group(1)))
    assert match.kind == "trial" and not match.rated
    board.wait_mine()
    card = page.locator(".kx-trial")
    expect(card).to_have_attribute("data-hint", "first")
    expect(card).to_contain_text("Adım 1/3")
    expect(card.locator(".kx-text")).to_contain_text("KALEM")

    # step 1: KALEM from the home square, as the hint says; a pass is refused
    for col, letter in enumerate("KALEM"):
        board.put({"row": 0, "col": col, "letter": letter, "joker": False}, "tap")
    assert board.preview() == "valid"
    expect(page.locator(".kk-preview")).to_be_visible()
    assert page.locator(".kk-preview").evaluate(ON_TOP)  # the hint card keeps clear of it
    screenshot(page, "kelimeki-guided-step1")
    board.act(page.get_by_role("button", name="Oyna", exact=True).click)
    expect(card).to_have_attribute("data-hint", "join", timeout=TIMEOUT)  # after the AI's SU
    expect(card).to_contain_text("Adım 2/3")
    expect(board.cell(14, 14).locator(".kk-tile")).to_contain_text("U")
    version, errors = int(board.data("version")), int(board.data("errors"))
    page.get_by_role("button", name="Pas Geç").click()
    board.wait(f"() => Number(document.getElementById('kk').dataset.errors) > {errors}")
    assert board.data("version") == str(version)
    expect(page.locator(".kk-toast-error")).to_contain_text("tahtaya bağlanan bir kelime")

    # step 2: a word joined to the board
    move = bots.best_move(board.frame()["hand"])
    for p in move.to_action()["placements"]:
        board.put(p, "tap")
    assert board.preview() == "valid"
    board.act(page.get_by_role("button", name="Oyna", exact=True).click)
    expect(card).to_have_attribute("data-hint", "exchange", timeout=TIMEOUT)
    expect(card).to_contain_text("Adım 3/3")
    # on a phone, either way up: the card keeps clear of the first row and the buttons
    for size, name in ((PHONE_LANDSCAPE, "kelimeki-guided-phone"),
                       (PHONE_UPRIGHT, "kelimeki-guided-upright")):  # fmt: skip
        page.set_viewport_size(size)
        for target in (board.cell(0, 0), page.locator("[data-action='exchange']")):
            assert target.evaluate(ON_TOP), name
        others, _cells = small_controls(page)
        assert not others, others
        screenshot(page, name)
    page.set_viewport_size(DESKTOP)

    # step 3: exchange two tiles
    page.get_by_role("button", name="Değiştir").click()
    tiles = page.locator(".kk-rack .kk-rtile")
    tiles.nth(0).click()
    tiles.nth(1).click()
    board.act(page.locator("[data-action='exchange-confirm']").click)
    expect(card).to_have_attribute("data-hint", "done", timeout=TIMEOUT)
    expect(card.locator(".kx-lobby")).to_be_visible()
    screenshot(page, "kelimeki-guided")
    user.refresh_from_db()
    assert "kelimeki" in user.tutorials_done
    page.goto("/")
    expect(page.locator(".trial-offer[data-game='kelimeki']")).to_have_count(0)
    assert not board.errors, board.errors
    context.close()
