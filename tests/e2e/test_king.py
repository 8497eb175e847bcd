"""King's card table in a real browser on the real stack (issue 19, "Done when"): a
rated 4-hand King table made from /lobby/king/, filled with three bots, started and
played to the final result — the human chooses a contract when it is its turn (G-Q2)
and plays a legal card (G-V5) every trick, by keyboard once and by click/tap after.
Half the match is played at desktop size (1280×800), half on a phone held sideways
(844×390).  Screenshots go to ``KUT_SCREENSHOTS`` (default test-results/screenshots).
Kept lean: one whole match, bots at once (``live_site``: no bot delay, 1 s between
hands).
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Browser, expect

from game.models import HandResult, Match
from lobby.models import RankingResult
from lobby.models import Table as TableRow
from tests.e2e.test_table import DESKTOP, PHONE_LANDSCAPE, make_user, new_context, shot

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

TIMEOUT = 30_000
DATA = "(k) => document.getElementById('kg').dataset[k] || ''"


class KingTable:
    def __init__(self, page):
        self.page = page
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))

    def data(self, key: str) -> str:
        return self.page.evaluate(DATA, key)

    def wait(self, js: str, arg=None) -> None:
        self.page.wait_for_function(js, arg=arg, timeout=TIMEOUT)

    def wait_mine(self) -> str:
        """Until this seat must act or a hand/the match is over: "choose", "play",
        "between" or "finished"."""
        self.wait(
            "() => { const d = document.getElementById('kg').dataset;"
            " return d.myTurn === '1' || ['between', 'finished'].includes(d.status); }"
        )
        status = self.data("status")
        return status if status in ("between", "finished") else self.data("phase")

    def act(self, do) -> None:
        """``do()``, then wait for a newer frame; the server must not refuse it."""
        version, errors = int(self.data("version")), int(self.data("errors"))
        do()
        self.wait(
            "([v, e]) => { const d = document.getElementById('kg').dataset;"
            " return Number(d.version) > v || Number(d.errors) > e; }",
            [version, errors],
        )
        assert int(self.data("errors")) == errors, self.data("lastError")


def test_a_rated_four_hand_king_match_against_three_bots(live_site, browser: Browser):
    user = make_user("king_oyuncusu", "Zeynep")
    context = new_context(browser, live_site, user, viewport=DESKTOP)
    page = context.new_page()
    table = KingTable(page)

    # The lobby offers King tables: a rated 4-hand table with the default move time.
    page.goto("/lobby/king/")
    page.get_by_role("link", name="Masa kur").click()
    dialog = page.locator("dialog#new-table")
    expect(dialog).to_be_visible()
    dialog.locator("label.seg-opt", has=page.locator("input[name=opt_length][value='4']")).click()
    expect(dialog.locator("input[name=rated][value='1']")).to_be_checked()
    expect(dialog.locator("select[name=move_seconds]")).to_have_value("30")  # G-T1, P-6
    dialog.get_by_role("button", name="Masayı kur").click()
    page.wait_for_url(re.compile(r"/lobby/tables/\d+/$"))
    row = TableRow.objects.get(host=user)
    assert (row.game, row.options["length"], row.rated, row.move_seconds) == ("king", 4, True, 30)
    start = page.locator("#table-live form", has=page.get_by_role("button", name="Oyunu başlat"))
    start.get_by_role("button", name="Oyunu başlat").click()
    expect(page).to_have_url(re.compile(r"/match/\d+/$"), timeout=TIMEOUT)
    match = Match.objects.get(pk=int(re.search(r"/match/(\d+)/", page.url).group(1)))
    assert (match.game, match.rated, match.move_seconds) == ("king", True, 30)
    assert [s.bot_level != "" for s in match.seats.order_by("seat")] == [False, True, True, True]
    table.wait("() => Number(document.getElementById('kg').dataset.version) >= 0")

    t0 = time.monotonic()
    chosen = cards = 0
    shots: set[str] = set()
    while True:
        state = table.wait_mine()
        hand = int(table.data("hand"))
        if state == "finished":
            break
        if hand == 3 and "phone" not in shots:  # the rest of the match on a phone,
            page.set_viewport_size(PHONE_LANDSCAPE)  # with the four-colour deck
            page.locator("[data-action=colours]").click()
            assert page.evaluate("() => localStorage.getItem('kut.king.fourColours')") == "1"
            expect(page.locator("#kg")).to_have_class(re.compile("four-colours"))
            shots.add("phone")
        size = "phone" if "phone" in shots else "desktop"
        if state == "between":
            if f"summary-{size}" not in shots:
                shots.add(f"summary-{size}")
                expect(page.locator(".kg-overlay[data-kind=hand]")).to_be_visible()
                shot(page, f"king-hand-summary-{size}")
                if size == "desktop":  # G-V2, P-2: the deal with its check, in the browser
                    link = page.locator(".kg-overlay .kt-verify a")
                    check = page.context.new_page()
                    check.goto(link.get_attribute("href"))
                    expect(check.locator("#verify-result")).to_have_attribute("data-state", "ok")
                    check.close()
            table.wait(
                "(h) => { const d = document.getElementById('kg').dataset;"
                " return d.status !== 'between' || d.hand !== h; }",
                str(hand),
            )
            continue
        if state == "choose":
            # G-Q2: the panel with the quota; a 4-hand match: one choice, ceza or koz.
            panel = page.locator(".kg-choice")
            expect(panel).to_be_visible()
            expect(panel.locator(".kg-quota")).to_have_text("Ceza 1 · Koz 1")
            shot(page, f"king-choice-{size}")
            options = panel.locator(".kg-contract-btn:enabled")
            if chosen % 2 == 0 and options.count():
                table.act(options.first.click)
            else:
                table.act(panel.locator(".kg-trump-btn:enabled").first.click)
            chosen += 1
            continue
        playable = page.locator(".kg-hand-card.is-playable")
        expect(playable.first).to_be_visible()
        if cards == 0:  # the keyboard: the focus starts on a playable card
            page.locator(".kg-hand-card[tabindex='0']").focus()
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowLeft")
            focused = page.evaluate("() => document.activeElement.dataset.card")
            if page.locator(f".kg-hand-card.is-playable[data-card='{focused}']").count():
                table.act(lambda: page.keyboard.press("Enter"))
            else:
                table.act(playable.first.click)
        else:
            if f"play-{size}" not in shots and page.locator(".kg-slot .kg-card").count() >= 2:
                shots.add(f"play-{size}")
                shot(page, f"king-play-{size}")
            last = page.locator("[data-action=last]")
            if size == "phone" and "last" not in shots and last.is_enabled():
                shots.add("last")  # G-V4: a look at the last completed trick
                last.click()
                expect(page.locator(".kg-last-dialog .kg-last .kg-card")).to_have_count(4)
                shot(page, "king-last-trick-phone")
                page.locator(".kg-last-dialog").get_by_role("button", name="Kapat").click()
            table.act(playable.last.locator(".kg-rank").click)  # the corner a finger taps
        cards += 1
        assert cards <= 4 * 13
    elapsed = time.monotonic() - t0
    print(f"king match: {cards} cards, {chosen} choices in {elapsed:.1f} s")

    # The final result (G-M5), the score table (G-Q3), the four-colour deck.
    final = page.locator(".kg-overlay[data-kind=final]")
    expect(final.locator("h2")).to_have_text("Maç bitti")
    shot(page, "king-final-phone")
    page.set_viewport_size(DESKTOP)
    shot(page, "king-final-desktop")
    page.locator("[data-action=scores]").click()
    scores = page.locator(".kg-scores-dialog")
    expect(scores.locator("tbody tr")).to_have_count(4)
    shot(page, "king-scores-desktop")
    scores.get_by_role("button", name="Kapat").click()

    # Rematch (G-X5) through the existing endpoints: the host chooses 8 hands; only bots
    # to ask, so it starts at once and the table moves on to it.
    rematch = page.locator(".kx-rematch")
    expect(rematch).to_contain_text("Aynı oyuncularla yeniden oynamak ister misin?")
    rematch.get_by_role("button", name="8 el").click()
    expect(page).not_to_have_url(re.compile(rf"/match/{match.pk}/$"), timeout=TIMEOUT)
    new = Match.objects.get(rematch_of=match)
    assert (new.game, new.options["length"], new.rated) == ("king", 8, True)
    expect(page).to_have_url(re.compile(rf"/match/{new.pk}/$"))

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert HandResult.objects.filter(match=match).count() == 4 and chosen == 1
    assert RankingResult.objects.filter(match=match, user=user).count() == 1  # P-4
    # The match record shows King's contracts, not KÜT's columns.
    page.goto(f"/lobby/matches/{match.pk}/")
    expect(page.locator(".king-hands tbody tr")).to_have_count(4)
    expect(page.locator("body")).not_to_contain_text("İşlek")
    assert table.errors == [], table.errors
    context.close()
