"""The one path for every write to a match (house style: "One path for every action").

Human moves (consumer), bot moves, timeouts and the next-hand timer (Celery) and admin
actions all call these functions.  Each one:

1. opens a transaction and locks the match row (``SELECT … FOR UPDATE``, through
   ``game.rows``: plain SQL on PostgreSQL, the ORM elsewhere);
2. refuses a stale ``expected_version``; applies an overdue timeout first;
3. lets the engine apply the action (an illegal one raises and nothing is saved);
4. saves the new state with ``version + 1``, the next deadline and one ``MatchAction``;
5. after commit, broadcasts every seat its own view (``game.broadcast``, from the thread
   that committed) and schedules bot moves.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import datetime, timedelta

import orjson
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from game import events, portal, rows, seat_gate
from game.engine import protocol, registry
from game.engine.errors import EngineError
from game.engine.fair import SeededRNG, new_seed
from game.engine.protocol import InputError
from game.errors import ServiceError
from game.models import HandResult, Match, MatchAction, MatchSeat

log = logging.getLogger(__name__)
BOT_LEVELS = protocol.BOT_LEVELS
# action types only the server sends, for every game: a seat's time running out is the
# timer's (K-N7; the game's on_timeout); a player sending one is refused (issue 16)
SERVER_TYPES = ("timeout",)


@dataclass
class Outcome:
    match: Match
    events: list


# --- helpers ---------------------------------------------------------------------------


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


# --- creating and starting ----------------------------------------------------------------


def match_create(*, users: list, game: str, options: dict | None = None,
                 bot_levels: list | None = None, rated=True,
                 level: str = "orta", move_seconds: int | None = None, partners: bool = False,
                 watchers_allowed=False, host=None, seed: str | None = None,
                 now: datetime | None = None, rematch_of=None,
                 kind: str = Match.Kind.NORMAL, leave_others: bool = False,
                 guests: dict[int, str] | None = None,
                 test_options: dict | None = None) -> Match:  # fmt: skip
    """Create a match of ``game`` (a user or None per seat; None seats get a bot of
    ``bot_levels[seat]``, default the table level's, P-7) and deal hand 1
    (``match_start``).  ``options`` are the game's own (its ``clean_options`` checks
    them).  ``kind`` "trial": the game's guided first hand (``game.tutorial``).
    ``leave_others``: the players start this match themselves (the practice form, a
    lobby table, a rematch): P-5, it counts as leaving the rated matches of the same
    game they still sit in.  ``guests``: seat -> guest key, the seats of visitors
    without an account (issue 27, ``game.guests``; their ``users`` entry is None).
    ``test_options``: browser tests only (``DEBUG`` and ``KUT_TEST_SEEDS``, else
    refused): options the game reads at the deal that no player may choose
    (Kelimeki's short bag), added after ``clean_options``."""
    try:
        spec = registry.get(game)
    except KeyError:
        raise ServiceError("bad_game") from None
    options = dict(options or {})
    if spec.partners:
        options["partners"] = bool(partners)  # P-8: the game scores teams itself
    elif partners:
        raise ServiceError("bad_options")
    try:
        options = spec.clean_options(options)
    except InputError:
        raise ServiceError("bad_options") from None
    if len(users) not in spec.seat_counts:
        raise ServiceError("four_seats" if spec.seat_counts == (4,) else "bad_seat_count")
    try:
        default_level = portal.bot_level(level)
        move_seconds = portal.move_seconds(spec, move_seconds) if rated else None
    except portal.PortalError:
        raise ServiceError("bad_options") from None
    # A game that keeps the table's own settings among its options (King G-T1, Kastet
    # S-M2: rated or test, the move time) gets the table's, not its defaults; a test
    # table's move time is the game's own choice (none for King, unused for Kastet).
    if "rated" in options and options["rated"] != bool(rated):
        synced = {k: v for k, v in options.items() if k != "move_seconds"}
        synced["rated"] = bool(rated)
    else:
        synced = dict(options)
    if rated and "move_seconds" in options and move_seconds is not None:
        synced["move_seconds"] = move_seconds
    if synced != options:
        try:
            options = spec.clean_options(synced)
        except InputError:
            raise ServiceError("bad_options") from None
    if test_options:
        if not test_mode():
            raise ServiceError("bad_options")
        options = {**options, **test_options}
    guests = guests or {}
    levels = list(bot_levels or [default_level] * len(users))
    now = _now(now)
    for user in users:  # issue 27: the one gate (bans, P-11), before anything changes
        seat_gate.check(user, game, rated=rated, now=now)
    with transaction.atomic():
        for user in users if leave_others else ():
            if user is not None:
                leave_rated_matches(user, game, now)  # P-5: a new match counts as leaving
        match = Match.objects.create(
            game=game, options=options, level=level, move_seconds=move_seconds,
            partners=partners, rated=rated, watchers_allowed=watchers_allowed, host=host,
            seed=seed or new_seed(), rematch_of=rematch_of, kind=kind,
        )  # fmt: skip
        for seat, user in enumerate(users):
            guest = "" if user is not None else guests.get(seat, "")
            level = "" if user is not None or guest else (levels[seat] or default_level)
            if level and level not in BOT_LEVELS:
                raise ServiceError("bad_bot_level")
            MatchSeat.objects.create(match=match, seat=seat, user=user, bot_level=level,
                                     guest_key=guest)  # fmt: skip
        match_start(match, now)
    return match


def leave_rated_matches(user, game: str, now: datetime | None = None) -> list[int]:
    """P-5: starting a new match of the same game counts as leaving every rated match
    of that game the player is still seated in and that is still running (K-X3: a bot
    takes the seat; the ranking counts the leave when that match ends).  Returns their
    ids.  Nothing at a game without leaving rules (several at once, Kelimeki's W-X4)."""
    left = []
    for match_id in seat_gate.running_rated(user, game):
        try:
            match_leave(match_id, user, now)
        except ServiceError:  # closed or left meanwhile
            continue
        left.append(match_id)
    return left


def match_start(match: Match, now: datetime) -> None:
    """K-M6: draw the first starter and deal hand 1 (inside the creating transaction)."""
    st = match_initial_state(match)
    seats = _seats(match)
    match.status = Match.Status.PLAYING
    match.version = 0
    _save(match, _spec(match), st, seats, now, None, (None, "start", {}, MatchAction.Actor.SYSTEM))


def match_initial_state(match: Match):
    """The state before the first move: hand 1 dealt from the seed, or the guided first
    hand's scripted deal (the game's ``tutorial``)."""
    if match.kind == Match.Kind.TRIAL:
        return _spec(match).tutorial.initial_state(match.seed)
    seats = match.seats.count() or max(_spec(match).seat_counts)
    return _spec(match).new_match(match.options, seats, _rng_for_hand(match.seed, 1))


# --- the action path ---------------------------------------------------------------------


def match_apply_action(match_id: int, seat: int, action: dict, expected_version: int | None,
                       now: datetime | None = None,
                       actor: str = MatchAction.Actor.HUMAN) -> Outcome:  # fmt: skip
    """Apply one action of ``seat``.  Raises ServiceError or an EngineError (whose
    ``code`` is stable); nothing of the refused action is saved."""
    now = _now(now)
    if isinstance(action, dict) and action.get("type") == "back":
        return match_back(match_id, seat)  # *Geri döndüm* (K-N7)
    error: Exception | None = None
    with transaction.atomic():
        match, seats = _locked_with_seats(match_id)  # one round trip on PostgreSQL
        if match.status != Match.Status.PLAYING:
            raise ServiceError("match_not_running")
        kind = action.get("type") if isinstance(action, dict) else None
        kind = kind if isinstance(kind, str) else None  # a list is not a type (fuzzer)
        if actor == MatchAction.Actor.HUMAN and kind in SERVER_TYPES:
            raise ServiceError("unknown_action")  # only the server times a seat out (K-N7)
        if kind in _spec(match).private_kinds:
            return _apply_layout(match, seat, action, actor, seats)
        if expected_version is not None and expected_version != match.version:
            raise ServiceError("stale_version", f"now at {match.version}")
        seats = seats if seats is not None else _seats(match)
        _check_seated(seats, seat, actor)
        spec = _spec(match)
        st = spec.from_dict(match.state)
        happened: list = []
        if match.deadline is not None and now >= match.deadline:
            happened += _apply_timeout(match, spec, st, seats, now)  # the timer ran out first
            if match.status != Match.Status.PLAYING:
                raise ServiceError("match_not_running")
        turn_before = _turn_key(spec, st)
        try:
            if match.kind == Match.Kind.TRIAL and actor == MatchAction.Actor.HUMAN:
                spec.tutorial.check_action(st, seat, action)  # K-X1: keep to the script
            happened += spec.apply(st, seat, action, _ts(now))
        except EngineError as exc:
            error = exc
        if error is None:
            if actor == MatchAction.Actor.HUMAN:
                s = seats[seat]
                if s.away:
                    s.away = False  # the player acts again (K-N7)
                    s.away_since = None
                    s.save(update_fields=["away", "away_since"])
            _finish_hand_if_over(match, spec, st, now)
            if match.kind == Match.Kind.TRIAL:
                if spec.tutorial.completed(st) and seats[spec.tutorial.human_seat].user_id:
                    events.after_commit(events.tutorial_completed, game=match.game,
                                        user_id=seats[spec.tutorial.human_seat].user_id)  # fmt: skip
            kind = action.get("type", "") if isinstance(action, dict) else ""
            _save(match, spec, st, seats, now, turn_before,
                  (seat, kind, spec.log_form(action), actor))  # fmt: skip
    if error is not None:
        raise error
    return Outcome(match, happened)


def _check_seated(seats: list[MatchSeat], seat, actor: str) -> None:
    """A player who left (K-X3) has left: nothing more of theirs is applied, whatever
    socket it comes from (issue 16)."""
    if actor == MatchAction.Actor.HUMAN and isinstance(seat, int) and 0 <= seat < len(seats):
        if seats[seat].left:
            raise ServiceError("left")


def _apply_layout(match: Match, seat: int, action: dict, actor: str, seats=None) -> Outcome:
    """A seat's private rack layout (K-R2..K-R4, issue 16): the seat's own business.  It
    never changes the shared version (no other seat's move becomes stale, so no version
    is checked either), never moves a deadline or a bot's turn, applies no overdue
    timeout and does not count as the player acting again (K-N7's *away*).  Only this
    seat's sockets get the new frame; it is logged with the seat's ``layout_version``
    so that replays rebuild the rack exactly.  ``seats``: read with the lock, if they were."""
    seats = seats if seats is not None else _seats(match)
    _check_seated(seats, seat, actor)
    spec = _spec(match)
    st = spec.from_dict(match.state)
    happened = spec.apply(st, seat, action, 0.0)  # an illegal layout raises: nothing is saved
    match.state = spec.to_dict(st)
    own = seats[seat]
    own.layout_version += 1
    row = MatchAction(
        match=match, version=match.version, layout_version=own.layout_version,
        hand_no=hand_no_of(spec, st), seat=seat, kind=action["type"],
        payload=spec.log_form(action), actor=actor,
    )  # fmt: skip
    rows.save_layout(match, own, row)
    events.after_commit(events.seat_changed, match_id=match.pk, match=match, seats=seats,
                        state=st, seat=seat)  # fmt: skip
    return Outcome(match, happened)


def match_back(match_id: int, seat: int) -> Outcome:
    """K-N7: the player of an away seat says *Geri döndüm*: they play their seat again
    from now on (the same as acting again, without a move).  Nothing in the hand
    changes, so the version stays; everyone gets the new seat labels."""
    with transaction.atomic():
        match = _locked(match_id)
        if not match.running:
            raise ServiceError("match_not_running")
        s = match.seats.filter(seat=seat).first()
        if s is None or s.left or not s.human:
            raise ServiceError("not_seated")
        if not s.away:
            raise ServiceError("not_away")
        s.away = False
        s.away_since = None
        s.save(update_fields=["away", "away_since"])
        events.after_commit(events.presence_changed, match_id=match_id)
    return Outcome(match, [])


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


def match_next_hand(match_id: int, expected_version: int | None = None,
                    now: datetime | None = None, force: bool = False) -> bool:  # fmt: skip
    """K-M4: after the score table, deal the next task's hand (idempotent)."""
    now = _now(now)
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.BETWEEN:
            return False
        if expected_version is not None and expected_version != match.version:
            return False
        if not force and match.deadline is not None and now < match.deadline:
            return False
        seats = _seats(match)
        spec = _spec(match)
        st = spec.from_dict(match.state)
        turn_before = _turn_key(spec, st)
        steps = match.actions.filter(kind="next_hand").count()
        spec.start_next_hand(st, _rng_for_next_hand(match.seed, len(spec.hand_results(st)), steps))
        match.status = Match.Status.PLAYING
        match.deadline = None
        _save(
            match,
            spec,
            st,
            seats,
            now,
            turn_before,
            (None, "next_hand", {"type": "next_hand"}, MatchAction.Actor.SYSTEM),
        )
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


def test_mode() -> bool:
    """The browser tests' fixed deals (``DEBUG`` and ``KUT_TEST_SEEDS``), never in
    production."""
    return bool(settings.DEBUG and getattr(settings, "KUT_TEST_SEEDS", False))


def _bot_view(spec, st, seat: int) -> dict:
    """P-1: a bot gets a detached JSON copy of its seat's view, nothing else."""
    return orjson.loads(orjson.dumps(spec.view_for(st, seat)))


def match_seat_connected(match_id: int, seat: int, connected: bool,
                         now: datetime | None = None) -> None:  # fmt: skip
    """A seat's socket came or went: one UPDATE, then everyone gets the new labels.  (A
    move committed just before may still show the old flag until the next frame: its
    broadcast labels the seats it read under its lock.  Not worth taking the match's
    row lock on every connect and disconnect.)  P-13: the moment of the drop is kept;
    a player who comes back gets the seat back from the bot that stood in for the drop."""
    seats = MatchSeat.objects.filter(match_id=match_id, seat=seat)
    if connected:
        updated = seats.update(connected=True, disconnected_at=None)
        seats.filter(dropped=True).update(dropped=False, away=False, away_since=None)
    else:
        updated = seats.update(connected=False, disconnected_at=_now(now))
    if updated:
        events.after_commit(events.presence_changed, match_id=match_id)


def match_seat_dropped(match_id: int, seat_no: int, now: datetime | None = None) -> bool:
    """P-13: the seat's player has had no socket for ``KUT_DROP_GRACE_SECONDS``: a bot
    plays their turns from now on; the seat stays theirs (for ``KUT_AWAY_LEAVE_SECONDS``
    in all, ``match_drop_leave``).  Checked again under the row lock; idempotent."""
    now = _now(now)
    grace = timedelta(seconds=settings.KUT_DROP_GRACE_SECONDS)
    with transaction.atomic():
        match = _locked(match_id)
        if not match.running:
            return False
        seats = _seats(match)
        s = seats[seat_no]
        if (s.connected or s.left or s.away or s.bot_level or s.user_id is None
                or s.disconnected_at is None or now - s.disconnected_at < grace):  # fmt: skip
            return False
        s.away, s.dropped, s.away_since = True, True, s.disconnected_at
        s.save(update_fields=["away", "dropped", "away_since"])
        if match.status == Match.Status.PLAYING:
            spec = _spec(match)
            st = spec.from_dict(match.state)
            _schedule(match, spec, st, seats, now, False)
            match.save(update_fields=["bot_due"])
        mid = match.pk
        events.after_commit(events.match_changed, match_id=mid)
    return True


def match_drop_leave(match_id: int, seat_no: int, now: datetime | None = None) -> bool:
    """P-13, P-5: a dropped player who has not come back for ``KUT_AWAY_LEAVE_SECONDS``
    has left the match (the seat is then free for a replacement, P-12)."""
    now = _now(now)
    limit = timedelta(seconds=settings.KUT_AWAY_LEAVE_SECONDS)
    s = MatchSeat.objects.filter(match_id=match_id, seat=seat_no).select_related("user").first()
    if (s is None or s.connected or s.left or s.user_id is None or s.disconnected_at is None
            or now - s.disconnected_at < limit):  # fmt: skip
        return False
    try:
        match_leave(match_id, s.user, now, reason="dropped")
    except ServiceError:
        return False
    return True


# --- P-12: replacing a player who left ----------------------------------------------------


def match_seat_request(match_id: int, user, seat_no, now: datetime | None = None) -> MatchSeat:
    """P-12: ``user`` asks to take a seat that was left (a bot plays it meanwhile); the
    host answers with *Devam* (``match_seat_answer``) or declines.  The seat gate
    (``game.seat_gate``: bans, P-11) refuses at once with its message."""
    now = _now(now)
    try:
        seat_no = int(seat_no)
    except (TypeError, ValueError):
        raise ServiceError("bad_seat") from None
    with transaction.atomic():
        match = _locked(match_id)
        if not match.running or match.kind != Match.Kind.NORMAL:
            raise ServiceError("match_not_running")
        seats = _seats(match)
        if not 0 <= seat_no < len(seats):
            raise ServiceError("bad_seat")
        if any(s.user_id == user.pk or s.left_user_id == user.pk for s in seats):
            raise ServiceError("already_in_match")  # a leaver does not come back (P-5)
        s = seats[seat_no]
        if not s.left or s.user_id is None or not _spec(match).leaving_rules:
            raise ServiceError("seat_not_vacant")  # W-X5: no P-12 where leaving forfeits
        if s.request_user_id is not None and s.request_user_id != user.pk:
            raise ServiceError("seat_requested")
        seat_gate.check(user, match.game, rated=match.rated, now=now)  # issue 27
        s.request_user, s.request_at = user, now
        s.save(update_fields=["request_user", "request_at"])
        events.after_commit(events.presence_changed, match_id=match_id)
        return s


def match_seat_answer(match_id: int, host, seat_no, accept: bool,
                      now: datetime | None = None) -> MatchSeat:  # fmt: skip
    """P-12: the host answers a request: *Devam* seats the replacement (who loses no
    ranking points if the match is lost and gains them if it is won), or declines.
    *Devam* passes the seat gate again (``newcomer_refused``: banned or barred since
    the request; the request stays for the host to decline) and, as a new match would
    (P-5), makes the replacement leave the rated matches of the game they still play."""
    now = _now(now)
    try:
        seat_no = int(seat_no)
    except (TypeError, ValueError):
        raise ServiceError("bad_seat") from None
    with transaction.atomic():
        match = _locked(match_id)
        if match.host_id is None or host is None or match.host_id != host.pk:
            raise ServiceError("not_host")
        if not match.running:
            raise ServiceError("match_not_running")
        seats = _seats(match)
        if not 0 <= seat_no < len(seats) or seats[seat_no].request_user_id is None:
            raise ServiceError("no_request")
        s = seats[seat_no]
        newcomer = s.request_user
        if accept and not seat_gate.allowed(newcomer, match.game, rated=match.rated, now=now):
            raise ServiceError("newcomer_refused")  # issue 27: banned or barred since
        s.request_user, s.request_at = None, None
        if not accept:
            s.save(update_fields=["request_user", "request_at"])
            events.after_commit(events.presence_changed, match_id=match_id)
            return s
        leave_rated_matches(newcomer, match.game, now)  # P-5: as a new match would
        s.left_user, s.left_user_at = s.user, s.left_at
        s.user, s.replacement = newcomer, True
        s.left, s.left_at, s.away, s.away_since, s.dropped = False, None, False, None, False
        s.connected, s.disconnected_at = False, None
        s.save()
        spec = _spec(match)
        st = spec.from_dict(match.state)
        _save(
            match, spec, st, seats, now, _turn_key(spec, st),
            (s.seat, "replace", {"type": "replace", "user": newcomer.pk}, MatchAction.Actor.SYSTEM),
        )  # fmt: skip
        return s


def match_leave(match_id: int, user, now: datetime | None = None,
                reason: str = "exit") -> MatchSeat:  # fmt: skip
    """K-X3: the player leaves; a bot takes the seat for the rest of the match.  When no
    human is left, the match is closed as abandoned."""
    now = _now(now)
    with transaction.atomic():
        match = _locked(match_id)
        seat = match.seats.filter(user=user, left=False).first()
        if seat is None:
            raise ServiceError("not_seated")
        seat.left = True
        seat.left_at = now
        spec = _spec(match)
        st = spec.from_dict(match.state)
        seat.left_in_hand = hand_no_of(spec, st)
        seat.save(update_fields=["left", "left_at", "left_in_hand"])
        left_seat = seat.seat
        events.after_commit(events.seat_closed, match_id=match_id, seat=left_seat)
        if match.running:
            events.after_commit(events.player_left, match_id=match_id, user_id=user.pk)
        seats = _seats(match)
        humans = [s for s in seats if s.human and not s.left]
        if not match.running:
            match.save()
            return seat
        payload = {"type": "leave", "user": user.pk, "reason": reason}
        turn_before = _turn_key(spec, st)
        if _forfeits(spec, st, seat.seat, now):  # W-X5: leaving is the game's forfeit
            payload["forfeit"] = True
            _finish_hand_if_over(match, spec, st, now)
        if match.running and not humans:  # K-X3: no human left: the table closes
            match.status = Match.Status.ABANDONED
            match.finished_at = now
            match.deadline = None
            events.after_commit(events.match_finished, match_id=match.pk)
        _save(
            match, spec, st, seats, now, turn_before,
            (seat.seat, "leave", payload, MatchAction.Actor.SYSTEM),
        )  # fmt: skip
        return seat


def _forfeits(spec, st, seat: int, now: datetime) -> bool:
    """A game without P-5's leaving rules (``leaving_rules = False``) whose GAME has
    ``forfeit``: leaving is that game's forfeit of the seat (Kelimeki W-X5, W-E6) — the
    engine takes it out of play instead of a bot playing on for it.  False when the game
    has no such hook or the engine had nothing to do (the seat forfeited already)."""
    if spec.forfeit is None or spec.leaving_rules:
        return False
    try:
        spec.forfeit(st, seat, _ts(now))
    except EngineError:
        return False
    return True


def match_abort(match_id: int, now: datetime | None = None) -> None:
    """Admin: stop a running match; nothing is written to any ranking."""
    now = _now(now)
    with transaction.atomic():
        match = _locked(match_id)
        if not match.running:
            raise ServiceError("match_not_running")
        match.status = Match.Status.ABORTED
        match.finished_at = now
        match.deadline = None
        match.bot_due = None
        match.version += 1
        match.save()
        mid = match.pk
        events.after_commit(events.match_changed, match_id=mid)


def abandon_reason(match: Match, seats: list[MatchSeat], now: datetime) -> str | None:
    """Housekeeping: why a running match should be closed as abandoned, or None.

    ``no_humans``: no human player is left at the table (K-X3; ``match_leave`` closes the
    table itself, this catches the rest, e.g. deleted accounts).  ``inactive``: no human
    is connected and none has acted for ``KUT_ABANDON_AFTER_SECONDS`` (e.g. a test table,
    which has no timer, left behind on a human's turn)."""
    humans = [s for s in seats if s.human and not s.left]
    if not humans:
        return "no_humans"
    if any(s.connected for s in humans):
        return None
    last = (
        match.actions.filter(actor=MatchAction.Actor.HUMAN)
        .order_by("-version")
        .values_list("created_at", flat=True)
        .first()
    ) or match.created_at
    if now - last >= timedelta(seconds=settings.KUT_ABANDON_AFTER_SECONDS):
        return "inactive"
    return None


def match_close_abandoned(match_id: int, expected_version: int | None = None,
                          now: datetime | None = None) -> str | None:  # fmt: skip
    """Close a running match as abandoned if ``abandon_reason`` says so, checked again
    under the row lock (idempotent: a stale version or a match that came back to life
    does nothing).  Returns the reason, or None when nothing was done.  The finish
    hooks are called after commit, as for every match that ends."""
    now = _now(now)
    with transaction.atomic():
        try:
            match = _locked(match_id)
        except ServiceError:
            return None
        if not match.running:
            return None
        if expected_version is not None and expected_version != match.version:
            return None
        seats = _seats(match)
        reason = abandon_reason(match, seats, now)
        if reason is None:
            return None
        spec = _spec(match)
        st = spec.from_dict(match.state)
        match.status = Match.Status.ABANDONED
        match.finished_at = now
        match.deadline = None
        events.after_commit(events.match_finished, match_id=match.pk)
        _save(
            match,
            spec,
            st,
            seats,
            now,
            _turn_key(spec, st),
            (None, "abandon", {"type": "abandon", "reason": reason}, MatchAction.Actor.SYSTEM),
        )
        return reason


# --- reading -----------------------------------------------------------------------------------


def seat_of(match: Match, user) -> int | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    for s in match.seats.all():
        if s.user_id == user.pk and not s.left:
            return s.seat
    return None


def played_in(match: Match, user) -> bool:
    """Whether ``user`` had a seat in ``match``, even one they left (issue 15: a finished
    match's page always works for its players)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return any(s.user_id == user.pk for s in match.seats.all())


def may_view(match: Match, user) -> bool:
    """Who may see a match without a seat in it: anyone where watching is allowed; a
    player who left (K-X3) once the match is over, to see its final result."""
    return match.watchers_allowed or (not match.running and played_in(match, user))


def match_replay_iter(match: Match):
    """Rebuild the state from the seed and the action log, one log entry at a time:
    yields ``(action row, state after it)`` — the same state object, changed in place
    (replays, history; copy what you keep)."""
    spec = _spec(match)
    st = None
    steps = 0
    for act in match.actions.order_by("version", "layout_version", "seat").iterator():
        now = _ts(act.created_at)
        if act.kind == "start":
            st = match_initial_state(match)
        elif act.kind == "next_hand":
            spec.start_next_hand(
                st, _rng_for_next_hand(match.seed, len(spec.hand_results(st)), steps)
            )
            steps += 1
        elif act.kind == "timeout":
            spec.on_timeout(st, act.seat, now)
        elif act.kind == "leave" and (act.payload or {}).get("forfeit"):
            spec.forfeit(st, act.seat, now)  # W-X5: the leave forfeited the seat
        elif act.kind not in ("leave", "abandon", "replace"):
            spec.apply(st, act.seat, act.payload, now)
        if match.kind == Match.Kind.TRIAL and spec.hand_over(st):
            spec.tutorial.finish(st)
        yield act, st


def match_replay(match: Match):
    """Rebuild the state from the seed and the action log (determinism check, replays)."""
    last = None
    for _act, st in match_replay_iter(match):
        last = st
    return last
