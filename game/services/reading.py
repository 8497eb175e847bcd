"""Reading a match: who sits where, who may watch, and the replay from the seed and
the action log."""

from __future__ import annotations

from game.models import Match
from game.services.core import _rng_for_next_hand, _spec, _ts
from game.services.lifecycle import match_initial_state


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
