"""One gate for every way onto a seat of a match (issue 27): the lobby's sit-down and
play-now, an invite link, the table's start, the host's *Devam* (P-12: the request and
the answer), a rematch (the offer, an acceptance and the start), a recorded Kelimeki
game against the AI (a lobby table) and the practice form.  Each of them calls
:func:`check` before it changes anything; ``game.services.match_create`` and
``match_seat_answer`` call it again for every player they seat, so no way round it
can seat anyone the gate refuses.

* A ban in force (``accounts.bans``): nobody banned sits anywhere.  Read afresh from the
  database (the caller's user object may predate the ban).
* P-11 (rated seats, at a game with P-5's leaving rules): the habitual-leaver bar.
  The leaves are the ranking's (``lobby.ranking.leaver_barred_until``); the platform
  does not import the lobby, so the function is named by ``KUT_LEAVER_BAR`` (as the
  finish hooks are), and unset means no bar.
* P-5, one running rated match per game: P-5 says that *starting a new match of the
  same game counts as leaving* the running one.  That is not a refusal: whoever is
  seated at a new match — a lobby table's start, a rematch, the practice form, or a
  taken seat (*Devam*) — leaves every rated match of that game they still play
  (``game.services.leave_rated_matches``; not at a game without leaving rules, where
  several games at once are the rule, Kelimeki's W-X4).  :func:`running_rated`
  names those matches, so that a page can say so before the player asks.

A refusal is :class:`SeatRefused` (a ``ServiceError``) with a clear message for the
player, and nothing has changed.  No game package is imported here.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.utils import formats, timezone
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _

from accounts.bans import user_is_banned
from accounts.models import User
from game.engine import registry
from game.errors import ServiceError
from game.models import Match

# The same texts as the lobby's (lobby.messages): one translation each.
MESSAGES = {
    "banned": _("Your account is suspended; you cannot sit at a table."),
    "leaver_barred": _(
        "You left too many rated matches recently. You can join rated tables again after "
        "%(until)s; test tables are open to you."
    ),
}


class SeatRefused(ServiceError):
    """The gate said no: ``code`` is ``banned`` or ``leaver_barred`` (with ``until``)."""

    def __init__(self, code: str, until: datetime | None = None):
        self.until = until
        super().__init__(code)

    @property
    def params(self) -> dict:
        if self.until is None:
            return {}
        when = formats.date_format(timezone.localtime(self.until), "DATETIME_FORMAT")
        return {"until": when}

    @property
    def message(self) -> str:
        text = str(MESSAGES[self.code])
        return text % self.params if self.params else text


def leaving_rules(game: str) -> bool:
    """Whether P-5, P-11, P-12 and P-13 apply at ``game`` (not at Kelimeki, W-X5)."""
    try:
        return registry.get(game).leaving_rules
    except (KeyError, ImportError):
        return True


def _banned(user, now: datetime) -> bool:
    fresh = User.objects.filter(pk=user.pk).first() if getattr(user, "pk", None) else None
    return user_is_banned(fresh or user, now)


def barred_until(user, game: str, now: datetime | None = None) -> datetime | None:
    """P-11: until when ``user`` may not take a rated seat of ``game`` (None: free)."""
    path = getattr(settings, "KUT_LEAVER_BAR", "")
    if not path or not leaving_rules(game):
        return None
    return import_string(path)(user, game, now or timezone.now())


def check(user, game: str, *, rated: bool, now: datetime | None = None) -> None:
    """The gate: raises :class:`SeatRefused` when ``user`` may not sit at a match (or
    table) of ``game``; ``rated``: a rated one.  Changes nothing."""
    now = now or timezone.now()
    if user is None or not getattr(user, "pk", None):
        return  # a bot seat
    if _banned(user, now):
        raise SeatRefused("banned")
    if rated:
        until = barred_until(user, game, now)
        if until is not None:
            raise SeatRefused("leaver_barred", until)


def allowed(user, game: str, *, rated: bool, now: datetime | None = None) -> bool:
    """:func:`check` as a yes or no (a rematch gives a refused player's seat to a bot)."""
    try:
        check(user, game, rated=rated, now=now)
    except SeatRefused:
        return False
    return True


def running_rated(user, game: str, exclude: int | None = None) -> list[int]:
    """P-5: the running rated matches of ``game`` that ``user`` still plays — those a new
    seat at ``game`` makes them leave (none at a game without leaving rules)."""
    if user is None or not getattr(user, "pk", None) or not leaving_rules(game):
        return []
    ids = (
        Match.objects.filter(
            game=game,
            status__in=[Match.Status.PLAYING, Match.Status.BETWEEN],
            kind=Match.Kind.NORMAL,
            rated=True,
            seats__user=user,
            seats__left=False,
        )
        .exclude(pk=exclude)
        .values_list("pk", flat=True)
    )
    return sorted(set(ids))
