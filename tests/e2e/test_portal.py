"""The portal lobby in a real browser (issue 17, item 6, "Done when"): from the home
page's game cards to KÜT's lobby, a table made with the compact create-table dialog,
filled with bots, started and played to the end — on the real stack (``live_site``).

Kept lean: a 5-task *test* table (no move timer), the simple human of test_table.py
(draw, Diz + Görevi Aç while not opened, discard a loose tile).  The phone checks
(cards stack, no sideways scroll, buttons ≥ 40 px) look at the pages only.
Screenshots go to ``KUT_SCREENSHOTS`` (default ``test-results/screenshots``).
"""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from playwright.sync_api import Browser, expect

from game import web as game_web
from game.engine import registry
from game.models import Match
from lobby import services
from lobby.models import Table as TableRow
from tests.e2e.test_table import (
    DESKTOP,
    PHONE_LANDSCAPE,
    SHOTS,
    Table,
    make_user,
    new_context,
    shot,
)  # fmt: skip

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MIN_TARGET = 40  # px: every button of the portal is at least this tall


def play_to_the_end(table: Table, page) -> int:
    """The simple human until the match is over; returns the number of turns."""
    turns = 0
    ended: set[str] = set()
    while True:
        state = table.wait_my_move()
        if state == "finished":
            return turns
        if state == "between":
            hand = table.data("hand")
            ended.add(hand)
            table.wait(
                "(h) => { const d = document.getElementById('kt').dataset;"
                " return d.status !== 'between' || d.hand !== h; }",
                hand,
            )
            continue
        turns += 1
        assert turns < 250, "the match does not end"
        if state == "take":
            assert table.act(page.locator(".kt-deck").click) is None
        facts = table.facts()
        if facts["open"]:
            error = table.act_many([table.button("arrange").click, table.button("open").click])
            assert error in (None, "task_mismatch", "finish_incomplete"), error
            facts = table.facts()
        elif facts["lay_off"]:
            assert table.act(table.button("auto_lay_off").click) is None
            facts = table.facts()
        i = table.discard_choice()
        table.cell(i).click()
        table.discard_pile.click()
        table.wait(
            "([v, h]) => { const d = document.getElementById('kt').dataset;"
            " return Number(d.version) > v && (d.phase !== 'play' || d.hand !== h); }",
            [facts["version"], facts["hand"]],
        )


def in_a_thread(fn):
    """Run ``fn`` (a service that broadcasts with async_to_sync) beside Playwright's
    event loop, as test_table.create_match does."""

    def call():
        try:
            return fn()
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(call).result()


def full_shot(page, name: str) -> None:
    """The whole page (the cards below the fold too)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def small_buttons(page, selector: str) -> list[str]:
    return page.evaluate(
        """([sel, min]) => [...document.querySelectorAll(sel)]
            .filter((b) => b.offsetParent !== null && b.getBoundingClientRect().height < min)
            .map((b) => b.textContent.trim() + ' ' + b.getBoundingClientRect().height)""",
        [selector, MIN_TARGET],
    )


def start_and_follow_the_socket_first(page, button) -> None:
    """Start the table with the two answers in the order that once raced: the table
    socket's redirect first, htmx's HX-Redirect (the start form's own answer) second.

    The start form's answer is held back until the socket's redirect has begun the
    navigation to the match, whose page is held back in turn; then the form's answer
    arrives. One navigation must be made, not two (the second aborted the first:
    net::ERR_ABORTED in CI; the guard is in lobby-socket.js)."""
    held_start: list = []
    documents: list = []
    said: list[str] = []

    def hold_start(route):
        held_start.append((route, route.fetch()))  # the server starts the match now

    def wait_until(what, ready) -> None:
        deadline = time.monotonic() + 30
        while not ready():  # page.evaluate would wait for the held navigation
            assert time.monotonic() < deadline, what
            page.wait_for_timeout(50)

    page.on("console", lambda message: said.append(message.text))
    # on the form itself: the started table's snapshot takes it out of the page
    button.evaluate(
        "(b) => b.form.addEventListener('htmx:afterRequest', () => console.info('kut-test: answered'))"
    )
    page.route(re.compile(r"/lobby/tables/\d+/start/$"), hold_start)
    page.route(re.compile(r"/match/\d+/$"), lambda route: documents.append(route))
    button.click()
    wait_until("the socket's redirect to the match", lambda: held_start and documents)
    route, response = held_start[0]
    assert response.headers.get("hx-redirect", "").startswith("/match/"), response.headers
    route.fulfill(response=response)
    wait_until("htmx reads the start form's answer", lambda: "kut-test: answered" in said)
    page.wait_for_timeout(1000)  # a second navigation would have asked for the page by now
    assert len(documents) == 1, [r.request.url for r in documents]
    documents[0].continue_()
    expect(page).to_have_url(re.compile(r"/match/\d+/$"), timeout=30_000)
    page.unroute_all(behavior="ignoreErrors")


def test_a_kut_table_from_the_portal_dialog_filled_with_bots_and_played(
    live_site, browser: Browser
):
    user = make_user("portal_oyuncusu", "Elif")
    context = new_context(browser, live_site, user, viewport=DESKTOP)
    page = context.new_page()
    table = Table(page, "portal")  # collects console errors from the first page on

    # The home page: every game as a card; KÜT playable, the others "yakında".
    page.goto("/")
    cards = page.locator(".home-games .game-card")
    # the site's games (the live site runs the site's own settings: no test-suite toy game)
    site_games = [key for key in registry.GAMES if registry.home(key).startswith("games.")]
    expect(cards).to_have_count(len(site_games))
    kut = page.locator("#game-kut")
    expect(kut.locator(".game-name")).to_have_text("KÜT")
    expect(kut.get_by_role("button", name="Hemen Oyna")).to_be_visible()
    for key in site_games:
        if not game_web.playable(key):
            soon = page.locator(f"#game-{key}")
            expect(soon).to_contain_text("yakında")
            expect(soon.locator("button, a.button")).to_have_count(0)
    full_shot(page, "portal-home-desktop")

    # The lobby: the same cards, live; KÜT's "Masalar" leads to its own lobby.
    page.goto("/lobby/")
    expect(page.locator("#lobby-games .game-card")).to_have_count(len(site_games))
    full_shot(page, "portal-lobby-desktop")
    page.locator("#game-kut").get_by_role("link", name="Masalar").click()
    page.wait_for_url(re.compile(r"/lobby/kut/$"))
    expect(page.locator("h1.game-name")).to_have_text("KÜT")
    expect(page.locator("#lobby-tables")).to_contain_text("Şu anda açık masa yok")

    # The compact dialog: 5 tasks, a test table (no move time for KÜT anyway), Orta.
    dialog = page.locator("dialog#new-table")
    expect(dialog).to_be_hidden()
    page.get_by_role("link", name="Masa kur").click()
    expect(dialog).to_be_visible()
    expect(dialog.locator("select[name=move_seconds]")).to_have_count(0)  # fixed 45 s (K-N6)
    dialog.locator("label.seg-opt", has=page.locator("input[name=opt_tasks][value='5']")).click()
    dialog.locator("label.seg-opt", has=page.locator("input[name=rated][value='0']")).click()
    expect(dialog.locator("input[name=level][value=orta]")).to_be_checked()
    box = dialog.bounding_box()
    assert box["height"] < DESKTOP["height"], box  # compact: it fits on the screen
    shot(page, "portal-dialog-desktop")
    dialog.get_by_role("button", name="Masayı kur").click()
    page.wait_for_url(re.compile(r"/lobby/tables/\d+/$"))
    row = TableRow.objects.get(host=user)
    assert (row.game, row.options, row.rated, row.level) == ("kut", {"tasks": 5}, False, "orta")

    # Fill the empty seats with bots and start: the match page opens, in one navigation.
    start = page.locator("#table-live form", has=page.get_by_role("button", name="Oyunu başlat"))
    expect(start.locator("input[name=fill_with_bots]")).to_be_checked()
    start_and_follow_the_socket_first(page, start.get_by_role("button", name="Oyunu başlat"))
    match = Match.objects.get(pk=int(re.search(r"/match/(\d+)/", page.url).group(1)))
    assert match.game == "kut" and match.options["tasks"] == 5 and not match.rated
    assert [s.bot_level for s in match.seats.order_by("seat")] == ["", "normal", "normal", "normal"]
    expect(page.locator("#kt")).to_have_attribute("data-version", re.compile(r"^\d+$"))
    table.wait_ready()

    t0 = time.monotonic()
    turns = play_to_the_end(table, page)
    print(f"portal match: {turns} turns in {time.monotonic() - t0:.1f} s")
    expect(page.locator(".kt-overlay[data-kind=final] h2")).to_have_text("Maç bitti")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.hand_results.count() == 5
    table.assert_clean()
    context.close()


def test_the_portal_on_a_phone_held_sideways(live_site, browser: Browser):
    user = make_user("portal_telefon", "Can")
    context = new_context(
        browser, live_site, user, viewport=PHONE_LANDSCAPE, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    errors = Table(page, "phone").errors
    width = PHONE_LANDSCAPE["width"]
    for url, name in (("/", "portal-home-phone"), ("/lobby/", "portal-lobby-phone")):
        page.goto(url)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width, url
        assert small_buttons(page, ".game-card .button") == [], url
        full_shot(page, name)
    # the cards stack (one or two per row, never squeezed)
    boxes = [c.bounding_box() for c in page.locator("#lobby-games .game-card").all()]
    assert all(b["width"] >= 300 for b in boxes), boxes
    # KÜT's lobby with someone's open table: its badges and seats, the Sit-here buttons
    host = make_user("portal_kurucu", "Ece")
    in_a_thread(
        lambda: services.table_create(game="kut", host=host, options={"tasks": 12}, level="usta")
    )
    page.goto("/lobby/kut/")
    expect(page.locator("#lobby-tables .table-card")).to_have_count(1)
    expect(page.locator("#lobby-tables")).to_contain_text("12 görev")
    expect(page.locator("#lobby-tables")).to_contain_text("Usta")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    assert small_buttons(page, ".table-list .button, .game-head .button") == []
    full_shot(page, "portal-kut-lobby-phone")
    page.get_by_role("link", name="Masa kur").tap()
    dialog = page.locator("dialog#new-table")
    expect(dialog).to_be_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    assert small_buttons(page, "dialog .button, dialog .seg-opt span, dialog .dlg-x") == []
    shot(page, "portal-dialog-phone")
    dialog.get_by_role("button", name="Vazgeç").tap()
    expect(dialog).to_be_hidden()
    assert errors == [], errors
    context.close()
