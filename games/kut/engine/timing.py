"""Time rules as data (K-N6, K-N7, K-M4).  The engine never reads a clock: callers pass
``now`` (seconds, any epoch) and the service layer decides *when* to apply a timeout."""

from __future__ import annotations

TURN_SECONDS = 45  # K-N6: a whole turn, from the moment it passes to the player
WARNING_SECONDS = 10  # the last seconds are flagged for a warning
NEXT_HAND_SECONDS = 10  # K-M4: the score table shows this long before the next hand
AWAY_AFTER_TIMEOUTS = 2  # K-N7: two consecutive timeouts mark the seat away


def turn_deadline(turn_started: float, seconds: float = TURN_SECONDS) -> float:
    """K-N6: taking a tile does not restart the timer, so the deadline depends only on
    when the turn passed to the player."""
    return turn_started + seconds


def seconds_left(deadline: float, now: float) -> float:
    return max(0.0, deadline - now)


def is_warning(deadline: float, now: float, warning: float = WARNING_SECONDS) -> bool:
    return 0 < deadline - now <= warning


def is_expired(deadline: float | None, now: float) -> bool:
    return deadline is not None and now >= deadline
