"""Ranking of rated matches (P-3, P-4, P-5, P-9) and the habitual-leaver bar.

Two receivers write ratings: ``match_left(match_id, user_id)`` (``game.events.player_left``,
after a leave is committed) and ``match_finished(match_id)``
(``game.events.match_finished``, after a match finished or was abandoned).  Both take the
match's row lock and go through **one place**, issue 27: :func:`outcomes_of` decides
what each player of the match is written — from the match as it stands: its seats, its
log of leaves and replacements, its end — and :func:`_write` writes one player's row
once.  A player who already has a row for the match has had their rating settled: no
second row is ever attempted (the unique ``(match, user)`` row is the guarantee, and a
conflict is taken as "already written"), and each player's row is written in a
savepoint of its own, so one player's problem never costs the others their rating.
So the order in which a leave, a drop that became a leave (P-13), a replacement
(P-12), the abandon and the end arrive does not matter, and a hook run twice (or
late, or not at all for a leave: the end writes what the leave should have) writes
nothing twice.

Points (P-4, games without a scheme of their own), on the final match totals, lowest
wins where the game says so (K-M5):

* sole first +1, sole last −1, everyone in between 0;
* those sharing first 0, those sharing last −1;
* when all four totals are equal, everyone shares first: 0 (nobody is behind anyone).

Leavers (P-5).  A human has *left* when

* they pressed the exit button (or started a new match of the game, P-5) while the
  match was running (a ``leave`` entry in the action log; leaving after the end does
  not count), or their socket had been gone for ``KUT_AWAY_LEAVE_SECONDS`` (P-13: a
  ``leave`` entry with the reason ``dropped``), or
* the match ended while a bot had been playing the seat for more than
  ``KUT_AWAY_LEAVE_SECONDS`` (3 minutes) in a row because its player was disconnected
  or timed out (``MatchSeat.away`` / ``away_since``).  A player who came back within
  the match is not a leaver.

The moment of leaving is the time of the ``leave`` log entry, or ``away_since`` (when
the bot took over).  The hands *completed* at that moment are those whose result was
recorded before it.  With no completed hand (the first hand) the leaver gets a loss
(−1).  Otherwise, the leaver who is *sole* leader (strictly lowest) on the completed
hands' totals gets nothing written (no points, the match is not counted; only the leave
is); anyone else a loss (−1).

Leavers and P-4 — the decision: the remaining players are placed by P-4 on the final
totals of **all four seats**, the leaver's seat included (a bot played it to the end,
K-X3).  The result stands as it was played: a leave neither promotes nor demotes the
others (excluding the leaver's seat would hand a free +1 or −1 to someone depending on
where the leaver stood).  The leaver's own P-4 placing is replaced by their P-5 outcome.
Bots are placed but never ranked.

A game's own scheme (P-9, ``GAME.rating``): a player who left of their own will (the
exit button, a new match: reason ``exit``) is written the game's leaving cost at once
(KDVli's V-X1, Kastet's S-P8, Kelimeki's forfeit W-L4) and nothing at the end.  A player
who dropped out (P-13, reason ``dropped``, or a bot standing in for over 3 minutes at
the end) is written nothing at the drop: at the end, the scheme's ``dropped`` result
(KDVli's V-X3, Kastet's S-P7: only a loss) — also when someone took the seat (P-12),
who gets the ``took_over`` result.  A player still dropped (P-13, not back) when the
match ends is ``dropped`` too.  The scheme may write nothing at an end that is not the
match's (KDVli's V-X4 and Kastet's S-P1: an abandoned match writes only the leaving
costs).

Abandoned matches (no human left): every human seat left, so every one gets its P-5
outcome and nobody a P-4 placing.  Test matches are recorded nowhere (P-3).  Aborted
matches (admin) are never ranked: the hook is not called for them, and it checks.

Habitual leavers (P-11): a player who left ``KUT_LEAVER_THRESHOLD`` rated matches of
any game within ``KUT_LEAVER_WINDOW_DAYS`` cannot join rated tables of any game until
``KUT_LEAVER_BAN_SECONDS`` (never less than 2 hours) after the latest of those leaves.
The seat gate (``game.seat_gate``) asks :func:`leaver_barred_until` through
``KUT_LEAVER_BAR``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from game import portal
from game.engine import registry
from game.engine.protocol import places_of
from game.models import HandResult, Match, MatchAction, MatchSeat
from lobby import signals
from lobby.models import RankedMatch, Ranking, RankingResult

log = logging.getLogger(__name__)

Outcome = RankingResult.Outcome

POINTS = portal.POINTS
RANKED_STATUSES = (Match.Status.FINISHED, Match.Status.ABANDONED)
MIN_LEAVER_BAN_SECONDS = 2 * 3600  # the portal rule: barred for at least 2 hours
EXIT, DROPPED, AWAY = "exit", "dropped", "away"  # how a player left (P-5, P-13)


# --- pure rules -------------------------------------------------------------------------


def placements(totals: list[int], lower_is_better: bool = True) -> list[str]:
    """P-4 outcome of each seat from the final totals (KÜT: lowest total wins, K-M5)."""
    return portal.placings(places_of(totals, lower_is_better))


def leave_outcome(seat: int, completed: list[list[int]], lower_is_better: bool = True) -> str:
    """P-5 outcome of a leaver from the scores of the hands completed when they left."""
    totals = (
        [sum(scores[s] for scores in completed) for s in range(len(completed[0]))]
        if completed
        else []
    )
    return portal.leave_outcome(seat, totals, lower_is_better)


# --- reading a match ----------------------------------------------------------------------


@dataclass
class SeatOutcome:
    """What one player is written for one match: a P-4 outcome (points from it), or a
    P-9 scheme's ``change`` (``rated`` at the end, ``leave_cost`` at a leave)."""

    seat: int
    user_id: int
    outcome: str
    left_at: datetime | None = None
    completed_hands: int = 0
    replacement: bool = False  # P-12: took a left seat
    change: int | None = None  # P-9: the scheme's points

    @property
    def points(self) -> int:
        if self.change is not None:
            return self.change
        points = POINTS[self.outcome]
        if self.replacement and not self.left:
            return max(points, 0)  # P-12: loses nothing if the match is lost
        return points

    @property
    def left(self) -> bool:
        return self.left_at is not None


def _away_limit() -> timedelta:
    return timedelta(seconds=getattr(settings, "KUT_AWAY_LEAVE_SECONDS", 180))


@dataclass
class Participant:
    """A human who played a seat of the match: its player, or (P-12) each player who
    left it before a replacement took it, and the replacement."""

    seat: int
    user_id: int
    replacement: bool
    left_at: datetime | None
    how: str = ""  # EXIT, DROPPED (P-13) or AWAY (a bot stood in > 3 min at the end)
    current: bool = True  # the seat's player now (False: left, and replaced)
    dropped: bool = False  # P-13: dropped out and not back when the match ended


def participants(match: Match, seats: list[MatchSeat]) -> list[Participant]:
    """Every human of the match with the moment they left (P-5), if they did, read from
    the log: each seat's first player and every replacement (``replace`` entries, P-12),
    each ``leave`` entry (the exit button, a new match, P-13's drop) ending its player's
    time at the seat; a bot standing in for more than ``KUT_AWAY_LEAVE_SECONDS`` at the
    end is a leave too (P-5), where the game has P-5's leaving rules."""
    log_rows = (
        MatchAction.objects.filter(match=match, kind__in=("leave", "replace"))
        .order_by("version")
        .values_list("seat", "kind", "payload", "created_at")
    )
    by_seat: dict[int, list] = {}
    for seat, kind, payload, at in log_rows:
        by_seat.setdefault(seat, []).append((kind, payload or {}, at))
    leaving_rules = registry.get(match.game).leaving_rules
    out = []
    for s in seats:
        people: list[Participant] = []
        for kind, payload, at in by_seat.get(s.seat, ()):
            if kind == "replace":
                people.append(Participant(s.seat, payload.get("user"), True, None))
                continue
            if not people or people[-1].left_at is not None:  # the seat's first player
                # (logs from before P-12 name no user: then nobody took the seat)
                people.append(Participant(s.seat, payload.get("user") or s.user_id, False, None))
            people[-1].left_at, people[-1].how = at, payload.get("reason", EXIT)
        if not people:
            if s.user_id is None or s.bot_level:
                continue  # a bot's seat
            people.append(Participant(s.seat, s.user_id, s.replacement, None))
        for p in people[:-1]:
            p.current = False
        now = people[-1]
        if now.left_at is None and not s.left and leaving_rules:
            if (s.away and s.away_since is not None and match.finished_at is not None
                    and match.finished_at - s.away_since > _away_limit()):  # fmt: skip
                now.left_at, now.how = s.away_since, AWAY
            elif s.dropped:
                now.dropped = True
        out.extend(p for p in people if p.user_id is not None)
    return out


def match_outcomes(match: Match) -> list[SeatOutcome]:
    """Every human's P-4 outcome of a finished or abandoned match (nothing written): P-4
    placings on the game's final places (P-8: partners share their team's), P-5 (or,
    with partners, P-10) for leavers, P-12's protection for replacements."""
    spec = registry.get(match.game)
    low = spec.lower_is_better
    seats = list(match.seats.order_by("seat"))
    results = list(HandResult.objects.filter(match=match).order_by("hand_no"))
    people = participants(match, seats)
    placed = None
    if match.status == Match.Status.FINISHED:
        totals = list((match.state or {}).get("totals") or [])
        if len(totals) != len(seats):  # the state is authoritative; the results agree
            totals = [sum(r.scores[s.seat] for r in results) for s in seats]
        placed = portal.partner_placings(totals, low) if match.partners else placements(totals, low)
    placed_for: dict[int, str] = dict(enumerate(placed)) if placed is not None else {}
    left: dict[int, tuple] = {}  # by user
    leaving_seats = {p.seat for p in people if p.left_at is not None}
    for p in people:
        if p.left_at is None:
            continue
        completed = [r.scores for r in results if r.created_at <= p.left_at]
        totals = [sum(sc[s] for sc in completed) for s in range(len(seats))] if completed else []
        if match.partners:
            mine, partner = portal.partner_leave_outcomes(p.seat, totals, low)
            if (p.seat + 2) % 4 not in leaving_seats:
                placed_for[(p.seat + 2) % 4] = partner  # P-10: the partner's result
        else:
            mine = portal.leave_outcome(p.seat, totals, low)
        left[p.user_id] = (mine, p.left_at, len(completed))
    out = []
    for p in people:
        if p.user_id in left:
            outcome, at, completed = left[p.user_id]
            out.append(SeatOutcome(p.seat, p.user_id, outcome, at, completed, p.replacement))
        elif p.current and p.seat in placed_for:
            out.append(SeatOutcome(p.seat, p.user_id, placed_for[p.seat], None, len(results),
                                   p.replacement))  # fmt: skip
    return out


def _completed_at(results: list[HandResult], at: datetime | None) -> int:
    return sum(1 for r in results if at is None or r.created_at <= at)


def _rating_now(user_id: int, match: Match, scheme) -> int:
    points = (
        Ranking.objects.filter(user_id=user_id, game=match.game, level=_board_level(match))
        .values_list("points", flat=True)
        .first()
    )
    return scheme.START if points is None else points


def scheme_outcomes(match: Match, scheme, ended: bool) -> list[SeatOutcome]:
    """P-9: what the game's own scheme writes to each human (nothing written here).
    Always: the leaving cost of each who left of their own will (``ended`` False: only
    these, the moment of a leave).  At the end: each other human's result by their role
    — ``played``, ``took_over`` (P-12), ``dropped`` (P-13: left by dropping out, or
    still dropped at the end)."""
    seats = list(match.seats.order_by("seat"))
    people = participants(match, seats)
    results = list(HandResult.objects.filter(match=match).order_by("hand_no"))
    out = []
    for p in people:
        if p.left_at is not None and p.how == EXIT:
            completed = _completed_at(results, p.left_at)
            out.append(SeatOutcome(p.seat, p.user_id, Outcome.LEAVE_COST, p.left_at, completed,
                                   p.replacement, scheme.leave_cost(match.options, completed)))  # fmt: skip
    if not ended:
        return out

    def player(p: Participant) -> dict:
        if p.left_at is not None and p.how == EXIT:
            role = "left"  # (written at the leave; only the others' context here)
        elif p.left_at is not None or p.dropped:
            role = "dropped"
        else:
            role = "took_over" if p.replacement else "played"
        return {"rating": _rating_now(p.user_id, match, scheme), "role": role}

    spec = registry.get(match.game)
    result = spec.match_result(spec.from_dict(match.state))
    now: list = [None] * len(seats)  # each seat's player now (None: a bot)
    for p in people:
        if p.current:
            now[p.seat] = player(p)
    for p in people:
        if p.left_at is not None and p.how == EXIT:
            continue  # V-X1, S-P8: nothing more for them at the end
        players = list(now)
        players[p.seat] = player(p)  # a replaced player's own role at their old seat
        change = scheme.match_changes(result, match.partners, players, match.options)[p.seat]
        if change is None:
            continue
        completed = _completed_at(results, p.left_at) if p.left_at is not None else 0
        out.append(SeatOutcome(p.seat, p.user_id, Outcome.RATED, p.left_at, completed,
                               p.replacement, change))  # fmt: skip
    return out


def outcomes_of(match: Match, ended: bool) -> list[SeatOutcome]:
    """The one place that decides what each player of a rated match is written (issue
    27): the game's own scheme (P-9), else P-4/P-5 at the end (nothing at a leave)."""
    scheme = registry.get(match.game).rating
    if scheme is not None:
        return scheme_outcomes(match, scheme, ended)
    return match_outcomes(match) if ended else []


# --- writing ------------------------------------------------------------------------------


def _board_level(match: Match) -> str:
    """P-7: the level the match's ranking rows are kept under — the table's, or ``""``
    for a game ranked across levels (protocol hint ``ranked_by_level``: Kelimeki's one
    k-lig, W-L1)."""
    return portal.ranking_level(registry.get(match.game), match.level)


def _write(match: Match, o: SeatOutcome, start: int) -> bool:
    """Write one player's row of one match and add it to their ranking, once: nothing
    when they have a row for the match already (their rating for it is settled).  In a
    savepoint of its own.  Returns whether it wrote."""
    level = _board_level(match)
    with transaction.atomic():
        if RankingResult.objects.filter(match=match, user_id=o.user_id).exists():
            return False
        try:
            with transaction.atomic():
                RankingResult.objects.create(
                    match=match, user_id=o.user_id, game=match.game, level=level,
                    seat=o.seat, outcome=o.outcome, points=o.points, left=o.left,
                    left_at=o.left_at, completed_hands=o.completed_hands,
                )  # fmt: skip
        except IntegrityError:  # the unique (match, user) row: written already
            return False
        Ranking.objects.get_or_create(user_id=o.user_id, game=match.game, level=level,
                                      defaults={"points": start})  # fmt: skip
        Ranking.objects.filter(user_id=o.user_id, game=match.game, level=level).update(
            points=F("points") + o.points,
            matches=F("matches") + int(o.outcome != Outcome.LEFT_LEADING),  # "nothing"
            wins=F("wins") + int(o.outcome == Outcome.FIRST
                                 or (o.outcome == Outcome.RATED and o.points > 0)),
            shared_wins=F("shared_wins") + int(o.outcome == Outcome.SHARED_FIRST),
            losses=F("losses") + int(o.points < 0),
            leaves=F("leaves") + int(o.left),
            updated_at=timezone.now(),
        )  # fmt: skip
    return True


def _write_all(match: Match, outcomes: list[SeatOutcome]) -> list[SeatOutcome]:
    """Write each player's row (``_write``); one player's failure is logged and never
    stops the others'.  Returns the rows written now."""
    scheme = registry.get(match.game).rating
    start = scheme.START if scheme is not None else 0
    written = []
    for o in outcomes:
        try:
            if _write(match, o, start):
                written.append(o)
        except Exception:
            log.exception("ranking match %s: the row of user %s failed", match.pk, o.user_id)
    return written


# --- the hooks ----------------------------------------------------------------------------


def match_finished(match_id: int) -> None:
    """After a match ended (``game.events.match_finished``): rank a rated match once, then
    tell the games that keep more on top (``lobby.signals.ranking_written``).  Never
    raises (the match is already over; a failure is logged and ``match_rank`` can be
    re-run)."""
    try:
        match_rank(match_id)
    except Exception:
        log.exception("ranking match %s failed", match_id)
    signals.ranking_written.send(sender=None, match_id=match_id)


def match_rank(match_id: int) -> list[SeatOutcome] | None:
    """Write the ranking of a finished or abandoned rated match: every player's row that
    is not written yet.  ``None`` when the match is not to be ranked (test, aborted,
    still running) or was ranked already and nothing was missing."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or not match.rated or match.status not in RANKED_STATUSES:
            return None
        _marker, first = RankedMatch.objects.get_or_create(match=match)
        written = _write_all(match, outcomes_of(match, ended=True))
    return written if first or written else None


def match_left(match_id: int, user_id: int) -> None:
    """After a player's leave is committed (``game.events.player_left``): a game with
    its own rating (P-9) writes its leaving cost at once (e.g. KDVli Okey: 2 × hands)
    to a player who left of their own will; a drop (P-13) writes nothing now.  Never
    raises."""
    try:
        with transaction.atomic():
            match = Match.objects.select_for_update().filter(pk=match_id).first()
            if match is None or not match.rated or match.kind != Match.Kind.NORMAL:
                return
            now = [o for o in outcomes_of(match, ended=False) if o.user_id == user_id]
            _write_all(match, now)
    except Exception:
        log.exception("leaving cost of match %s failed", match_id)
    signals.ranking_written.send(sender=None, match_id=match_id)


# --- habitual leavers ---------------------------------------------------------------------


def leaver_barred_until(user, game: str | None = None,
                        now: datetime | None = None) -> datetime | None:  # fmt: skip
    """When a habitual leaver may join rated tables again (None: not barred).  P-11:
    leaves of every game count, and the bar holds at the rated tables of every game
    (``game`` is accepted for the callers' sake and does not narrow it).

    Leaves counted: ranked leaves (P-5) plus exits from rated matches still being played
    (they are ranked only when the match ends), one per match, within the window."""
    now = now or timezone.now()
    threshold = settings.KUT_LEAVER_THRESHOLD
    if threshold <= 0 or user is None or not getattr(user, "pk", None):
        return None
    # W-X5: a game without P-5's leaving rules (Kelimeki) has no P-11 bar at its tables,
    # and its forfeits (its only way out of a game) are not P-5 leaves anywhere
    exempt = portal.games_without_leaving_rules()
    if game in exempt:
        return None
    since = now - timedelta(days=settings.KUT_LEAVER_WINDOW_DAYS)
    moments: dict[int, datetime] = dict(
        RankingResult.objects.filter(user=user, left=True, left_at__gte=since)
        .exclude(game__in=exempt)
        .values_list("match_id", "left_at")
    )
    running = (
        MatchSeat.objects.exclude(match__game__in=exempt)
        .filter(
            user=user,
            left=True,
            left_at__gte=since,
            match__rated=True,
            match__status__in=(Match.Status.PLAYING, Match.Status.BETWEEN),
        )
        .values_list("match_id", "left_at")
    )
    for match_id, at in running:
        moments.setdefault(match_id, at)
    if len(moments) < threshold:
        return None
    bar = max(settings.KUT_LEAVER_BAN_SECONDS, MIN_LEAVER_BAN_SECONDS)  # "at least 2 hours"
    until = max(moments.values()) + timedelta(seconds=bar)
    return until if until > now else None
