"""Bans: staff ban and unban (logged); a banned player cannot log in, join or act, and
their live sockets are closed at once."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.db import connections
from django.urls import reverse
from django.utils import timezone

from accounts.bans import user_ban, user_unban
from accounts.models import ModerationLog, User
from game import services as game_services
from lobby import services as lobby_services
from lobby.models import Table
from lobby.services import LobbyError
from tests.accounts.conftest import STRONG_PASSWORD

CHANGELIST = "admin:accounts_user_changelist"


@pytest.fixture
def staff(db):
    return User.objects.create_superuser("moderator", "mod@example.com", STRONG_PASSWORD)


def admin_ban(client, user, reason="Hile", until=""):
    return client.post(
        reverse(CHANGELIST),
        {"action": "ban_users", "_selected_action": [user.pk], "apply": "1", "reason": reason,
         "until": until},
    )  # fmt: skip


@pytest.mark.django_db
def test_staff_ban_with_reason_and_end_through_the_admin(client, staff, player):
    client.force_login(staff)
    page = client.post(
        reverse(CHANGELIST), {"action": "ban_users", "_selected_action": [player.pk]}
    )
    assert page.status_code == 200 and "ayse" in page.content.decode()  # the reason form
    assert not User.objects.get(pk=player.pk).is_banned
    until = (timezone.localtime() + timedelta(days=2)).strftime("%Y-%m-%d %H:%M")
    response = admin_ban(client, player, "Küfürlü sohbet", until)
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.ban_active() and player.ban_reason == "Küfürlü sohbet" and player.banned_until
    entry = ModerationLog.objects.get()
    assert (entry.action, entry.actor, entry.target_user, entry.reason) == (
        "ban", staff, player, "Küfürlü sohbet"
    )  # fmt: skip
    assert entry.created_at and entry.details["until"]

    response = admin_ban(client, player, "", "")  # no reason: the form again, nothing done
    assert response.status_code == 200 and ModerationLog.objects.count() == 1
    response = admin_ban(client, player, "x", "2000-01-01 10:00")  # an end in the past
    assert response.status_code == 200 and ModerationLog.objects.count() == 1

    client.post(
        reverse(CHANGELIST),
        {"action": "unban_users", "_selected_action": [player.pk], "apply": "1", "reason": "ok"},
    )
    player.refresh_from_db()
    assert not player.ban_active() and not player.is_banned
    assert list(ModerationLog.objects.values_list("action", flat=True)) == ["unban", "ban"]


@pytest.mark.django_db
def test_ban_fields_are_read_only_and_the_log_cannot_be_edited(client, staff, player):
    client.force_login(staff)
    page = client.get(reverse("admin:accounts_user_change", args=[player.pk])).content.decode()
    assert 'name="is_banned"' not in page and 'name="ban_reason"' not in page
    user_ban(player, actor=staff, reason="test")
    entry = ModerationLog.objects.get()
    assert client.get(reverse("admin:accounts_moderationlog_changelist")).status_code == 200
    assert client.get(reverse("admin:accounts_moderationlog_add")).status_code == 403
    url = reverse("admin:accounts_moderationlog_delete", args=[entry.pk])
    assert client.post(url, {"post": "yes"}).status_code == 403
    assert ModerationLog.objects.count() == 1


@pytest.mark.django_db
def test_a_banned_player_cannot_log_in_and_is_told_why(client, staff, player):
    user_ban(player, actor=staff, reason="Hile", until=timezone.now() + timedelta(hours=3))
    response = client.post(
        reverse("accounts:login"), {"username": "ayse", "password": STRONG_PASSWORD}
    )
    body = response.content.decode()
    assert response.status_code == 200 and "_auth_user_id" not in client.session
    assert "tarihine kadar askıya alındı" in body and "Gerekçe: Hile" in body
    user_ban(player, actor=staff, reason="Hile")  # permanent
    body = client.post(
        reverse("accounts:login"), {"username": "ayse", "password": STRONG_PASSWORD}
    ).content.decode()
    assert "Hesabın askıya alındı." in body
    # a wrong password says nothing about the ban
    body = client.post(
        reverse("accounts:login"), {"username": "ayse", "password": "yanlis"}
    ).content.decode()
    assert "askıya" not in body


@pytest.mark.django_db
def test_an_expired_ban_is_over(client, staff, player):
    user_ban(player, actor=staff, reason="kısa", until=timezone.now() + timedelta(hours=1))
    User.objects.filter(pk=player.pk).update(banned_until=timezone.now() - timedelta(seconds=1))
    response = client.post(
        reverse("accounts:login"), {"username": "ayse", "password": STRONG_PASSWORD}
    )
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(player.pk)


@pytest.mark.django_db
def test_a_logged_in_player_is_logged_out_on_the_next_request(client, staff, player):
    client.force_login(player)
    user_ban(player, actor=staff, reason="Hile")
    response = client.get(reverse("lobby:index"))
    assert response.status_code == 302 and response.url == reverse("accounts:login")
    assert "_auth_user_id" not in client.session
    page = client.get(response.url).content.decode()
    assert "Hesabın askıya alındı." in page
    client.force_login(player)
    response = client.post(reverse("lobby:play_now"), HTTP_HX_REQUEST="true")
    assert response["HX-Redirect"] == reverse("accounts:login")
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_a_banned_player_cannot_join_and_loses_their_open_seat(
    staff, player, django_user_model, django_capture_on_commit_callbacks
):
    host = django_user_model.objects.create_user("host", password=STRONG_PASSWORD)
    other = lobby_services.table_create(game="kut", host=host)
    own = lobby_services.table_create(game="kut", host=player)
    stale = User.objects.get(pk=player.pk)  # loaded before the ban (e.g. a socket's user)
    with django_capture_on_commit_callbacks(execute=True):
        user_ban(player, actor=staff, reason="Hile")
    own.refresh_from_db()
    assert own.status == Table.Status.CLOSED  # the banned host's table closed
    with pytest.raises(LobbyError) as info:
        lobby_services.table_join(other.pk, stale)
    assert info.value.code == "banned"
    with pytest.raises(LobbyError):
        lobby_services.play_now(player, game="kut")
    user_unban(player, actor=staff)
    player.refresh_from_db()
    lobby_services.table_join(other.pk, player)


# --- sockets -----------------------------------------------------------------------------


async def _closed(comm) -> list:
    """Everything the socket receives until it is closed (fails if it stays open)."""
    frames = []
    while True:
        out = await comm.receive_output(timeout=10)
        if out["type"] == "websocket.close":
            return frames
        frames.append(json.loads(out["text"]))


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_ban_closes_live_sockets_and_blocks_new_ones(settings, staff, player):
    from tests.game.conftest import connect, session_cookie
    from tests.lobby.conftest import ws_connect

    settings.ALLOWED_HOSTS = ["localhost", "testserver"]
    settings.KUT_BOTS_INLINE = True
    others = [
        await sync_to_async(User.objects.create_user)(f"oyuncu{i}", password=STRONG_PASSWORD)
        for i in range(3)
    ]
    match = await sync_to_async(game_services.match_create)(
        game="kut", options={"tasks": 5}, users=[player, *others], rated=False, seed="ban"
    )
    cookie = await sync_to_async(session_cookie)(player)
    match_socket, ok, _ = await connect(match.pk, cookie)
    assert ok
    lobby_socket, ok, _ = await ws_connect("/ws/lobby/", cookie)
    assert ok
    other_socket, ok, _ = await connect(match.pk, await sync_to_async(session_cookie)(others[0]))

    @sync_to_async
    def ban_in_admin():
        from django.test import Client

        client = Client()
        client.force_login(staff)
        return admin_ban(client, player, "Hile")

    assert (await ban_in_admin()).status_code == 302
    frames = await _closed(match_socket)
    errors = [f for f in frames if f["type"] == "error"]
    assert errors[-1]["code"] == "banned" and "askıya" in errors[-1]["message"]
    frames = await _closed(lobby_socket)
    assert frames[-1] == {"type": "kicked", "reason": "banned"}
    for comm in (match_socket, lobby_socket):
        await comm.disconnect()  # let the consumers finish (presence is written)
    # the other player's socket stays open
    await other_socket.send_to(text_data=json.dumps({"type": "ping"}))
    while (json.loads(await other_socket.receive_from(timeout=10)))["type"] != "pong":
        pass
    await other_socket.disconnect()

    comm, ok, code = await connect(match.pk, cookie)  # the session is still valid here
    assert not ok and code == 4003
    comm, ok, code = await ws_connect("/ws/lobby/", cookie)
    assert not ok and code == 4003
    await sync_to_async(connections.close_all)()  # the executor thread's own connection
