"""Playing matches to their end in tests: human seats move as an easy bot would (through
``match_apply_action``, as a player's socket does), bot seats through the inline runner."""

from __future__ import annotations

import json
import random

from game import services
from game.models import Match
from games.kut.engine import bots
from games.kut.engine.match import MatchState
from games.kut.engine.views import view_for

OVER = (Match.Status.FINISHED, Match.Status.ABANDONED, Match.Status.ABORTED)


def human_move(match: Match, rng: random.Random) -> None:
    hand = MatchState.from_dict(match.state).hand
    view = json.loads(json.dumps(view_for(hand, hand.turn)))
    action = bots.choose(view, "easy", rng) or {"type": "timeout"}
    services.match_apply_action(match.pk, hand.turn, action, match.version)


def play_out(match_id: int, *, seed: int = 0, max_steps: int = 20000) -> Match:
    """Play the match to its end (every hand; the next hand is dealt at once)."""
    rng = random.Random(seed)
    for _ in range(max_steps):
        match = Match.objects.get(pk=match_id)
        if match.status in OVER:
            return match
        if match.status == Match.Status.BETWEEN:
            services.match_next_hand(match.pk, match.version, force=True)
            continue
        hand = MatchState.from_dict(match.state).hand
        seat = match.seats.get(seat=hand.turn)
        if seat.bot_controlled:
            services.match_play_bot(match.pk, match.version, rng=rng)
        else:
            human_move(match, rng)
    raise AssertionError(f"match {match_id} did not end")


def play_as_humans(match: Match, *, level: str = "easy", rng: random.Random | None = None,
                   until=None, max_steps: int = 3000, choose=None) -> Match:  # fmt: skip
    """Any registry game: play ``match`` until ``until(match)`` (by default: finished),
    every move sent through ``match_apply_action`` as a player's socket would send it —
    the ``level`` bot's choice from the seat's own view, or ``choose(state, seat)``; the
    next hand is dealt at once."""
    from game.engine import registry

    spec = registry.get(match.game)
    rng = rng or random.Random(7)
    for _ in range(max_steps):
        match.refresh_from_db()
        if until(match) if until else match.status == Match.Status.FINISHED:
            return match
        if match.status == Match.Status.BETWEEN:
            services.match_next_hand(match.pk, match.version, force=True)
            continue
        st = spec.from_dict(match.state)
        (seat,) = spec.to_act(st)
        action = (
            choose(st, seat) if choose else spec.bot_choose(spec.view_for(st, seat), level, rng)
        )
        services.match_apply_action(match.pk, seat, action, match.version)
    raise AssertionError(f"match {match.pk} did not end")
