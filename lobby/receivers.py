"""Reactions to other apps' signals (connected in ``LobbyConfig.ready``)."""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def on_user_banned(sender, user, **kwargs) -> None:
    """A banned player stands up from their open table (a host's table closes)."""
    from lobby.services import table_leave_all

    try:
        table_leave_all(user)
    except Exception:  # the ban itself is committed; never undo it from here
        log.exception("freeing the seats of banned user %s failed", user.pk)
