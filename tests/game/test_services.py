"""The one locked service path: version checks, timeouts first, the action log."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from game import services
from game.engine.errors import RuleError
from game.models import HandResult, Match, MatchAction
from games.kut.engine.match import MatchState

pytestmark = pytest.mark.django_db(transaction=True)


def _hand(match):
    match.refresh_from_db()
    return MatchState.from_dict(match.state).hand


def test_create_deals_hand_one(players):
    m = services.match_create(game="kut", options={"tasks": 5}, users=players, seed="s1")
    hand = _hand(m)
    assert m.status == Match.Status.PLAYING and m.version == 1
    assert sorted(r.count() for r in hand.racks) == [14, 14, 14, 15]
    assert m.actions.count() == 1 and m.deadline is not None  # rated: 45 s turn


def test_stale_version_and_illegal_action_change_nothing(players):
    m = services.match_create(game="kut", options={"tasks": 8}, users=players, seed="s2")
    hand = _hand(m)
    before = (m.version, m.state)
    with pytest.raises(services.ServiceError) as e:
        services.match_apply_action(m.pk, hand.turn, {"type": "draw"}, expected_version=0)
    assert e.value.code == "stale_version"
    with pytest.raises(RuleError) as e:
        services.match_apply_action(m.pk, (hand.turn + 1) % 4, {"type": "draw"}, m.version)
    assert e.value.code == "not_your_turn"
    m.refresh_from_db()
    assert (m.version, m.state) == before and m.actions.count() == 1


def test_overdue_turn_times_out_first_and_sweep_is_idempotent(players):
    now = timezone.now()
    m = services.match_create(game="kut", options={"tasks": 8}, users=players, seed="s3", now=now)
    hand = _hand(m)
    later = now + timedelta(seconds=46)
    assert services.match_expire_turn(m.pk, m.version, later)
    assert not services.match_expire_turn(m.pk, m.version, later)  # older version: no-op
    m.refresh_from_db()
    assert _hand(m).turn == (hand.turn + 1) % 4
    assert m.actions.filter(kind="timeout").count() == 1


def test_test_tables_have_no_timer(players):
    m = services.match_create(
        game="kut", options={"tasks": 5}, users=players, rated=False, seed="s4"
    )
    assert m.deadline is None
    assert not services.match_expire_turn(m.pk, None, timezone.now() + timedelta(hours=1))


def test_the_last_human_leaving_closes_the_table(players):
    """K-X3: bots take the seats of those who leave; with no human left the match is
    closed as abandoned."""
    m = services.match_create(game="kut", options={"tasks": 5}, users=[players[0], None, None, None], seed="s5",
                              bot_levels=["", "easy", "normal", "hard"])  # fmt: skip
    services.match_leave(m.pk, players[0])  # the human leaves: all bots now
    m.refresh_from_db()
    assert m.status == Match.Status.ABANDONED


def test_replaying_the_log_reproduces_the_state(players):
    m = services.match_create(game="kut", options={"tasks": 5}, users=[players[0], None, None, None], seed="s6",
                              rated=False)  # fmt: skip
    m.refresh_from_db()
    for _ in range(300):
        if m.status == Match.Status.FINISHED:
            break
        if m.status == Match.Status.BETWEEN:
            services.match_next_hand(m.pk, force=True)
        else:
            hand = _hand(m)
            if hand.turn == 0:
                services.match_apply_action(m.pk, 0, {"type": "timeout"}, m.version,
                                            actor=MatchAction.Actor.TIMER)  # fmt: skip
            else:
                services.match_play_bot(m.pk)
        m.refresh_from_db()
    assert m.status == Match.Status.FINISHED
    assert HandResult.objects.filter(match=m).count() == 5
    replayed = services.match_replay(m)
    assert replayed.to_dict() == MatchState.from_dict(m.state).to_dict()
    versions = list(m.actions.values_list("version", flat=True))
    assert versions == list(range(1, m.version + 1))  # every accepted action logged
    totals = [sum(r.scores[s] for r in m.hand_results.all()) for s in range(4)]
    assert totals == MatchState.from_dict(m.state).totals


def test_action_log_holds_every_accepted_action(players):
    m = services.match_create(
        game="kut", options={"tasks": 8}, users=players, seed="s7", rated=False
    )
    hand = _hand(m)
    seat = hand.turn
    tile = hand.ids[hand.racks[seat].tiles()[0]]
    services.match_apply_action(m.pk, seat, {"type": "discard", "tile_id": tile}, m.version)
    nxt = (seat + 1) % 4
    m.refresh_from_db()
    services.match_apply_action(m.pk, nxt, {"type": "draw"}, m.version)
    kinds = list(MatchAction.objects.filter(match=m).values_list("kind", "seat", "actor"))
    assert kinds == [("start", None, "system"), ("discard", seat, "human"),
                     ("draw", nxt, "human")]  # fmt: skip
