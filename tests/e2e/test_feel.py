"""Issue 15 in a real browser: the claim window at a paced bot table (K-C1, K-C5), a
timeout that is never silent and an away seat that comes back (K-N7), two tabs of one
seat (close code 4009), and a finished match's page for every one of its players.

The claim test runs on ``paced_site`` (bots that think, as on every real set-up); the
others on the usual ``live_site`` (fast bots)."""

from __future__ import annotations

import re
import time
from contextlib import contextmanager

import pytest
from django.db import transaction
from playwright.sync_api import Browser, expect

from game import rematch, services
from game.models import Match, MatchAction, MatchSeat
from tests.e2e.test_table import (
    DESKTOP,
    PHONE_LANDSCAPE,
    Table,
    create_match,
    make_user,
    new_context,
    shot,
)
from tests.history.play import play_out

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

WINDOW = 2.5  # KUT_CLAIM_WINDOW_SECONDS of paced_site
# created_at is stamped when the row is written, a few ms after the clock reading the
# window is measured from (the bot's think time starts at the draw's ``now``)
STAMP_SLACK = 0.05


# Counts what the table showed of the other seats' moves (tile flights, discards that
# landed, cards that took a tile).
SEEN_JS = """
window.__seen = {fly: 0, landed: 0, moved: 0};
new MutationObserver((records) => {
  for (const r of records) {
    if (r.type === "childList") {
      for (const n of r.addedNodes) if (n.classList && n.classList.contains("kt-fly")) window.__seen.fly++;
    } else if (r.type === "attributes" && r.target.classList) {
      if (r.target.classList.contains("is-landed")) window.__seen.landed++;
      if (r.target.classList.contains("is-moved")) window.__seen.moved++;
    }
  }
}).observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ["class"]});
"""


def _play_my_turn(me: Table) -> None:
    if me.data("phase") == "take":
        assert me.act(me.page.locator(".kt-deck").click) is None
    me.cell(me.discard_choice()).click()
    assert me.act(me.discard_pile.click) is None


def _claim_window(me: Table, timeout: float = 60.0) -> int:
    """Play my turns until a bot has drawn from the centre and I may claim: returns the
    version of that draw."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        phase = me.data("phase")
        if phase in ("take", "play"):
            _play_my_turn(me)
            continue
        if me.data("claimWindow"):
            return me.version
        me.page.wait_for_timeout(50)
    raise AssertionError("no claim window came")


def test_a_human_claims_from_a_paced_bot_in_the_claim_window(
    paced_site, browser: Browser, settings
):
    """K-C1, K-C5 (issue 15): when a bot draws from the centre while a human may claim,
    the bot waits at least 2.5 s before it plays on, the table shows the claimable tile
    with a countdown, and the human claims in that time."""
    user = make_user("alici", "Ece")
    # easy bots never claim: every claim window is the human's
    match = create_match(settings, [user, None, None, None], seed="kut-e2e-claim")
    context = new_context(browser, paced_site, user, viewport=DESKTOP)
    context.add_init_script(SEEN_JS)
    me = Table(context.new_page(), "claimer")
    me.open(match.pk)

    # 1. a window left alone: the bot plays on only after the window
    drew = _claim_window(me)
    page = me.page
    expect(page.locator(".kt-btn-claim .kt-claim-count")).to_have_text(re.compile(r"^[1-3] sn$"))
    expect(page.locator(".kt-pile.is-claimable .kt-tile")).to_have_count(1)
    assert page.title().startswith("● Atılan taşı alabilirsin"), page.title()
    shot(page, "claim-window")
    me.wait("() => !document.getElementById('kt').dataset.claimWindow", timeout=15_000)
    draw = MatchAction.objects.get(match=match, version=drew)
    following = MatchAction.objects.get(match=match, version=drew + 1)
    assert (draw.kind, draw.actor) == ("draw", MatchAction.Actor.BOT)
    assert (following.seat, following.actor) == (draw.seat, MatchAction.Actor.BOT)
    waited = (following.created_at - draw.created_at).total_seconds()
    assert waited >= WINDOW - STAMP_SLACK, waited
    expect(page.locator(".kt-btn-claim .kt-claim-count")).to_have_count(0)

    # 2. the next window: the human claims the thrown tile (and the penalty tile, K-C3)
    drew = _claim_window(me)
    count = me.count()
    assert me.act(me.button("claim").click) is None
    me.wait("(n) => document.querySelectorAll('.kt-cell.has-tile').length === n", count + 2)
    claim = MatchAction.objects.get(match=match, version=drew + 1)
    assert (claim.kind, claim.seat, claim.actor) == ("claim", 0, MatchAction.Actor.HUMAN)
    # each bot move was shown: tiles flew to the bots' cards and landed on their piles
    seen = page.evaluate("() => window.__seen")
    assert seen["fly"] >= 4 and seen["landed"] >= 2 and seen["moved"] >= 2, seen
    me.assert_clean()
    context.close()


@contextmanager
def frozen(match_id: int):
    """The table holds still: the match's row is locked here, so no bot move, timer or
    next hand (each takes that lock) can bring a frame until the block ends; what the
    player sent meanwhile is applied after it."""
    with transaction.atomic():
        Match.objects.select_for_update().get(pk=match_id)
        yield


def test_a_timeout_is_never_silent_and_an_away_seat_comes_back(
    live_site, browser: Browser, settings
):
    """K-N7 (issue 15): after a turn runs out the player reads what the server did for
    them; after two in a row the seat is away, the table says why and *Geri döndüm*
    gives the seat back."""
    user = make_user("uyuyan", "Cem")
    settings.KUT_TURN_SECONDS = 12  # as on the live site
    # The longest match (12 tasks): once the seat is away, four fast bots play on, and
    # a 5-task match could end before the click (a CI run: the note went with the match).
    match = create_match(
        settings, [user, None, None, None], seed="kut-e2e-timeout", rated=True, tasks=12
    )
    context = new_context(browser, live_site, user, viewport=PHONE_LANDSCAPE, has_touch=True)
    me = Table(context.new_page(), "sleeper")
    me.open(match.pk)
    page = me.page
    note = page.locator('.kt-note[data-kind="timeout"] .kt-note-text')
    expect(note).to_have_text(
        re.compile(r"^Süren doldu: (ortadan çekildi, )?.+ atıldı\.$"), timeout=40_000
    )
    timeouts = MatchAction.objects.filter(match=match, kind="timeout", seat=0)
    assert timeouts.count() >= 1
    shot(page, "timeout-note")
    away = page.locator('.kt-note[data-kind="away"]')
    expect(away).to_contain_text("Süren iki kez üst üste doldu", timeout=40_000)
    # the second timeout was a turn that began by taking a tile: the server drew for me
    expect(note).to_have_text(re.compile(r"^Süren doldu: ortadan çekildi, .+ atıldı\.$"))
    assert MatchSeat.objects.get(match=match, seat=0).away
    shot(page, "away-note")
    with frozen(match.pk):  # no frame moves the note while the click lands
        away.get_by_role("button", name="Geri döndüm").click()
    expect(away).to_have_count(0, timeout=10_000)
    seat = MatchSeat.objects.get(match=match, seat=0)
    assert not seat.away and seat.away_since is None
    me.assert_clean()
    context.close()


def test_two_tabs_of_one_seat_stop_knocking_each_other_off(live_site, browser: Browser, settings):
    """Close code 4009 is final for the replaced tab: over 30 s each of two tabs
    connects at most twice, and "Burada oyna" takes the seat back once."""
    user = make_user("iki_sekme", "Efe")
    match = create_match(settings, [user, None, None, None], seed="kut-e2e-tabs")
    context = new_context(browser, live_site, user, viewport=DESKTOP)
    sockets = {"first": 0, "second": 0}
    first = Table(context.new_page(), "first")
    second = Table(context.new_page(), "second")
    first.page.on("websocket", lambda ws: sockets.__setitem__("first", sockets["first"] + 1))
    second.page.on("websocket", lambda ws: sockets.__setitem__("second", sockets["second"] + 1))
    started = time.monotonic()
    first.open(match.pk)
    second.open(match.pk)
    replaced = first.page.locator('.kt-note[data-kind="replaced"]')
    expect(replaced).to_contain_text("Bu masa başka bir sekmede açık.")
    first.page.wait_for_timeout(15_000)
    assert sockets == {"first": 1, "second": 1}, sockets
    expect(second.page.locator(".kt-note")).to_have_count(0)
    # take the seat back in the first tab: now the second one steps aside, once
    replaced.get_by_role("button", name="Burada oyna").click()
    expect(replaced).to_have_count(0)
    expect(second.page.locator('.kt-note[data-kind="replaced"]')).to_have_count(1)
    first.page.wait_for_timeout(max(0.0, 30.0 - (time.monotonic() - started)) * 1000)
    assert sockets == {"first": 2, "second": 1}, sockets
    assert first.data("connects") == "2" and second.data("connects") == "1"
    # the tab that plays is live; no toast repeats "another tab"
    assert first.act(first.button("arrange").click) in (None,)
    for tab in (first, second):
        expect(tab.page.locator(".kt-toast")).to_have_count(0)
        tab.assert_clean()
    context.close()


def test_a_finished_match_page_works_for_every_player(live_site, browser: Browser, settings):
    """A finished match's page shows its final result to each of its players: the host
    who started a rematch stays (with a link to it), and a player who left the match
    (K-X3) and is not in the rematch gets the page, not a 404."""
    host = make_user("ev_sahibi", "Naz")
    leaver = make_user("giden", "Ozan")
    match = create_match(settings, [host, leaver, None, None], seed="kut-e2e-final")
    services.match_leave(match.pk, leaver)
    match = play_out(match.pk)
    assert match.status == Match.Status.FINISHED
    new = rematch.rematch_offer(match.pk, host, 5)  # nobody else to ask: starts at once
    assert new is not None and new.rematch_of_id == match.pk
    for user, name in ((host, "host"), (leaver, "leaver")):
        context = new_context(browser, live_site, user, viewport=DESKTOP)
        table = Table(context.new_page(), name)
        response = table.page.goto(f"/match/{match.pk}/")
        assert response.status == 200
        table.wait_ready()
        page = table.page
        expect(page.locator('.kt-overlay[data-kind="final"]')).to_be_visible()
        expect(page.locator(".kt-score-table tbody tr")).to_have_count(4)
        page.wait_for_timeout(1500)  # a redirect would have happened by now
        assert page.url.endswith(f"/match/{match.pk}/"), page.url
        if user == host:
            link = page.locator(".kx-rematch a")
            expect(link).to_have_attribute("href", f"/match/{new.pk}/")
            expect(page.locator(".kx-rematch")).to_have_attribute("data-state", "started")
        table.assert_clean()
        context.close()
