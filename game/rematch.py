"""Rematch (*Rövanş*, K-X2): the same players again, a new match with totals from zero.

The flow — an invitation, then the start:

1. **Offer.** When a match has finished, its host (who must still be seated) picks
   the game's rematch choice (``choices_for``: KÜT's 5, 8 or 12 tasks, King's length,
   KDVli's hands; a game without one has a plain rematch, ``choice`` None)
   (``rematch_offer``).  The invitation is stored on the finished match
   (``Match.rematch_offer``) and every seat sees it in its frame (``match.rematch``).
   Offering again before the start changes the choice and asks everyone again.
2. **Answers.** Each other human still seated accepts or declines
   (``rematch_answer``).  Players who left the match (K-X3) are not asked: bots take
   their seats.
3. **Start.** As soon as every asked player has answered — or when the host presses
   start without waiting (``rematch_start``) — the new match is created with
   ``rematch_of`` pointing at the old one, the same seats, the same rated/watchers
   settings and the same host.  Whoever accepted sits in their old seat; whoever
   declined or did not answer gets a bot (a normal bot; bot seats keep their level).
   The frame then carries the new match's id and each accepting player's table moves
   to it.

Nobody is ever seated in a rated match without having said yes (the host's offer is
their yes), so a decline costs nothing and P-5 never applies to it; once seated, a
rematch is an ordinary match (leaving it is K-X3/P-5 as always).  Who may play (bans,
habitual leavers on rated tables) is the seat gate's (``game.seat_gate``, issue 27):
the host's offer and a yes are refused with its message and change nothing; a player
banned or barred between their yes and the start gets a bot.

No timer is involved: an invitation nobody answers simply waits for the host.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from game import events, seat_gate, services
from game.engine import registry
from game.errors import ServiceError
from game.models import Match, MatchSeat


def choices_for(game: str) -> tuple[str | None, tuple[int, ...]]:
    """The game's own option a rematch chooses again, and its values (GAME.rematch_choice:
    KÜT's tasks, K-X2; King's length, G-X5; KDVli's hands).  The offer keeps the chosen
    value as its ``choice``.  A game without a ``rematch_choice`` (or one the registry
    does not know) has a plain rematch: ``(None, ())`` — nothing is chosen again and its
    options are kept as they were."""
    try:
        option, values = registry.get(game).rematch_choice or (None, ())
    except (KeyError, ImportError):
        return None, ()
    return option, tuple(values)


YES, NO = "yes", "no"


def _error(code: str) -> ServiceError:
    return ServiceError(code)


def _locked(match_id: int) -> Match:
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist:
        raise _error("no_such_match") from None


def _seats(match: Match) -> list[MatchSeat]:
    return list(match.seats.select_related("user").order_by("seat"))


def _human(seat: MatchSeat) -> bool:
    return seat.user_id is not None and not seat.bot_level and not seat.left


def asked_seats(match: Match, seats: list[MatchSeat]) -> list[int]:
    """The seats whose players are asked: humans still seated, the host excepted."""
    return sorted(s.seat for s in seats if _human(s) and s.user_id != match.host_id)


def _host_seat(match: Match, seats: list[MatchSeat]) -> MatchSeat:
    for s in seats:
        if s.user_id is not None and s.user_id == match.host_id and _human(s):
            return s
    raise _error("not_host")


def _check_open(match: Match) -> None:
    if match.kind != Match.Kind.NORMAL:
        raise _error("no_rematch")  # the trial hand has no rematch
    if match.status != Match.Status.FINISHED:
        raise _error("match_not_over")


def _open_offer(match: Match) -> dict:
    """The rematch offer of a finished match (refused when there is none)."""
    _check_open(match)
    offer = match.rematch_offer or {}
    if not offer:
        raise _error("no_offer")
    return offer


def _after_commit(match_id: int) -> None:
    """Every seat sees the invitation change (its frame's ``match.rematch``)."""
    events.after_commit(events.match_changed, match_id=match_id)


def rematch_offer(match_id: int, user, choice: int | None, *,
                  now: datetime | None = None) -> Match | None:  # fmt: skip
    """The host invites the players to a rematch, with ``choice`` the value of the
    game's rematch option (KÜT's 5, 8 or 12 tasks…).  Returns the new match when it could
    start at once (nobody to ask), else None."""
    now = now or timezone.now()
    if choice is not None and (isinstance(choice, bool) or not isinstance(choice, int)):
        raise _error("bad_choice")
    with transaction.atomic():
        match = _locked(match_id)
        values = choices_for(match.game)[1]
        if not values and choice in (None, 0):
            choice = None  # a plain rematch: nothing to choose (0 = the form sent none)
        elif choice not in values:
            raise _error("bad_choice")
        _check_open(match)
        seats = _seats(match)
        host = _host_seat(match, seats)
        if host.user_id != getattr(user, "pk", None):
            raise _error("not_host")
        if (match.rematch_offer or {}).get("match_id"):
            raise _error("rematch_started")
        seat_gate.check(host.user, match.game, rated=match.rated, now=now)
        match.rematch_offer = {
            "choice": choice,
            "by": host.user_id,
            "at": now.isoformat(),
            "answers": {},
            "match_id": None,
        }
        match.save(update_fields=["rematch_offer"])
        _after_commit(match.pk)
        if not asked_seats(match, seats):
            return _start(match, seats, now)  # nobody to ask: at once
    return None


def rematch_answer(match_id: int, user, accept: bool, *,
                   now: datetime | None = None) -> Match | None:  # fmt: skip
    """A player accepts or declines the invitation.  Returns the new match when this
    was the last answer (it starts at once), else None."""
    now = now or timezone.now()
    with transaction.atomic():
        match = _locked(match_id)
        offer = _open_offer(match)
        if offer.get("match_id"):
            raise _error("rematch_started")
        seats = _seats(match)
        asked = asked_seats(match, seats)
        mine = next((s for s in seats if s.user_id == getattr(user, "pk", None) and _human(s)),
                    None)  # fmt: skip
        if mine is None or mine.seat not in asked:
            raise _error("not_seated")
        if accept:  # the seat gate: refused with its message, the answer not taken
            seat_gate.check(mine.user, match.game, rated=match.rated, now=now)
        answers = dict(offer.get("answers") or {})
        answers[str(mine.seat)] = YES if accept else NO
        match.rematch_offer = {**offer, "answers": answers}
        match.save(update_fields=["rematch_offer"])
        _after_commit(match.pk)
        if all(str(s) in answers for s in asked):
            return _start(match, seats, now)
    return None


def rematch_start(match_id: int, user, *, now: datetime | None = None) -> Match:
    """The host starts the rematch without waiting for the remaining answers (those
    who have not answered get bots).  Idempotent: returns the rematch if it exists."""
    now = now or timezone.now()
    with transaction.atomic():
        match = _locked(match_id)
        offer = _open_offer(match)
        seats = _seats(match)
        host = _host_seat(match, seats)
        if host.user_id != getattr(user, "pk", None):
            raise _error("not_host")
        if offer.get("match_id"):
            return Match.objects.get(pk=offer["match_id"])
        _after_commit(match.pk)
        return _start(match, seats, now)


def _start(match: Match, seats: list[MatchSeat], now: datetime) -> Match:
    """Create the rematch (inside the caller's transaction, the old match locked)."""
    offer = match.rematch_offer
    answers = offer.get("answers") or {}
    users, levels = [], []
    for s in seats:
        keep = _human(s) and (s.user_id == match.host_id or answers.get(str(s.seat)) == YES)
        if keep and not seat_gate.allowed(s.user, match.game, rated=match.rated, now=now):
            keep = False  # banned since, or barred from rated tables (P-11): a bot
        users.append(s.user if keep else None)
        levels.append("" if keep else (s.bot_level or "normal"))
    options = dict(match.options or {})
    option = choices_for(match.game)[0]
    if option is not None:
        options[option] = _choice(offer)
    new = services.match_create(
        game=match.game,
        options=options,
        level=match.level,
        move_seconds=match.move_seconds,
        partners=match.partners,
        users=users,
        bot_levels=levels,
        rated=match.rated,
        watchers_allowed=match.watchers_allowed,
        host=match.host,
        now=now,
        rematch_of=match,
        leave_others=registry.get(match.game).leaving_rules,  # P-5 (not W-X4)
    )
    match.rematch_offer = {**offer, "match_id": new.pk}
    match.save(update_fields=["rematch_offer"])
    return new


def frame_info(match: Match, seats: list[MatchSeat]) -> dict | None:
    """What every seat's frame shows of the invitation (``match.rematch``): public facts
    only (the choice, who is asked, who answered what, the new match once started)."""
    offer = match.rematch_offer or {}
    if not offer:
        return None
    new_id = offer.get("match_id")
    return {
        "choice": _choice(offer),
        "by": offer.get("by"),
        "asked": asked_seats(match, seats),
        "answers": dict(offer.get("answers") or {}),
        "match_id": new_id,
        "url": reverse("game:match", args=[new_id]) if new_id else None,
    }


def _choice(offer: dict):
    """The offer's chosen value (kept as ``tasks`` by offers made before issue 28)."""
    return offer.get("choice", offer.get("tasks"))
