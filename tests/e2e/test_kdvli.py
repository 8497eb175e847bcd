"""KDVli Okey's table in a real browser on the real stack (issue 18, "Done when"): a
whole rated 3-hand match in partners (V-M1, P-8: the human and the bot opposite against
the other two) against three hard bots, with a human finish from a seeded deal,
screenshots on a desktop (1280x800) and a phone held sideways (844x390).

The deal is fixed by the match seed and the bots' chance by ``KUT_TEST_SEEDS``
(``game.services._test_bot_rng``), so the match plays out exactly as ``expected_match``
plays it with the engine alone: the human (``human_choice``, the test's own head, fed
only by what the page shows) shows the indicator in hand 1 (V-I1), finishes hand 1 by
dropping its last loose tile on the indicator after *Seri Diz* (V-F1, V-F3), then a hand
runs out of tiles and is dealt again (V-E2), and the bots finish the other two hands.
Partners are on the table all match long: each seat card names its team, partner and
team total, *Masa ayarları* lists the teams, the end-of-hand and final tables add the
team rows.  Once, on its turn, the human's seat is marked *away* as the site marks it
after V-N6's second timeout (waiting out two real 60-s turns would double the test):
the away note and *Geri döndüm* show, the button gives the seat back and the hand goes
on untouched.  The final totals and the rating written (V-Q4) must be the engine's.
"""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor

import orjson
import pytest
from django.db import connection
from playwright.sync_api import Browser, expect

from game import services
from game.engine import registry
from game.engine.fair import SeededRNG
from game.models import Match, MatchSeat
from games.kdvli.engine import counting
from games.okey.engine.tiles import face_name, face_sort_key, okey_face, parse_face
from lobby.models import Ranking
from tests.e2e.livesite import remove_stale_test_databases, start_site
from tests.e2e.test_table import DESKTOP, PHONE_LANDSCAPE, make_user, new_context, shot
from tests.e2e.tilepage import TilePage

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

GAME = registry.get("kdvli")
SEED = "kdvli-32"  # found with expected_match: show, a human finish, a void hand
OPTIONS = {"hands": 3, "partners": True}  # V-M1: seats 0 + 2 against 1 + 3
LEVEL = "hard"
TAKE_TURNS = (2, 6)  # the human takes the tile thrown to it on its 2nd and 6th take


@pytest.fixture(scope="module")
def kdvli_site(request, django_db_setup, django_db_blocker, tmp_path_factory):
    """The live stack with a 5-second pause between hands (the site's is V-M3's 10 s):
    long enough to look at the reveal, short enough for a lean test."""
    remove_stale_test_databases()
    with django_db_blocker.unblock():
        site = start_site(tmp_path_factory.mktemp("kdvli-live"), {"KUT_NEXT_HAND_SECONDS": "5"})
    try:
        yield site
    finally:
        site.stop()
        if request.session.testsfailed:
            print(f"\nkdvli site logs ({site.var_dir}):\n{site.log_tail()}")


def human_choice(faces: list[str], okey: str) -> tuple[str, str | None, str]:
    """The test player's head: finish when *Seri Diz* (or *Çift Diz*) leaves exactly one
    tile out — that tile goes on the indicator — else throw the tile whose loss leaves
    the least points (V-S2; ties: the lowest face).  It reads faces only, never the
    order on the rack, so moving tiles around changes nothing."""
    fs = [parse_face(f) for f in faces]
    ok = parse_face(okey)
    c = counting.count(fs, ok)
    if c.runs_points and len(c.left) == 1:
        return ("finish", "runs", face_name(c.left[0]))
    if len(c.pairs_left) == 1:
        return ("finish", "pairs", face_name(c.pairs_left[0]))
    best = None
    for f in sorted(set(fs), key=face_sort_key):
        rest = list(fs)
        rest.remove(f)
        key = (counting.points(rest, ok), face_sort_key(f))
        if best is None or key < best[0]:
            best = (key, f)
    return ("discard", None, face_name(best[1]))


def expected_match(seed: str):
    """The whole match with the engine alone, as the site plays it with test seeds:
    returns (the final state, the human's turns, what happened each deal)."""
    opts = GAME.clean_options(OPTIONS)
    st = GAME.new_match(opts, 4, services._rng_for_hand(seed, 1))
    steps, turns, takes, deals = 0, 0, 0, []
    while True:
        while not st.hand.over:
            seat = st.hand.turn
            if seat == 0:
                v = GAME.view_for(st, 0)
                if v["can"]["show_indicator"]:
                    GAME.apply(st, 0, {"type": "show_indicator"}, 0)
                    continue
                if v["can"]["draw"] or v["can"]["take"]:
                    takes += 1
                    kind = "take_discard" if takes in TAKE_TURNS and v["can"]["take"] else "draw"
                    GAME.apply(st, 0, {"type": kind}, 0)
                    continue
                kind, how, face = human_choice(
                    [c["face"] for c in v["rack"]["cells"] if c], v["okey"]
                )
                turns += 1
                if kind == "finish":
                    GAME.apply(st, 0, {"type": "arrange", "how": how}, 0)
                    v = GAME.view_for(st, 0)
                    tile = [c for c in v["rack"]["cells"] if c and c["face"] == face][-1]
                    GAME.apply(st, 0, {"type": "finish", "tile_id": tile["id"]}, 0)
                else:
                    tile = next(c for c in v["rack"]["cells"] if c and c["face"] == face)
                    GAME.apply(st, 0, {"type": "discard", "tile_id": tile["id"]}, 0)
            else:
                key = orjson.dumps(GAME.turn_key(st)).decode()
                rng = SeededRNG(f"{seed}:bot:{key}:{seat}")
                view = orjson.loads(orjson.dumps(GAME.view_for(st, seat)))
                GAME.apply(st, seat, GAME.bot_choose(view, LEVEL, rng), 0)
        h = st.hand
        deals.append("void" if h.void else (h.finisher, h.finish_kind, list(h.bonuses)))
        if GAME.match_over(st):
            return st, turns, deals
        GAME.start_next_hand(
            st, services._rng_for_next_hand(seed, len(GAME.hand_results(st)), steps)
        )
        steps += 1


FACTS_JS = """() => {
  const d = document.getElementById('kt').dataset;
  const on = (a) => { const b = document.querySelector(`.kt-btn[data-action="${a}"]`); return Boolean(b && !b.disabled); };
  return {
    version: Number(d.version), layout: Number(d.layout), errors: Number(d.errors),
    phase: d.phase, status: d.status, deal: d.deal, points: d.points,
    show: on('show_indicator'), finish: on('finish'),
    cells: [...document.querySelectorAll('.kt-cell')].map((c) => ({ i: Number(c.dataset.i), id: c.dataset.id || null, face: c.dataset.face || null })),
  };
}"""


class KdvliTable(TilePage):
    FACTS_JS = FACTS_JS

    def wait_my_move(self) -> str:
        self.wait(
            "() => { const d = document.getElementById('kt').dataset;"
            " return ['take', 'play'].includes(d.phase) || ['between', 'finished'].includes(d.status); }"
        )
        f = self.facts()
        return f["status"] if f["status"] in ("between", "finished") else f["phase"]

    def cell(self, i: int):
        return self.page.locator(f'.kt-cell[data-i="{i}"]')


def test_a_rated_three_hand_match_against_bots(kdvli_site, browser: Browser, settings):
    expected, expected_turns, deals = expected_match(SEED)
    assert any(d != "void" and d[0] == 0 for d in deals), deals  # the human finishes
    user = make_user("kdvli_oyuncusu", "Zeynep")
    # the bots that move before the human's first turn do so here (as the site would)
    settings.KUT_BOTS_INLINE = True
    settings.DEBUG = True
    settings.KUT_TEST_SEEDS = True

    def create():
        try:
            return services.match_create(
                game="kdvli", options=OPTIONS, users=[user, None, None, None], rated=True,
                level="usta", host=user, seed=SEED, partners=True,
            )  # fmt: skip
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        match = pool.submit(create).result()
    assert match.rated and match.move_seconds == GAME.default_move_seconds  # P-6: 60 s

    context = new_context(browser, kdvli_site, user, viewport=DESKTOP)
    page = context.new_page()
    page.clock.install()  # the page's clock, to look at the last 10 s of a turn (V-N5)
    table = KdvliTable(page)
    page.goto(f"/match/{match.pk}/")
    table.wait("() => Number(document.getElementById('kt').dataset.version) >= 0")
    expect(page.locator(".kt-brand")).to_have_text("KDVli")
    expect(page.locator(".kt-pile")).to_have_count(4)  # the four discard piles
    # V-M1, P-8: who plays with whom, during the match (the bot opposite is the partner)
    expect(page.locator('.kt-seat-me[data-team="A"] .kv-partner')).to_have_text("Eş: Bot 3 (zor)")
    expect(page.locator('.kt-seat[data-pos="north"][data-team="A"] .kv-partner')).to_contain_text(
        "Zeynep"
    )
    for pos in ("east", "west"):
        expect(
            page.locator(f'.kt-seat[data-pos="{pos}"][data-team="B"] .kv-team-total')
        ).to_have_text(re.compile(r"^Takım toplamı -?\d+$"))
    page.locator(".kv-settings-toggle").click()
    expect(page.locator(".kv-facts dt", has_text="Takım A")).to_have_count(1)
    expect(page.locator(".kv-facts dd", has_text="Zeynep + Bot 3 (zor): 0")).to_have_count(1)
    expect(page.locator(".kv-facts dd", has_text="Bot 2 (zor) + Bot 4 (zor): 0")).to_have_count(1)
    page.locator(".kv-settings-toggle").click()

    seen = {"show": 0, "finish": 0, "void": 0, "hand": 0, "drag_discard": 0, "tap_discard": 0,
            "moved": 0, "clock": 0, "phone": 0, "warn": 0,
            "take": 0, "pairs": 0, "away": 0, "bitir": 0}  # fmt: skip
    turns = takes = 0
    ended: set[str] = set()
    t0 = time.monotonic()
    while True:
        state = table.wait_my_move()
        if state == "finished":
            break
        if state == "between":
            deal = table.facts()["deal"]
            if deal not in ended:
                ended.add(deal)
                overlay = page.locator(".kt-overlay")
                expect(overlay).to_be_visible()
                kind = overlay.get_attribute("data-kind")
                # V-H4: every rack revealed with its counted arrangement and points
                expect(page.locator(".kv-reveal .kv-rack-line")).to_have_count(4)
                expect(page.locator(".kt-countdown")).to_have_text(
                    re.compile(r"Sonraki el (\d+ sn sonra başlıyor\.|başlıyor…)")
                )
                if kind == "void":
                    seen["void"] += 1
                    expect(page.locator(".kt-overlay-sub")).to_contain_text("el bozuldu")
                else:
                    seen["hand"] += 1
                    expect(page.locator(".kt-overlay-sub")).to_contain_text("Çarpan ×")
                    expect(page.locator(".kt-score-table tbody tr")).to_have_count(4)
                    # V-S4: the team rows under the seats (a hand's team score, total)
                    expect(page.locator(".kt-score-table tfoot tr.kv-team-row")).to_have_count(2)
                if seen["hand"] == 1 and kind == "hand":
                    shot(page, "kdvli-end-of-hand-desktop")
            table.wait(
                "(d) => { const x = document.getElementById('kt').dataset;"
                " return x.status !== 'between' || x.deal !== d; }",
                deal,
            )
            continue
        turns += 1
        assert turns <= expected_turns + 5, "the match does not end as the engine says"
        f = table.facts()
        clock = page.locator(".kv-clock")
        expect(clock).to_be_visible()  # V-N5: the move countdown in the top bar
        expect(clock).to_have_class(re.compile("is-mine"))
        expect(clock.locator(".kv-clock-left")).to_have_text(re.compile(r"^\d+ sn$"))
        if seen["away"] == 0 and turns == 2:
            # V-N6: after a second timeout the site marks the seat away (services); the
            # page, reloaded, shows the note and Geri döndüm, which gives the seat back.
            # bot_due is left alone, so no bot moves for the seat meanwhile.
            MatchSeat.objects.filter(match=match, seat=0).update(away=True)
            page.reload()
            away = page.locator(".kv-away")
            expect(away).to_be_visible()
            expect(away).to_contain_text("bir bot oynuyor")
            expect(page.locator(".kt-seat-me .kt-presence.is-away")).to_have_count(1)
            shot(page, "kdvli-away-desktop")
            away.get_by_role("button", name="Geri döndüm").click()
            expect(away).to_be_hidden()
            assert not MatchSeat.objects.get(match=match, seat=0).away
            assert table.wait_my_move() == state and table.facts()["version"] == f["version"]
            seen["away"] += 1
            f = table.facts()
        if f["show"]:
            # V-I1: the other copy of the indicator, before taking a tile
            table.act(table.button("show_indicator").click)
            seen["show"] += 1
            expect(page.locator(".kt-seat-me .kv-shown")).to_be_visible()
            f = table.facts()
        if state == "take":
            takes += 1
            thrown = page.locator('.kt-pile-btn[data-pile="take"]')
            if takes in TAKE_TURNS and "is-live" in (thrown.get_attribute("class") or ""):
                # V-N1: the tile thrown by the player on your left (bottom left)
                face = thrown.locator(".kt-tile").get_attribute("data-face")
                table.act(thrown.click)
                assert sum(c["face"] == face for c in table.facts()["cells"]) >= 1
                seen["take"] += 1
            elif turns % 2:
                table.act(page.locator(".kt-deck").click)
            else:
                page.locator(".kt-cell").first.focus()
                table.act(lambda: page.keyboard.press("d"))  # D: draw (the keyboard)
            f = table.facts()
        if seen["pairs"] == 0 and turns >= 5 and f["phase"] == "play":
            # Çift Diz (V-R2): pairs side by side; the rack is the player's own business
            table.act(table.button("pairs").click)
            seen["pairs"] += 1
            f = table.facts()
        if seen["moved"] == 0 and turns >= 2:
            # the rack is KÜT's: a tile dragged to an empty cell stays there (V-R1)
            src = next(c for c in f["cells"] if c["id"])
            dst = next(c for c in reversed(f["cells"]) if not c["id"])
            table.act(lambda a=src["i"], b=dst["i"]: table.cell(a).drag_to(table.cell(b)))
            assert next(c for c in table.facts()["cells"] if c["i"] == dst["i"])["id"] == src["id"]
            seen["moved"] += 1
            f = table.facts()
        if seen["warn"] == 0 and turns >= 4:
            # the move countdown warns in the last 10 s: jump the page's clock 52 s on
            # (the server's deadline stays where it is; the next frame sets it right)
            page.clock.fast_forward(52_000)
            expect(clock).to_have_class(re.compile("is-warn"))
            expect(page.locator(".kt-seat-me .kt-card")).to_have_class(re.compile("is-warn"))
            left = int(clock.locator(".kv-clock-left").inner_text().split()[0])
            assert 0 < left <= 10, left
            shot(page, "kdvli-last-seconds-desktop")
            seen["warn"] += 1
        if seen["phone"] == 0 and turns >= 3:
            page.set_viewport_size(PHONE_LANDSCAPE)
            assert page.evaluate("() => document.documentElement.scrollWidth") <= 844
            last = page.locator(".kt-cell").last.bounding_box()
            assert last and last["x"] + last["width"] <= 844 and last["y"] + last["height"] <= 390
            shot(page, "kdvli-table-phone")
            # Masa ayarları on a phone: behind its button in the top bar (V-S5)
            panel = page.locator(".kv-settings")
            expect(panel).to_be_hidden()
            page.locator(".kv-settings-toggle").click()
            expect(panel).to_be_visible()
            expect(panel.locator(".kv-points")).to_contain_text("puan")
            shot(page, "kdvli-settings-phone")
            page.locator(".kv-settings-toggle").click()
            expect(panel).to_be_hidden()
            page.set_viewport_size(DESKTOP)
            seen["phone"] += 1
        faces = [c["face"] for c in f["cells"] if c["id"]]
        assert len(faces) == 15
        okey = page.evaluate(
            "() => { const t = document.querySelector('.kv-indicator .kt-tile');"
            " return t ? t.dataset.face : null; }"
        )
        okey = face_name(okey_face(parse_face(okey)))  # V-T3: the indicator's next number
        kind, how, face = human_choice(faces, okey)
        if kind == "finish":
            # Seri Diz / Çift Diz (V-R2), then the loose tile onto the indicator (V-F1)
            table.act(table.button(how).click)
            f = table.facts()
            cell = [c for c in f["cells"] if c["face"] == face][-1]
            shot(page, "kdvli-before-finish-desktop")
            table.act(lambda i=cell["i"]: table.cell(i).drag_to(page.locator(".kv-indicator")))
            seen["finish"] += 1
            continue
        cell = next(c for c in f["cells"] if c["face"] == face)
        if seen["bitir"] == 0 and turns >= 6:
            # Bitir with a picked tile while the rest is no finish: warned, nothing moves
            # (V-F3); the turn goes on
            table.cell(cell["i"]).click()
            errors = table.facts()["errors"]
            table.button("finish").click()
            table.wait("(e) => Number(document.getElementById('kt').dataset.errors) > e", errors)
            assert (
                page.evaluate("() => document.getElementById('kt').dataset.lastError")
                == "invalid_finish"
            )
            expect(page.locator(".kt-toasts")).to_contain_text("Bitmek için")
            assert table.facts()["cells"] == f["cells"] and table.facts()["phase"] == "play"
            seen["bitir"] += 1
        if turns % 2:
            table.act(
                lambda i=cell["i"]: table.cell(i).drag_to(
                    page.locator('.kt-pile-btn[data-pile="discard"]')
                )
            )
            seen["drag_discard"] += 1
        else:
            table.cell(cell["i"]).click()  # tap the tile, then the discard area
            table.act(page.locator('.kt-pile-btn[data-pile="discard"]').click)
            seen["tap_discard"] += 1
        after = table.facts()
        if after["status"] == "playing":
            # V-S5: the Masa ayarları panel shows your own points after each discard
            rest = list(faces)
            rest.remove(face)
            want = counting.points([parse_face(x) for x in rest], parse_face(okey))
            table.wait("(p) => document.getElementById('kt').dataset.points === String(p)", want)
            expect(page.locator(".kv-points")).to_have_text(f"Şu anki puanın: {want}")
            if seen["clock"] == 0:
                shot(page, "kdvli-table-desktop")
                seen["clock"] += 1
    print(f"kdvli match: {turns} human turns in {time.monotonic() - t0:.1f} s; {seen}")

    # The final result, as the engine played it alone (V-M4), and the rating (V-Q2).
    expect(page.locator(".kt-overlay[data-kind=final] h2")).to_have_text("Maç bitti")
    expect(page.locator(".kv-final-table tbody tr")).to_have_count(4)
    expect(page.locator(".kv-final-table tfoot tr.kv-team-row")).to_have_count(2)
    shot(page, "kdvli-final-desktop")
    page.set_viewport_size(PHONE_LANDSCAPE)
    shot(page, "kdvli-final-phone")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.hand_results.count() == 3
    result = GAME.match_result(expected)
    assert [r.scores for r in match.hand_results.order_by("hand_no")] == [
        r.scores for r in GAME.hand_results(expected)
    ]
    assert turns == expected_turns
    assert seen["finish"] == 1 and seen["show"] >= 1 and seen["void"] == 1, seen
    assert seen["drag_discard"] and seen["tap_discard"] and seen["moved"] and seen["phone"]
    assert seen["warn"] and seen["take"] and seen["pairs"] and seen["away"] and seen["bitir"]
    assert (
        result.detail["partners"]
        and result.detail["team_totals"][0] < result.detail["team_totals"][1]
    )
    change = GAME.rating.match_changes(
        result, True, [{"rating": 1500, "role": "played"}, None, None, None], match.options
    )[0]
    deadline = time.monotonic() + 20
    while not Ranking.objects.filter(user=user, game="kdvli").exists():
        assert time.monotonic() < deadline, "the rating was not written"
        time.sleep(0.2)
    assert Ranking.objects.get(user=user, game="kdvli").points == 1500 + change
    assert table.errors == [], table.errors
    context.close()
