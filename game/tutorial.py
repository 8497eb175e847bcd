"""A game's guided first hand (KÜT's *Deneme Eli*, K-X1), for any game whose engine has a
``tutorial`` (``protocol.Tutorial``): a match of kind ``trial`` — unrated, never listed in
a history or ranked — with the player in the tutorial's seat and bots in the others,
played through the one service path (``game.services`` asks the game's tutorial for the
deal, the script's bot moves and which of the player's moves keep to the script).

Completing it, or skipping it, marks it done for that game (``User.tutorials_done``), and
it is no longer offered; it can be played again at any time.
"""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from game import services
from game.engine import registry
from game.models import Match, MatchSeat


def tutorial_games() -> list[str]:
    """The registered games that have a guided first hand, in registry order."""
    out = []
    for key in registry.GAMES:
        try:
            if registry.get(key).tutorial is not None:
                out.append(key)
        except ImportError:
            continue
    return out


def mark_done(user_id: int, game: str) -> None:
    """The guided hand of ``game`` is done for this player: it is no longer offered."""
    with transaction.atomic():
        row = User.objects.select_for_update().filter(pk=user_id).first()
        if row is not None and game not in (row.tutorials_done or []):
            row.tutorials_done = [*(row.tutorials_done or []), game]
            row.save(update_fields=["tutorials_done"])


def tutorial_running(user, game: str):
    """The user's tutorial match of ``game`` still being played, if any."""
    return (
        Match.objects.filter(
            game=game,
            kind=Match.Kind.TRIAL,
            seats__user=user,
            seats__left=False,
            status__in=(Match.Status.PLAYING, Match.Status.BETWEEN),
        )
        .order_by("-pk")
        .first()
    )


def tutorial_create(user, game: str):
    """Start ``game``'s guided first hand for ``user`` (or return the one running).
    Raises KeyError for a game without one."""
    tutorial = registry.get(game).tutorial
    if tutorial is None:
        raise KeyError(game)
    with transaction.atomic():
        running = tutorial_running(user, game)
        if running is not None:
            return running
        users = [None] * tutorial.seats
        users[tutorial.human_seat] = user
        levels = [tutorial.bot_level] * tutorial.seats
        levels[tutorial.human_seat] = ""
        return services.match_create(
            game=game,
            options=dict(tutorial.options),
            users=users,
            bot_levels=levels,
            rated=False,
            host=user,
            kind=Match.Kind.TRIAL,
        )


def tutorial_skip(user, game: str) -> None:
    """The player skips (or ends) the guided hand: it is not offered again; a running
    tutorial match is left (it closes: no human is left at it)."""
    mark_done(user.pk, game)
    user.tutorials_done = [*(getattr(user, "tutorials_done", None) or []), game]
    running = tutorial_running(user, game)
    if running is not None:
        try:
            services.match_leave(running.pk, user)
        except services.ServiceError:
            pass  # it ended meanwhile


def tutorial_offer_due(user, game: str) -> bool:
    """Offer ``game``'s guided hand before the player's first match of it — to a
    signed-in player who has neither done nor skipped it and has never sat in a
    (non-tutorial) match of that game."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if game in (getattr(user, "tutorials_done", None) or []):
        return False
    played = MatchSeat.objects.filter(user=user, match__game=game, match__kind=Match.Kind.NORMAL)
    return not played.exists()


def tutorials_due(user) -> list[str]:
    """The games whose guided hand is offered to ``user`` now."""
    return [game for game in tutorial_games() if tutorial_offer_due(user, game)]
