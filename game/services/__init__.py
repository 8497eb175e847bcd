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

The parts: ``core`` (the lock, saving a change, the end of a hand, the deals' RNGs),
``actions`` (a player's move), ``timers`` (timeouts and bot moves), ``lifecycle``
(creating, next hand, abort, abandon), ``seats`` (presence, leaving, replacing) and
``reading`` (who sits where, replays).  Callers use this package's names.
"""

from game.errors import ServiceError
from game.services.actions import match_apply_action, match_back
from game.services.core import (
    BOT_LEVELS,
    SERVER_TYPES,
    Outcome,
    _locked,
    _locked_with_seats,
    _rng_for_hand,
    _rng_for_next_hand,
    _schedule,
    _seats,
    bot_think_seconds,
    hand_no_of,
    test_mode,
)
from game.services.lifecycle import (
    abandon_reason,
    match_abort,
    match_close_abandoned,
    match_create,
    match_initial_state,
    match_next_hand,
    match_start,
)
from game.services.reading import match_replay, match_replay_iter, may_view, played_in, seat_of
from game.services.seats import (
    leave_rated_matches,
    match_drop_leave,
    match_leave,
    match_seat_answer,
    match_seat_connected,
    match_seat_dropped,
    match_seat_request,
)
from game.services.timers import _apply_timeout, _test_bot_rng, match_expire_turn, match_play_bot

__all__ = [
    "BOT_LEVELS",
    "Outcome",
    "SERVER_TYPES",
    "ServiceError",
    "_apply_timeout",
    "_locked",
    "_locked_with_seats",
    "_rng_for_hand",
    "_rng_for_next_hand",
    "_schedule",
    "_seats",
    "_test_bot_rng",
    "abandon_reason",
    "bot_think_seconds",
    "hand_no_of",
    "leave_rated_matches",
    "match_abort",
    "match_apply_action",
    "match_back",
    "match_close_abandoned",
    "match_create",
    "match_drop_leave",
    "match_expire_turn",
    "match_initial_state",
    "match_leave",
    "match_next_hand",
    "match_play_bot",
    "match_replay",
    "match_replay_iter",
    "match_seat_answer",
    "match_seat_connected",
    "match_seat_dropped",
    "match_seat_request",
    "match_start",
    "may_view",
    "played_in",
    "seat_of",
    "test_mode",
]
