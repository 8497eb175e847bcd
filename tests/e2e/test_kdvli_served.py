"""Issue 29 for KDVli Okey in a real browser: the rules guide from the table's "?" (over
the running match) and from the lobby, in Turkish and English; a timeout the table
announces once (V-N6); the tab take-back of the okey table kit (*Burada oyna*) on both
of its tables, KDVli and Kastet; the rack's mark on the finishing tile (V-F1) with *Seri
Diz* leaving it alone and the finish that follows; every touch target of the table and
the final card at 844×390, the final card's buttons in sight above the rematch panel.
Screenshots: ``var/screenshots/kdvli-desktop.png``, ``kdvli-phone.png``."""

from __future__ import annotations

import random
import re
from concurrent.futures import ThreadPoolExecutor

import orjson
import pytest
from django.db import connection
from playwright.sync_api import Browser, expect

from game import services
from game.engine import registry
from game.models import Match, MatchAction
from tests.e2e import touch
from tests.e2e.guide import guide_from_lobby, guide_over_table
from tests.e2e.test_table import DESKTOP, PHONE_LANDSCAPE, make_user, new_context
from tests.e2e.tilepage import TilePage
from tests.e2e.touch import screenshot
from tests.games.kdvli.engine.helpers import hand_of, scenario

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

GAME = registry.get("kdvli")
OVER = (Match.Status.FINISHED, Match.Status.ABANDONED, Match.Status.ABORTED)
# 15 tiles, all in runs under indicator Y5 (okey Y6): a finish needs one of R1, R5, Y2, Y5
# out (tests/games/kdvli/engine/test_arrange_finish.py)
ALL_GROUPED = "R1 R2 R3 R4 R5 B7 B8 B9 K10 K11 K12 Y2 Y3 Y4 Y5"


class Page(TilePage):
    FACTS_JS = """() => { const d = document.getElementById('kt').dataset;
      return {version: Number(d.version), layout: Number(d.layout || 0),
              errors: Number(d.errors || 0), phase: d.phase || '', status: d.status || '',
              clock: d.clock || '', connects: Number(d.connects || 0)}; }"""

    def open(self, match_id: int) -> None:
        self.page.goto(f"/match/{match_id}/")
        self.wait("() => Number(document.getElementById('kt').dataset.version) >= 0")

    def assert_clean(self) -> None:
        assert self.errors == [], self.errors


def in_thread(job):
    """Bots that move inline do so in a thread of their own (Playwright's loop runs here)."""

    def run():
        try:
            return job()
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def make_match(settings, users, seed: str, *, game="kdvli", rated=False, options=None):
    settings.KUT_BOTS_INLINE = True
    return in_thread(lambda: services.match_create(
        game=game, options=options or {"hands": 3}, users=list(users), rated=rated,
        bot_levels=["", "easy", "easy", "easy"], host=users[0], seed=seed,
        move_seconds=30 if rated else None))  # fmt: skip


def measure(page, where: str, within: str = "") -> None:
    touch.measure(page, "kdvli", where, within)


# --- the guide ---------------------------------------------------------------------------


@pytest.mark.parametrize("language, title, section", [
    ("tr", "KDVli Okey · Nasıl Oynanır", "Gösterge yapmak"),
    ("en", "KDVli Okey · How to play", "Showing the indicator"),
])  # fmt: skip
def test_the_guide_from_the_table_and_the_lobby(live_site, browser: Browser, settings,
                                                language, title, section):  # fmt: skip
    user = make_user(f"kv_rehber_{language}", "Rana")
    match = make_match(settings, [user, None, None, None], seed=f"kdvli-guide-{language}")
    locale = "tr-TR" if language == "tr" else "en-GB"
    context = new_context(browser, live_site, user, viewport=DESKTOP, locale=locale)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_site.url}])
    me = Page(context.new_page())
    me.open(match.pk)
    page = me.page
    if language == "tr":
        screenshot(page, "kdvli-desktop")
    version = me.facts()["version"]
    page.locator(".kt-bar .guide-open").click()
    guide_over_table(page, title, section, drawn=".kt-tile")  # drawn with the table's tiles
    facts = me.facts()
    assert facts["version"] >= version and facts["status"] in ("playing", "between")
    guide_from_lobby(page, "kdvli", title)
    me.assert_clean()
    context.close()


# --- the timeout notice (V-N6) -------------------------------------------------------------


def test_a_timeout_is_announced_once(live_site, browser: Browser, settings):
    """The player's turn runs out (a rated table, 30 s: V-N5's least): the table says what
    the server played for them — the tile it discarded, named as on the pile — once."""
    user = make_user("kv_uyuyan", "Cem")
    match = make_match(settings, [user, None, None, None], seed="kdvli-timeout", rated=True)
    context = new_context(browser, live_site, user, viewport=PHONE_LANDSCAPE, has_touch=True)
    me = Page(context.new_page())
    me.open(match.pk)
    page = me.page
    note = page.locator('.kt-note[data-kind="timeout"]')
    expect(note).to_have_count(1, timeout=90_000)
    text = note.locator(".kt-note-text").inner_text()
    found = re.fullmatch(
        r"Süren doldu: (ortadan çekildi, |sana atılan taş alındı, )?(.+) atıldı\.", text
    )
    assert found, text
    timeout = MatchAction.objects.filter(match=match, kind="timeout", seat=0).first()
    assert timeout is not None
    # a tile named as the table names it (the discard, public on my pile: V-H1)
    assert re.fullmatch(r"(kırmızı|sarı|mavi|siyah) \d{1,2}|okey.*|sahte okey.*", found.group(2))
    screenshot(page, "kdvli-timeout-note")
    note.locator(".kt-note-close").click()
    expect(note).to_have_count(0)
    # a frame that still carries the timeout (the player has not played since: V-N6):
    # a private rack arrangement (Seri Diz) — the note is not shown again
    me.act(me.button("runs").click)
    expect(note).to_have_count(0)  # shown once, not again with the next frames
    me.assert_clean()
    context.close()


# --- the tab take-back, on both tables of the okey kit ------------------------------------


@pytest.mark.parametrize("game, prefix, options", [
    ("kdvli", "kv", {"hands": 3}),
    ("kastet", "ks", {"hands": 1}),
])  # fmt: skip
def test_a_replaced_tab_takes_the_seat_back(live_site, browser: Browser, settings, game, prefix,
                                            options):  # fmt: skip
    """Close 4009: the first tab shows *Burada oyna* and no frozen clock; the button
    takes the seat back and the second tab steps aside in turn."""
    user = make_user(f"iki_sekme_{game}", "Efe")
    match = make_match(settings, [user, None, None, None], seed=f"{game}-tabs", game=game,
                       rated=True, options=options)  # fmt: skip
    context = new_context(browser, live_site, user, viewport=DESKTOP)
    first, second = Page(context.new_page()), Page(context.new_page())
    first.open(match.pk)
    expect(first.page.locator(f".{prefix}-clock")).to_be_visible()  # a rated table's clock
    second.open(match.pk)
    replaced = first.page.locator('.kt-note[data-kind="replaced"]')
    expect(replaced).to_contain_text("Bu masa başka bir sekmede açık.")
    expect(first.page.locator(".kt-status")).to_have_text("Başka sekmede açık.")
    # no clock left counting down to a frozen "0 sn" in the tab that no longer plays
    expect(first.page.locator(f".{prefix}-clock")).to_be_hidden()
    first.page.wait_for_timeout(2500)
    assert first.facts()["clock"] == ""
    assert all(t == "" for t in first.page.locator(".kt-timer").all_inner_texts())
    expect(second.page.locator(".kt-notes-live .kt-note")).to_have_count(0)
    expect(second.page.locator(f".{prefix}-clock")).to_be_visible()
    # take the seat back here: the second tab is replaced in turn, once
    replaced.get_by_role("button", name="Burada oyna").click()
    expect(replaced).to_have_count(0)
    expect(second.page.locator('.kt-note[data-kind="replaced"]')).to_have_count(1)
    first.wait("() => document.getElementById('kt').dataset.connects === '2'")
    expect(first.page.locator(f".{prefix}-clock")).to_be_visible()
    expect(first.page.locator(f".{prefix}-clock")).to_have_text(re.compile(r"\b([1-9]\d*) sn$"))
    expect(second.page.locator(f".{prefix}-clock")).to_be_hidden()
    assert second.facts()["connects"] == 1
    for tab in (first, second):
        expect(tab.page.locator(".kt-toast")).to_have_count(0)
        tab.assert_clean()
    context.close()


# --- the finishing tile (V-F1), Seri Diz (V-R2), the phone -------------------------------


def _deal_a_finish(match: Match) -> None:
    """Seat 0 starts hand 1 with a rack that can finish now (a scenario's deal)."""
    state = GAME.from_dict(match.state)
    state.hand = hand_of(scenario({0: ALL_GROUPED}, starter=0))
    Match.objects.filter(pk=match.pk).update(state=GAME.to_dict(state))


def test_the_rack_marks_the_finishing_tile_and_seri_diz_leaves_it_out(
    live_site, browser: Browser, settings
):
    user = make_user("kv_bitiren", "Deniz")
    match = make_match(settings, [user, None, None, None], seed="kdvli-finish")
    _deal_a_finish(match)
    context = new_context(browser, live_site, user, viewport=PHONE_LANDSCAPE, has_touch=True)
    me = Page(context.new_page())
    me.open(match.pk)
    page = me.page
    marked = page.locator(".kt-cell.is-finishing")
    expect(marked).to_have_count(4)  # R1, R5, Y2, Y5: each can be the finishing tile
    for i in range(4):
        cell = marked.nth(i)
        expect(cell.locator(".kv-fin-mark")).to_have_text("✓")  # a shape, not a colour alone
        expect(cell.locator(".kv-fin-mark")).to_be_visible()
        expect(cell).to_have_attribute("aria-label", re.compile("bu taşla bitebilirsin$"))
        assert (
            cell.locator(".kt-tile").evaluate("(t) => getComputedStyle(t).outlineStyle") == "dashed"
        )
    expect(page.locator(".kt-cell.has-tile:not(.is-finishing) .kv-fin-mark")).to_have_count(0)
    screenshot(page, "kdvli-phone")
    measure(page, "table 844x390")
    # Seri Diz: the other 14 in groups, the finishing tile last and alone, still marked
    me.act(me.button("runs").click)
    last = page.locator(".kt-cell.has-tile").last
    expect(last).to_have_class(re.compile(r"\bis-finishing\b"))
    last_i = int(last.get_attribute("data-i"))
    assert page.locator(f'.kt-gap[data-at="{last_i - 1}"].is-on').count() == 1 or (
        page.locator(f'.kt-cell[data-i="{last_i - 1}"]:not(.has-tile)').count() == 1
    )  # set apart from the groups before it
    last.tap()
    me.act(me.button("finish").click)
    overlay = page.locator('.kt-overlay[data-kind="hand"]')
    expect(overlay).to_be_visible()
    expect(overlay.locator(".kt-overlay-sub")).to_contain_text("Deniz bitirdi.")
    me.assert_clean()
    context.close()


# --- the final card at 844×390 --------------------------------------------------------------


def _play_out(match_id: int) -> Match:
    """Every hand to its end: the human seat moves as an easy bot would (its socket's
    service), the bots through the inline runner."""
    rng = random.Random(0)
    for _ in range(5000):
        match = Match.objects.get(pk=match_id)
        if match.status in OVER:
            return match
        if match.status == Match.Status.BETWEEN:
            services.match_next_hand(match.pk, match.version, force=True)
            continue
        state = GAME.from_dict(match.state)
        seat = state.hand.turn
        if match.seats.get(seat=seat).bot_controlled:
            services.match_play_bot(match.pk, match.version, rng=rng)
        else:
            view = orjson.loads(orjson.dumps(GAME.view_for(state, seat)))
            action = GAME.bot_choose(view, "easy", rng) or {"type": "timeout"}
            services.match_apply_action(match.pk, seat, action, match.version)
    raise AssertionError("the match did not end")


def test_the_final_card_keeps_its_buttons_in_sight(live_site, browser: Browser, settings):
    """Issue 29 item 8: at 844×390 the final card (3 hands of scores, four revealed
    racks) never hides *Lobiye dön* under the rematch panel: the link's box lies in the
    viewport, clear of the panel, and a tap there reaches it."""
    host = make_user("kv_final", "Naz")
    match = make_match(settings, [host, None, None, None], seed="kdvli-final")
    match = in_thread(lambda: _play_out(match.pk))
    assert match.status == Match.Status.FINISHED
    context = new_context(browser, live_site, host, viewport=PHONE_LANDSCAPE, has_touch=True)
    me = Page(context.new_page())
    me.open(match.pk)
    page = me.page
    expect(page.locator('.kt-overlay[data-kind="final"]')).to_be_visible()
    rematch = page.locator(".kx-rematch")
    expect(rematch).to_be_visible()
    page.wait_for_timeout(500)  # the card makes room for the panel (table-extras.js)
    link = page.locator(".kt-final-actions a.button")
    expect(link).to_have_text("Lobiye dön")
    box, panel = link.bounding_box(), rematch.bounding_box()
    card = page.locator(".kt-overlay-card").bounding_box()
    content = page.locator(".kt-overlay-card").evaluate("(c) => c.scrollHeight")
    print(f"\n[final] kdvli 844x390: card {card['height']:.0f} px high (content {content} px), "
          f"link {box}, rematch panel top {panel['y']:.0f}")  # fmt: skip
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE_LANDSCAPE["height"]
    assert box["y"] + box["height"] <= panel["y"]  # above the rematch panel, never under it
    hit = page.evaluate(
        "([x, y]) => { const el = document.elementFromPoint(x, y); return el && el.closest('a') ?"
        " el.closest('a').textContent.trim() : (el ? el.className : ''); }",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert hit == "Lobiye dön", hit
    screenshot(page, "kdvli-final-phone")
    measure(page, "final card 844x390", within=".kt-overlay, .kx-rematch")
    me.assert_clean()
    context.close()
