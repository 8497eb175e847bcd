"""What every part of the service path shares: the match's game and state, the row
lock, saving a change (``_save``: ``version + 1``, its log row, the next deadline and
bot time, the broadcast after commit), the end of a hand, and the deals' seeded RNGs."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from game import events, rows
from game.engine import protocol, registry
from game.engine.fair import SeededRNG
from game.errors import ServiceError
from game.models import HandResult, Match, MatchAction, MatchSeat

BOT_LEVELS = protocol.BOT_LEVELS


# action types only the server sends, for every game: a seat's time running out is the
# timer's (K-N7; the game's on_timeout); a player sending one is refused (issue 16)
SERVER_TYPES = ("timeout",)


@dataclass
class Outcome:
    match: Match
    events: list


def _now(now: datetime | None) -> datetime:
    return now or timezone.now()


def _turn_seconds(match: Match) -> int:
    """P-6: the table's move time; KÜT's fixed 45 s (K-N6) is ``KUT_TURN_SECONDS``; a
    game's own clock (``move_seconds_for``, Kelimeki's W-X3) comes first."""
    spec = registry.get(match.game)
    if spec.move_seconds_for is not None:
        return spec.move_seconds_for(match.options or {})
    if match.move_seconds and not spec.fixed_move_seconds:
        return match.move_seconds
    return settings.KUT_TURN_SECONDS


def _rng_for_hand(seed: str, hand_no: int, voids: int = 0) -> SeededRNG:
    """The deal of hand ``hand_no``; a hand dealt again after ``voids`` void hands (a
    game whose hand can end with no result, KDVli's V-E2) gets a new shuffle (V-M5)."""
    return SeededRNG(f"{seed}:{hand_no}" if not voids else f"{seed}:{hand_no}:v{voids}")


def _rng_for_next_hand(seed: str, finished: int, next_hands_before: int) -> SeededRNG:
    """The next deal, after ``next_hands_before`` earlier next-hand steps and with
    ``finished`` hands that have results: the deals without one were void."""
    return _rng_for_hand(seed, finished + 1, 1 + next_hands_before - finished)


def _seats(match: Match) -> list[MatchSeat]:
    # with their users: the broadcast after commit labels the seats from this same list
    return rows.seats_of(match)


def _spec(match: Match):
    """The match's game (its GAME, through the registry)."""
    return registry.get(match.game)


def _load(match: Match):
    return _spec(match).from_dict(match.state)


def _ts(now: datetime) -> float:
    return now.timestamp()


def _turn_key(spec, st):
    return spec.turn_key(st)


def _bot_seats(seats: list[MatchSeat]) -> set[int]:
    return {s.seat for s in seats if s.bot_controlled}


def _schedule(match: Match, spec, st, seats: list[MatchSeat], now: datetime,
              turn_changed: bool) -> None:  # fmt: skip
    """Deadlines and bot timing after a change (P-6, K-N6, K-M4, P-3)."""
    acting = spec.to_act(st) if match.status == Match.Status.PLAYING else ()
    if acting and not spec.hand_over(st):
        if turn_changed or match.turn_started is None:
            match.turn_started = now
        if match.rated:
            match.deadline = match.turn_started + timedelta(seconds=_turn_seconds(match))
        else:
            match.deadline = None  # P-3: test tables have no move timer
        botset = _bot_seats(seats)
        bot_turn = any(s in botset for s in acting)
        bot_other = any(s in botset for s in spec.may_act(st) if s not in acting)  # claims
        if bot_turn and any(_stands_in(seats[s]) for s in acting if s in botset):
            match.bot_due = now  # K-N7: a bot plays an away seat at once
        elif bot_turn or bot_other:
            think = bot_think_seconds(match, spec, st, seats, botset)
            match.bot_due = now + timedelta(seconds=think)
        else:
            match.bot_due = None
    else:
        match.turn_started = None
        match.bot_due = None


def bot_think_seconds(match: Match, spec, st, seats: list[MatchSeat], botset: set[int],
                      rng: random.Random | None = None) -> float:  # fmt: skip
    """How long a bot "thinks" before its next move: a human pace (issue 15).

    ``KUT_BOT_DELAY_SECONDS`` is the base (0: "fast bots", every move at once — tests),
    scaled by the game's ``bot_pace`` (KÜT: taking a tile is quick, 0.8 x base; playing
    and discarding slower, 1.3 x base) and varied by ±25 % so that a table does not tick
    like a metronome.  When a human may act out of turn while a bot is to move (KÜT's
    claim window after a centre draw, K-C1/K-C5), the bot waits at least
    ``KUT_CLAIM_WINDOW_SECONDS`` (up to 15 % more) before it plays on, so the human has time to press
    *Atılan Taşı Al* (the table shows them the countdown, ``match.bot_due``)."""
    base = float(settings.KUT_BOT_DELAY_SECONDS)
    if base <= 0:
        return 0.0
    rng = rng or random
    think = base * spec.bot_pace(st) * rng.uniform(0.75, 1.25)
    acting = spec.to_act(st)
    if any(s in botset for s in acting) and _human_may_act_out_of_turn(spec, st, botset):
        think = max(think, float(settings.KUT_CLAIM_WINDOW_SECONDS) * rng.uniform(1.0, 1.15))
    return think


def _human_may_act_out_of_turn(spec, st, botset: set[int]) -> bool:
    acting = spec.to_act(st)
    return any(s not in botset and s not in acting for s in spec.may_act(st))


def _stands_in(seat: MatchSeat) -> bool:
    """A bot plays this human's seat because the player timed out twice (K-N7)."""
    return seat.away and not seat.left and seat.human


def _finish_hand_if_over(match: Match, spec, st, now: datetime) -> None:
    """After an action: if it ended the hand, store its result and end the match after
    the last hand (K-M4) or pause before the next (a trial ends with its hand, K-X1)."""
    if match.status != Match.Status.PLAYING or not spec.hand_over(st):
        return
    results = spec.hand_results(st)
    if len(results) > match.hand_results.count():  # a void hand has no result (V-E2)
        result = results[-1]
        HandResult.objects.create(
            match=match, hand_no=result.hand_no, scores=result.scores, detail=result.detail or {}
        )
    if match.kind == Match.Kind.TRIAL:
        spec.tutorial.finish(st)  # K-X1: a guided first hand ends with its one hand
    if spec.match_over(st) or match.kind == Match.Kind.TRIAL:
        match.status = Match.Status.FINISHED
        match.finished_at = now
        match.deadline = None
        events.after_commit(events.match_finished, match_id=match.pk)
    else:
        match.status = Match.Status.BETWEEN
        match.deadline = now + timedelta(seconds=settings.KUT_NEXT_HAND_SECONDS)  # K-M4


def _save(match: Match, spec, st, seats, now, turn_before, log: tuple | None) -> None:
    """Store the new state as ``version + 1`` with its log row; broadcast after commit."""
    match.state = spec.to_dict(st)
    match.version += 1
    row = None
    if log is not None:
        seat, kind, payload, actor = log
        row = MatchAction(
            match=match, version=match.version, hand_no=hand_no_of(spec, st), seat=seat, kind=kind,
            payload=payload, actor=actor, created_at=now,
        )  # fmt: skip
    _schedule(match, spec, st, seats, now, _turn_key(spec, st) != turn_before)
    rows.save_match(match, row)
    # the row, its seats and its state as this transaction commits them (read under the
    # row lock: the broadcast reads and parses nothing again)
    events.after_commit(events.match_changed, match_id=match.pk, match=match, seats=seats,
                        state=st)  # fmt: skip


def hand_no_of(spec, st) -> int:
    """The number of the hand being played (or just finished)."""
    done = len(spec.hand_results(st))
    return done if spec.hand_over(st) else done + 1


def _locked(match_id: int) -> Match:
    match = rows.lock_match(match_id)
    if match is None:
        raise ServiceError("no_such_match")
    return match


def _locked_with_seats(match_id: int) -> tuple[Match, list[MatchSeat] | None]:
    """``_locked`` and, on PostgreSQL in the same statement, the seats (issue 22: one
    round trip less per move; None elsewhere: the caller reads them)."""
    match, seats = rows.lock_match_with_seats(match_id)
    if match is None:
        raise ServiceError("no_such_match")
    return match, seats


def test_mode() -> bool:
    """The browser tests' fixed deals (``DEBUG`` and ``KUT_TEST_SEEDS``), never in
    production."""
    return bool(settings.DEBUG and getattr(settings, "KUT_TEST_SEEDS", False))
