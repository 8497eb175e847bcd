"""The Django admin: staff only; matches read-only with an abort that changes no
ranking; tables closed by staff; every moderation action logged."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import ModerationLog, User
from game import services
from game.models import Match
from lobby import services as lobby_services
from lobby.models import Ranking, RankingResult, Table
from lobby.ranking import match_rank

pytestmark = pytest.mark.django_db

PASSWORD = "kirmizi-yedi-okey-42"


@pytest.fixture
def staff(db):
    return User.objects.create_superuser("moderator", "mod@example.com", PASSWORD)


@pytest.mark.parametrize(
    "url",
    ["admin:index", "admin:game_match_changelist", "admin:accounts_user_changelist",
     "admin:lobby_table_changelist", "admin:accounts_moderationlog_changelist"],
)  # fmt: skip
def test_a_non_staff_user_gets_no_admin_page(client, players, url):
    for who in (None, players[0]):
        if who:
            client.force_login(who)
        response = client.get(reverse(url))
        assert response.status_code == 302 and "/admin/login/" in response.url
    response = client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "ban_users", "_selected_action": [players[1].pk], "apply": "1", "reason": "x"},
    )
    assert response.status_code == 302 and not User.objects.get(pk=players[1].pk).is_banned
    assert not ModerationLog.objects.exists()


def test_staff_see_matches_but_never_the_seed_or_the_racks(client, staff, players):
    match = services.match_create(
        game="kut", options={"tasks": 5}, users=players, seed="sekret-tohum-42"
    )
    client.force_login(staff)
    assert client.get(reverse("admin:game_match_changelist")).status_code == 200
    page = client.get(reverse("admin:game_match_change", args=[match.pk])).content.decode()
    assert "sekret-tohum-42" not in page and '"rack"' not in page and "oyuncu0" in page
    assert 'name="tasks"' not in page  # read-only
    for name in ("admin:game_matchaction_changelist", "admin:game_handresult_changelist"):
        assert client.get(reverse(name)).status_code == 200
    assert client.get(reverse("admin:game_match_add")).status_code == 403


def test_abort_leaves_rankings_unchanged(
    client, staff, players, django_capture_on_commit_callbacks
):
    ranking = Ranking.objects.create(user=players[0], game="kut", points=4, matches=6, wins=4)
    match = services.match_create(
        game="kut", options={"tasks": 5}, users=players, rated=True, seed="abort"
    )
    finished = services.match_create(game="kut", options={"tasks": 5}, users=players, seed="done")
    Match.objects.filter(pk=finished.pk).update(status=Match.Status.FINISHED)
    client.force_login(staff)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("admin:game_match_changelist"),
            {"action": "abort_matches", "_selected_action": [match.pk, finished.pk]},
        )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.finished_at
    assert Match.objects.get(pk=finished.pk).status == Match.Status.FINISHED  # untouched
    entry = ModerationLog.objects.get()
    assert (entry.action, entry.actor, entry.target_type, entry.target_id) == (
        "match_abort", staff, "match", str(match.pk)
    )  # fmt: skip
    assert match_rank(match.pk) is None  # even called by hand
    ranking.refresh_from_db()
    assert (ranking.points, ranking.matches, ranking.wins) == (4, 6, 4)
    assert not RankingResult.objects.exists()
    assert Ranking.objects.count() == 1


def test_staff_close_an_open_table_and_it_is_logged(client, staff, players):
    table = lobby_services.table_create(game="kut", host=players[0])
    started = lobby_services.table_create(game="kut", host=players[1])
    lobby_services.table_start(started.pk, players[1], fill_with_bots=True)
    client.force_login(staff)
    page = client.get(reverse("admin:lobby_table_change", args=[table.pk])).content.decode()
    assert "oyuncu0" in page
    client.post(
        reverse("admin:lobby_table_changelist"),
        {"action": "close_tables", "_selected_action": [table.pk, started.pk]},
    )
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED
    assert Table.objects.get(pk=started.pk).status == Table.Status.STARTED
    entry = ModerationLog.objects.get()
    assert (entry.action, entry.actor, entry.target_user) == ("table_close", staff, players[0])
    lobby_services.table_create(game="kut", host=players[0])  # the seat was freed
