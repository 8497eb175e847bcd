"""Games against the bots without a record: a guest's (no account needed, W-X1) and a
logged-in player's practice game (issue 27).

Such a game is an ordinary platform match of kind ``Match.Kind.GUEST`` on the one locked
service path (``game.services``): unrated (no move clock), its bots played in the
background at the site's bot pace (``game.runner``: Celery in production, a timer of
the web process in the embedded set-up), its frames sent over the match socket.  It is
recorded nowhere: never in history, rankings, a rating, the lobby or a player's record
(those list ``Match.Kind.NORMAL`` only).  Which games offer it is the game's own choice
(``GAME.guest_play``); this module names no game.

A guest's human seat has no user: it is bound to the visitor's session by
``MatchSeat.guest_key``, the SHA-256 of a random token the session keeps
(``SESSION_TOKEN``; never the session key itself).  The match socket seats a visitor
whose session holds the token of a seat's key (``seat_for``); a guest can never watch
or reach another match.  A logged-in player's practice game has their user on the seat.

Bounded (issue 27): one such game per visitor and game (starting another deletes the
previous one), new games limited per session and per client address
(``game.limits``), and a beat task (``game.tasks.guest_cleanup``) deletes those without
a move for ``KEEP`` (W-X3: "a guest's game against the AI that is not resumed within 7
days is deleted") and clears expired sessions.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta
from importlib import import_module

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q

from game import services
from game.engine import registry
from game.models import Match, MatchAction, MatchSeat

SESSION_TOKEN = "kut_guest"  # the session's random guest token (its hash is the seat's key)
KEEP = timedelta(days=7)  # W-X3
BATCH = 200  # games deleted per statement of the clean-up
HUMAN = 0  # the visitor's seat (W-M1: the human is seat 0)


def key_of(token: str) -> str:
    return hashlib.sha256(f"kut-guest|{token}".encode()).hexdigest()


def session_key(session, create: bool = False) -> str | None:
    """The guest key of this session (the hash of its token), or None when it has none
    (with ``create``, a token is made and kept in the session first)."""
    if session is None:
        return None
    token = session.get(SESSION_TOKEN)
    if not isinstance(token, str) or len(token) < 32:
        if not create:
            return None
        token = secrets.token_urlsafe(32)
        session[SESSION_TOKEN] = token
    return key_of(token)


def identity(user, session) -> str | None:
    """Who a visitor is for the limits (``game.limits``) and the socket counts: their
    account, else their guest key; None for a visitor with neither."""
    if user is not None and getattr(user, "is_authenticated", False):
        return f"u{user.pk}"
    key = session_key(session)
    return f"g{key[:32]}" if key else None


def _mine(user, session) -> Q | None:
    """The seats of this visitor: their user's, and their session's guest seats."""
    cond = Q()
    if user is not None and getattr(user, "is_authenticated", False):
        cond |= Q(user=user)
    key = session_key(session)
    if key:
        cond |= Q(guest_key=key)
    return cond or None


def current(game: str, user, session) -> Match | None:
    """The visitor's latest unrecorded game of ``game`` (running or over), or None."""
    cond = _mine(user, session)
    if cond is None:
        return None
    seat = (MatchSeat.objects.filter(cond, match__kind=Match.Kind.GUEST, match__game=game)
            .select_related("match").order_by("-match_id").first())  # fmt: skip
    return seat.match if seat else None


def seat_for(match: Match, user, session) -> int | None:
    """The visitor's seat in ``match``: their user's seat (any match), else the seat
    their session's guest token opens (a guest's match only).  None: no seat of theirs
    (a guest may then neither play nor watch)."""
    seat = services.seat_of(match, user)
    if seat is not None or match.kind != Match.Kind.GUEST:
        return seat
    key = session_key(session)
    if not key:
        return None
    for s in match.seats.all():
        if s.guest_key and secrets.compare_digest(s.guest_key, key) and not s.left:
            return s.seat
    return None


def start(*, game: str, players: int, level: str, user=None, session=None,
          seed: str | None = None, test_options: dict | None = None) -> Match:  # fmt: skip
    """A new unrecorded game of ``game`` against ``players - 1`` bots of ``level`` for
    the visitor (``user``, or the guest of ``session``), seat 0.  Their previous
    unrecorded game of ``game`` is deleted first: one per visitor and game (W-X1 keeps a
    guest one game; the rows stay bounded).  Raises ``services.ServiceError``."""
    try:
        spec = registry.get(game)
    except KeyError:
        raise services.ServiceError("bad_game") from None
    if not spec.guest_play:
        raise services.ServiceError("bad_game")
    if level not in services.BOT_LEVELS:
        raise services.ServiceError("bad_bot_level")
    logged_in = user is not None and getattr(user, "is_authenticated", False)
    key = None if logged_in else session_key(session, create=True)
    humans = [True] + [False] * (players - 1)
    options = spec.options_for_seats({}, humans)  # e.g. Kelimeki's clock against the AI
    with transaction.atomic():
        drop(game, user if logged_in else None, session)
        return services.match_create(
            game=game, users=[user if logged_in else None] + [None] * (players - 1),
            guests={} if logged_in else {HUMAN: key}, options=options,
            bot_levels=[""] + [level] * (players - 1), rated=False, kind=Match.Kind.GUEST,
            host=user if logged_in else None, seed=seed, test_options=test_options,
        )  # fmt: skip


def drop(game: str, user, session) -> int:
    """Delete the visitor's unrecorded games of ``game``; how many."""
    cond = _mine(user, session)
    if cond is None:
        return 0
    ids = set(MatchSeat.objects.filter(cond, match__kind=Match.Kind.GUEST, match__game=game)
              .values_list("match_id", flat=True))  # fmt: skip
    if ids:
        Match.objects.filter(pk__in=ids, kind=Match.Kind.GUEST).delete()
    return len(ids)


def stale(now: datetime):
    """Unrecorded games with no move (nor start) for ``KEEP``: W-X3's "not resumed
    within 7 days" (opening the page is no move)."""
    cutoff = now - KEEP
    recent = MatchAction.objects.filter(match=OuterRef("pk"), created_at__gt=cutoff)
    return Match.objects.filter(kind=Match.Kind.GUEST, created_at__lte=cutoff).exclude(
        Exists(recent)
    )


def cleanup(now: datetime, batches: int = 50) -> tuple[int, bool]:
    """The beat's clean-up (``game.tasks.guest_cleanup``): delete the stale unrecorded
    games (at most ``batches`` × ``BATCH`` a run; the next run goes on) and the expired
    sessions (what ``manage.py clearsessions`` does).  Returns the games deleted and
    whether the sessions were cleared."""
    deleted = 0
    for _ in range(batches):
        ids = list(stale(now).order_by("pk").values_list("pk", flat=True)[:BATCH])
        if not ids:
            break
        Match.objects.filter(pk__in=ids, kind=Match.Kind.GUEST).delete()
        deleted += len(ids)
    engine = import_module(settings.SESSION_ENGINE)
    try:
        engine.SessionStore.clear_expired()
    except NotImplementedError:  # a backend that expires its sessions itself
        return deleted, False
    return deleted, True
