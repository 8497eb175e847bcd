"""How much work one visitor may cause (issue 27: guests flooded the CPU, created games
and sessions without bound, previewed 1,000 plays in 5.5 s; a player opened 100
recorded games against the AI in 2.9 s).

Each limit counts in the shared counters (``kut_site.counters``, via
``accounts.services.request_allowed``: Redis with ``REDIS_URL``, shared by every
process), per visitor — an account, or a guest's key (``game.guests.identity``) — and
per client address (``accounts.services.client_ip``, ``KUT_TRUSTED_PROXIES``), in fixed
windows.  A counter that cannot be reached lets the request through.  Over a limit the
caller refuses with HTTP 429 (or an error frame) and a clear message, and nothing
changes.  The match socket's own limits (per connection, per visitor) are in
``game.consumers``; its per-address limit for guests is ``guest_socket_allowed``.
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext_lazy as _

from accounts.services import request_allowed
from game.models import Match, MatchSeat

MESSAGES = {
    "guest_games_limited": _(
        "You have started many games in a short time. Wait a while before starting another."
    ),
    "previews_limited": _("Too many previews in a short time; wait a moment."),
    "ai_games_running": _(
        "You already have %(n)s games against the AI running. Finish one before you start another."
    ),
    "ai_games_limited": _(
        "You have started many games against the AI in a short time. Wait a while before "
        "starting another."
    ),
}


def message(code: str) -> str:
    """The player's message for a refusal ``code``, in the request's language."""
    text = str(MESSAGES[code])
    return text % {"n": settings.KUT_AI_GAMES_RUNNING_PER_USER} if "%(n)s" in text else text


def new_guest_game_allowed(who: str | None, ip: str | None) -> bool:
    """A new unrecorded game (``game.guests.start``): per visitor (None: a guest without
    a token yet, who has started none in this session) and per address (None: not
    counted)."""
    limits = [] if ip is None else [(f"ip:{ip}", settings.KUT_GUEST_GAMES_PER_IP)]
    if who is not None:
        limits.append((who, settings.KUT_GUEST_GAMES_PER_SESSION))
    return request_allowed("guest-games", limits=limits,
                           window=settings.KUT_GUEST_GAME_WINDOW_SECONDS)  # fmt: skip


def preview_allowed(who: str, ip: str) -> bool:
    """One preview of a play (W-M7): per visitor and per address."""
    return request_allowed(
        "previews",
        limits=[
            (who, settings.KUT_PREVIEWS_PER_SESSION),
            (f"ip:{ip}", settings.KUT_PREVIEWS_PER_IP),
        ],
        window=settings.KUT_PREVIEW_WINDOW_SECONDS,
    )


def guest_socket_allowed(ip: str) -> bool:
    """One request (a move or a snapshot) of a guest's socket, counted per address: the
    guests of one address together (each guest also has the socket's per-visitor limit,
    ``game.consumers.user_request_allowed``)."""
    return request_allowed(
        "guest-socket",
        limits=[(ip, settings.KUT_GUEST_SOCKET_REQUESTS_PER_IP)],
        window=settings.KUT_GUEST_SOCKET_WINDOW_SECONDS,
    )


def bot_games_running(user, game: str) -> int:
    """The recorded matches of ``game`` running with ``user`` seated and only bots for
    opponents (a game against the AI)."""
    others = MatchSeat.objects.filter(match=OuterRef("pk"), user__isnull=False).exclude(user=user)
    return (
        Match.objects.filter(
            game=game,
            kind=Match.Kind.NORMAL,
            status__in=(Match.Status.PLAYING, Match.Status.BETWEEN),
            seats__user=user,
            seats__left=False,
        )  # fmt: skip
        .exclude(Exists(others))
        .distinct()
        .count()
    )


def bot_game_refusal(user, game: str) -> str | None:
    """Item 9: may ``user`` open another recorded game of ``game`` against the bots?  The
    code of the refusal (``message``), or None: at most ``KUT_AI_GAMES_RUNNING_PER_USER``
    at once (W-X4 allows several), and ``KUT_AI_GAMES_PER_USER`` started per window
    (a refused one counts too)."""
    running = bot_games_running(user, game)
    if running >= settings.KUT_AI_GAMES_RUNNING_PER_USER:
        return "ai_games_running"
    if not request_allowed("bot-games", limits=[(f"u{user.pk}", settings.KUT_AI_GAMES_PER_USER)],
                           window=settings.KUT_AI_GAME_WINDOW_SECONDS):  # fmt: skip
        return "ai_games_limited"
    return None
