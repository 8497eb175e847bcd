"""Maçlarım (issue 9): only the player's own finished rated matches; a match's record
with per-hand reasons that add up; public player pages with public data only."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from game import services
from game.models import HandResult, Match
from games.kut.engine.match import MatchState
from games.kut.web import REASONS
from lobby.history import match_history_for_user, placings, player_record
from lobby.models import RankingResult
from lobby.ranking import match_rank
from tests.history.conftest import client_for, make_user

pytestmark = pytest.mark.django_db


def lines_for(scores: list[int]) -> list[dict]:
    """Reasons that add up to each score (tiles left, or −100 for the finisher)."""
    out = []
    for s in scores:
        line = dict.fromkeys(REASONS, 0)
        line["finish" if s < 0 else "tiles"] = s
        out.append({**line, "total": s})
    return out


def finished(users, hands, *, rated=True, kind=Match.Kind.NORMAL, status=Match.Status.FINISHED,
             at=None):  # fmt: skip
    """A match whose hands ended with ``hands`` (scores per seat), ranked like the real
    finish hook does."""
    match = services.match_create(
        game="kut", options={"tasks": 5}, users=users, rated=rated, seed="history"
    )
    for i, scores in enumerate(hands):
        HandResult.objects.create(
            match=match, hand_no=i + 1, scores=scores,
            detail={"task_no": i + 1, "finisher": None, "lines": lines_for(scores)},
        )  # fmt: skip
    totals = [sum(h[s] for h in hands) for s in range(4)]
    Match.objects.filter(pk=match.pk).update(
        status=status,
        kind=kind,
        state=dict(match.state, totals=totals),
        finished_at=at or timezone.now(),
    )
    match_rank(match.pk)
    match.refresh_from_db()
    return match


def test_placings_share_places_on_equal_totals():
    assert placings([10, 50, 30, 80]) == [1, 3, 2, 4]
    assert placings([10, 10, 30, 30]) == [1, 1, 3, 3]


def test_history_lists_only_the_players_own_finished_rated_matches(players):
    ali, ayse, can, deniz = players
    now = timezone.now()
    older = finished([ali, ayse, None, None], [[0, 20, 10, 40]], at=now - timedelta(days=1))
    newer = finished([ayse, ali, can, None], [[-100, 30, 200, 12]], at=now)
    finished([ali, None, None, None], [[0, 5, 6, 7]], rated=False)  # a test table (P-3)
    finished([ali, None, None, None], [[0, 5, 6, 7]], rated=False, kind=Match.Kind.TRIAL)
    finished([ali, ayse, None, None], [[0, 1, 2, 3]], status=Match.Status.ABORTED)
    not_alis = finished([ayse, can, deniz, None], [[0, 1, 2, 3]])
    running = services.match_create(
        game="kut", options={"tasks": 5}, users=[ali, ayse, None, None], seed="running"
    )

    assert list(match_history_for_user(ali)) == [newer, older]  # newest first
    page = client_for(ali).get(reverse("lobby:history"))
    assert page.status_code == 200
    rows = page.context["rows"]
    assert [r.match.pk for r in rows] == [newer.pk, older.pk]
    assert running.pk not in [r.match.pk for r in rows]
    first = rows[0]
    # issue 15: the players in placing order, as on the match's page (it was seat order,
    # so the rows read "4., 1., 2., 3.")
    assert [p.total for p in first.players] == [-100, 12, 30, 200]
    assert [p.placing for p in first.players] == [1, 2, 3, 4]
    assert first.mine.name == "ali" and first.mine.placing == 3
    assert first.result.points == 0  # the middle (P-4)
    assert rows[1].mine.placing == 1 and rows[1].result.points == 1  # sole first
    html = page.content.decode()
    assert "Maçlarım" in html and "+1 sıralama puanı" in html
    assert reverse("lobby:history_match", args=[newer.pk]) in html
    assert reverse("player", args=["ayse"]) in html  # names lead to public pages

    assert list(match_history_for_user(deniz)) == [not_alis]
    assert client_for(make_user("newcomer")).get(reverse("lobby:history")).context["rows"] == []


def test_history_pages_and_leavers(players):
    ali, ayse = players[:2]
    now = timezone.now()
    for i in range(23):
        finished([ali, ayse, None, None], [[i, 0, 5, 9]], at=now - timedelta(minutes=i))
    client = client_for(ali)
    one = client.get(reverse("lobby:history"))
    two = client.get(reverse("lobby:history") + "?page=2")
    assert len(one.context["rows"]) == 20 and len(two.context["rows"]) == 3
    assert "Sayfa 1 / 2" in one.content.decode()
    assert client.get(reverse("lobby:history") + "?page=abc").status_code == 200


def test_match_record_reasons_add_up_to_the_totals(played):
    ali = played.users[0]
    client = client_for(ali)
    for match in played.matches:
        page = client.get(reverse("lobby:history_match", args=[match.pk]))
        assert page.status_code == 200
        record = page.context["record"]
        state = MatchState.from_dict(match.state)
        assert len(record["hands"]) == 5 and record["complete"]
        running = [0, 0, 0, 0]
        for hand in page.context["record_hands"]:  # KÜT's columns (games/kut/web.py)
            assert hand["label"]  # the task's text (K-M3)
            for row in hand["rows"]:
                assert sum(row["reasons"]) == row["score"]  # finish, not opened, tiles…
                running[row["seat"]] += row["score"]
                assert row["running"] == running[row["seat"]]
        assert running == record["totals"] == state.totals
        low = min(state.totals)
        names = {p["seat"]: p["name"] for p in record["players"]}
        assert record["winners"] == [names[s] for s in state.winners]
        assert all(
            p["total"] == state.totals[p["seat"]]
            and p["placing"] == 1 + sum(t < state.totals[p["seat"]] for t in state.totals)
            for p in record["players"]
        )
        assert [p["placing"] for p in record["players"]] == sorted(
            1 + sum(t < mine for t in state.totals) for mine in state.totals
        )  # best placed first
        seat0 = next(p for p in record["players"] if p["seat"] == 0)
        assert (low == state.totals[0]) == (seat0["placing"] == 1)
        chart = record["chart"]
        assert [line["total"] for line in chart["lines"]] == state.totals
        assert len(chart["xticks"]) == 6  # before hand 1, then after each of the five
        html = page.content.decode()
        assert "<svg" in html and "polyline" in html
        assert 'cy="' in html and not re.search(r'(?:cx|cy|x1|x2|y1|y2)="[^"]*,', html)
        assert reverse("lobby:scenario", args=[match.pk, 5]) in html
        assert match.seed not in html


def test_match_record_is_only_for_its_players(played):
    match = played.matches[0]
    outsider = played.users[2]
    assert (
        client_for(outsider).get(reverse("lobby:history_match", args=[match.pk])).status_code == 404
    )
    staff = make_user("staff_member", is_staff=True)
    url = reverse("lobby:history_match", args=[match.pk])
    assert client_for(staff).get(url).status_code == 200
    assert client_for(played.users[1]).get(url).status_code == 200
    from django.test import Client

    assert Client().get(url).status_code == 302  # to the login page


def test_a_public_page_shows_the_record_and_nothing_private(players):
    ali, ayse, can = players[:3]
    ali.display_name = "Ali Usta"
    ali.save()
    finished([ali, ayse, can, None], [[0, 20, 10, 40]])  # ali 1st (+1)
    finished([ayse, ali, can, None], [[0, 20, 10, 40]])  # ali 3rd: the middle (0)
    finished([ali, ayse, None, None], [[50, 0, 10, 40]])  # ali last (−1)
    [record] = player_record(ali)  # one game: KÜT
    assert record["key"] == "kut" and record["matches"] == 3 and record["wins"] == 1
    assert [(lv.points, lv.position is not None) for lv in record["levels"]] == [(0, True)]
    assert record["average_placing"] == pytest.approx((1 + 3 + 4) / 3)

    page = client_for(ayse).get(reverse("player", args=["ali"]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Ali Usta" in html and "2,67" in html  # Turkish decimal comma
    for private in ("ali@example.com", "E-posta", "is_staff", "password", "last_login"):
        assert private not in html
    assert reverse("lobby:history") not in html.split("<main", 1)[1]  # not ayse's own page
    own = client_for(ali).get(reverse("player", args=["ali"])).content.decode()
    assert reverse("lobby:history") in own.split("<main", 1)[1]
    assert client_for(ayse).get(reverse("player", args=["nobody"])).status_code == 404
    assert RankingResult.objects.filter(user=ali).count() == 3
    # the public page needs no login (like the leaderboard)
    from django.test import Client

    assert Client().get(reverse("player", args=["ali"])).status_code == 200
