"""Issue 31 ("Analiz"), done when: for each game a short match against bots ends, its
analysis is computed in the background by the site's own worker (the match's end queues
it on the analysis queue, after the commit), the record page shows it, and the replay
shows the marks and, with *Daha iyi hamle* on, the better move on the table or board.

The match is played through the services in this process (fast, as
``tests/analysis/matches.py`` does); the task its end queues goes to the live site's
broker and analysis queue (``site_sender``), where the site's worker takes it."""

from __future__ import annotations

import os
import time
import uuid

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, expect

from game import tasks
from game.models import HandAnalysis, Match
from tests.analysis.matches import ANALYSED, finished_match
from tests.e2e.livesite import remove_stale_test_databases, start_site
from tests.e2e.test_table import DESKTOP, make_user, new_context, shot

pytestmark = pytest.mark.django_db(transaction=True)

ANALYSIS_QUEUE = f"kut-e2e-analysis-{uuid.uuid4().hex[:8]}"
WAIT_SECONDS = 120.0  # the worker's analysis of a short match, on a loaded machine


@pytest.fixture(scope="module")
def analysis_site(request, django_db_setup, django_db_blocker, tmp_path_factory):
    remove_stale_test_databases()
    with django_db_blocker.unblock():
        site = start_site(tmp_path_factory.mktemp("kut-analysis"),
                          {"KUT_ANALYSIS_QUEUE": ANALYSIS_QUEUE})  # fmt: skip
    try:
        yield site
    finally:
        site.stop()
        if request.session.testsfailed:
            print(f"\nanalysis site logs ({site.var_dir}):\n{site.log_tail()}")


def site_sender(site):
    """A Celery app that publishes to the live site's broker (its filesystem folder, or
    the shared Redis)."""
    from celery import Celery

    from kut_site.celery import _atomic_filesystem_put

    redis = os.environ.get("REDIS_URL", "")
    if redis:
        return Celery("kut-e2e-sender", broker=redis)
    folder = str(site.var_dir / "celery")
    _atomic_filesystem_put()
    return Celery("kut-e2e-sender", broker="filesystem://", broker_transport_options={
        "data_folder_in": folder, "data_folder_out": folder,
        "control_folder": str(site.var_dir / "celery-control")})  # fmt: skip


@pytest.fixture
def queued_to_site(analysis_site, settings, monkeypatch):
    """The match's end in this process queues its analysis as the site would (the
    receiver, ``game.tasks.schedule_analysis``), onto the live site's analysis queue."""
    settings.KUT_ANALYSIS = "queue"
    settings.KUT_ANALYSIS_QUEUE = ANALYSIS_QUEUE
    sender = site_sender(analysis_site)
    sent = []

    def apply_async(args, queue=None, **kwargs):
        sent.append((args, queue))
        sender.send_task("game.tasks.match_analyse", args=list(args), queue=queue)

    monkeypatch.setattr(tasks.match_analyse, "apply_async", apply_async)
    return sent


def wait_for_analysis(match: Match) -> list[HandAnalysis]:
    from game import analysis

    hands = analysis.hands_to_analyse(match)
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        rows = list(HandAnalysis.objects.filter(match=match).order_by("hand_no"))
        if len(rows) == hands:
            return rows
        time.sleep(0.5)
    raise AssertionError(f"the analysis of match {match.pk}: {len(rows)} of {hands} hands")


@pytest.mark.parametrize("game", ANALYSED)
def test_a_finished_match_is_analysed_and_its_replay_shows_marks_and_the_better_move(
    analysis_site, queued_to_site, browser: Browser, game
):
    user = make_user(f"analiz_{game}", f"Analiz {game}")
    match = finished_match(game, user, seed=f"analiz-e2e-{game}")
    assert queued_to_site == [((match.pk,), ANALYSIS_QUEUE)]  # once, at the end
    rows = wait_for_analysis(match)
    assert all(r.status == HandAnalysis.Status.DONE for r in rows)
    # the first hand with a decision that had a better move
    hand, index, decision = next(
        (r.hand_no, i, d)
        for r in rows
        for i, d in enumerate(r.report["decisions"])
        if d["best"] is not None
    )
    context = new_context(browser, analysis_site, user, viewport=DESKTOP)
    page = context.new_page()
    try:
        page.goto(reverse("lobby:history_match", args=[match.pk]))
        record = page.get_by_test_id("analysis-record")
        expect(record).to_be_visible()
        expect(record.get_by_test_id("analysis-pending")).to_have_count(0)
        expect(record.locator(f"li[data-hand='{hand}'] a")).to_be_visible()
        record.locator(f"li[data-hand='{hand}'] a").click()
        page.wait_for_url(f"**/replay/?hand={hand}")
        panel = page.get_by_test_id("analysis-panel")
        marks = panel.get_by_test_id("analysis-mark")
        expect(marks.first).to_be_visible()
        assert marks.count() >= len(rows[hand - 1].report["decisions"])
        toggle = panel.get_by_test_id("analysis-best-toggle")
        expect(toggle).to_have_text("Daha iyi hamle")
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        panel.locator(f".ra-decision[data-index='{index}']").click()  # replay:goto
        here = panel.locator(".ra-here")
        expect(here.get_by_test_id("analysis-mark")).to_have_attribute("data-mark",
                                                                        decision["mark"])  # fmt: skip
        best = page.get_by_test_id("analysis-best")
        expect(best.first).to_be_visible(timeout=15_000)
        shot(page, f"analysis-{game}-best")
        toggle.click()  # off: replay:best-clear
        expect(toggle).to_have_attribute("aria-pressed", "false")
        expect(best).to_have_count(0)
    finally:
        context.close()


SIZES_JS = """(selector) => [...document.querySelectorAll(selector)].map((el) => {
  const r = el.getBoundingClientRect();
  return { name: el.textContent.trim().slice(0, 30), w: r.width, h: r.height };
})"""


def test_the_panel_and_the_record_by_touch_keyboard_and_reduced_motion(
    analysis_site, settings, browser: Browser
):
    """At 844×390 every control of the panel and the record's hand links are 40×40 px at
    least; the toggle works from the keyboard; with reduced motion nothing moves."""
    settings.KUT_ANALYSIS = "inline"  # stored at once, in this process
    user = make_user("analiz_touch", "Analiz dokunma")
    match = finished_match("kdvli", user, seed="analiz-e2e-touch")
    assert HandAnalysis.objects.filter(match=match, status="done").exists()
    context = new_context(browser, analysis_site, user, viewport={"width": 844, "height": 390},
                          has_touch=True, reduced_motion="reduce")  # fmt: skip
    page = context.new_page()
    try:
        page.goto(reverse("lobby:history_match", args=[match.pk]))
        links = page.evaluate(SIZES_JS, "#analysis .ra-hands a")
        assert links and all(s["w"] >= 40 and s["h"] >= 40 for s in links), links
        page.goto(reverse("lobby:replay", args=[match.pk]) + "?hand=1")
        panel = page.get_by_test_id("analysis-panel")
        expect(panel.get_by_test_id("analysis-mark").first).to_be_attached()
        controls = page.evaluate(SIZES_JS, "#analysis-panel button")
        assert len(controls) > 1 and all(s["w"] >= 40 and s["h"] >= 40 for s in controls), [
            s for s in controls if s["w"] < 40 or s["h"] < 40
        ]
        toggle = panel.get_by_test_id("analysis-best-toggle")
        toggle.focus()
        page.keyboard.press("Enter")
        expect(toggle).to_have_attribute("aria-pressed", "true")
        page.keyboard.press("Space")
        expect(toggle).to_have_attribute("aria-pressed", "false")
        duration = panel.locator(".ra-decision").first.evaluate(
            "(el) => getComputedStyle(el).transitionDuration"
        )
        assert duration in ("0s", ""), duration
        shot(page, "analysis-panel-phone")
    finally:
        context.close()
