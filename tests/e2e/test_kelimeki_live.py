"""Kelimeki live with a friend in a real browser on the real stack (issue 21, items 1–4).

Two players with accounts: Ali (desktop) opens the Kelimeki lobby, creates a private
2-player table with the compact dialog (no test-table choice, W-X5), reads the invite
link from the table page; Ayşe (a phone held sideways) opens the link, sits down; Ali
starts; both land on the board and play a whole game over the match socket: each lays
down words (the engine's move generator run on the seat's own view — what that seat's
page receives, nothing hidden, P-1), tapping tiles and squares, the preview must say
"valid" before *Oyna* (W-M7); then both press *Pas Geç* until the game ends (W-E2: four
passes in a row), which keeps the game short without any test-only rule.  After the
end: the end card on both pages with the server's final scores, k-lig written for both
(W-L2/W-L3), the 48-hour deadline of the live clock (W-X3) while it ran, the Skor Kartı
(W-X2) and the k-lig table with seals (W-L7).  Screenshots: ``KUT_SCREENSHOTS``.
"""

from __future__ import annotations

import re
import time
from datetime import timedelta

import orjson
import pytest
from playwright.sync_api import Browser, expect

from game.models import Match
from games.kelimeki.engine import GAME, LIVE_MOVE_SECONDS, bots
from games.kelimeki.models import KligEntry
from lobby.models import RankingResult, Table
from tests.e2e.test_kelimeki import Board
from tests.e2e.test_table import DESKTOP, PHONE_LANDSCAPE, make_user, new_context, shot

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PLAYS_EACH = 2  # words per player before the passes (W-E2) end the game
TIMEOUT = 30_000


def _view(match: Match, seat: int) -> dict:
    """The seat's own view (what its page receives over the socket, P-1)."""
    st = GAME.from_dict(match.state)
    return orjson.loads(orjson.dumps(GAME.view_for(st, seat)))


def _kind(payload) -> str:
    try:
        return str(orjson.loads(payload).get("type"))
    except (ValueError, AttributeError):
        return "?"


def _wait_db(check, what: str, timeout: float = 30.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_live_game_of_two_by_invite_link(live_site, browser: Browser):
    ali, ayse = make_user("kelime_ali", "Ali"), make_user("kelime_ayse", "Ayşe")
    ctx_a = new_context(browser, live_site, ali, viewport=DESKTOP)
    ctx_b = new_context(browser, live_site, ayse, viewport=PHONE_LANDSCAPE, has_touch=True)
    page_a, page_b = ctx_a.new_page(), ctx_b.new_page()
    # issue 22: what each board's match socket asks for and gets (change frames)
    sockets: list[str] = []
    kinds: list[str] = []

    def on_socket(ws) -> None:
        if "/ws/match/" not in ws.url:
            return
        sockets.append(ws.url)
        ws.on("framereceived", lambda payload: kinds.append(_kind(payload)))

    page_a.on("websocket", on_socket)
    page_b.on("websocket", on_socket)

    # Ali: the Kelimeki lobby and its dialog — 2 or 4 players, no test tables (W-X5)
    page_a.goto("/lobby/kelimeki/")
    page_a.locator("[data-open-dialog='new-table']").click()
    dialog = page_a.locator("dialog#new-table")
    expect(dialog).to_be_visible()
    expect(dialog.locator("input[name='rated']")).to_have_count(0)
    expect(dialog.locator("input[name='move_seconds']")).to_have_count(0)
    expect(dialog.locator("[data-testid='kelimeki-clock-note']")).to_contain_text("48 saat")
    dialog.locator("input[name='seat_count'][value='2']").check(force=True)
    dialog.locator("input[name='private'][value='1']").check(force=True)
    dialog.locator("button[type='submit']").click()
    page_a.wait_for_url("**/lobby/tables/*/")
    table = Table.objects.get(game="kelimeki")
    assert table.seat_count == 2 and table.rated and table.private
    expect(page_a.locator("body")).to_contain_text("hamle başına 48 saat")
    invite = page_a.locator("#invite-url").input_value()  # what *Kopyala* copies
    assert "/lobby/invite/" in invite

    # Ayşe opens the link and sits down (W-M1: the invited player is seat 1)
    page_b.goto(invite)
    page_b.locator("form button[type='submit']", has_text="Masaya otur").click()
    page_b.wait_for_url(f"**/lobby/tables/{table.pk}/")
    assert table.seats.get(seat=1).user_id == ayse.pk

    # Ali starts; both go to the board (Ayşe through the lobby socket)
    start = page_a.locator("form[action$='/start/'] button[type='submit']")
    expect(start).to_be_enabled()
    start.click()
    page_a.wait_for_url("**/match/*/", timeout=TIMEOUT)
    page_b.wait_for_url("**/match/*/", timeout=TIMEOUT)
    match = Match.objects.get(game="kelimeki")
    # W-X3: 48 hours, not P-6's seconds
    assert match.deadline - match.turn_started == timedelta(seconds=LIVE_MOVE_SECONDS)
    boards = [Board(page_a), Board(page_b)]
    for board in boards:
        board.wait("() => document.getElementById('kk').dataset.status === 'running'")
        expect(board.page.locator(".kk-cell")).to_have_count(225)
        expect(board.page.locator(".kk-scores .kk-score")).to_have_count(2)
    # W-X3: the time left above the board, for the mover and for the other player
    mover = match.state["turn"]
    clock = boards[mover].page.locator(".kk-clock")
    expect(clock).to_be_visible()
    expect(clock).to_have_text(re.compile(r"^Sıra sende: (2 gün|1 gün 23 sa) kaldı$"))
    expect(boards[1 - mover].page.locator(".kk-clock")).to_contain_text(
        re.compile(r"Sıra \S+ oyuncusunda: (2 gün|1 gün 23 sa) kaldı"))  # fmt: skip
    # W-X5: the only way out is Teslim ol, confirmed (here: not confirmed)
    boards[0].page.get_by_role("button", name="Teslim ol").click()
    expect(boards[0].page.locator(".kk-forfeit-dialog")).to_be_visible()
    boards[0].page.get_by_role("button", name="Oynamaya devam et").click()
    expect(boards[0].page.locator(".kk-forfeit-dialog")).to_be_hidden()

    plays = [0, 0]
    passes = 0
    shots = set()
    for _turn in range(30):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        seat = match.state["turn"]
        board = boards[seat]
        board.wait_mine()
        view = _view(match, seat)
        move = bots.best_move(view) if plays[seat] < PLAYS_EACH else None
        if move is None:
            board.act(board.page.get_by_role("button", name="Pas Geç").click)  # W-M10
            passes += 1
            continue
        for p in move.to_action()["placements"]:
            board.put(p, "tap")  # tap a tile, then a square (touch on the phone)
        # W-M7, before Oyna: the preview of all the tiles (a debounced request: an
        # earlier verdict on fewer tiles may show for a moment)
        try:
            board.wait("() => document.getElementById('kk').dataset.preview === 'valid'")
        except Exception:
            raise AssertionError(board.page.locator(".kk-preview").inner_text()) from None
        expect(board.page.locator(".kk-preview")).to_contain_text(f"{move.points} puan")
        name = "kelimeki-live-desktop" if seat == 0 else "kelimeki-live-phone-landscape"
        if name not in shots:
            shot(board.page, name)
            shots.add(name)
        board.act(board.page.get_by_role("button", name="Oyna", exact=True).click)
        plays[seat] += 1
        passes = 0  # W-E2 counts the passes in a row (a deal may force an early one)
        # the other page gets the word over its socket (the same version)
        other = boards[1 - seat]
        other.wait(
            "(v) => Number(document.getElementById('kk').dataset.version) >= v",
            int(board.data("version")),
        )  # fmt: skip

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, "the game did not end"
    assert match.state["end"] == "passes" and passes == 4  # W-E2
    assert plays == [PLAYS_EACH, PLAYS_EACH]
    scores = match.state["scores"]
    for board in boards:
        board.wait("() => document.getElementById('kk').dataset.status === 'finished'")
        overlay = board.page.locator(".kk-overlay")
        expect(overlay).to_be_visible()
        for seat in (0, 1):
            expect(overlay.locator(f"tr[data-seat='{seat}'] .kk-final")).to_have_text(
                str(scores[seat]))  # fmt: skip
    best = max(scores)
    for seat, board in enumerate(boards):  # the end card's k-lig change (W-L2, W-L3)
        gain = 2 if scores[seat] == best else 0
        expect(board.page.locator("[data-testid='kk-klig']")).to_contain_text(
            f"k-lig: {'+2' if gain else '0'}")  # fmt: skip
    shot(page_a, "kelimeki-live-final-desktop")
    shot(page_b, "kelimeki-live-final-phone-landscape")

    # k-lig (W-L2, W-L3): the winner +2, the other 0 (a tie: both +2)
    rows = _wait_db(lambda: list(RankingResult.objects.filter(match=match))
                    if KligEntry.objects.filter(match=match).count() == 2 else None,
                    "the k-lig of the game")  # fmt: skip
    best = max(scores)
    assert {r.user_id: r.points for r in rows} == {
        u.pk: (2 if scores[s] == best else 0) for s, u in enumerate((ali, ayse))}  # fmt: skip

    # opened again after the end: the recorded change, the total and the seal (W-L7)
    page_a.reload()
    expect(page_a.locator("[data-testid='kk-klig']")).to_contain_text("Çaylak")

    # the Skor Kartı (W-X2) from the lobby, and the k-lig table (W-L7)
    page_a.goto("/lobby/kelimeki/")
    page_a.locator("[data-testid='game-link']").first.click()
    card = page_a.locator("[data-testid='klig-card']")
    expect(card).to_be_visible()
    expect(card.locator(f"tr[data-match='{match.pk}']")).to_contain_text("Ayşe")
    expect(card.locator("[data-testid='klig-played']")).to_have_text("1")
    expect(card.locator("[data-testid='klig-seal']").first).to_have_text("Çaylak")
    shot(page_a, "kelimeki-live-score-card")
    page_b.goto("/lobby/leaderboard/?game=kelimeki")
    expect(page_b.locator(".board-levels")).to_have_count(0)  # one k-lig for every level
    expect(page_b.locator("table.board")).to_contain_text("Ayşe")
    # the replay of the finished game: the end shows the final scores
    from django.urls import reverse

    page_b.goto(reverse("lobby:replay", args=[match.pk]))
    expect(page_b.locator(".wr-board .wr-cell")).to_have_count(225)
    page_b.keyboard.press("End")
    expect(page_b.locator(".wr-action")).to_contain_text("Oyun bitti.")
    for seat in (0, 1):
        expect(page_b.locator(f".wr-seat[data-seat='{seat}'] .wr-score")).to_have_text(
            str(scores[seat]))  # fmt: skip
    shot(page_b, "kelimeki-live-replay")
    for board in boards:
        assert not board.errors, board.errors
    # issue 22: the live board took change frames (frames.js) and showed every move right
    assert sockets and all("frames=change" in url for url in sockets), sockets
    assert kinds.count("change") > max(4, kinds.count("state")), kinds
    ctx_a.close()
    ctx_b.close()
