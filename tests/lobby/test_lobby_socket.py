"""The lobby sockets: changes pushed to every connected client; redirects on start."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async as sync_to_async

from lobby import services
from tests.lobby.conftest import session_cookie, ws_connect, ws_receive

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def next_html(comm, target: str = "lobby-tables") -> str:
    while True:
        msg = await ws_receive(comm)
        if msg["type"] == "html" and msg["target"] == target:
            return msg["html"]


async def test_lobby_updates_reach_a_second_connected_client(players):
    ali, ayse, can = players[:3]
    cookies = [await sync_to_async(session_cookie)(u) for u in (ali, ayse)]
    first, ok1, _ = await ws_connect("/ws/lobby/kut/", cookies[0])
    second, ok2, _ = await ws_connect("/ws/lobby/kut/", cookies[1])
    assert ok1 and ok2
    assert "Şu anda açık masa yok" in await next_html(first)  # the snapshot on connect
    await next_html(second)

    table = await sync_to_async(services.table_create)(game="kut", host=ali, options={"tasks": 12})
    html = await next_html(second)  # created
    assert f'id="table-{table.pk}"' in html and "12 görev" in html and "ali" in html
    await next_html(first)

    await sync_to_async(services.table_join)(table.pk, can)
    html = await next_html(second)  # filled
    assert "can" in html and html.count("Buraya otur") == 2

    private = await sync_to_async(services.table_create)(game="kut", host=ayse, private=True)
    assert await second.receive_nothing(timeout=0.3)  # a private table is never pushed
    await sync_to_async(services.table_add_bot)(private.pk, ayse)
    assert await second.receive_nothing(timeout=0.3)

    await sync_to_async(services.table_start)(table.pk, ali, fill_with_bots=True)
    html = await next_html(second)  # started: gone from the list
    assert f'id="table-{table.pk}"' not in html
    await first.disconnect()
    await second.disconnect()


async def test_the_english_client_gets_english_html(players):
    cookie = await sync_to_async(session_cookie)(players[0])
    comm, ok, _ = await ws_connect("/ws/lobby/kut/", cookie + "; django_language=en")
    assert ok
    assert "No open tables right now" in await next_html(comm)
    await comm.disconnect()


async def test_visitors_are_refused(players):
    comm, ok, code = await ws_connect("/ws/lobby/", None)
    assert not ok and code == 4001
    comm, ok, _ = await ws_connect("/ws/lobby/", await sync_to_async(session_cookie)(players[0]),
                                   origin="http://evil.example")  # fmt: skip
    assert not ok


async def test_table_socket_follows_the_table_and_sends_players_to_the_match(players):
    ali, ayse, can = players[:3]
    table = await sync_to_async(services.table_create)(game="kut", host=ali, private=True)
    await sync_to_async(services.table_join)(table.pk, ayse, via_invite=True)
    path = f"/ws/lobby/table/{table.pk}/"
    host, ok, _ = await ws_connect(path, await sync_to_async(session_cookie)(ali))
    assert ok
    html = await next_html(host, "table-live")
    assert "Oyunu başlat" in html and "ayse" in html  # the host's controls
    guest, ok, _ = await ws_connect(path, await sync_to_async(session_cookie)(ayse))
    html = await next_html(guest, "table-live")
    assert "Oyunu başlat" not in html and "Masadan kalk" in html
    outsider, ok, code = await ws_connect(path, await sync_to_async(session_cookie)(can))
    assert not ok and code == 4003  # a private table: seated players only

    await sync_to_async(services.table_add_bot)(table.pk, ali)
    assert "Bot (Normal)" in await next_html(guest, "table-live")
    await next_html(host, "table-live")

    match = await sync_to_async(services.table_start)(table.pk, ali, fill_with_bots=True)
    for comm in (host, guest):
        msg = await ws_receive(comm)
        while msg["type"] != "redirect":
            msg = await ws_receive(comm)
        assert msg["url"] == f"/match/{match.pk}/"
    await host.disconnect()
    await guest.disconnect()


async def test_a_seated_player_in_the_lobby_is_sent_to_the_match(players):
    ali, ayse = players[:2]
    table = await sync_to_async(services.table_create)(game="kut", host=ali)
    await sync_to_async(services.table_join)(table.pk, ayse)
    comm, ok, _ = await ws_connect("/ws/lobby/", await sync_to_async(session_cookie)(ayse))
    await next_html(comm, "lobby-games")  # the portal's game cards
    match = await sync_to_async(services.table_start)(table.pk, ali, fill_with_bots=True)
    msg = await ws_receive(comm)
    while msg["type"] != "redirect":
        msg = await ws_receive(comm)
    assert msg["url"] == f"/match/{match.pk}/"
    await comm.disconnect()
