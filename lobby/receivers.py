"""Reactions to other apps' signals (connected in ``LobbyConfig.ready``): a ban frees the
player's open seat; a match that ended is ranked, and a player who left a running match
pays their game's leaving cost at once (P-9) — ``game.events``."""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def on_match_finished(sender, match_id: int, **kwargs) -> None:
    from lobby import ranking

    ranking.match_finished(match_id)


def on_player_left(sender, match_id: int, user_id: int, **kwargs) -> None:
    from lobby import ranking

    ranking.match_left(match_id, user_id)


def on_user_banned(sender, user, **kwargs) -> None:
    """A banned player stands up from their open table (a host's table closes)."""
    from lobby.services import table_leave_all

    try:
        table_leave_all(user)
    except Exception:  # the ban itself is committed; never undo it from here
        log.exception("freeing the seats of banned user %s failed", user.pk)
