"""The trial hand in a real browser (issue 9, K-X1): a first-time player is offered it
on the home page, plays its three steps with the hints of table-extras.js (open the
task, lay off a tile, claim a thrown tile with its penalty tile), and nothing of it
reaches the history.  Also the rematch invitation (K-X2) on two tables.  The real stack:
``live_site`` (daphne + a Celery worker)."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect

from game.models import Match
from tests.e2e.test_table import (
    DESKTOP,
    TURN_TIMEOUT,
    Table,
    create_match,
    make_user,
    new_context,
    shot,
)

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_trial_hand_in_three_steps(live_site, browser: Browser):
    user = make_user("deneme_oyuncusu", "Deniz")
    context = new_context(browser, live_site, user, viewport=DESKTOP)
    page = context.new_page()
    table = Table(page, "trial")

    page.goto("/")
    offer = page.locator(".trial-offer[data-game=kut]")  # (King's may be offered too)
    expect(offer).to_be_visible()
    offer.get_by_role("button", name="Deneme Elini Oyna").click()
    page.wait_for_url(re.compile(r"/match/\d+/$"))
    match = Match.objects.get(pk=int(re.search(r"/match/(\d+)/", page.url).group(1)))
    assert match.kind == "trial" and not match.rated
    table.wait_ready()
    card = page.locator(".kx-trial")
    expect(card).to_be_visible()
    expect(card).to_have_attribute("data-hint", "open")
    expect(card.locator(".kx-text")).to_contain_text("3'lü küt")
    expect(card).to_contain_text("Adım 1/3")

    # Step 1: Diz sets the küt of 3 apart, Görevi Aç opens it; then a discard.
    assert table.act(table.button("arrange").click) is None
    assert table.act(table.button("open").click) is None
    expect(card).to_have_attribute("data-hint", "discard_open")
    shot(page, "trial-step-1")
    table.cell(table.discard_choice()).click()
    table.discard_pile.click()
    expect(card).to_have_attribute("data-hint", "draw", timeout=TURN_TIMEOUT)
    expect(card).to_contain_text("Adım 2/3")

    # Step 2: the thrown tile is refused (the black 7 waits on the deck), draw it, İşle.
    assert table.act(table.take_pile.click) == "must_draw"
    assert table.act(page.locator(".kt-deck").click) is None
    expect(card).to_have_attribute("data-hint", "lay_off")
    before = table.error_count
    table.cell(table.discard_choice()).click()
    assert table.act(table.discard_pile.click) == "trial_lay_off_first"
    expect(page.locator(".kt-toasts")).to_contain_text("siyah 7")  # the reason, in Turkish
    assert table.error_count == before + 1
    page.keyboard.press("Escape")  # put the picked tile down
    assert table.act(table.button("auto_lay_off").click) is None
    expect(card).to_have_attribute("data-hint", "discard_lay_off")
    shot(page, "trial-step-2")
    table.cell(table.discard_choice()).click()
    table.discard_pile.click()

    # Step 3: a bot throws the blue 12, the next one draws instead: claim it.
    expect(card).to_have_attribute("data-hint", "claim", timeout=TURN_TIMEOUT)
    expect(card).to_contain_text("Adım 3/3")
    claim = table.button("claim")
    expect(claim).to_be_enabled()
    assert table.act(claim.click) is None
    expect(card).to_have_attribute("data-hint", "done", timeout=TURN_TIMEOUT)
    expect(card.locator(".kx-lobby")).to_be_visible()
    shot(page, "trial-done")
    user.refresh_from_db()
    assert "kut" in user.tutorials_done

    # Nothing of it in the history; the home page no longer offers it (but can replay it).
    page.goto("/lobby/matches/")
    expect(page.locator("main")).to_contain_text("Henüz biten bir puanlı maçın yok.")
    page.goto("/")
    expect(page.locator(".trial-offer[data-game=kut]")).to_have_count(0)
    expect(page.locator("form.trial-form button")).to_have_text("Deneme Elini Oyna")
    table.assert_clean()
    context.close()


def test_rematch_invitation_declined_on_the_table(live_site, browser: Browser, settings):
    host, guest = make_user("rovans_kurucu", "Kaan"), make_user("rovans_misafir", "Lale")
    old = create_match(settings, [host, guest, None, None], "rematch-e2e", rated=True)
    Match.objects.filter(pk=old.pk).update(
        status=Match.Status.FINISHED, finished_at=timezone.now(), deadline=None, bot_due=None
    )
    pages = {}
    for user in (host, guest):
        page = new_context(browser, live_site, user, viewport=DESKTOP).new_page()
        pages[user.username] = Table(page, user.username)
        pages[user.username].open(old.pk)
    host_page, guest_page = pages["rovans_kurucu"].page, pages["rovans_misafir"].page
    card = host_page.locator(".kx-rematch")
    expect(card).to_have_attribute("data-state", "choose")
    expect(guest_page.locator(".kx-rematch")).to_be_hidden()
    card.get_by_role("button", name="8 görev").click()
    expect(card).to_have_attribute("data-state", "offered")
    expect(card.locator(".kx-answers")).to_contain_text("Lale: henüz yanıt vermedi")
    invite = guest_page.locator(".kx-rematch")
    expect(invite).to_have_attribute("data-state", "invited")
    expect(invite).to_contain_text("Kaan seni rövanşa davet ediyor (8 görev).")
    shot(guest_page, "rematch-invitation")
    invite.get_by_role("button", name="Reddet").click()
    # the last answer starts the rematch: the host's table moves to it, a bot sits for Lale
    host_page.wait_for_url(re.compile(rf"/match/(?!{old.pk}/)\d+/$"), timeout=TURN_TIMEOUT)
    new = Match.objects.get(rematch_of=old)
    assert host_page.url.endswith(f"/match/{new.pk}/")
    assert (new.options["tasks"], new.rated) == (8, True)
    assert [s.user_id for s in new.seats.order_by("seat")] == [host.pk, None, None, None]
    expect(invite).to_have_attribute("data-state", "started")
    expect(invite).to_contain_text("Rövanşı reddettin")
    assert guest_page.url.endswith(f"/match/{old.pk}/")
    for table in pages.values():
        table.assert_clean()
