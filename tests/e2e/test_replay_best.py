"""The replays' side of the analysis in a real browser (issue 31), for each game: the
replay page of a finished match (made here through the services) dispatches
``replay:step`` with the scenario actions applied at each shown step (the server's
count, ``tests/history/analysis_matches.server_applied``), jumps on ``replay:goto`` to the
position a decision is played from, draws ``replay:best`` (a decision of the registry's
analysis of the hand's downloaded scenario) on that position — every drawn element
``data-testid=analysis-best``, a dashed outline, a symbol where it is a tile or card, no
animation under reduced motion — and removes it on ``replay:best-clear``; another hand's
steps say their hand; a jump asked for while the hand loads opens it there."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, expect

from game.engine import registry
from lobby import history
from tests.e2e.conftest import watch_console
from tests.e2e.test_table import DESKTOP, make_user, new_context, shot
from tests.history.analysis_matches import GAMES, finished_match, scenario, server_applied

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 20_000
LISTEN = """() => {
  window.__steps = [];
  window.__hands = [];
  document.addEventListener("replay:step", (e) => {
    window.__steps.push(e.detail.applied);
    window.__hands.push(e.detail.hand);
  });
}"""
# a replay:goto before the hand's steps are loaded (module scripts run before this)
EARLY_GOTO = """document.addEventListener("DOMContentLoaded", () => document.dispatchEvent(
  new CustomEvent("replay:goto", {detail: {applied: %d}})));"""
# every element drawn for the better move, and how it reads without colour
DRAWN_JS = """() => [...document.querySelectorAll('[data-testid="analysis-best"]')].map((el) => {
  const css = getComputedStyle(el);
  return {outline: css.outlineStyle, symbol: el.dataset.bestSymbol || "",
          animation: css.animationName, text: el.textContent};
})"""
# what each game draws: a tile, a card, a letter of the better move
PIECES = {
    "kut": ".rp-best .rp-tile",
    "kdvli": ".rp-best .rp-tile",
    "kastet": ".rp-best .rp-tile",
    "king": ".kg-card.kr-raised, .kr-best-note",
    "kelimeki": ".wr-ghost",
}


def _decision(game: str, report: dict) -> dict:
    """A decision with a better move (King: a card, to see it raised)."""
    kinds = {"king": ("card",), "kelimeki": ("play", "pass", "exchange")}.get(game)
    found = [d for d in report["decisions"] if d["best"] and (kinds is None or d["kind"] in kinds)]
    assert found, f"no better move in this {game} hand: pick another seed"
    return found[0]


def _dispatch(page, name: str, detail: dict | None = None) -> None:
    page.evaluate("([n, d]) => document.dispatchEvent(new CustomEvent(n, {detail: d}))",
                  [name, detail])  # fmt: skip


@pytest.mark.parametrize("game", GAMES)
def test_the_replay_steps_jumps_and_draws_the_better_move(live_site, browser: Browser, game):
    users = [make_user(f"rb_{game}_{i}", f"Oyuncu {i}") for i in range(4)]
    match = finished_match(game, users)
    data = scenario(match, 1)
    report = registry.command("analyse", data)(data)
    decision = json.loads(json.dumps(_decision(game, report)))
    applied = server_applied(match, 1)
    steps = history.replay_hand(match, 1)["steps"]
    assert len(applied) == len(steps)

    context = new_context(browser, live_site, users[0], viewport=DESKTOP, reduced_motion="reduce")
    page = context.new_page()
    errors = watch_console(page, [])
    failed: list[str] = []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.add_init_script(f"({LISTEN})()")
    url = reverse("lobby:replay", args=[match.pk]) + "?hand=1"
    page.goto(url)
    page.wait_for_function("() => window.__steps.length >= 1", timeout=TIMEOUT)
    # stepping forward: one replay:step per shown position, with the server's count
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("() => window.__steps.length >= 7", timeout=TIMEOUT)
    assert page.evaluate("() => window.__steps") == applied[:7]
    # replay:goto: the last position with that many actions applied (the move's own)
    _dispatch(page, "replay:goto", {"applied": decision["step"]})
    at = len(applied) - 1 - applied[::-1].index(decision["step"])
    page.wait_for_function(
        "(n) => window.__steps.at(-1) === n", arg=decision["step"], timeout=TIMEOUT
    )
    assert at + 1 < len(steps) and steps[at + 1]["a"]["seat"] == decision["seat"]
    step_text = page.locator(".rp-step, .kr-step, .wr-step").first
    expect(step_text).to_have_text(re.compile(rf"^\D*{at + 1}\D+{len(steps)}\D*$"), timeout=TIMEOUT)
    # replay:best draws the better move on this position
    best = page.locator('[data-testid="analysis-best"]')
    expect(best).to_have_count(0, timeout=TIMEOUT)
    _dispatch(page, "replay:best", {"decision": decision})
    expect(best.first).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(PIECES[game]).first).to_be_visible(timeout=TIMEOUT)
    page.locator('[data-testid="analysis-best"]').first.scroll_into_view_if_needed()
    shot(page, f"replay-best-{game}")
    drawn = page.evaluate(DRAWN_JS)
    assert drawn and all(d["outline"] == "dashed" for d in drawn), drawn
    assert all(d["animation"] == "none" for d in drawn), drawn  # reduced motion
    if game == "kelimeki":  # a ghost letter on each square of the better play
        assert page.locator(".wr-ghost").count() == len(decision["best"]["placements"])
        assert [d["text"] for d in drawn if len(d["text"]) == 1] == [
            p["letter"] for p in decision["best"]["placements"]]  # fmt: skip
    elif game == "king":
        card = page.locator(f'.kr-seat[data-seat="{decision["seat"]}"] .kg-card.kr-raised')
        expect(card).to_have_attribute("data-card", decision["best"]["card"], timeout=TIMEOUT)
        assert card.get_attribute("data-best-symbol") == "★"
    else:  # the box on the seat's panel, its tiles from the rack ★ (those still there ★/↓)
        box = page.locator(f'.rp-seat[data-seat="{decision["seat"]}"] .rp-best')
        expect(box).to_be_visible(timeout=TIMEOUT)
        assert box.get_attribute("data-best-symbol") == "★"
        assert box.locator(".rp-tile.rp-best-tile").count() >= 1  # ★: from the rack
    # replay:best-clear removes it, and so does the next step
    _dispatch(page, "replay:best-clear")
    expect(best).to_have_count(0, timeout=TIMEOUT)
    _dispatch(page, "replay:best", {"decision": decision})
    expect(best.first).to_be_visible(timeout=TIMEOUT)
    page.keyboard.press("ArrowRight")
    expect(best).to_have_count(0, timeout=TIMEOUT)
    page.wait_for_function(
        "(n) => window.__steps.at(-1) === n", arg=applied[at + 1], timeout=TIMEOUT
    )
    if game == "king":  # a better contract: named beside the chooser's hand
        choice = next(d for d in report["decisions"] if d["kind"] == "choose" and d["best"])
        _dispatch(page, "replay:goto", {"applied": choice["step"]})
        page.wait_for_function(
            "(n) => window.__steps.at(-1) === n", arg=choice["step"], timeout=TIMEOUT
        )
        _dispatch(page, "replay:best", {"decision": choice})
        note = page.locator(f'.kr-seat[data-seat="{choice["seat"]}"] .kr-best-note')
        expect(note).to_contain_text("Daha iyi seçim", timeout=TIMEOUT)
        expect(best).to_have_count(1, timeout=TIMEOUT)
    if game in ("kut", "kdvli", "king"):  # another hand: its steps, from its deal
        page.locator('[data-hand="2"]').click()
        page.wait_for_function("() => window.__hands.at(-1) === 2", timeout=TIMEOUT)
        assert page.evaluate("() => window.__steps.at(-1)") == 0
    # a jump asked for while the hand still loads: the hand opens there
    early = context.new_page()
    early.add_init_script(f"({LISTEN})()")
    early.add_init_script(EARLY_GOTO % applied[-1])  # the hand's end
    early.goto(url)
    early.wait_for_function("() => window.__steps.length >= 1", timeout=TIMEOUT)
    assert applied[-1] > 0 and early.evaluate("() => window.__steps[0]") == applied[-1]
    # the analysis panel (when the site has one) may ask for a hand not analysed yet (404)
    assert not [u for u in failed if "/analysis/" not in u], failed
    assert not [e for e in errors if not e.startswith("Failed to load resource")], errors
    context.close()
