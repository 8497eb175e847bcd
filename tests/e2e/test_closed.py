"""A closed table (an admin's abort, P-3's abandoned match) says so on each tile
table — KÜT, KDVli, Kastet — through the kit's one ``showClosed``: the overlay with its
title, no scores, and the way back to the lobby."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from game import services
from game.models import Match
from tests.e2e.conftest import watch_console
from tests.e2e.test_table import DESKTOP, create_match, make_user, new_context

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("game", ["kut", "kdvli", "kastet"])
def test_a_closed_table_says_so(live_site, browser: Browser, settings, game):
    user = make_user(f"kapali_{game}", "Cem")
    if game == "kut":
        match = create_match(settings, [user, None, None, None], seed="closed")
    else:
        match = services.match_create(game=game, options={"hands": 3}, users=[user, None, None, None],
                                      host=user, seed="closed", rated=False)  # fmt: skip
    assert Match.objects.get(pk=match.pk).status == Match.Status.PLAYING
    context = new_context(browser, live_site, user, viewport=DESKTOP)
    page = context.new_page()
    errors = watch_console(page, [])
    page.goto(f"/match/{match.pk}/")
    expect(page.locator(".kt-overlay")).to_be_hidden()
    services.match_abort(match.pk)
    page.reload()  # this process's broadcast does not reach the site's sockets
    expect(page.locator('.kt-overlay[data-kind="closed"]')).to_be_visible()
    expect(page.locator("#kt-overlay-title")).to_have_text("Bu masa kapatıldı.")
    expect(page.locator(".kt-final-actions")).to_be_visible()
    expect(page.locator(".kt-scores")).to_be_empty()
    assert not errors, errors
    context.close()
