"""The KDVli rating (kdvli.md section 12, V-Q1…V-Q6, and leaving, V-X1…V-X3): pure
functions the platform calls when a rated match ends or a player leaves.

    start_rating()                                   -> 1500 (V-Q1)
    place_changes(totals, hands)                     -> per seat, V-Q2 with ties V-Q3
    partner_changes(totals, hands)                   -> per seat, V-Q4
    apply_cap(change, rating)                        -> V-Q5 (above 7000: ⌊⅔ × gain⌋)
    leave_cost(hands)                                -> V-X1: −2 × N
    may_join_rated(abandoned_at, now)                -> V-X2
    seat_change(base, player)                        -> what one player is written
    match_changes(totals, hands, partners, players)  -> per seat, None for bots

A ``player`` is a dict: ``rating`` (at the match's start), ``role`` one of
``"played"`` (sat the whole match, or came back after dropping, V-X3), ``"took_over"``
(took a vacated seat, V-X4/V-Q6; ``rating_at_sit`` when they sat down), ``"dropped"``
(dropped out and never came back: only a negative result is written, V-X3), ``"left"``
(left of their own will: V-X1's cost was written at once, nothing more now).
``None`` is a bot (no rating, V-Q1; its seat still takes a place, V-Q2).
Ratings are integers with no lower bound (V-Q1).
"""

from __future__ import annotations

START = 1500  # V-Q1
CAP_ABOVE = 7000  # V-Q5
TAKEOVER_LIMIT = 3000  # V-Q6
ROLES = ("played", "took_over", "dropped", "left")


def start_rating() -> int:
    """V-Q1: every player starts each KDVli ranking at 1500."""
    return START


def _trunc_div(a: int, b: int) -> int:
    """a / b truncated toward zero (V-Q3)."""
    q = abs(a) // b
    return q if a >= 0 else -q


def place_values(hands: int) -> list[int]:
    """V-Q2: 1st +N, 2nd +⌊N/2⌋, 3rd −⌊N/2⌋, 4th −N."""
    return [hands, hands // 2, -(hands // 2), -hands]


def place_changes(totals: list[int], hands: int) -> list[int]:
    """V-Q2, V-Q3: places by match totals, lowest first; seats with equal totals share
    their places and each gets the mean of their values, truncated toward zero."""
    values = place_values(hands)
    order = sorted(totals)
    out = []
    for t in totals:
        first = order.index(t)
        shared = order.count(t)
        out.append(_trunc_div(sum(values[first : first + shared]), shared))
    return out


def partner_changes(totals: list[int], hands: int) -> list[int]:
    """V-Q4: the team with the larger total (seats 0+2 against 1+3) loses N each, the
    other gains N each; equal team totals give 0."""
    a, b = totals[0] + totals[2], totals[1] + totals[3]
    if a == b:
        return [0, 0, 0, 0]
    win = 0 if a < b else 1
    return [hands if s % 2 == win else -hands for s in range(4)]


def apply_cap(change: int, rating: int) -> int:
    """V-Q5: a player rated above 7000 at the start gains only ⌊⅔ × gain⌋; losses are
    unchanged."""
    if change > 0 and rating > CAP_ABOVE:
        return change * 2 // 3
    return change


def leave_cost(hands: int) -> int:
    """V-X1: leaving a rated match of one's own will costs 2 × N at once."""
    return -2 * hands


def seat_change(base: int, player: dict | None) -> int | None:
    """What one seat's player is written for a finished rated match (None: a bot)."""
    if player is None:
        return None
    role = player.get("role", "played")
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")
    rating = player["rating"]
    if role == "left":  # V-X1: nothing else is written for that match
        return 0
    if role == "took_over":  # V-Q6
        if player.get("rating_at_sit", rating) > TAKEOVER_LIMIT:
            return 0
        return apply_cap(max(base, 0), rating)
    if role == "dropped":  # V-X3: a negative result is written, a positive one is not
        return min(base, 0)
    return apply_cap(base, rating)


def match_changes(totals: list[int], hands: int, partners: bool,
                  players: list[dict | None]) -> list[int | None]:  # fmt: skip
    """V-Q2…V-Q6, V-X1, V-X3: each seat's rating change (None for a bot)."""
    if len(totals) != 4 or len(players) != 4:
        raise ValueError("four seats")
    base = partner_changes(totals, hands) if partners else place_changes(totals, hands)
    return [seat_change(base[s], players[s]) for s in range(4)]


ABANDON_LIMIT = 3  # V-X2
ABANDON_WINDOW = 7 * 24 * 3600.0
BAN_SECONDS = 2 * 3600.0


def rated_ban_until(abandoned_at: list[float]) -> float | None:
    """V-X2: the moment (seconds since the epoch) until which a player with 3 abandoned
    rated matches within 7 days may not join rated tables (2 hours after the third), or
    None.  ``abandoned_at``: when each of the player's rated matches was abandoned."""
    times = sorted(abandoned_at)
    until = None
    for i in range(ABANDON_LIMIT - 1, len(times)):
        if times[i] - times[i - ABANDON_LIMIT + 1] <= ABANDON_WINDOW:
            end = times[i] + BAN_SECONDS
            until = end if until is None else max(until, end)
    return until


def may_join_rated(abandoned_at: list[float], now: float) -> bool:
    """V-X2: whether the player may join a rated KDVli table at ``now``."""
    until = rated_ban_until(abandoned_at)
    return until is None or now >= until
