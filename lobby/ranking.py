"""Ranking of rated matches (P-3, P-4, P-5) and the habitual-leaver bar.

``match_finished(match_id)`` is registered in ``KUT_MATCH_FINISHED_HOOKS``; the game
calls it after a match is finished or abandoned.  It ranks a match once (a
``RankedMatch`` row, written under the match's row lock, makes it idempotent).

Points (P-4), on the final match totals, lowest wins (K-M5):

* sole first +1, sole last −1, everyone in between 0;
* those sharing first 0, those sharing last −1;
* when all four totals are equal, everyone shares first: 0 (nobody is behind anyone).

Leavers (P-5).  A human seat has *left* when

* its player pressed the exit button while the match was running (``MatchSeat.left``
  with a ``leave`` entry in the action log; leaving after the end does not count), or
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

Abandoned matches (no human left): every human seat left, so every one gets its P-5
outcome and nobody a P-4 placing.  Test matches are recorded nowhere (P-3).  Aborted
matches (admin) are never ranked: the hook is not called for them, and it checks.

Habitual leavers (P-11): a player who left ``KUT_LEAVER_THRESHOLD`` rated matches of
any game within ``KUT_LEAVER_WINDOW_DAYS`` cannot join rated tables of any game until
``KUT_LEAVER_BAN_SECONDS`` (never less than 2 hours) after the latest of those leaves.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from game import portal
from game.engine import registry
from game.engine.protocol import places_of
from game.models import HandResult, Match, MatchAction, MatchSeat
from lobby.models import RankedMatch, Ranking, RankingResult

log = logging.getLogger(__name__)

Outcome = RankingResult.Outcome

POINTS = portal.POINTS
RANKED_STATUSES = (Match.Status.FINISHED, Match.Status.ABANDONED)
MIN_LEAVER_BAN_SECONDS = 2 * 3600  # the portal rule: barred for at least 2 hours


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
    seat: int
    user_id: int
    outcome: str
    left_at: datetime | None = None
    completed_hands: int = 0
    replacement: bool = False  # P-12: took a left seat

    @property
    def points(self) -> int:
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
    """A human who played a seat of the match: its player, or (P-12) the player who left
    it before a replacement took it, and the replacement."""

    seat: int
    user_id: int
    replacement: bool
    left_at: datetime | None


def participants(match: Match, seats: list[MatchSeat]) -> list[Participant]:
    """Every human of the match with the moment they left (P-5), if they did: the exit
    button (the ``leave`` log entry), a drop or a bot standing in for more than
    ``KUT_AWAY_LEAVE_SECONDS`` at the end (P-13)."""
    by_user: dict[int, datetime] = {}
    by_seat: dict[int, datetime] = {}
    for seat, payload, at in (
        MatchAction.objects.filter(match=match, kind="leave")
        .order_by("version")
        .values_list("seat", "payload", "created_at")
    ):
        user_id = (payload or {}).get("user")
        if user_id is not None:
            by_user.setdefault(user_id, at)
        by_seat.setdefault(seat, at)  # logs from before P-12 name no user
    out = []
    for s in seats:
        if s.left_user_id is not None:
            at = by_user.get(s.left_user_id) or s.left_user_at
            out.append(Participant(s.seat, s.left_user_id, False, at))
        if s.user_id is None or s.bot_level:
            continue
        left_at = None
        if s.left:  # only a leave logged while the match ran counts (not after its end)
            left_at = by_user.get(s.user_id) or (
                by_seat.get(s.seat) if s.left_user_id is None else None
            )  # fmt: skip
        elif (
            s.away
            and s.away_since is not None
            and match.finished_at is not None
            and match.finished_at - s.away_since > _away_limit()
        ):
            left_at = s.away_since
        out.append(Participant(s.seat, s.user_id, s.replacement, left_at))
    return out


def match_outcomes(match: Match) -> list[SeatOutcome]:
    """Every human's outcome of a finished or abandoned match (nothing written): P-4
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
        elif p.seat in placed_for:
            out.append(SeatOutcome(p.seat, p.user_id, placed_for[p.seat], None, len(results),
                                   p.replacement))  # fmt: skip
    return out


# --- the hook -----------------------------------------------------------------------------


def match_finished(match_id: int) -> None:
    """``KUT_MATCH_FINISHED_HOOKS`` entry: rank a rated match once.  Never raises (the
    match is already over; a failure is logged and ``match_rank`` can be re-run)."""
    try:
        match_rank(match_id)
    except Exception:
        log.exception("ranking match %s failed", match_id)


def match_rank(match_id: int) -> list[SeatOutcome] | None:
    """Write the ranking of a finished or abandoned rated match; ``None`` when the match
    is not to be ranked (test, aborted, still running) or was ranked already."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or not match.rated or match.status not in RANKED_STATUSES:
            return None
        if RankedMatch.objects.filter(match=match).exists():
            return None
        RankedMatch.objects.create(match=match)
        scheme = registry.get(match.game).rating
        if scheme is not None:
            return _rank_own_scheme(match, scheme)
        outcomes = match_outcomes(match)
        level = _board_level(match)
        RankingResult.objects.bulk_create(
            [
                RankingResult(
                    match=match,
                    user_id=o.user_id,
                    game=match.game,
                    level=level,
                    seat=o.seat,
                    outcome=o.outcome,
                    points=o.points,
                    left=o.left,
                    left_at=o.left_at,
                    completed_hands=o.completed_hands,
                )
                for o in outcomes
            ]  # fmt: skip
        )
        Ranking.objects.bulk_create(
            [Ranking(user_id=o.user_id, game=match.game, level=level) for o in outcomes],
            ignore_conflicts=True,
        )
        for o in outcomes:
            counted = o.outcome != Outcome.LEFT_LEADING  # "nothing written"
            Ranking.objects.filter(user_id=o.user_id, game=match.game, level=level).update(
                points=F("points") + o.points,
                matches=F("matches") + int(counted),
                wins=F("wins") + int(o.outcome == Outcome.FIRST),
                shared_wins=F("shared_wins") + int(o.outcome == Outcome.SHARED_FIRST),
                losses=F("losses") + int(o.points < 0),
                leaves=F("leaves") + int(o.left),
                updated_at=timezone.now(),
            )
    return outcomes


# --- P-9: a game's own rating ----------------------------------------------------------------


def _board_level(match: Match) -> str:
    """P-7: the level the match's ranking rows are kept under — the table's, or ``""``
    for a game ranked across levels (protocol hint ``ranked_by_level``: Kelimeki's one
    k-lig, W-L1)."""
    return portal.ranking_level(registry.get(match.game), match.level)


def _rating_row(user_id: int, match: Match, scheme) -> Ranking:
    row, _created = Ranking.objects.get_or_create(
        user_id=user_id, game=match.game, level=_board_level(match),
        defaults={"points": scheme.START},
    )  # fmt: skip
    return row


def _rank_own_scheme(match: Match, scheme) -> list[SeatOutcome]:
    """P-9: write what the game's own scheme says for each human at the end of a rated
    match (players who left had their leaving cost written when they left)."""
    spec = registry.get(match.game)
    seats = list(match.seats.order_by("seat"))
    people = participants(match, seats)
    exits = {
        (payload or {}).get("user"): (payload or {}).get("reason", "exit")
        for payload in MatchAction.objects.filter(match=match, kind="leave").values_list(
            "payload", flat=True
        )
    }
    players: list = [None] * len(seats)
    sitting: dict[int, Participant] = {}
    for p in people:
        if p.seat in sitting and p.left_at is not None:
            continue  # a replaced leaver: the seat's player now is the replacement
        sitting[p.seat] = p
    for seat, p in sitting.items():
        row = _rating_row(p.user_id, match, scheme)
        if p.left_at is None:
            role = "took_over" if p.replacement else "played"
        else:
            role = "dropped" if exits.get(p.user_id) != "exit" else "left"
        players[seat] = {"rating": row.points, "role": role}
    state = spec.from_dict(match.state)
    changes = scheme.match_changes(spec.match_result(state), match.partners, players,
                                   match.options)  # fmt: skip
    out = []
    for seat, p in sitting.items():
        change = changes[seat]
        if change is None or players[seat]["role"] == "left":
            continue
        out.append(SeatOutcome(seat, p.user_id, Outcome.RATED, p.left_at, 0, p.replacement))
        RankingResult.objects.create(
            match=match, user_id=p.user_id, game=match.game, level=_board_level(match), seat=seat,
            outcome=Outcome.RATED, points=change, left=p.left_at is not None,
            left_at=p.left_at,
        )  # fmt: skip
        Ranking.objects.filter(
            user_id=p.user_id, game=match.game, level=_board_level(match)
        ).update(  # fmt: skip
            points=F("points") + change,
            matches=F("matches") + 1,
            wins=F("wins") + int(change > 0),
            losses=F("losses") + int(change < 0),
            leaves=F("leaves") + int(p.left_at is not None),
            updated_at=timezone.now(),
        )
    return out


def match_left(match_id: int, user_id: int) -> None:
    """``KUT_MATCH_LEFT_HOOKS`` entry (after a player's leave is committed): a game with
    its own rating (P-9) writes its leaving cost at once (e.g. KDVli Okey: 2 × hands).
    Never raises."""
    try:
        with transaction.atomic():
            match = Match.objects.select_for_update().filter(pk=match_id).first()
            if match is None or not match.rated or match.kind != Match.Kind.NORMAL:
                return
            scheme = registry.get(match.game).rating
            if scheme is None:
                return  # P-4 games rank the leave when the match ends (P-5)
            if RankingResult.objects.filter(match=match, user_id=user_id).exists():
                return
            seat = match.seats.filter(Q(user_id=user_id) | Q(left_user_id=user_id)).first()
            completed = HandResult.objects.filter(match=match).count()
            cost = scheme.leave_cost(match.options, completed)
            _rating_row(user_id, match, scheme)
            RankingResult.objects.create(
                match=match, user_id=user_id, game=match.game, level=_board_level(match),
                seat=seat.seat if seat else 0, outcome=Outcome.LEAVE_COST, points=cost,
                left=True, left_at=timezone.now(), completed_hands=completed,
            )  # fmt: skip
            Ranking.objects.filter(
                user_id=user_id, game=match.game, level=_board_level(match)
            ).update(  # fmt: skip
                points=F("points") + cost,
                matches=F("matches") + 1,
                losses=F("losses") + int(cost < 0),
                leaves=F("leaves") + 1,
                updated_at=timezone.now(),
            )
    except Exception:
        log.exception("leaving cost of match %s failed", match_id)


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
