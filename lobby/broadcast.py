"""The lobby's only contact with the channel layer (called after commit).

* group ``lobby``: the portal's game cards (players online, open tables), and group
  ``lobby.game.<key>``: one game's public table list — each rendered once per language
  and pushed whole (a snapshot, never a delta: a client that missed one loses nothing);
* group ``lobby.table.<id>``: "this table changed" — each socket renders the table for
  its own player (host controls differ) — and "started" with the match URL;
* group ``lobby.user.<id>``: a redirect to the match for a seated player on any lobby
  page.  (``user.<id>`` is the kick group shared with the match socket; only
  ``user.kick`` is ever sent there.)
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    return f"lobby.table.{table_id}"


def user_group(user_id: int) -> str:
    return f"lobby.user.{user_id}"


def game_group(game: str) -> str:
    return f"lobby.game.{game}"


def render_tables(tables, language: str, card=None) -> str:
    with translation.override(language):
        return render_to_string(
            "lobby/_tables.html", {"tables": tables, "live": True, "card": card}
        )


def render_cards(cards, language: str) -> str:
    with translation.override(language):
        return render_to_string("lobby/_games.html", {"cards": cards, "live": True})


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # a full channel must not undo a committed change
        log.warning("lobby message to %s failed", group)


def lobby_changed(game: str) -> None:
    """A public table of ``game`` changed: its list to the game's lobby, the counts to
    the portal."""
    from lobby.games import game_card, game_cards
    from lobby.selectors import tables_open_public

    card = game_card(game)
    tables = tables_open_public(game)
    html = {code: render_tables(tables, code, card) for code, _name in settings.LANGUAGES}
    _send(game_group(game), {"type": "lobby.tables", "html": html})
    cards = game_cards()
    html = {code: render_cards(cards, code) for code, _name in settings.LANGUAGES}
    _send(LOBBY_GROUP, {"type": "lobby.games", "html": html})


def table_changed(table_id: int) -> None:
    _send(table_group(table_id), {"type": "table.changed"})


def table_started(table_id: int, url: str, user_ids: list[int]) -> None:
    _send(table_group(table_id), {"type": "table.started", "url": url, "user_ids": user_ids})
    for uid in user_ids:
        _send(user_group(uid), {"type": "lobby.redirect", "url": url})
