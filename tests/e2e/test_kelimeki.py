"""Kelimeki in a real browser on the real stack (issue 21, items 1–3; issue 27): a whole
2-player game against the AI WITHOUT logging in (kelimeki.md W-X1), from /kelimeki/: an
unrecorded match of the platform bound to the browser's session, over the match socket.

The human's words come from the engine's move generator run on the human's own frame
(what the page itself received: rack, board, zones — no hidden information); the test
then lays them down as a player would: the first tile of each word dragged from the rack
to the board (mouse: Pointer Events), the others tapped (tile, then square), one letter
typed on the keyboard; the preview must say "valid" before *Oyna* (W-M7), and an
out-of-line placement must say "invalid" and go back with *Geri Al*.  One *Değiştir*
(W-M9) and the passes at the end (W-M10, W-E2) are played through their buttons.  A
short bag (test-only ``bag``, ``KUT_TEST_SEEDS``) keeps the game short.  The final
scores are checked against every move's points and tax shares seen in the frames and the
tiles left (W-S3, W-Z6, W-E3, W-E4).  The first word at desktop size, the rest by touch on a phone held
sideways (the game resumed in a new page); screenshots go to ``KUT_SCREENSHOTS`` (test-results/screenshots).
A second test on a site whose bots think (issue 29): the player's word is scored at once,
the AI is shown "thinking", then its word arrives.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from game import services
from game.models import Match
from games.kelimeki.engine import bots
from games.kelimeki.engine.alphabet import POINTS
from lobby.models import RankingResult
from tests.e2e.test_table import DESKTOP, PHONE_LANDSCAPE, shot

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

TIMEOUT = 30_000
DATA = "(k) => document.getElementById('kk').dataset[k] || ''"
# every frame the board accepted (its "kut:frame" event), the latest kept for the test
KEEP_FRAMES = "document.addEventListener('kut:frame', (e) => { window.kkFrame = e.detail; });"
KEYBOARD_LETTERS = set("ABCDEFGHJKLMNOPRSTUVYZ")  # unambiguous keys (no I/İ, no Ç…)


class Board:
    def __init__(self, page, touch: bool = False):
        self.page = page
        self.touch = touch  # a phone: taps instead of clicks
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))
        page.add_init_script(KEEP_FRAMES)

    def data(self, key: str) -> str:
        return self.page.evaluate(DATA, key)

    def wait(self, js: str, arg=None) -> None:
        self.page.wait_for_function(js, arg=arg, timeout=TIMEOUT)

    def frame(self) -> dict:
        """The frame the page holds (the last one its socket gave the board)."""
        frame = self.page.evaluate("() => window.kkFrame")
        assert frame["type"] == "state" and frame["version"] == int(self.data("version"))
        return frame

    def wait_mine(self) -> None:
        self.wait(
            "() => { const d = document.getElementById('kk').dataset;"
            " return d.busy === '0' && (d.myTurn === '1' || d.status === 'finished'); }"
        )

    def act(self, do) -> None:
        version, errors = int(self.data("version")), int(self.data("errors"))
        do()
        self.wait(
            "([v, e]) => { const d = document.getElementById('kk').dataset;"
            " return Number(d.version) > v || Number(d.errors) > e; }",
            [version, errors],
        )
        assert int(self.data("errors")) == errors, self.data("lastError")

    def cell(self, row: int, col: int):
        return self.page.locator(f".kk-cell[data-row='{row}'][data-col='{col}']")

    def rack_tile(self, tile: str):
        return self.page.locator(f".kk-rack .kk-rtile[data-tile='{tile}']").first

    def put(self, p: dict, how: str) -> None:
        tile = "*" if p["joker"] else p["letter"]
        cell = self.cell(p["row"], p["col"])
        if how == "key":
            cell.click()  # focus the square, then type the letter
            expect(cell).to_be_focused()
            self.page.keyboard.press(p["letter"].lower())
        elif how == "drag":
            self.rack_tile(tile).drag_to(cell)
        elif how == "finger":
            self.finger_drag(self.rack_tile(tile), cell)
        else:
            self.press(self.rack_tile(tile))  # tap a tile, then a square
            expect(self.rack_tile(tile)).to_have_attribute("aria-pressed", "true")
            self.press(cell)
        if p["joker"] and how != "key":  # W-T3: name the joker's letter
            picker = self.page.locator(".kk-joker-dialog")
            expect(picker).to_be_visible()
            picker.locator(f".kk-pick[data-letter='{p['letter']}']").click()
        expect(cell.locator(".kk-tile.tent")).to_be_visible()

    def finger_drag(self, source, target) -> None:
        """A finger drags ``source`` onto ``target``: touch events through the DevTools
        protocol, which the page gets as Pointer Events of type "touch" (Playwright's
        ``drag_to`` is a mouse)."""
        a, b = source.bounding_box(), target.bounding_box()
        x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
        x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
        cdp = self.page.context.new_cdp_session(self.page)
        touch = "Input.dispatchTouchEvent"
        cdp.send(touch, {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
        for k in range(1, 11):
            x, y = x0 + (x1 - x0) * k / 10, y0 + (y1 - y0) * k / 10
            cdp.send(touch, {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        cdp.send(touch, {"type": "touchEnd", "touchPoints": []})
        cdp.detach()

    def press(self, locator) -> None:
        if self.touch:
            locator.tap()
        else:
            locator.click()

    def preview(self) -> str:
        self.wait(
            "() => ['valid', 'invalid'].includes(document.getElementById('kk').dataset.preview)"
        )
        return self.data("preview")


def moves_of(match: Match) -> list[dict]:
    """Every move of the game as the engine applied it (the log replayed)."""
    out = []
    for act, st in services.match_replay_iter(match):
        if act.kind in ("play", "exchange", "pass"):
            out.append(dict(st.last))
    return out


def start_game(page, level: str, seed: str, bag: int) -> None:
    """W-X1: no login; the new-game card opens by itself on the first visit."""
    page.goto("/kelimeki/")
    dialog = page.locator("dialog.kk-new-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Yapay Zekaya karşı yeni oyun")
    dialog.locator("label", has_text=level).click()
    # tests only (KUT_TEST_SEEDS): a fixed deal and a short bag
    page.evaluate(
        "([seed, bag]) => { const f = document.querySelector('.kk-new-form');"
        " f.seed.value = seed; f.bag.value = bag; }",
        [seed, str(bag)],
    )
    dialog.get_by_role("button", name="Başla").click()
    page.wait_for_url("**/kelimeki/")


def test_a_whole_game_against_the_ai_without_an_account(live_site, browser: Browser):
    context = browser.new_context(base_url=live_site.url, locale="tr-TR", viewport=DESKTOP)
    page = context.new_page()
    board = Board(page)

    start_game(page, "kolay", "kelimeki-e2e-3", 6)  # a bag of 6 tiles
    board.wait_mine()
    expect(page.locator(".kk-cell")).to_have_count(225)  # W-B1
    # the zones are drawn in both players' colours and marks, the bonuses labelled
    expect(page.locator(".kk-cell.zone.z0")).not_to_have_count(0)
    expect(page.locator(".kk-cell.zone.z1")).not_to_have_count(0)
    expect(page.locator(".kk-cell.x3").first).to_contain_text("×3")
    expect(page.locator(".kk-scores .kk-score")).to_have_count(2)

    # The Torba panel (W-T5): the bag's count and the unseen tiles by letter.
    frame0 = board.frame()
    page.get_by_role("button", name="Torba").click()
    bag = page.locator("dialog.kk-bag-dialog")
    expect(bag).to_contain_text(f"Torbada {frame0['hand']['bag_count']} harf var")
    frame = board.frame()
    unseen = sum(frame["hand"]["unseen"].values())
    expect(bag.locator(".kk-unseen-title")).to_contain_text(str(unseen))
    bag.get_by_role("button", name="Kapat").click()

    # Karıştır reorders the rack here only (W-T6).
    before = page.locator(".kk-rack .kk-rtile").evaluate_all(
        "els => els.map(e => e.dataset.tile).sort()"
    )
    page.get_by_role("button", name="Karıştır").click()
    after = page.locator(".kk-rack .kk-rtile").evaluate_all(
        "els => els.map(e => e.dataset.tile).sort()"
    )
    assert before == after

    plays = exchanged = passes = keyboard = jokers = fingers = 0
    shots = 0
    for turn in range(40):
        board.wait_mine()
        if board.data("status") == "finished":
            break
        if plays == 1 and not board.touch:  # the rest on a phone held sideways, by touch
            phone = browser.new_context(
                base_url=live_site.url,
                locale="tr-TR",
                viewport=PHONE_LANDSCAPE,
                has_touch=True,
                is_mobile=True,
            )
            phone.add_cookies(context.cookies())
            errors = board.errors
            page = phone.new_page()
            board = Board(page, touch=True)
            board.errors = errors
            page.goto("/kelimeki/")
            board.wait_mine()
            box = page.locator(".kk-board").bounding_box()
            assert box["y"] + box["height"] <= PHONE_LANDSCAPE["height"] + 1
            assert box["x"] + box["width"] <= PHONE_LANDSCAPE["width"]
        frame = board.frame()
        hand = frame["hand"]
        move = bots.best_move(hand)
        if turn == 0 or (move is None and hand["max_exchange"] > 0 and not exchanged):
            # W-M9: Değiştir — choose two tiles, at most as many as the bag holds
            page.get_by_role("button", name="Değiştir").click()
            for letter in hand["rack"][: min(2, hand["max_exchange"])]:  # W-T1 order
                page.locator(
                    f".kk-rack .kk-rtile[data-tile='{letter}'][aria-pressed='false']"
                ).first.click()
            ok = page.locator("[data-action=exchange-confirm]")
            expect(ok).to_be_enabled()
            board.act(ok.click)
            exchanged += 1
            continue
        if move is None:
            board.act(page.get_by_role("button", name="Pas Geç").click)  # W-M10
            passes += 1
            continue
        placements = move.to_action()["placements"]
        if plays == 0 and "*" in hand["rack"]:
            # W-T3, W-T1: a joker names its letter and shows it in Turkish lower case
            free = next((r, c) for r in range(15) for c in range(15)
                        if hand["board"][r][c] == "." and (r, c) not in
                        {(p["row"], p["col"]) for p in placements})  # fmt: skip
            for letter, shown in (("İ", "i"), ("I", "ı")):
                board.put({"row": free[0], "col": free[1], "letter": letter, "joker": True}, "tap")
                expect(board.cell(*free).locator(".kk-letter")).to_have_text(shown)
                page.get_by_role("button", name="Geri Al").click()
                expect(board.cell(*free).locator(".kk-tile")).to_have_count(0)
            jokers += 1
        if plays == 0 and len(placements) >= 2:
            # W-M7: tiles not in one line are refused by the preview; Geri Al takes them back
            first, second = placements[0], placements[1]
            board.put(first, "tap")
            off = dict(second, row=(first["row"] + 2) % 15, col=(first["col"] + 3) % 15)
            if not hand["board"][off["row"]][off["col"]] == ".":
                off = dict(off, row=(off["row"] + 1) % 15)
            board.put(off, "tap")
            assert board.preview() == "invalid"
            expect(page.locator(".kk-preview")).to_contain_text("Geçersiz")
            page.get_by_role("button", name="Geri Al").click()
            expect(page.locator(".kk-board .kk-tile.tent")).to_have_count(0)
        for n, p in enumerate(placements):
            how = "drag" if n == 0 else "tap"
            if how == "drag" and board.touch:
                how = "finger"  # on the phone a finger drags the first tile
                fingers += 1
            if (
                n == len(placements) - 1
                and not p["joker"]
                and p["letter"] in KEYBOARD_LETTERS
                and keyboard < 2
            ):
                how = "key"
                keyboard += 1
            board.put(p, how)
        tents = page.locator(".kk-board .kk-cell.has-tent").evaluate_all(
            "els => els.map(e => [e.dataset.row, e.dataset.col, e.textContent])"
        )
        assert board.preview() == "valid", (
            placements,
            tents,
            page.locator(".kk-preview").inner_text(),
        )  # W-M7
        preview = page.locator(".kk-preview")
        expect(preview).to_contain_text(f"{move.points} puan")
        if shots < 2 and (shots == 0 or board.touch):
            shot(page, "kelimeki-desktop" if shots == 0 else "kelimeki-phone-landscape")
            shots += 1
        board.act(page.get_by_role("button", name="Oyna", exact=True).click)
        plays += 1

    assert board.data("status") == "finished", "the game did not end"
    assert plays >= 2 and exchanged >= 1 and jokers == 1 and keyboard >= 1 and board.touch
    assert fingers >= 1  # a tile dragged by touch landed (put() checks the tentative tile)
    assert shots == 2
    frame = board.frame()
    hand = frame["hand"]
    # The end card: the final scores as the server has them.
    overlay = page.locator(".kk-overlay")
    expect(overlay).to_be_visible()
    shot(page, "kelimeki-final")
    for seat in (0, 1):
        expect(overlay.locator(f"tr[data-seat='{seat}'] .kk-final")).to_have_text(
            str(hand["scores"][seat])
        )
        expect(page.locator(f".kk-score[data-seat='{seat}'] .kk-points")).to_have_text(
            str(hand["scores"][seat])
        )
    # The scores add up: every play's shares (W-S3, W-Z6), the joker finish (W-E4), minus
    # the tiles left in each rack (W-E3; nothing added to the one who went out).
    match = Match.objects.get(kind=Match.Kind.GUEST)
    assert match.kind == Match.Kind.GUEST and match.status == Match.Status.FINISHED
    expected = [0, 0]
    for ev in moves_of(match):
        if ev["type"] == "play":
            for s in (0, 1):
                expected[s] += ev["shares"][s]
            expected[ev["seat"]] += ev.get("finish_bonus", 0)
    deducted = [sum(POINTS[t] for t in hand["racks"][s]) for s in (0, 1)]
    assert hand["deducted"] == deducted
    assert [expected[s] - deducted[s] for s in (0, 1)] == hand["scores"]
    title = page.locator("#kk-overlay-title")
    if hand["ranks"][0] == 1:
        expect(title).to_have_text(
            "Berabere: ilk sıra paylaşıldı." if hand["ranks"][1] == 1 else "Kazandın!"
        )
    else:
        expect(title).to_have_text("Kaybettin.")
    assert not match.rated and not RankingResult.objects.exists()  # W-X1: nothing recorded
    # A reload resumes the finished game; "Yeni oyun" offers a new one.
    page.reload()
    board.wait_mine()
    expect(page.locator(".kk-overlay")).to_be_visible()
    page.locator(".kk-overlay").get_by_role("button", name="Yeni oyun").click()
    expect(page.locator("dialog.kk-new-dialog")).to_be_visible()
    assert not board.errors, board.errors
    context.close()
    page.context.close()


def test_the_ais_word_comes_after_the_players_and_it_thinks_meanwhile(paced_site, browser: Browser):
    """Issue 29 (and 27: no AI move in the player's request): on a site whose bots think
    (0.3 s base x Kelimeki's pace 2.0), the player's word is on the board and scored
    while the AI's row says it is thinking; then the AI's word arrives and the last
    moves list both, the AI's on top."""
    context = browser.new_context(base_url=paced_site.url, locale="tr-TR", viewport=DESKTOP)
    page = context.new_page()
    board = Board(page)
    start_game(page, "zor", "kelimeki-e2e-paced", 20)
    board.wait_mine()
    hand = board.frame()["hand"]
    move = bots.best_move(hand)
    assert move is not None, "the seed gives the player a word"
    for p in move.to_action()["placements"]:
        board.put(p, "tap")
    assert board.preview() == "valid"
    board.act(page.get_by_role("button", name="Oyna", exact=True).click)
    mine = board.frame()
    assert mine["hand"]["last"]["seat"] == 0 and mine["hand"]["turn"] == 1
    thinking = page.locator(".kk-score[data-seat='1'] [data-testid='kk-thinking']")
    expect(thinking).to_be_visible()
    expect(thinking).to_contain_text("düşünüyor")
    expect(page.locator(".kk-score[data-seat='0'] .kk-points")).to_have_text(
        str(mine["hand"]["scores"][0])
    )
    board.wait_mine()  # the AI's word arrives as a frame of its own
    theirs = board.frame()
    assert theirs["version"] == mine["version"] + 1 and theirs["hand"]["last"]["seat"] == 1
    expect(thinking).to_have_count(0)
    log = page.locator(".kk-log li")  # newest first
    expect(log.nth(0)).to_contain_text("Yapay Zeka")
    expect(log.nth(1)).to_contain_text(f"Sen: {', '.join(mine['hand']['last']['words'])}")
    assert not board.errors, board.errors
    context.close()
