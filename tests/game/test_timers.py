"""Turn timers, away seats, auto-advance and housekeeping, driven in-process through the
beat tasks' own functions (``game.tasks.sweep`` / ``housekeeping``) with a fake clock.

The per-move bot tasks are switched off here (``runner.kick`` does nothing), so every
change below is made by the sweep alone: the sweep is the guarantee (issue 6).
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from game import broadcast, events, runner, services, tasks
from game.frames import match_frame
from game.models import HandResult, Match, MatchAction, MatchSeat
from games.kut.engine.match import MatchState

pytestmark = pytest.mark.django_db(transaction=True)

FINISHED: list[int] = []
REAL_KICK = runner.kick


def record_finished(sender, match_id: int, **kwargs) -> None:
    """A receiver of ``game.events.match_finished`` for the tests."""
    FINISHED.append(match_id)


@pytest.fixture(autouse=True)
def _sweep_only(settings, monkeypatch):
    """No inline bots and no per-move tasks: only the sweep moves the tables."""
    settings.KUT_BOTS_INLINE = False
    settings.KUT_TURN_SECONDS = 45
    settings.KUT_NEXT_HAND_SECONDS = 10
    settings.KUT_BOT_DELAY_SECONDS = 1
    settings.KUT_ABANDON_AFTER_SECONDS = 1800
    events.match_finished.connect(record_finished, dispatch_uid="tests.record_finished")
    monkeypatch.setattr(runner, "kick", lambda match_id: None)
    # nobody is listening here; the frames themselves are tested in test_consumer
    monkeypatch.setattr(broadcast, "match_broadcast", lambda *a, **kw: None)
    FINISHED.clear()
    yield
    events.match_finished.disconnect(dispatch_uid="tests.record_finished")


def _load(match_id: int) -> tuple[Match, MatchState]:
    m = Match.objects.get(pk=match_id)
    return m, MatchState.from_dict(m.state)


def _seat(match_id: int, seat: int) -> MatchSeat:
    return MatchSeat.objects.get(match_id=match_id, seat=seat)


def _human_first(players, seed_prefix: str, human: int = 0, **kw) -> Match:
    """A match of one human (seat ``human``) and three bots where a bot starts, so the
    human's first turn is a normal one."""
    users = [None] * 4
    users[human] = players[0]
    for i in range(50):
        m = services.match_create(
            game="kut", options={"tasks": 5}, users=users, seed=f"{seed_prefix}{i}", **kw
        )
        if MatchState.from_dict(m.state).hand.turn != human:
            return m
        services.match_abort(m.pk)  # the human would start: not what the test wants
    raise AssertionError("no seed where a bot starts")


def _step(match_id: int, now):
    """Advance the fake clock to the next thing due on this match and sweep once."""
    m = Match.objects.get(pk=match_id)
    due = [m.deadline] if m.deadline is not None else []
    if m.bot_due is not None:
        due.append(m.bot_due + tasks.BOT_GRACE)  # its own task was "lost"
    if m.status == Match.Status.BETWEEN:
        due = [m.deadline]
    assert due, f"match {match_id} waits for nothing ({m.status})"
    now = max(now, min(due))
    return now, tasks.sweep(now)


def _until(match_id: int, now, stop, limit: int = 5000):
    """Sweep with an advancing clock until ``stop(match, state)`` holds."""
    for _ in range(limit):
        m, ms = _load(match_id)
        if stop(m, ms):
            return now
        now, _done = _step(match_id, now)
    raise AssertionError("the match did not get there")


def _human_turn(human):
    return lambda m, ms: m.status == Match.Status.PLAYING and ms.hand.turn == human


# --- the turn timer (K-N6, K-N7, P-3) -------------------------------------------------------


def test_overdue_turn_is_completed_by_the_sweep_and_taking_does_not_restart_it(players):
    t0 = timezone.now()
    m = services.match_create(game="kut", options={"tasks": 5}, users=players, seed="tm1", now=t0)
    seat = MatchState.from_dict(m.state).hand.turn
    assert m.deadline == t0 + timedelta(seconds=45) and m.bot_due is None
    # the starter's first turn (K-D3) is a play turn: discard, then the next seat draws
    m, ms = _load(m.pk)
    tile = ms.hand.ids[ms.hand.racks[seat].tiles()[0]]
    t1 = t0 + timedelta(seconds=5)
    services.match_apply_action(m.pk, seat, {"type": "discard", "tile_id": tile}, m.version, t1)
    nxt = (seat + 1) % 4
    t2 = t1 + timedelta(seconds=30)
    services.match_apply_action(m.pk, nxt, {"type": "draw"}, m.version + 1, t2)
    m, ms = _load(m.pk)
    assert m.turn_started == t1 and m.deadline == t1 + timedelta(seconds=45)  # not t2
    assert tasks.sweep(m.deadline - timedelta(milliseconds=1)) == 0
    assert tasks.sweep(m.deadline) == 1
    m, ms = _load(m.pk)
    timeout = m.actions.get(kind="timeout")
    assert (timeout.seat, timeout.actor) == (nxt, MatchAction.Actor.TIMER)
    assert ms.hand.turn == (nxt + 1) % 4 and ms.hand.timeouts[nxt] == 1
    assert not _seat(m.pk, nxt).away  # one timeout is not enough


def test_sweeping_twice_or_with_an_old_version_applies_the_timeout_once(players):
    t0 = timezone.now()
    m = services.match_create(game="kut", options={"tasks": 5}, users=players, seed="tm2", now=t0)
    late = t0 + timedelta(seconds=46)
    old_version = m.version
    assert tasks.sweep(late) == 1
    assert tasks.sweep(late) == 0  # the same overdue turn: nothing left to do
    # a retried or duplicated task carrying the old version does nothing either
    assert not services.match_expire_turn(m.pk, old_version, late + timedelta(seconds=60))
    assert not tasks.match_bot_turn(m.pk, old_version)
    m.refresh_from_db()
    assert m.actions.filter(kind="timeout").count() == 1
    assert m.version == old_version + 1


def test_a_worker_crash_mid_write_then_a_retry_applies_the_timeout_once(players, monkeypatch):
    """A task that dies inside the transaction leaves nothing behind; the retry (same
    message, same version) then applies the timeout exactly once, and a further
    redelivery does nothing."""
    t0 = timezone.now()
    m = services.match_create(game="kut", options={"tasks": 5}, users=players, seed="tm3", now=t0)
    before = (m.version, m.state)
    late = t0 + timedelta(seconds=50)
    real = services._schedule
    crashes = []

    def crash_once(*args, **kwargs):
        if not crashes:
            crashes.append(1)
            raise SystemExit("worker lost")  # after the log row was written
        return real(*args, **kwargs)

    monkeypatch.setattr(services.core, "_schedule", crash_once)  # _save's, in the core
    with pytest.raises(SystemExit):
        services.match_expire_turn(m.pk, m.version, late)
    m.refresh_from_db()
    assert (m.version, m.state) == before and not m.actions.filter(kind="timeout").exists()
    assert services.match_expire_turn(m.pk, before[0], late)  # the retry
    assert not services.match_expire_turn(m.pk, before[0], late)  # a redelivery
    assert tasks.sweep(late) == 0
    m.refresh_from_db()
    assert m.actions.filter(kind="timeout").count() == 1 and m.version == before[0] + 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks")
def test_two_sweeps_racing_for_one_overdue_turn_apply_it_once(players):
    t0 = timezone.now()
    m = services.match_create(game="kut", options={"tasks": 5}, users=players, seed="tm4", now=t0)
    late = t0 + timedelta(seconds=46)
    barrier = threading.Barrier(4)
    results: list = []

    def worker():
        try:
            barrier.wait(timeout=10)
            results.append(services.match_expire_turn(m.pk, m.version, late))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == [False, False, False, True]
    assert m.actions.filter(kind="timeout").count() == 1


def test_test_tables_are_never_timed_out(players):
    t0 = timezone.now()
    m = services.match_create(
        game="kut", options={"tasks": 5}, users=players, rated=False, seed="tm5", now=t0
    )
    assert tasks.sweep(t0 + timedelta(hours=2)) == 0  # P-3
    assert not m.actions.filter(kind="timeout").exists()


def test_two_timeouts_in_a_row_make_the_seat_away_and_a_bot_plays_it_at_once(players):
    t0 = timezone.now()
    m = _human_first(players, "tm6-", now=t0)
    now = _until(m.pk, t0, _human_turn(0))
    m, ms = _load(m.pk)
    assert m.bot_due is None and m.deadline == m.turn_started + timedelta(seconds=45)
    now, done = _step(m.pk, now)  # the first timeout
    assert done >= 1 and not _seat(m.pk, 0).away
    now = _until(m.pk, now, _human_turn(0))
    deadline = Match.objects.get(pk=m.pk).deadline
    now, done = _step(m.pk, now)  # the second one
    seat = _seat(m.pk, 0)
    assert now == deadline and seat.away and seat.away_since == deadline
    timeouts = m.actions.filter(kind="timeout", seat=0, actor=MatchAction.Actor.TIMER)
    assert timeouts.count() == 2
    # from now on a bot plays the seat at once (no human-like delay), logged as a bot
    now = _until(m.pk, now, _human_turn(0))
    m, ms = _load(m.pk)
    assert m.bot_due == m.turn_started
    version = m.version
    assert tasks.sweep(m.turn_started) == 0  # first left to the move's own task
    assert tasks.sweep(m.turn_started + tasks.BOT_GRACE) >= 1  # that task was lost
    act = m.actions.get(version=version + 1)
    assert (act.seat, act.actor) == (0, MatchAction.Actor.BOT)
    frame = match_frame(Match.objects.get(pk=m.pk), 0)
    assert frame["match"]["seats"][0]["away"] is True
    # the player acts again: the seat is theirs once more
    now = _until(m.pk, now, lambda m, ms: _human_turn(0)(m, ms) and ms.hand.phase == "take")
    m, ms = _load(m.pk)
    services.match_apply_action(m.pk, 0, {"type": "draw"}, m.version, now)
    seat = _seat(m.pk, 0)
    assert not seat.away and seat.away_since is None
    m, ms = _load(m.pk)
    # the human's own turn again: no bot plays it (at most a bot may claim the thrown
    # tile after the usual human-like delay: 1.3 x the base, ±25 %, in the play phase)
    assert m.bot_due is None or (
        now + timedelta(seconds=0.975) <= m.bot_due <= now + timedelta(seconds=1.625)
    )


def test_the_frame_carries_the_clock_and_the_warning(players):
    m = services.match_create(game="kut", options={"tasks": 5}, users=players, seed="tm7")
    frame = match_frame(m, 0)["match"]
    assert frame["warning_seconds"] == 10
    assert frame["deadline"] - frame["turn_started"] == 45_000
    assert abs(frame["server_time"] - timezone.now().timestamp() * 1000) < 5_000


# --- auto-advance and a whole match (K-M4) ---------------------------------------------------


def test_a_five_task_match_with_an_idle_human_and_three_bots_finishes_by_itself(players):
    """One human who never moves, three bots, rated 45 s turns: the sweep alone times the
    human out twice, a bot then plays the seat, every hand is followed by the next one
    exactly ``KUT_NEXT_HAND_SECONDS`` later, and the match ends with correct totals."""
    t0 = timezone.now()
    m = _human_first(players, "tm8-", now=t0)
    now = t0
    hand_ends: dict[int, object] = {}
    sweeps = 0
    while True:
        m, ms = _load(m.pk)
        if not m.running:
            break
        if m.status == Match.Status.BETWEEN:  # ``now`` is when the hand ended
            assert m.deadline == now + timedelta(seconds=10) and m.bot_due is None
            hand_ends[ms.hand_no] = now
            assert tasks.sweep(m.deadline - timedelta(milliseconds=1)) == 0  # not early
            now, done = _step(m.pk, now)
            m, ms2 = _load(m.pk)
            assert done >= 1 and ms2.hand_no == ms.hand_no + 1  # (+ an away seat's move)
            dealt = m.actions.get(kind="next_hand", hand_no=ms2.hand_no)
            assert m.status == Match.Status.PLAYING and dealt.actor == "system"
            started = hand_ends[ms.hand_no] + timedelta(seconds=10)
            assert m.turn_started == started
            continue
        now, _done = _step(m.pk, now)
        sweeps += 1
        assert sweeps < 5000
    assert m.status == Match.Status.FINISHED and m.finished_at is not None
    # the next hand started KUT_NEXT_HAND_SECONDS after the previous one ended
    starts = {
        a.hand_no: a for a in m.actions.filter(kind="next_hand").order_by("version")
    }  # fmt: skip
    assert sorted(starts) == [2, 3, 4, 5] and sorted(hand_ends) == [1, 2, 3, 4]
    # results: one row per hand; reasons add up to each score; scores add up to totals
    results = list(HandResult.objects.filter(match=m).order_by("hand_no"))
    assert [r.hand_no for r in results] == [1, 2, 3, 4, 5]
    assert [r.detail["task_no"] for r in results] == [1, 2, 3, 4, 5]
    for r in results:
        for s in range(4):
            line = r.detail["lines"][s]
            parts = sum(v for k, v in line.items() if k != "total")
            assert parts == line["total"] == r.scores[s]
    totals = [sum(r.scores[s] for r in results) for s in range(4)]
    assert totals == ms.totals
    assert ms.winners == [s for s in range(4) if totals[s] == min(totals)]
    # the human never acted: two timer timeouts, then the bot played the seat
    acts = m.actions.filter(seat=0)
    assert not acts.filter(actor=MatchAction.Actor.HUMAN).exists()
    assert acts.filter(actor=MatchAction.Actor.TIMER).count() == 2
    assert acts.filter(actor=MatchAction.Actor.BOT).count() > 10
    assert _seat(m.pk, 0).away
    assert FINISHED == [m.pk]  # the finish hooks ran once
    assert services.match_replay(m).to_dict() == ms.to_dict()
    assert tasks.sweep(now + timedelta(hours=1)) == 0  # nothing more to do


# --- housekeeping (K-X3) --------------------------------------------------------------------


def test_housekeeping_closes_a_table_left_alone_for_long(players):
    t0 = timezone.now()
    m = services.match_create(game="kut", options={"tasks": 5}, users=players[:2] + [None, None], rated=False,
                              seed="tm10", now=t0)  # fmt: skip
    MatchSeat.objects.filter(match=m, seat=0).update(connected=True)
    later = t0 + timedelta(seconds=1800)
    assert tasks.housekeeping(later) == 0  # someone is still connected
    MatchSeat.objects.filter(match=m).update(connected=False)
    assert tasks.housekeeping(t0 + timedelta(seconds=1700)) == 0  # not long enough
    Match.objects.filter(pk=m.pk).update(created_at=t0 - timedelta(hours=1))
    MatchAction.objects.create(
        match=m, version=999, hand_no=1, seat=0, kind="draw", actor=MatchAction.Actor.HUMAN
    )  # a recent human action
    assert tasks.housekeeping(later) == 0
    MatchAction.objects.filter(match=m, version=999).update(created_at=t0 - timedelta(hours=1))
    assert tasks.housekeeping(later) == 1
    m.refresh_from_db()
    assert m.status == Match.Status.ABANDONED and m.finished_at == later
    assert (m.deadline, m.bot_due) == (None, None)
    last = m.actions.get(kind="abandon")
    assert (last.version, last.actor, last.payload["reason"]) == (m.version, "system", "inactive")
    assert FINISHED == [m.pk]
    assert tasks.housekeeping(later) == 0 and FINISHED == [m.pk]  # idempotent


def test_housekeeping_closes_a_table_with_no_human_left(players):
    m = services.match_create(
        game="kut", options={"tasks": 5}, users=[players[0], None, None, None], seed="tm11"
    )
    other = services.match_create(
        game="kut", options={"tasks": 5}, users=[players[1], None, None, None], seed="tm12"
    )
    players[0].delete()  # the seat's user becomes NULL: nobody human is left there
    assert tasks.housekeeping(timezone.now()) == 1
    m.refresh_from_db()
    other.refresh_from_db()
    assert m.status == Match.Status.ABANDONED and other.status == Match.Status.PLAYING
    assert m.actions.order_by("-version").first().payload["reason"] == "no_humans"
    assert services.match_replay(m).to_dict() == MatchState.from_dict(m.state).to_dict()


def test_one_broken_match_does_not_stop_the_sweep(players, monkeypatch):
    t0 = timezone.now()
    a = services.match_create(game="kut", options={"tasks": 5}, users=players, seed="tm13", now=t0)
    b = services.match_create(game="kut", options={"tasks": 5}, users=players, seed="tm14", now=t0)
    real = services.match_expire_turn

    def broken(match_id, *args):
        if match_id == a.pk:
            raise RuntimeError("boom")
        return real(match_id, *args)

    monkeypatch.setattr(services, "match_expire_turn", broken)
    assert tasks.sweep(t0 + timedelta(seconds=46)) == 1
    assert b.actions.filter(kind="timeout").count() == 1


def test_kick_schedules_the_bot_task_for_its_due_time(players, monkeypatch):
    from game.tasks import match_bot_turn

    sent = []
    monkeypatch.setattr(match_bot_turn, "apply_async", lambda args, **kw: sent.append((args, kw)))
    m = _human_first(players, "tm15-")
    Match.objects.filter(pk=m.pk).update(bot_due=timezone.now() + timedelta(seconds=3))
    REAL_KICK(m.pk)
    ((args, kw),) = sent
    assert args == (m.pk, Match.objects.get(pk=m.pk).version)
    assert 2 < kw["countdown"] <= 3
    Match.objects.filter(pk=m.pk).update(bot_due=timezone.now())
    REAL_KICK(m.pk)
    assert "countdown" not in sent[1][1]  # due now: at once
    Match.objects.filter(pk=m.pk).update(bot_due=None)
    REAL_KICK(m.pk)
    assert len(sent) == 2  # no bot due: nothing scheduled
