"""Issue 31 ("Analiz"), the site side: the stored analysis is the command's report for
the same scenario, it is computed only once the match is over (after the commit, on its
own queue), shown on the record and the replay, never before the end (record, replay,
admin), and a game without an analysis (the toy game) has none."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from datetime import timedelta

import pytest
from django.urls import reverse

from game import analysis, services, tasks
from game.engine import cli
from game.models import HandAnalysis, Match
from tests.analysis.matches import ANALYSED, finished_match
from tests.clients import client_for, page_strings
from tests.history.conftest import make_user

pytestmark = pytest.mark.django_db


def command_report(text: str, tmp_path) -> dict:
    """``python -m game.engine.analyse FILE`` (its main, in this process)."""
    path = tmp_path / "scenario.json"
    path.write_text(text, encoding="utf-8")
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli.main("analyse", [str(path)]) == 0
    return json.loads(out.getvalue())


@pytest.mark.parametrize("game", ANALYSED)
def test_every_hand_stores_the_commands_report_for_its_downloaded_scenario(
    analysed, game, tmp_path
):
    match = analysed.matches[game]
    client = client_for(analysed.users[game])
    rows = list(match.analyses.order_by("hand_no"))
    total = analysis.hands_to_analyse(match)
    assert total >= 1 and [r.hand_no for r in rows] == list(range(1, total + 1))
    for row in rows:
        assert row.status == HandAnalysis.Status.DONE
        download = client.get(reverse("lobby:scenario", args=[match.pk, row.hand_no]))
        assert download.status_code == 200
        assert row.report == command_report(download.content.decode(), tmp_path)
        assert row.report["game"] == game and row.report["decisions"]


def test_rerunning_the_analysis_changes_nothing(analysed):
    match = analysed.matches["kut"]
    before = list(match.analyses.order_by("hand_no").values_list("pk", "report"))
    assert analysis.analyse_next(match.pk) is False
    assert analysis.analyse_match(match.pk) == 0
    tasks.match_analyse(match.pk)
    assert list(match.analyses.order_by("hand_no").values_list("pk", "report")) == before


def test_nothing_is_analysed_before_the_end(players):
    match = services.match_create(game="kut", options={"tasks": 5},
                                  users=[players[0], None, None, None], seed="analiz-running")  # fmt: skip
    assert match.status == Match.Status.PLAYING
    assert analysis.analyse_next(match.pk) is False
    assert analysis.analyse_match(match.pk) == 0
    assert tasks.match_analyse(match.pk) is False
    assert not HandAnalysis.objects.filter(match=match).exists()


def test_a_row_of_a_running_match_reaches_no_page_and_no_admin(players, admin_client):
    """Rows are only written for a match that is over; were one there for a running
    match (written by hand here), neither the replay's endpoint nor the admin shows it."""
    match = services.match_create(game="kut", options={"tasks": 5},
                                  users=[players[0], None, None, None], seed="analiz-leak")  # fmt: skip
    row = HandAnalysis.objects.create(match=match, hand_no=1, status="done",
                                      report={"secret": "R7 R8 R9"})  # fmt: skip
    assert analysis.hand_report(match, 1) is None and analysis.stored(match) == {}
    client = client_for(players[0])
    for url in (
        reverse("lobby:analysis_hand", args=[match.pk, 1]),
        reverse("lobby:replay", args=[match.pk]),
        reverse("lobby:history_match", args=[match.pk]),
    ):
        assert client.get(url).status_code == 404
    listing = admin_client.get(reverse("admin:game_handanalysis_changelist"))
    assert listing.status_code == 200 and "R7 R8 R9" not in listing.content.decode()
    assert f"/{row.pk}/change/" not in listing.content.decode()
    detail = admin_client.get(reverse("admin:game_handanalysis_change", args=[row.pk]))
    assert "R7 R8 R9" not in detail.content.decode()


def test_the_admin_shows_a_finished_matchs_analysis_read_only(analysed, admin_client):
    row = analysed.matches["kdvli"].analyses.first()
    listing = admin_client.get(reverse("admin:game_handanalysis_changelist"))
    assert f"/{row.pk}/change/" in listing.content.decode()
    detail = admin_client.get(reverse("admin:game_handanalysis_change", args=[row.pk]))
    assert detail.status_code == 200 and 'name="_save"' not in detail.content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_analysis_is_queued_after_the_commit_that_ends_the_match(settings, monkeypatch):
    """On its own queue, once, after the last move committed (the match is finished in
    the database when it is queued); the task then does one hand and queues the next."""
    settings.KUT_ANALYSIS = "queue"
    queued = []

    def fake_apply_async(args, queue=None, **kwargs):
        status = Match.objects.filter(pk=args[0]).values_list("status", flat=True).first()
        queued.append((args, queue, status))

    monkeypatch.setattr(tasks.match_analyse, "apply_async", fake_apply_async)
    user = make_user("an_queue")
    match = finished_match("kdvli", user, seed="analiz-queue")
    assert queued == [((match.pk,), settings.KUT_ANALYSIS_QUEUE, Match.Status.FINISHED)]
    assert settings.CELERY_TASK_ROUTES["game.tasks.match_analyse"]["queue"] == (
        settings.KUT_ANALYSIS_QUEUE
    )
    assert not HandAnalysis.objects.filter(match=match).exists()  # nothing in the move's way
    hands = analysis.hands_to_analyse(match)
    for n in range(1, hands + 1):
        assert tasks.match_analyse(match.pk) is (n < hands)
        assert HandAnalysis.objects.filter(match=match).count() == n
    assert len(queued) == hands  # the first from the end, then one per further hand


@pytest.mark.django_db(transaction=True)
def test_inline_mode_stores_it_when_the_match_ends(settings):
    settings.KUT_ANALYSIS = "inline"
    match = finished_match("kastet", make_user("an_inline"), seed="analiz-inline")
    assert HandAnalysis.objects.filter(match=match, status="done").count() == (
        analysis.hands_to_analyse(match)
    )


def test_a_match_over_the_budget_of_hands_is_analysed_partly_and_says_so(players, settings):
    settings.KUT_ANALYSIS_MAX_HANDS = 2
    match = finished_match("kut", players[0], seed="analiz-partial")
    assert analysis.analyse_match(match.pk) == 5
    statuses = list(match.analyses.order_by("hand_no").values_list("status", flat=True))
    assert statuses == ["done", "done", "skipped", "skipped", "skipped"]
    page = client_for(players[0], "en").get(reverse("lobby:history_match", args=[match.pk]))
    text = page.content.decode()
    assert 'data-testid="analysis-partial"' in text
    assert "Analysed partly: 2 of 5 hands" in text


def test_trial_and_unrecorded_games_are_never_analysed(players, settings):
    settings.KUT_ANALYSIS = "inline"
    match = finished_match("kastet", players[0], seed="analiz-guest")
    HandAnalysis.objects.filter(match=match).delete()
    for kind in (Match.Kind.GUEST, Match.Kind.TRIAL):
        Match.objects.filter(pk=match.pk).update(kind=kind)
        tasks.schedule_analysis(match.pk)
        assert analysis.analyse_next(match.pk) is False
        assert not HandAnalysis.objects.filter(match=match).exists()


def test_the_toy_game_simply_has_none(players, settings):
    settings.KUT_ANALYSIS = "inline"
    from tests.history.play import play_as_humans

    match = services.match_create(game="toy", users=[players[0], None],
                                  seed="analiz-toy")  # fmt: skip
    match = play_as_humans(match)
    assert match.status == Match.Status.FINISHED
    assert analysis.analyse_match(match.pk) == 0
    assert not HandAnalysis.objects.filter(match=match).exists()
    client = client_for(players[0])
    record = client.get(reverse("lobby:history_match", args=[match.pk])).content.decode()
    assert 'data-testid="analysis-record"' not in record
    replay = client.get(reverse("lobby:replay", args=[match.pk]))
    assert replay.status_code in (200, 404)
    assert b"analysis-config" not in replay.content


@pytest.mark.parametrize("language", ["tr", "en"])
def test_the_record_page_shows_the_summary_per_player_and_marks_per_hand(analysed, language):
    match = analysed.matches["kut"]
    page = client_for(analysed.users["kut"], language).get(
        reverse("lobby:history_match", args=[match.pk])
    )
    text = page.content.decode()
    assert 'data-testid="analysis-record"' in text
    assert "an_kut" in text
    behind = "en iyiden ortalama" if language == "tr" else "behind the best"
    assert behind in text
    assert 'data-mark="big_loss"' in text and 'data-mark="good"' in text
    replay = reverse("lobby:replay", args=[match.pk])
    for row in match.analyses.all():
        assert f'href="{replay}?hand={row.hand_no}"' in text


def test_the_record_page_says_when_the_analysis_is_not_there_yet(players):
    match = finished_match("kdvli", players[0], seed="analiz-pending")
    url = reverse("lobby:history_match", args=[match.pk])
    page = client_for(players[0], "en").get(url)
    assert 'data-testid="analysis-pending"' in page.content.decode()
    # a match that ended long ago without one (before the analysis existed): no section
    Match.objects.filter(pk=match.pk).update(finished_at=match.finished_at - timedelta(days=2))
    page = client_for(players[0], "en").get(url)
    assert 'data-testid="analysis-record"' not in page.content.decode()


@pytest.mark.parametrize("game", ANALYSED)
def test_the_replay_page_holds_the_hands_report_and_the_panel(analysed, game):
    match = analysed.matches[game]
    client = client_for(analysed.users[game])
    page = client.get(reverse("lobby:replay", args=[match.pk]) + "?hand=1")
    assert page.status_code == 200
    stored = match.analyses.get(hand_no=1).report
    assert page_strings(page, "analysis-data") == stored
    extra = page_strings(page, "analysis-extra")
    assert len(extra["words"]) == len(stored["decisions"])
    assert extra["names"][0] == "an_" + game
    config = page_strings(page, "analysis-config")
    assert config["hand"] == 1 and config["strings"]["toggle"] == "Daha iyi hamle"
    text = page.content.decode()
    assert "js/replay-analysis.js" in text and "css/replay-analysis.css" in text
    data = client.get(config["url"].replace("{hand}", "1")).json()
    assert data["report"] == stored and data["words"] == extra["words"]


def test_the_replay_of_another_player_or_an_outsider(analysed):
    match = analysed.matches["king"]
    outsider = client_for(analysed.outsider)
    assert outsider.get(reverse("lobby:analysis_hand", args=[match.pk, 1])).status_code == 404
    assert outsider.get(reverse("lobby:replay", args=[match.pk])).status_code == 404


def test_the_catch_up_command_analyses_what_is_missing(players):
    from django.core.management import call_command

    match = finished_match("kdvli", players[0], seed="analiz-command")
    assert not match.analyses.exists()  # ended with KUT_ANALYSIS "off": as if never queued
    out = io.StringIO()
    call_command("analyse_matches", stdout=out)
    hands = analysis.hands_to_analyse(match)
    assert f"match {match.pk}: {hands} hands analysed" in out.getvalue()
    assert match.analyses.filter(status="done").count() == hands
    again = io.StringIO()
    call_command("analyse_matches", str(match.pk), stdout=again)
    assert again.getvalue().strip() == "0 hands analysed"
