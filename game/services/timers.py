"""The clock and the bots: a seat whose time ran out (K-N7 and each game's own
timeout), a bot's decision (P-1: from its seat's view only), both inside the caller's
locked transaction or through the tasks' idempotent entry points."""

from __future__ import annotations

import logging
import random
from datetime import datetime

import orjson
from django.db import transaction

from game.engine import protocol
from game.engine.errors import EngineError
from game.engine.fair import SeededRNG
from game.models import Match, MatchAction
from game.services.core import (
    SERVER_TYPES,
    _bot_seats,
    _finish_hand_if_over,
    _locked,
    _now,
    _save,
    _seats,
    _spec,
    _ts,
    _turn_key,
    test_mode,
)

log = logging.getLogger(__name__)


def _apply_timeout(match: Match, spec, st, seats, now) -> list:
    """K-N7 (and each game's own): the server completes the move of the seat whose time
    ran out; after the game says so, the seat is away and a bot plays it.  A
    bot-controlled seat never times out (issue 15): its time can only run out because
    its move was late (a busy worker), so the bot's own move is played instead."""
    seat = spec.to_act(st)[0]
    botset = _bot_seats(seats)
    if seat in botset:
        played = _bot_move(match, spec, st, seats, botset, now, random.Random(), turn_only=True)
        if played is not None:
            return played
    turn_before = _turn_key(spec, st)
    happened = spec.on_timeout(st, seat, _ts(now))
    ms_seat = seats[seat]
    if spec.away_after_timeout(st, seat) and not ms_seat.away and not ms_seat.bot_level:
        ms_seat.away = True  # K-N7: a bot plays the seat until the player acts again
        ms_seat.away_since = now
        ms_seat.save(update_fields=["away", "away_since"])
    _finish_hand_if_over(match, spec, st, now)
    _save(
        match, spec, st, seats, now, turn_before,
        (seat, "timeout", {"type": "timeout"}, MatchAction.Actor.TIMER),
    )  # fmt: skip
    return happened


def match_expire_turn(match_id: int, expected_version: int | None = None,
                      now: datetime | None = None) -> bool:  # fmt: skip
    """Apply the timeout of an overdue turn (idempotent: a second call, or a call for an
    older version, does nothing).  Returns whether a timeout was applied."""
    now = _now(now)
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.PLAYING or match.deadline is None:
            return False
        if expected_version is not None and expected_version != match.version:
            return False
        if now < match.deadline:
            return False
        seats = _seats(match)
        spec = _spec(match)
        _apply_timeout(match, spec, spec.from_dict(match.state), seats, now)
        return True


def match_play_bot(match_id: int, expected_version: int | None = None,
                   now: datetime | None = None, rng: random.Random | None = None) -> bool:  # fmt: skip
    """One bot decision: a bot claim if a bot wants the thrown tile, else the move of a
    bot-controlled seat whose turn it is.  Returns whether an action was applied."""
    now = _now(now)
    rng = rng or random.Random()
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.PLAYING:
            return False
        if expected_version is not None and expected_version != match.version:
            return False
        seats = _seats(match)
        spec = _spec(match)
        st = spec.from_dict(match.state)
        botset = _bot_seats(seats)
        if _bot_move(match, spec, st, seats, botset, now, rng) is None:
            match.bot_due = None
            match.save(update_fields=["bot_due"])
            return False
        return True


def _bot_move(match: Match, spec, st, seats, botset: set[int], now: datetime,
              rng: random.Random, turn_only: bool = False) -> list | None:  # fmt: skip
    """Choose and apply one bot decision (inside the caller's locked transaction): an
    out-of-turn bot action first (KÜT's claims, K-C5: in seat order after the turn; not
    with ``turn_only``), else the move of a bot-controlled seat whose turn it is.  Returns
    the events, or None when no bot has anything to do (nothing is saved then)."""
    acting = spec.to_act(st)
    choice = None
    if match.kind == Match.Kind.TRIAL:
        choice = spec.tutorial.bot_choice(st, botset)  # K-X1: scripted moves, or wait
        if turn_only and choice is not None and choice != protocol.WAIT and choice[0] not in acting:
            choice = None
    if choice is None:
        others = [] if turn_only else [s for s in spec.may_act(st) if s not in acting]
        for s in others + list(acting):
            if s not in botset:
                continue
            level = seats[s].bot_level or "normal"
            try:
                action = spec.bot_choose(
                    _bot_view(spec, st, s), level, _test_bot_rng(match, spec, st, s) or rng
                )
            except Exception:  # a broken bot never stalls the table (below)
                log.exception("match %s: the bot of seat %s could not choose", match.pk, s)
                action = None if s not in acting else {"type": SERVER_TYPES[0]}
            if action is not None:
                choice = (s, action)
                break
    if choice is None or choice == protocol.WAIT:
        return None
    seat, action = choice
    turn_before = _turn_key(spec, st)
    failed = isinstance(action, dict) and action.get("type") in SERVER_TYPES  # bot raised
    if not failed:
        try:
            happened = spec.apply(st, seat, action, _ts(now))
        except EngineError:
            failed = True
    if failed:
        # never let a bot stall a table: the rules complete its turn instead
        if seat not in acting:
            seat = next((s for s in acting if s in botset), None)
            if seat is None:
                return None
        action = {"type": "timeout"}
        happened = spec.on_timeout(st, seat, _ts(now))
    _finish_hand_if_over(match, spec, st, now)
    _save(match, spec, st, seats, now, turn_before,
          (seat, action["type"], action, MatchAction.Actor.BOT))  # fmt: skip
    return happened


def _test_bot_rng(match: Match, spec, st, seat: int) -> random.Random | None:
    """Browser tests only (``DEBUG`` and ``KUT_TEST_SEEDS``): a bot's chance comes from
    the match seed and the turn, so that a seeded match plays out on the live site as it
    did in the engine alone (tests/e2e/test_kdvli.py).  None everywhere else."""
    if not test_mode():
        return None
    return SeededRNG(f"{match.seed}:bot:{orjson.dumps(spec.turn_key(st)).decode()}:{seat}")


def _bot_view(spec, st, seat: int) -> dict:
    """P-1: a bot gets a detached JSON copy of its seat's view, nothing else."""
    return orjson.loads(orjson.dumps(spec.view_for(st, seat)))
