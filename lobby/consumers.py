"""Lobby sockets — push only; every change goes through the HTTP views and services.

``/ws/lobby/``: the portal's game cards (group ``lobby``: players online, open tables)
and ``/ws/lobby/<game>/``: one game's public table list (group ``lobby.game.<game>``),
each replaced whole on every change, plus a redirect when a table this player sits at
starts.
``/ws/lobby/table/<id>/``: one table's page, re-rendered for this player on every change
and a redirect to the match when it starts.

Server → client: ``{"type": "html", "target": <element id>, "html": …}``,
``{"type": "redirect", "url": "/match/<id>/"}``, ``{"type": "kicked", "reason": …}``,
``{"type": "pong"}``.  Client → server: ``{"type": "ping"}`` (anything else is ignored).
Anonymous or banned users are refused at connect; a ban closes the socket
(``user.kick`` on group ``user.<id>``).
"""

from __future__ import annotations

import json
import time

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from accounts.bans import user_is_banned
from kut_site import sockets
from lobby import broadcast, selectors

MAX_FRAME_BYTES = 1024
PING_RATE = 2.0  # pings answered per second (bursts of PING_BURST); more are ignored
PING_BURST = 5.0


def scope_language(scope) -> str:
    """The language the player reads the site in: the language cookie, else the browser's
    Accept-Language, else the default (Turkish)."""
    supported = {code for code, _name in settings.LANGUAGES}
    cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME, "")
    if cookie in supported:
        return cookie
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _q in parse_accept_lang_header(accept):
        code = code.split("-")[0].lower()
        if code in supported:
            return code
    return settings.LANGUAGE_CODE


class _LobbySocket(AsyncWebsocketConsumer):
    groups_joined: list[str]
    counted = False  # counts against the user's sockets (kut_site.sockets, issue 16)

    async def _open(self, groups: list[str]) -> bool:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4001)
            return False
        if user_is_banned(user):
            await self.close(code=4003)
            return False
        self.counted = await sync_to_async(sockets.enter, thread_sensitive=False)(
            user.pk, self.channel_name
        )
        if not self.counted:  # KUT_SOCKETS_PER_USER open already, match sockets included
            await self.close(code=4029)
            return False
        self.tokens, self.stamp = PING_BURST, time.monotonic()
        self.user = user
        self.language = scope_language(self.scope)
        self.groups_joined = [*groups, f"user.{user.pk}"]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        return True

    async def disconnect(self, code):
        if self.counted:
            self.counted = False
            await sync_to_async(sockets.leave, thread_sensitive=False)(
                self.scope["user"].pk, self.channel_name
            )
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        await sockets.trim_idle_connections(self.channel_layer)

    def _allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(PING_BURST, self.tokens + (now - self.stamp) * PING_RATE)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def receive(self, text_data=None, bytes_data=None):
        if not self._allow():
            return  # a flood: ignored, no parsing (issue 16)
        if text_data and len(text_data) <= MAX_FRAME_BYTES:
            try:
                msg = json.loads(text_data)
            except ValueError:
                return
            if isinstance(msg, dict) and msg.get("type") == "ping":
                await self.send_json({"type": "pong"})

    async def send_json(self, payload: dict) -> None:
        await self.send(text_data=json.dumps(payload, ensure_ascii=False))

    async def send_redirect(self, url: str) -> None:
        if isinstance(url, str) and url.startswith("/") and not url.startswith("//"):
            await self.send_json({"type": "redirect", "url": url})

    # -- group messages ------------------------------------------------------------------
    async def user_kick(self, event):
        await self.send_json({"type": "kicked", "reason": event.get("reason", "kicked")})
        await self.close(code=4008)

    async def lobby_redirect(self, event):
        await self.send_redirect(event.get("url", ""))


class LobbyConsumer(_LobbySocket):
    """``/ws/lobby/``: the portal's game cards, live."""

    async def connect(self):
        user = self.scope.get("user")
        uid = getattr(user, "pk", None)
        if await self._open([broadcast.LOBBY_GROUP, broadcast.user_group(uid)]):
            html = await database_sync_to_async(self._render)()
            await self.send_json({"type": "html", "target": "lobby-games", "html": html})

    def _render(self) -> str:
        from lobby.games import game_cards

        return broadcast.render_cards(game_cards(), self.language)

    async def lobby_games(self, event):
        html = event.get("html") or {}
        text = html.get(self.language) or html.get(settings.LANGUAGE_CODE) or ""
        await self.send_json({"type": "html", "target": "lobby-games", "html": text})


class GameLobbyConsumer(_LobbySocket):
    """``/ws/lobby/<game>/``: the live list of one game's open public tables."""

    async def connect(self):
        from lobby.games import game_card

        self.card = await database_sync_to_async(game_card)(
            str(self.scope["url_route"]["kwargs"].get("game", ""))
        )
        if self.card is None or not self.card.playable:
            await self.close(code=4004)
            return
        user = self.scope.get("user")
        uid = getattr(user, "pk", None)
        groups = [broadcast.game_group(self.card.key), broadcast.user_group(uid)]
        if await self._open(groups):
            html = await database_sync_to_async(self._render)()
            await self.send_json({"type": "html", "target": "lobby-tables", "html": html})

    def _render(self) -> str:
        tables = selectors.tables_open_public(self.card.key)
        return broadcast.render_tables(tables, self.language, self.card)

    async def lobby_tables(self, event):
        html = event.get("html") or {}
        text = html.get(self.language) or html.get(settings.LANGUAGE_CODE) or ""
        await self.send_json({"type": "html", "target": "lobby-tables", "html": text})


class TableConsumer(_LobbySocket):
    """``/ws/lobby/table/<id>/``: one table, rendered for this player."""

    async def connect(self):
        try:
            self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        except (KeyError, ValueError):
            await self.close(code=4004)
            return
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            allowed = await database_sync_to_async(self._may_view)(user)
            if allowed is None:
                await self.close(code=4004)
                return
            if not allowed:
                await self.close(code=4003)
                return
        if await self._open([broadcast.table_group(self.table_id)]):
            await self.send_table()

    def _may_view(self, user) -> bool | None:
        table = selectors.table_get(self.table_id)
        if table is None:
            return None
        return selectors.table_may_view(table, user)

    def _render(self) -> str:
        from lobby.views import table_live_context

        table = selectors.table_get(self.table_id)
        if table is None:
            return ""
        with translation.override(self.language):
            return render_to_string("lobby/_table_live.html", table_live_context(table, self.user))

    async def send_table(self):
        html = await database_sync_to_async(self._render)()
        await self.send_json({"type": "html", "target": "table-live", "html": html})

    async def table_changed(self, event):
        await self.send_table()

    async def table_started(self, event):
        if self.user.pk in (event.get("user_ids") or []):
            await self.send_redirect(event.get("url", ""))
        else:
            await self.send_table()
