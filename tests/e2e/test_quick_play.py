"""Issue 29 ("Done when"): a new player's first move comes within 5 s of pressing
*Hemen Oyna*, for each game, on the embedded set-up with the site's own bot pace
(``KUT_BOT_DELAY_SECONDS`` 1.2 s, as ``scripts/run`` starts it).

Measured from the click on the game's card on the home page: the match page, the
table's first frame over its socket (the table is drawn), and the moment the player's
seat is first to act (read from the database: the bots before them play at their pace).
The player may move at the later of the two; that must be under 5 s.  The numbers are
printed for the issue's note (``-s``)."""

from __future__ import annotations

import json
import re
import time

import pytest
from django.db import connection
from playwright.sync_api import Browser, expect

from game.engine import registry
from game.models import Match
from tests.e2e.livesite import remove_stale_test_databases, start_site
from tests.e2e.test_table import DESKTOP, make_user, new_context, shot

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = [key for key in registry.GAMES if registry.home(key).startswith("games.")]
LIMIT_SECONDS = 5.0
SITE_PACE = {"KUT_BOT_DELAY_SECONDS": "1.2", "KUT_CLAIM_WINDOW_SECONDS": "2.5"}


@pytest.fixture(scope="module")
def site_paced_as_shipped(request, django_db_setup, django_db_blocker, tmp_path_factory):
    """The live stack with the bot pace the site ships with (not the tests' 0 s)."""
    remove_stale_test_databases()
    with django_db_blocker.unblock():
        site = start_site(tmp_path_factory.mktemp("kut-shipped-pace"), SITE_PACE)
    try:
        yield site
    finally:
        site.stop()
        if request.session.testsfailed:
            print(f"\nshipped-pace site logs ({site.var_dir}):\n{site.log_tail()}")


def _to_act(match_id: int, user) -> bool:
    """Whether ``user``'s seat is to act in the match now (read from the database)."""
    match = Match.objects.get(pk=match_id)
    spec = registry.get(match.game)
    seat = match.seats.get(user=user).seat
    acting = spec.to_act(spec.from_dict(match.state)) if match.state else ()
    connection.close()  # the next poll reads a fresh snapshot
    return seat in acting


@pytest.mark.parametrize("game", GAMES)
def test_first_move_within_five_seconds_of_play_now(site_paced_as_shipped, browser: Browser, game):
    user = make_user(f"hizli_{game}", f"Yeni {game}")
    context = new_context(browser, site_paced_as_shipped, user, viewport=DESKTOP)
    page = context.new_page()
    first_frame: list[float] = []

    def on_socket(ws):
        def on_frame(payload):
            if not first_frame and isinstance(payload, str) and payload.startswith("{"):
                try:
                    kind = json.loads(payload).get("type")
                except ValueError:
                    return
                if kind == "state":
                    first_frame.append(time.monotonic())

        ws.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    page.goto("/")
    card = page.locator(f"#game-{game}")
    expect(card.get_by_role("button", name="Hemen Oyna")).to_be_visible()
    clicked = time.monotonic()
    card.get_by_role("button", name="Hemen Oyna").click()
    page.wait_for_url(re.compile(r"/match/\d+/$"), timeout=15_000)
    loaded = time.monotonic()
    match_id = int(re.search(r"/match/(\d+)/$", page.url).group(1))
    seat_turn = None
    while time.monotonic() - clicked < 30:
        if seat_turn is None and _to_act(match_id, user):
            seat_turn = time.monotonic()
        if seat_turn is not None and first_frame:
            break
        page.wait_for_timeout(50)  # (Playwright dispatches the socket events meanwhile)
    assert first_frame, "the table never received its first frame"
    assert seat_turn is not None, "the player's turn never came"
    may_move = max(first_frame[0], seat_turn) - clicked
    print(
        f"\nquick play {game}: page {loaded - clicked:.2f} s, first frame "
        f"{first_frame[0] - clicked:.2f} s, player's turn {seat_turn - clicked:.2f} s, "
        f"may move {may_move:.2f} s"
    )
    shot(page, f"quick-play-{game}")
    match = Match.objects.get(pk=match_id)
    assert match.host_id == user.pk and match.status == Match.Status.PLAYING
    assert may_move < LIMIT_SECONDS, f"{game}: {may_move:.2f} s"
    context.close()
