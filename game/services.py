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

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from game import rows, trial
from game.engine import bots
from game.engine.actions import LAYOUT_TYPES, logged_form
from game.engine.deal import SeededRNG, new_seed
from game.engine.errors import EngineError
from game.engine.match import MatchState, new_match, record_hand, start_next_hand
from game.engine.timing import AWAY_AFTER_TIMEOUTS
from game.engine.transitions import apply
from game.engine.views import can_claim, view_for
from game.models import HandResult, Match, MatchAction, MatchSeat

BOT_LEVELS = bots.LEVELS


class ServiceError(Exception):
    """A refused request that is not a rule of the game (stale version, not seated…)."""

    def __init__(self, code: str, detail: str = ""):
        self.code = code
        self.detail = detail
        super().__init__(f"{code}: {detail}" if detail else code)


@dataclass
class Outcome:
    match: Match
    events: list


# --- helpers ---------------------------------------------------------------------------


def _now(now: datetime | None) -> datetime:
    return now or timezone.now()


def _turn_seconds() -> int:
    return settings.KUT_TURN_SECONDS


def _rng_for_hand(seed: str, hand_no: int) -> SeededRNG:
    return SeededRNG(f"{seed}:{hand_no}")


def _seats(match: Match) -> list[MatchSeat]:
    # with their users: the broadcast after commit labels the seats from this same list
    return rows.seats_of(match)


def _turn_key(ms: MatchState):
    h = ms.hand
    return (ms.hand_no, h.table_turn, h.turn) if h is not None else None


def _bot_seats(seats: list[MatchSeat]) -> set[int]:
    return {s.seat for s in seats if s.bot_controlled}


def _schedule(match: Match, ms: MatchState, seats: list[MatchSeat], now: datetime,
              turn_changed: bool, layout_only: bool = False) -> None:  # fmt: skip
    """Deadlines and bot timing after a change (K-N6, K-M4, P-3).  ``layout_only``: the
    change was a human's rack layout, which moves nobody's turn on: a bot keeps its
    time (a claim window is never cut short by someone sorting their rack)."""
    hand = ms.hand
    if match.status == Match.Status.PLAYING and hand is not None and not hand.over:
        if turn_changed or match.turn_started is None:
            match.turn_started = now
        if match.rated:
            match.deadline = match.turn_started + timedelta(seconds=_turn_seconds())
        else:
            match.deadline = None  # P-3: test tables have no move timer
        if layout_only and match.bot_due is not None:
            return
        botset = _bot_seats(seats)
        bot_turn = hand.turn in botset
        bot_claim = hand.claimable and any(can_claim(hand, s) for s in botset)
        if bot_turn and _stands_in(seats[hand.turn]):
            match.bot_due = now  # K-N7: a bot plays an away seat at once
        elif bot_turn or bot_claim:
            match.bot_due = now + timedelta(seconds=bot_think_seconds(hand, seats, botset))
        else:
            match.bot_due = None
    else:
        match.turn_started = None
        match.bot_due = None


def bot_think_seconds(hand, seats: list[MatchSeat], botset: set[int],
                      rng: random.Random | None = None) -> float:  # fmt: skip
    """How long a bot "thinks" before its next move: a human pace (issue 15).

    ``KUT_BOT_DELAY_SECONDS`` is the base (0: "fast bots", every move at once — tests).
    Taking a tile is quick (0.8 x base), playing and discarding slower (1.3 x base), each
    varied by ±25 % so that a table does not tick like a metronome.  K-C1/K-C5: when a
    bot has drawn from the centre and a human may claim the thrown tile, the bot waits at
    least ``KUT_CLAIM_WINDOW_SECONDS`` (up to 15 % more) before it plays on, so the human
    has time to press *Atılan Taşı Al* (the table shows the countdown, ``bot_due``)."""
    base = float(settings.KUT_BOT_DELAY_SECONDS)
    if base <= 0:
        return 0.0
    rng = rng or random
    factor = 0.8 if hand.phase == "take" else 1.3
    think = base * factor * rng.uniform(0.75, 1.25)
    if hand.turn in botset and hand.phase == "play" and _human_may_claim(hand, seats, botset):
        think = max(think, float(settings.KUT_CLAIM_WINDOW_SECONDS) * rng.uniform(1.0, 1.15))
    return think


def _human_may_claim(hand, seats: list[MatchSeat], botset: set[int]) -> bool:
    return any(can_claim(hand, s) for s in range(4) if s not in botset)


def _stands_in(seat: MatchSeat) -> bool:
    """A bot plays this human's seat because the player timed out twice (K-N7)."""
    return seat.away and not seat.left and not seat.bot_level and seat.user_id is not None


def _finish_hand_if_over(match: Match, ms: MatchState, now: datetime) -> None:
    hand = ms.hand
    if hand is None or not hand.over or len(ms.results) >= ms.hand_no:
        return
    result = _record(match, ms)
    HandResult.objects.create(
        match=match, hand_no=result["hand_no"], task_no=result["task_no"],
        finisher=result["finisher"], scores=result["scores"], lines=result["lines"],
    )  # fmt: skip
    if ms.over:
        match.status = Match.Status.FINISHED
        match.finished_at = now
        match.deadline = None
        transaction.on_commit(lambda mid=match.pk: _on_finished(mid))
    else:
        match.status = Match.Status.BETWEEN
        match.deadline = now + timedelta(seconds=settings.KUT_NEXT_HAND_SECONDS)  # K-M4


def _record(match: Match, ms: MatchState) -> dict:
    """Record the finished hand (K-S6); a trial match (K-X1) ends with its one hand."""
    result = record_hand(ms)
    if match.kind == Match.Kind.TRIAL:
        ms.over = True
    return result


def _on_finished(match_id: int) -> None:
    """After a match ends (finished or abandoned): call ``KUT_MATCH_FINISHED_HOOKS``
    (dotted paths, each called with the match id) — ranking and history live there."""
    from django.utils.module_loading import import_string

    for path in getattr(settings, "KUT_MATCH_FINISHED_HOOKS", []):
        import_string(path)(match_id)


def _save(match: Match, ms: MatchState, seats, now, turn_before, log: tuple | None) -> None:
    """Store the new state as ``version + 1`` with its log row; broadcast after commit."""
    layout_only = False
    match.state = ms.to_dict()
    match.version += 1
    row = None
    if log is not None:
        seat, kind, payload, actor = log
        row = MatchAction(
            match=match, version=match.version, hand_no=ms.hand_no, seat=seat, kind=kind,
            payload=payload, actor=actor,
        )  # fmt: skip
        layout_only = kind in LAYOUT_TYPES and actor == MatchAction.Actor.HUMAN
    _schedule(match, ms, seats, now, _turn_key(ms) != turn_before, layout_only)
    rows.save_match(match, row)
    mid = match.pk
    transaction.on_commit(lambda: _after_commit(mid, match, seats, ms))


def _after_commit(match_id: int, match: Match | None = None, seats=None, ms=None) -> None:
    """Broadcast and schedule bots.  ``match``, ``seats`` and ``ms`` are the row, its
    seats and its state as this transaction committed them (read under the row lock:
    nothing is read again or parsed again); without them they are reloaded."""
    from game import broadcast, runner

    broadcast.match_broadcast(match_id, match, seats, ms)
    if match is None or match.bot_due is not None:  # kick() does nothing without a bot due
        runner.kick(match_id)


def _apply_timeout(match: Match, ms: MatchState, seats, now) -> list:
    """K-N7: complete the turn of the seat whose time ran out.  A bot-controlled seat
    never times out (issue 15): its time can only run out because its move was late (a
    busy worker), so the bot's own move is played instead."""
    hand = ms.hand
    seat = hand.turn
    botset = _bot_seats(seats)
    if seat in botset:
        played = _bot_move(match, ms, seats, botset, now, random.Random(), turn_only=True)
        if played is not None:
            return played
    turn_before = _turn_key(ms)
    events = apply(hand, seat, {"type": "timeout"})
    ms_seat = seats[seat]
    if hand.timeouts[seat] >= AWAY_AFTER_TIMEOUTS and not ms_seat.away and not ms_seat.bot_level:
        ms_seat.away = True  # K-N7: a bot plays the seat until the player acts again
        ms_seat.away_since = now
        ms_seat.save(update_fields=["away", "away_since"])
    _finish_hand_if_over(match, ms, now)
    _save(
        match,
        ms,
        seats,
        now,
        turn_before,
        (seat, "timeout", {"type": "timeout"}, MatchAction.Actor.TIMER),
    )
    return events


def _locked(match_id: int) -> Match:
    match = rows.lock_match(match_id)
    if match is None:
        raise ServiceError("no_such_match")
    return match


# --- creating and starting ----------------------------------------------------------------


def match_create(*, tasks: int, users: list, bot_levels: list | None = None, rated=True,
                 watchers_allowed=False, host=None, seed: str | None = None,
                 now: datetime | None = None, rematch_of=None,
                 kind: str = Match.Kind.NORMAL, leave_others: bool = False) -> Match:  # fmt: skip
    """Create a match for four seats (a user or None per seat; None seats get a bot of
    ``bot_levels[seat]``, default normal) and deal hand 1 (``match_start``).  ``kind``
    "trial": the scripted trial hand (``game.trial``, K-X1).  ``leave_others``: the
    players start this match themselves (the practice form, a lobby table, a rematch):
    P-5, it counts as leaving the rated matches they still sit in."""
    if tasks not in (5, 8, 12):
        raise ServiceError("bad_tasks")
    if len(users) != 4:
        raise ServiceError("four_seats")
    levels = list(bot_levels or ["normal"] * 4)
    now = _now(now)
    with transaction.atomic():
        for user in users if leave_others else ():
            if user is not None:
                leave_rated_matches(user, now)  # P-5: a new match counts as leaving
        match = Match.objects.create(
            tasks=tasks, rated=rated, watchers_allowed=watchers_allowed, host=host,
            seed=seed or new_seed(), rematch_of=rematch_of, kind=kind,
        )  # fmt: skip
        for seat, user in enumerate(users):
            level = "" if user is not None else (levels[seat] or "normal")
            if level and level not in BOT_LEVELS:
                raise ServiceError("bad_bot_level")
            MatchSeat.objects.create(match=match, seat=seat, user=user, bot_level=level)
        match_start(match, now)
    return match


def leave_rated_matches(user, now: datetime | None = None) -> list[int]:
    """P-5: starting a new match of the same game counts as leaving every rated match
    the player is still seated in and that is still running (K-X3: a bot takes the
    seat; the ranking counts the leave when that match ends).  Returns their ids."""
    running = Match.objects.filter(
        status__in=[Match.Status.PLAYING, Match.Status.BETWEEN],
        kind=Match.Kind.NORMAL,
        rated=True,
        seats__user=user,
        seats__left=False,
    ).values_list("pk", flat=True)
    left = []
    for match_id in sorted(set(running)):
        try:
            match_leave(match_id, user, now)
        except ServiceError:  # closed or left meanwhile
            continue
        left.append(match_id)
    return left


def match_start(match: Match, now: datetime) -> None:
    """K-M6: draw the first starter and deal hand 1 (inside the creating transaction)."""
    ms = match_initial_state(match)
    seats = _seats(match)
    match.status = Match.Status.PLAYING
    match.version = 0
    _save(match, ms, seats, now, None, (None, "start", {}, MatchAction.Actor.SYSTEM))


def match_initial_state(match: Match) -> MatchState:
    """The state before the first move: hand 1 dealt from the seed, or the trial
    hand's scripted deal."""
    if match.kind == Match.Kind.TRIAL:
        return trial.initial_state(match.seed)
    return new_match(match.tasks, _rng_for_hand(match.seed, 1))


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
        match = _locked(match_id)
        if match.status != Match.Status.PLAYING:
            raise ServiceError("match_not_running")
        if expected_version is not None and expected_version != match.version:
            raise ServiceError("stale_version", f"now at {match.version}")
        seats = _seats(match)
        ms = MatchState.from_dict(match.state)
        events: list = []
        if match.deadline is not None and now >= match.deadline:
            events += _apply_timeout(match, ms, seats, now)  # the timer ran out first
            if match.status != Match.Status.PLAYING:
                raise ServiceError("match_not_running")
        turn_before = _turn_key(ms)
        try:
            if match.kind == Match.Kind.TRIAL and actor == MatchAction.Actor.HUMAN:
                trial.check_action(ms.hand, seat, action)  # K-X1: keep to the script
            events += apply(ms.hand, seat, action)
        except EngineError as exc:
            error = exc
        if error is None:
            if actor == MatchAction.Actor.HUMAN:
                s = seats[seat]
                if s.away:
                    s.away = False  # the player acts again (K-N7)
                    s.away_since = None
                    s.save(update_fields=["away", "away_since"])
            _finish_hand_if_over(match, ms, now)
            if match.kind == Match.Kind.TRIAL:
                trial.note_progress(match, ms.hand, seats)
            kind = action.get("type", "") if isinstance(action, dict) else ""
            _save(match, ms, seats, now, turn_before, (seat, kind, logged_form(action), actor))
    if error is not None:
        raise error
    return Outcome(match, events)


def match_back(match_id: int, seat: int) -> Outcome:
    """K-N7: the player of an away seat says *Geri döndüm*: they play their seat again
    from now on (the same as acting again, without a move).  Nothing in the hand
    changes, so the version stays; everyone gets the new seat labels."""
    with transaction.atomic():
        match = _locked(match_id)
        if not match.running:
            raise ServiceError("match_not_running")
        s = match.seats.filter(seat=seat).first()
        if s is None or s.left or s.user_id is None:
            raise ServiceError("not_seated")
        if not s.away:
            raise ServiceError("not_away")
        s.away = False
        s.away_since = None
        s.save(update_fields=["away", "away_since"])
        transaction.on_commit(lambda: _presence(match_id))
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
        ms = MatchState.from_dict(match.state)
        _apply_timeout(match, ms, seats, now)
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
        ms = MatchState.from_dict(match.state)
        turn_before = _turn_key(ms)
        start_next_hand(ms, _rng_for_hand(match.seed, ms.hand_no + 1))
        match.status = Match.Status.PLAYING
        match.deadline = None
        _save(
            match,
            ms,
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
        ms = MatchState.from_dict(match.state)
        botset = _bot_seats(seats)
        if _bot_move(match, ms, seats, botset, now, rng) is None:
            match.bot_due = None
            match.save(update_fields=["bot_due"])
            return False
        return True


def _bot_move(match: Match, ms: MatchState, seats, botset: set[int], now: datetime,
              rng: random.Random, turn_only: bool = False) -> list | None:  # fmt: skip
    """Choose and apply one bot decision (inside the caller's locked transaction): a bot
    claim if a bot wants the thrown tile (not with ``turn_only``), else the move of the
    bot-controlled seat whose turn it is.  Returns the events, or None when no bot has
    anything to do (nothing is saved then)."""
    hand = ms.hand
    choice = None
    if match.kind == Match.Kind.TRIAL:
        choice = trial.bot_choice(hand, botset)  # K-X1: scripted moves, or wait
        if turn_only and choice is not None and choice != trial.WAIT and choice[0] != hand.turn:
            choice = None
    if choice is None and hand.claimable and not turn_only:
        for k in (1, 2, 3):
            s = (hand.turn + k) % 4
            if s in botset and can_claim(hand, s):
                level = seats[s].bot_level or "normal"
                if bots.wants_claim(_bot_view(hand, s), level, rng):
                    choice = (s, {"type": "claim"})
                    break
    if choice is None and hand.turn in botset:
        s = hand.turn
        level = seats[s].bot_level or "normal"
        action = bots.choose(_bot_view(hand, s), level, rng)
        if action is not None:
            choice = (s, action)
    if choice is None or choice == trial.WAIT:
        return None
    seat, action = choice
    turn_before = _turn_key(ms)
    try:
        events = apply(hand, seat, action)
    except EngineError:
        # never let a bot stall a table: the rules complete its turn instead
        if seat != hand.turn:
            if hand.turn not in botset:
                return None
            seat = hand.turn
        action = {"type": "timeout"}
        events = apply(hand, seat, action)
    _finish_hand_if_over(match, ms, now)
    _save(match, ms, seats, now, turn_before, (seat, action["type"], action, MatchAction.Actor.BOT))
    return events


def _bot_view(hand, seat: int) -> dict:
    """P-1: a bot gets a detached JSON copy of its seat's view, nothing else."""
    import json

    return json.loads(json.dumps(view_for(hand, seat)))


def match_seat_connected(match_id: int, seat: int, connected: bool) -> None:
    """A seat's socket came or went: one UPDATE, then everyone gets the new labels.  (A
    move committed just before may still show the old flag until the next frame: its
    broadcast labels the seats it read under its lock.  Not worth taking the match's
    row lock on every connect and disconnect.)"""
    updated = MatchSeat.objects.filter(match_id=match_id, seat=seat).update(connected=connected)
    if updated:
        transaction.on_commit(lambda: _presence(match_id))


def _presence(match_id: int) -> None:
    from game import broadcast

    broadcast.match_broadcast(match_id)


def match_leave(match_id: int, user, now: datetime | None = None) -> MatchSeat:
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
        ms = MatchState.from_dict(match.state)
        seat.left_in_hand = ms.hand_no
        seat.save(update_fields=["left", "left_at", "left_in_hand"])
        seats = _seats(match)
        humans = [s for s in seats if s.user_id and not s.left]
        if not match.running:
            match.save()
            return seat
        if not humans:  # K-X3: no human left: the table closes
            match.status = Match.Status.ABANDONED
            match.finished_at = now
            match.deadline = None
            transaction.on_commit(lambda mid=match.pk: _on_finished(mid))
        turn_before = _turn_key(ms)
        _save(
            match,
            ms,
            seats,
            now,
            turn_before,
            (seat.seat, "leave", {"type": "leave"}, MatchAction.Actor.SYSTEM),
        )
        return seat


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
        transaction.on_commit(lambda: _after_commit(mid))


def abandon_reason(match: Match, seats: list[MatchSeat], now: datetime) -> str | None:
    """Housekeeping: why a running match should be closed as abandoned, or None.

    ``no_humans``: no human player is left at the table (K-X3; ``match_leave`` closes the
    table itself, this catches the rest, e.g. deleted accounts).  ``inactive``: no human
    is connected and none has acted for ``KUT_ABANDON_AFTER_SECONDS`` (e.g. a test table,
    which has no timer, left behind on a human's turn)."""
    humans = [s for s in seats if s.user_id is not None and not s.left]
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
        ms = MatchState.from_dict(match.state)
        match.status = Match.Status.ABANDONED
        match.finished_at = now
        match.deadline = None
        transaction.on_commit(lambda mid=match.pk: _on_finished(mid))
        _save(
            match,
            ms,
            seats,
            now,
            _turn_key(ms),
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
    ms = None
    for act in match.actions.order_by("version").iterator():
        if act.kind == "start":
            ms = match_initial_state(match)
        elif act.kind == "next_hand":
            start_next_hand(ms, _rng_for_hand(match.seed, ms.hand_no + 1))
        elif act.kind not in ("leave", "abandon"):
            apply(ms.hand, act.seat, act.payload)
            if ms.hand.over and len(ms.results) < ms.hand_no:
                _record(match, ms)
        yield act, ms


def match_replay(match: Match) -> MatchState:
    """Rebuild the state from the seed and the action log (determinism check, replays)."""
    last = None
    for _act, ms in match_replay_iter(match):
        last = ms
    return last
