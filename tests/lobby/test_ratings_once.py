"""Issue 27, item 2: ratings are written exactly once per match and player, whatever
order leaves, drops (P-13), replacements (P-12), the abandon and the end arrive in."""

from __future__ import annotations

import hashlib
import itertools
import logging
import os
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from unittest import mock

import orjson
import pytest
from django.conf import settings as conf
from django.utils import timezone
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from accounts.models import User
from game import portal, services
from game import web as game_web
from game.engine import registry
from game.models import HandResult, Match, MatchAction
from games.kelimeki.models import KligEntry
from lobby.models import Ranking, RankingResult
from lobby.ranking import placements
from tests.history.play import play_as_humans

pytestmark = pytest.mark.django_db(transaction=True)  # the leave and finish hooks run on commit


@pytest.mark.parametrize("game, options", [("kdvli", {"hands": 3}), ("kastet", {"hands": 1})])
def test_a_drop_that_became_a_leave_and_the_end_rate_everyone_once(players, settings, game,
                                                                   options, caplog):  # fmt: skip
    """The issue's repro: rated, A and B plus bots; A's socket closes; 180 s later A has
    left (P-13); B plays to the end.  Before: ``UniqueViolation rankingresult_unique``
    and nobody was ranked.  Now B is rated and A has exactly one row: V-X3 / S-P7's
    dropped result (only a loss), not V-X1 / S-P8's leaving cost."""
    settings.KUT_DROP_GRACE_SECONDS, settings.KUT_AWAY_LEAVE_SECONDS = 15, 180
    a, b = players[:2]
    match = services.match_create(game=game, options=options, users=[a, b, None, None],
                                  host=a, seed=f"i27-drop-{game}")  # fmt: skip
    t0 = timezone.now()
    services.match_seat_connected(match.pk, 0, True, now=t0)
    services.match_seat_connected(match.pk, 0, False, now=t0)
    assert services.match_seat_dropped(match.pk, 0, now=t0 + timedelta(seconds=16))
    assert services.match_drop_leave(match.pk, 0, now=t0 + timedelta(seconds=181))
    match = play_as_humans(Match.objects.get(pk=match.pk), rng=random.Random(3), max_steps=6000)
    assert "ranking match" not in caplog.text
    rows = {r.user_id: r for r in RankingResult.objects.filter(match=match)}
    assert set(rows) == {a.pk, b.pk}
    spec = registry.get(game)
    result = spec.match_result(spec.from_dict(match.state))
    start = spec.rating.START
    want = spec.rating.match_changes(
        result, False,
        [{"rating": start, "role": "dropped"}, {"rating": start, "role": "played"}, None, None],
        match.options,
    )  # fmt: skip
    assert (rows[b.pk].outcome, rows[b.pk].points) == ("rated", want[1])
    assert (rows[a.pk].outcome, rows[a.pk].points, rows[a.pk].left) == ("rated", want[0], True)
    assert want[0] <= 0
    assert Ranking.objects.get(user=a, game=game).points == start + want[0]
    assert Ranking.objects.get(user=b, game=game).points == start + want[1]


# --- the property: any order of leaves, drops, replacements, the abandon and the end ------

# A short match of each game (the registry's games; a game not named here plays its
# defaults); 4 seats: three humans and a bot.
SHORT = {"kut": {"tasks": 5}, "kdvli": {"hands": 3}, "king": {"length": 4}, "kastet": {"hands": 3}}
# How the test plays a hand on quickly, in memory: the easy bot's choice (remembered
# across examples: every example deals the same seed), or a game's own quick way to the
# end (Kelimeki: everyone passes, W-E2 — its AI takes a while per move).
QUICK = {"kelimeki": lambda view: {"type": "pass"}}
GAMES = [
    key
    for key in registry.GAMES  # the four-seat games (the toy game is two-seat)
    if game_web.playable(key) and 4 in registry.get(key).seat_counts
]
HUMANS = (0, 1, 2)
EXAMPLES = int(os.environ.get("KUT_RATING_EXAMPLES", "12"))  # per game; CI: 5 games x 12
_chosen: dict[tuple, dict] = {}


class _Failures(logging.Handler):
    """Errors the ranking hooks logged (they never raise: a failure is only logged)."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())

    def __enter__(self):
        logging.getLogger("lobby").addHandler(self)
        return self

    def __exit__(self, *exc):
        logging.getLogger("lobby").removeHandler(self)


class Clock:
    """The run's time (``django.utils.timezone.now`` is patched to it): every service
    call and every row's ``created_at`` see one clock that only moves forward."""

    def __init__(self):
        self.t = timezone.now()

    def __call__(self):
        return self.t

    def tick(self, seconds: float = 1) -> datetime:
        self.t += timedelta(seconds=seconds)
        return self.t


def _choose(spec, st, seat: int) -> dict:
    view = orjson.loads(orjson.dumps(spec.view_for(st, seat)))
    if spec.key in QUICK:
        return QUICK[spec.key](view)
    key = (spec.key, hashlib.sha1(orjson.dumps(view, option=orjson.OPT_SORT_KEYS)).digest())
    if key not in _chosen:
        action = spec.bot_choose(view, "easy", random.Random(7))
        _chosen[key] = action if action is not None else {"type": "timeout"}
    return _chosen[key]


def _finish_hand(match_id: int, clock: Clock) -> None:
    """Play the running hand to its end: in memory up to its last action, which goes
    through ``services.match_apply_action`` (the hand's result, the match's end and the
    finish hooks as in play).  Between hands, the next one is dealt first."""
    match = Match.objects.get(pk=match_id)
    if match.status == Match.Status.BETWEEN:
        services.match_next_hand(match_id, None, now=clock.tick(), force=True)
        match = Match.objects.get(pk=match_id)
    if match.status != Match.Status.PLAYING:
        return
    spec = registry.get(match.game)
    st = spec.from_dict(match.state)
    ts = clock.t.timestamp()
    moves = []
    while not spec.hand_over(st):
        seat = spec.to_act(st)[0]
        action = _choose(spec, st, seat)
        moves.append((seat, action))
        if action.get("type") == "timeout":
            spec.on_timeout(st, seat, ts)
        else:
            spec.apply(st, seat, action, ts)
    st = spec.from_dict(match.state)
    for seat, action in moves[:-1]:
        if action.get("type") == "timeout":
            spec.on_timeout(st, seat, ts)
        else:
            spec.apply(st, seat, action, ts)
    Match.objects.filter(pk=match_id).update(state=spec.to_dict(st), deadline=None, bot_due=None)
    seat, action = moves[-1]
    if action.get("type") == "timeout":
        Match.objects.filter(pk=match_id).update(deadline=clock.t)  # the timer's own path
        services.match_expire_turn(match_id, None, now=clock.tick())
    else:
        services.match_apply_action(match_id, seat, action, None, now=clock.tick(),
                                    actor=MatchAction.Actor.BOT)  # fmt: skip


def _running(match_id: int) -> bool:
    return Match.objects.get(pk=match_id).running


@dataclass
class Who:
    """The test's own account of one human at the table (the oracle's input)."""

    user: object
    seat: int
    replacement: bool = False
    left_at: datetime | None = None
    how: str = ""
    current: bool = True
    dropped_since: datetime | None = None  # P-13: a bot plays the seat from then
    gone_at: datetime | None = None  # the socket closed


EVENT = st.sampled_from(
    [(kind, seat) for kind in ("exit", "drop", "drop_leave", "replace", "back") for seat in HUMANS]
    + [("hand", None)] * 3 + [("abandon", None)]
)  # fmt: skip


def _apply(event, match_id: int, people: list[Who], clock: Clock, fresh, leaving: bool) -> None:
    kind, seat = event
    if kind == "end" or not _running(match_id):
        return  # the end: played out by the caller
    if kind == "hand":
        _finish_hand(match_id, clock)
        return
    if kind == "abandon":  # housekeeping: nobody connected nor acting for half an hour
        if leaving:  # (a correspondence game is never idle, game.tasks.housekeeping)
            later = clock.tick(conf.KUT_ABANDON_AFTER_SECONDS + 1)
            services.match_close_abandoned(match_id, now=later)
        return
    if kind == "replace":  # the seat drawn, or else any seat that was left
        vacant = [w.seat for w in people if w.current and w.left_at is not None]
        seat = seat if seat in vacant else (vacant or [seat])[0]
    p = next(w for w in people if w.seat == seat and w.current)
    if kind == "exit":
        if p.left_at is None:
            services.match_leave(match_id, p.user, now=clock.tick())
            p.left_at, p.how = clock.t, "exit"
        return
    if not leaving:
        return  # P-12, P-13 do not apply (Kelimeki, W-X5)
    if kind in ("drop", "drop_leave") and p.left_at is None and p.gone_at is None:
        services.match_seat_connected(match_id, seat, False, now=clock.tick())  # the socket
        p.gone_at = clock.t
        if services.match_seat_dropped(match_id, seat, now=clock.tick(16)):  # P-13's grace
            p.dropped_since = p.gone_at
    if kind == "back" and p.left_at is None:
        services.match_seat_connected(match_id, seat, True, now=clock.tick())
        p.gone_at = p.dropped_since = None
    elif kind == "drop_leave" and p.left_at is None and _running(match_id):
        clock.t = max(clock.t, p.gone_at + timedelta(seconds=181))  # 3 minutes gone
        assert services.match_drop_leave(match_id, seat, now=clock.tick())
        p.left_at, p.how = clock.t, "dropped"
    elif kind == "replace" and p.left_at is not None:
        newcomer = fresh()
        services.match_seat_request(match_id, newcomer, seat, now=clock.tick())
        host = Match.objects.get(pk=match_id).host
        services.match_seat_answer(match_id, host, seat, True, now=clock.tick())
        p.current = False
        people.append(Who(newcomer, seat, replacement=True))


def _expected(match: Match, people: list[Who]) -> dict[int, tuple[str, int]]:
    """What the rules say each human is written: (outcome, points) by user id; absent
    where nothing is written.  From the test's own account of the events."""
    spec = registry.get(match.game)
    results = list(HandResult.objects.filter(match=match).order_by("hand_no"))
    limit = timedelta(seconds=conf.KUT_AWAY_LEAVE_SECONDS)
    for p in people:  # P-5: a bot stood in for over 3 minutes when the match ended
        if (p.current and p.left_at is None and p.dropped_since is not None
                and match.finished_at - p.dropped_since > limit):  # fmt: skip
            p.left_at, p.how = p.dropped_since, "away"

    def done(at):
        return [r.scores for r in results if r.created_at <= at]

    out = {}
    scheme = spec.rating
    if scheme is None:  # P-4, P-5, P-12
        low = spec.lower_is_better
        final = placements(list(spec.match_result(spec.from_dict(match.state)).totals), low)
        for p in people:
            if p.left_at is not None:
                scores = done(p.left_at)
                totals = [sum(s[i] for s in scores) for i in range(4)] if scores else []
                outcome = portal.leave_outcome(p.seat, totals, low)
                out[p.user.pk] = (outcome, portal.POINTS[outcome])
            elif match.status == Match.Status.FINISHED and p.current:
                points = portal.POINTS[final[p.seat]]
                out[p.user.pk] = (final[p.seat], max(points, 0) if p.replacement else points)
        return out
    start = scheme.START
    result = spec.match_result(spec.from_dict(match.state))

    def role(p: Who) -> dict:
        if p.left_at is not None and p.how == "exit":
            name = "left"  # V-X1, S-P8: written at the leave (only the others' context)
        elif p.left_at is not None or p.dropped_since is not None:
            name = "dropped"  # V-X3, S-P7
        else:
            name = "took_over" if p.replacement else "played"
        return {"rating": start, "role": name}

    now = [None] * 4
    for p in people:
        if p.current:
            now[p.seat] = role(p)
    for p in people:
        if p.left_at is not None and p.how == "exit":  # V-X1, S-P8, W-L4: at once
            out[p.user.pk] = ("leave_cost", scheme.leave_cost(match.options, len(done(p.left_at))))
            continue
        players = list(now)
        players[p.seat] = role(p)
        change = scheme.match_changes(result, match.partners, players, match.options)[p.seat]
        if change is not None:
            out[p.user.pk] = ("rated", change)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_ratings_are_written_once_whatever_the_order(game, settings):
    """Issue 27: for every game (its own scheme, P-9, or P-4's placings), any order of
    leaves, drops (P-13) and drop-leaves, replacements (P-12), hands, the abandon and the
    end, applied through the real services and hooks: exactly one row per player the
    rules rate, with the value the rules give, nothing for anyone else, and each
    player's ranking moved by exactly that row; no hook failed."""
    settings.KUT_DROP_GRACE_SECONDS, settings.KUT_AWAY_LEAVE_SECONDS = 15, 180
    spec = registry.get(game)
    leaving = spec.leaving_rules
    options = spec.clean_options(SHORT.get(game, {}))
    names = itertools.count()

    def fresh():
        return User.objects.create_user(username=f"p{next(names)}", password="x")

    @hyp_settings(max_examples=EXAMPLES, deadline=timedelta(seconds=60), derandomize=True,
                  suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
    @given(events=st.lists(EVENT, max_size=7), end=st.sampled_from(["end", "abandon"]))
    @example(events=[("drop_leave", 0)], end="end")  # the repro
    @example(events=[("drop", 0)], end="end")  # still dropped at the end (V-X3, S-P7)
    @example(events=[("exit", 1), ("replace", 1), ("drop_leave", 1), ("replace", 1)],
             end="end")  # a replacement who dropped out, replaced in turn  # fmt: skip
    @example(events=[("drop_leave", 0), ("hand", None), ("exit", 1), ("exit", 2)],
             end="end")  # everyone gone: abandoned  # fmt: skip
    def check(events, end):
        clock = Clock()
        with (
            _Failures() as failures,
            mock.patch("django.utils.timezone.now", clock),
            mock.patch("game.runner.kick"),  # the bots play in memory (_finish_hand)
        ):
            humans = [fresh() for _ in HUMANS]
            match = services.match_create(game=game, options=options,
                                          users=[*humans, None], host=humans[0],
                                          seed=f"i27-{game}", now=clock())  # fmt: skip
            people = [Who(u, s) for s, u in enumerate(humans)]
            for seat in HUMANS:  # everyone at the table with a socket open
                services.match_seat_connected(match.pk, seat, True, now=clock())
            for event in [*events, (end, None)]:
                _apply(event, match.pk, people, clock, fresh, leaving)
            while _running(match.pk):  # the end (an abandon that did not happen: the end)
                _finish_hand(match.pk, clock)
            match = Match.objects.get(pk=match.pk)
            want = _expected(match, people)
        assert failures.messages == []
        rows = {r.user_id: (r.outcome, r.points) for r in RankingResult.objects.filter(match=match)}
        assert rows == want, (events, end, match.status)
        scheme = spec.rating
        start = getattr(scheme, "START", 0)
        for p in people:  # each player's ranking moved by their one row, or not at all
            mine = Ranking.objects.filter(user=p.user, game=game).first()
            points = start + rows[p.user.pk][1] if p.user.pk in rows else start
            assert (mine.points if mine else start) == points, (events, end)
        # the rules in plain words, apart from the oracle's arithmetic:
        if match.status == Match.Status.ABANDONED:  # P-5 leavers only; P-9: leaving costs
            own = ("leave_cost",) if scheme else ("left_loss", "left_leading")
            assert {o for o, _p in rows.values()} <= set(own), (events, end)  # V-X4, S-P1
        for p in people:
            if p.user.pk not in rows or p.how == "exit":
                continue
            if p.replacement and p.left_at is None and p.dropped_since is None:
                assert rows[p.user.pk][1] >= 0  # P-12 (V-Q6, S-P6): a replacement never loses
            elif scheme and (p.left_at or p.dropped_since):
                assert rows[p.user.pk][1] <= 0  # V-X3, S-P7: a dropped player only loses
        if game == "kelimeki":  # k-lig kept once per row (games.kelimeki.klig, W-L6 idempotence)
            entries = {e.user_id: e.points for e in KligEntry.objects.filter(match=match)}
            assert entries == {user: points for user, (_o, points) in rows.items()}

    check()
