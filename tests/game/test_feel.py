"""Issue 15 on the server: bots at a human pace and the claim window (K-C1, K-C5), bots
never time out (K-N6, K-N7), timeout notes and *Geri döndüm* (K-N7), P-5's "starting a
new match counts as leaving", and a finished match's page for every one of its players."""

from __future__ import annotations

import random
import time
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from game import broadcast, runner, services, tasks
from game.engine import registry
from game.frames import match_frame
from game.models import Match, MatchAction, MatchSeat
from games.kut.engine.match import MatchState
from games.kut.engine.views import can_claim
from tests.history.play import play_out

KUT = registry.get("kut")


def _load(match_id: int) -> tuple[Match, MatchState]:
    m = Match.objects.get(pk=match_id)
    return m, MatchState.from_dict(m.state)


@pytest.fixture
def paced(settings, monkeypatch):
    """The human pace, moved only by the sweep and by direct calls (no tasks, no
    broadcasts: nobody listens here)."""
    settings.KUT_BOTS_INLINE = False
    settings.KUT_BOT_DELAY_SECONDS = 1.2
    settings.KUT_CLAIM_WINDOW_SECONDS = 2.5
    monkeypatch.setattr(runner, "kick", lambda match_id: None)
    monkeypatch.setattr(broadcast, "match_broadcast", lambda *a, **kw: None)


def _seats(m: Match) -> list[MatchSeat]:
    return list(m.seats.select_related("user").order_by("seat"))


# --- the pace ---------------------------------------------------------------------------


def test_fast_bots_think_for_no_time(players, settings):
    settings.KUT_BOT_DELAY_SECONDS = 0
    m = services.match_create(
        game="kut", options={"tasks": 5}, users=[players[0], None, None, None], seed="p1"
    )
    m, ms = _load(m.pk)
    seats = _seats(m)
    assert services.bot_think_seconds(m, KUT, ms, seats, {1, 2, 3}) == 0.0


def test_bots_think_like_people_taking_quicker_than_playing(players, paced):
    """Taking a tile: 0.8 x the base; playing: 1.3 x; each ±25 %."""
    m = services.match_create(
        game="kut", options={"tasks": 5}, users=[players[0], None, None, None], seed="p2"
    )
    m, ms = _load(m.pk)
    seats = _seats(m)
    hand = ms.hand
    rng = random.Random(7)
    for phase, lo, hi in (("take", 0.72, 1.2), ("play", 1.17, 1.95)):
        hand.phase = phase
        hand.claimable = False
        times = [services.bot_think_seconds(m, KUT, ms, seats, {1, 2, 3}, rng) for _ in range(200)]
        assert lo <= min(times) and max(times) <= hi, (phase, min(times), max(times))
        assert max(times) - min(times) > (hi - lo) / 2  # varied, not a metronome


def test_a_bot_that_drew_waits_out_the_claim_window_of_a_human_k_c1_k_c5(players, paced):
    """K-C1, K-C5: a bot drew from the centre and the human may claim the thrown tile:
    its next move is due no sooner than KUT_CLAIM_WINDOW_SECONDS after the draw; when
    only bots could claim there is no window."""
    found = False
    for i in range(40):
        m = services.match_create(
            game="kut", options={"tasks": 5}, users=[players[0], None, None, None], seed=f"cw{i}"
        )
        for _ in range(40):
            m, ms = _load(m.pk)
            hand = ms.hand
            if hand.turn == 0:
                services.match_apply_action(m.pk, 0, {"type": "timeout"}, m.version,
                                            actor=MatchAction.Actor.TIMER)  # fmt: skip
                continue
            if hand.turn in (2, 3) and hand.phase == "take" and hand.thrown is not None:
                now = timezone.now()
                services.match_apply_action(m.pk, hand.turn, {"type": "draw"}, m.version, now,
                                            actor=MatchAction.Actor.BOT)  # fmt: skip
                m, ms = _load(m.pk)
                if can_claim(ms.hand, 0):
                    assert m.bot_due >= now + timedelta(seconds=2.5)
                    # the window (up to 15 % more) is longer than any think time
                    assert m.bot_due <= now + timedelta(seconds=2.5 * 1.15)
                    found = True
                break
            services.match_play_bot(m.pk, m.version)
        services.match_abort(m.pk)
        if found:
            break
    assert found


def test_a_human_sorting_the_rack_does_not_cut_a_bots_window_short(players, paced):
    m = services.match_create(
        game="kut", options={"tasks": 5}, users=[players[0], None, None, None], seed="p4"
    )
    m, ms = _load(m.pk)
    if m.bot_due is None:  # the human starts: let a bot be due first
        services.match_apply_action(m.pk, 0, {"type": "timeout"}, m.version,
                                    actor=MatchAction.Actor.TIMER)  # fmt: skip
        m, ms = _load(m.pk)
    due = m.bot_due
    assert due is not None
    cell = next(i for i, t in enumerate(ms.hand.racks[0].cells) if t is not None)
    empty = next(i for i, t in enumerate(ms.hand.racks[0].cells) if t is None)
    services.match_apply_action(m.pk, 0, {"type": "move", "tile_id": _tile_id(m, cell),
                                          "to": empty}, None,
                                timezone.now() + timedelta(seconds=1))  # fmt: skip
    assert Match.objects.get(pk=m.pk).bot_due == due


def _tile_id(m: Match, cell: int) -> str:
    return match_frame(m, 0)["hand"]["rack"]["cells"][cell]["id"]


@pytest.mark.django_db(transaction=True)
def test_embedded_bots_move_on_a_timer_of_the_web_process_at_their_pace(players, settings):
    """KUT_BOTS_INLINE with a think time (the embedded set-up): each bot move runs on a
    timer thread of the process that committed the change, at ``bot_due``."""
    settings.KUT_BOTS_INLINE = True
    settings.KUT_BOT_DELAY_SECONDS = 0.2
    settings.KUT_CLAIM_WINDOW_SECONDS = 0.4
    m = services.match_create(game="kut", options={"tasks": 5}, users=[None, None, None, players[0]], seed="p5",
                              rated=False)  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if m.actions.filter(actor=MatchAction.Actor.BOT).count() >= 4:
                break
            m, ms = _load(m.pk)
            if ms.hand.turn == 3:  # the human's turn: the timer's move, to go on
                services.match_apply_action(m.pk, 3, {"type": "timeout"}, m.version,
                                            actor=MatchAction.Actor.TIMER)  # fmt: skip
            time.sleep(0.05)
        moves = list(m.actions.filter(actor=MatchAction.Actor.BOT).order_by("version")[:4])
        assert len(moves) == 4
        gaps = [
            (b.created_at - a.created_at).total_seconds()
            for a, b in zip(moves, moves[1:])
            if b.version == a.version + 1  # one bot's move after another's
        ]
        assert gaps
        assert all(g >= 0.2 * 0.8 * 0.75 - 0.02 for g in gaps), gaps  # never at once
    finally:
        services.match_abort(m.pk)
        deadline = time.monotonic() + 5
        while runner.pending_timers() and time.monotonic() < deadline:
            time.sleep(0.05)


# --- bots never time out ------------------------------------------------------------------


def test_an_overdue_bot_seat_gets_its_bots_move_not_a_timeout_k_n6(players, paced, settings):
    """Issue 15, item 12: a bot seat's time can only run out because its move was late
    (a busy worker): the sweep plays the bot's move, logged as a bot's, never a timeout
    (K-N7 applies to players)."""
    m = services.match_create(
        game="kut", options={"tasks": 5}, users=[players[0], None, None, None], seed="bt1"
    )
    m, ms = _load(m.pk)
    if ms.hand.turn == 0:
        services.match_apply_action(m.pk, 0, {"type": "timeout"}, m.version,
                                    actor=MatchAction.Actor.TIMER)  # fmt: skip
        m, ms = _load(m.pk)
    bot = ms.hand.turn
    assert bot != 0 and m.deadline is not None
    version = m.version
    # the bot's own task was lost and the turn ran out: the sweep at the deadline
    assert tasks.sweep(m.deadline) >= 1
    act = m.actions.get(version=version + 1)
    assert (act.seat, act.actor) == (bot, MatchAction.Actor.BOT)
    assert act.kind != "timeout"
    assert not m.actions.filter(actor=MatchAction.Actor.TIMER).exclude(seat=0).exists()
    m, ms = _load(m.pk)
    assert ms.hand.timeouts[bot] == 0


# --- timeouts are never silent; Geri döndüm ---------------------------------------------


def test_the_frame_says_what_the_timer_did_k_n7(players, paced):
    m = services.match_create(
        game="kut", options={"tasks": 5}, users=[players[0], None, None, None], seed="tn1"
    )
    for _ in range(20):
        m, ms = _load(m.pk)
        if ms.hand.turn == 0 and ms.hand.phase == "take":
            break
        if ms.hand.turn == 0:
            services.match_apply_action(m.pk, 0, {"type": "timeout"}, m.version,
                                        actor=MatchAction.Actor.TIMER)  # fmt: skip
        else:
            services.match_play_bot(m.pk, m.version)
    m, ms = _load(m.pk)
    assert ms.hand.turn == 0 and ms.hand.phase == "take"
    services.match_expire_turn(m.pk, m.version, m.deadline)
    m, ms = _load(m.pk)
    notes = match_frame(m, 2)["match"]["timeouts"]  # public: every seat sees it
    note = next(n for n in notes if n["seat"] == 0)
    discarded = ms.hand.discards[0][-1]
    from games.okey.engine.tiles import face_name, face_of

    assert note["drew"] is True and note["tile"] == face_name(face_of(discarded))
    assert note["hand_no"] == 1 and ms.hand.log[note["at"]]["type"] == "timeout"
    assert set(note) == {"seat", "hand_no", "at", "drew", "tile"}  # nothing secret


def test_geri_dondum_gives_an_away_seat_back_k_n7(players, paced):
    m = services.match_create(
        game="kut", options={"tasks": 5}, users=[players[0], None, None, None], seed="gd1"
    )
    with pytest.raises(services.ServiceError) as err:
        services.match_apply_action(m.pk, 0, {"type": "back"}, None)
    assert err.value.code == "not_away"
    MatchSeat.objects.filter(match=m, seat=0).update(away=True, away_since=timezone.now())
    version = Match.objects.get(pk=m.pk).version
    services.match_apply_action(m.pk, 0, {"type": "back"}, None)
    seat = MatchSeat.objects.get(match=m, seat=0)
    assert not seat.away and seat.away_since is None
    assert Match.objects.get(pk=m.pk).version == version  # no move, no new version
    assert not m.actions.filter(kind="back").exists()


# --- P-5: a new match counts as leaving -------------------------------------------------------


def test_starting_a_new_match_leaves_the_rated_one_p_5(players, settings):
    settings.KUT_BOTS_INLINE = False
    rated = services.match_create(game="kut", options={"tasks": 5}, users=[players[0], players[1], None, None],
                                  seed="p5r")  # fmt: skip
    test_table = services.match_create(game="kut", options={"tasks": 5}, users=[players[0], None, None, None],
                                       seed="p5t", rated=False)  # fmt: skip
    client = Client()
    client.force_login(players[0])
    response = client.post("/kut/practice/", {"tasks": 5, "level": "easy"})
    assert response.status_code == 302
    seat = MatchSeat.objects.get(match=rated, seat=0)
    assert seat.left and seat.left_at is not None  # P-5: counted as a leave
    assert rated.actions.filter(kind="leave", seat=0).exists()
    assert Match.objects.get(pk=rated.pk).running  # the other human plays on with a bot
    assert not MatchSeat.objects.get(match=test_table, seat=0).left  # P-5 is rated only
    assert not MatchSeat.objects.get(match=rated, seat=1).left


# --- a finished match's page -------------------------------------------------------------------


def test_a_finished_matchs_page_answers_a_player_who_left_it(players, settings):
    settings.KUT_BOTS_INLINE = True
    m = services.match_create(
        game="kut", options={"tasks": 5}, users=[players[0], players[1], None, None], seed="fm1"
    )
    services.match_leave(m.pk, players[1])
    client = Client()
    client.force_login(players[1])
    assert client.get(f"/match/{m.pk}/").status_code == 404  # still running: not theirs
    m = play_out(m.pk)
    assert m.status == Match.Status.FINISHED
    assert client.get(f"/match/{m.pk}/").status_code == 200
    outsider = Client()
    outsider.force_login(players[2])
    assert outsider.get(f"/match/{m.pk}/").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_embedded_web_process_adopts_a_bot_move_the_worker_left(players, settings, monkeypatch):
    """The embedded worker holds no sockets: after its change (a timeout) it schedules
    no paced bot move; the web process plays it when a client asks for the state."""
    settings.KUT_BOTS_INLINE = True
    settings.KUT_BOT_DELAY_SECONDS = 0.2
    settings.KUT_CLAIM_WINDOW_SECONDS = 0.4
    m = services.match_create(
        game="kut", options={"tasks": 5}, users=[players[0], None, None, None], seed="ad1"
    )
    try:
        deadline = time.monotonic() + 20
        while runner.pending_timers() or _load(m.pk)[1].hand.turn != 0:  # the human's turn
            assert time.monotonic() < deadline
            time.sleep(0.05)
        monkeypatch.setattr(runner, "_in_celery_task", lambda: True)  # the worker's sweep
        now = timezone.now()
        Match.objects.filter(pk=m.pk).update(deadline=now)  # the turn runs out now
        m = Match.objects.get(pk=m.pk)
        assert services.match_expire_turn(m.pk, m.version, now)
        m = Match.objects.get(pk=m.pk)
        assert m.bot_due is not None and runner.pending_timers() == 0
        monkeypatch.setattr(runner, "_in_celery_task", lambda: False)  # the web process
        runner.adopt(m.pk)
        assert runner.pending_timers() == 1
        while Match.objects.get(pk=m.pk).version == m.version:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        act = m.actions.get(version=m.version + 1)
        assert act.actor == MatchAction.Actor.BOT
    finally:
        services.match_abort(m.pk)
        end = time.monotonic() + 5
        while runner.pending_timers() and time.monotonic() < end:
            time.sleep(0.05)
