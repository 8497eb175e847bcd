"""The Kastet rating (kastet.md section 10) and its command::

    python -m game.engine.rating QUERY.json      # with "game": "kastet"

``match_points`` is S-P2 … S-P5 (places, ties, the 50-per-hand cap, partners);
``settle`` adds what each seat's players get (S-P6 substitute, S-P7 dropped, S-P8
leaving).  Pure functions: the platform writes what they return.
"""

from __future__ import annotations

from game.engine.protocol import InputError

START_RATING = 1500  # S-P1
SUBSTITUTE_MAX_RATING = 3000  # S-P6: over this, a substitute gets 0
CAP_PER_HAND = 50  # S-P4


def place_points(hands: int) -> list[int]:
    """S-P2: 1st +2H, 2nd +2·⌊H/2⌋, 3rd −⌊H/2⌋, 4th −H."""
    half = hands // 2
    return [2 * hands, 2 * half, -half, -hands]


def match_points(hands: int, totals: list[int], partners: bool = False) -> list[int]:
    """Each seat's result (S-P2 … S-P5).  Lower totals are better (S-M5)."""
    if partners:  # S-P5
        sides = [totals[0] + totals[2], totals[1] + totals[3]]
        if sides[0] == sides[1]:
            return [0, 0, 0, 0]
        low = 0 if sides[0] < sides[1] else 1
        gain = 0 if sides[low] > 2 * CAP_PER_HAND * hands else 2 * hands  # S-P4 per side
        return [gain if s % 2 == low else -hands for s in range(4)]
    if len(set(totals)) == 1:  # S-P3: all four equal, nobody's rating changes
        return [0, 0, 0, 0]
    table = place_points(hands)
    out = []
    for t in totals:
        # S-P3: tied players get the worst place they share
        worst = sum(1 for o in totals if o <= t) - 1
        p = table[worst]
        if p > 0 and t > CAP_PER_HAND * hands:  # S-P4: a gain becomes 0, a loss stays
            p = 0
        out.append(p)
    return out


def settle(hands: int, totals: list[int], partners: bool = False,
           seats: list[dict] | None = None) -> dict:  # fmt: skip
    """``points`` per seat, what each seat's first player gets (``players``) and what a
    human substitute gets (``substitutes``, None where there is none)."""
    seats = seats or [{} for _ in range(4)]
    points = match_points(hands, totals, partners)
    players, subs = [], []
    for p, seat in zip(points, seats):
        if seat.get("left"):
            players.append(-2 * hands)  # S-P8: −2H at once, whatever the standing
        elif seat.get("dropped"):
            players.append(min(p, 0))  # S-P7: only a loss
        else:
            players.append(p)
        rating = seat.get("substitute_rating")
        if rating is None:
            subs.append(None)
        elif rating > SUBSTITUTE_MAX_RATING:
            subs.append(0)  # S-P6: over 3000 before the match
        else:
            subs.append(max(p, 0))  # S-P6: only a gain
    return {"points": points, "players": players, "substitutes": subs}


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


SEAT_KEYS = {"left", "dropped", "substitute_rating"}


def run_query(data) -> dict:
    """The rating command (kastet-scenario.md, "The rating command")."""
    if not isinstance(data, dict):
        raise InputError("a rating query must be a JSON object")
    if data.get("game") != "kastet":
        raise InputError(f"'game' must be 'kastet', not {data.get('game')!r}")
    hands = data.get("hands")
    if not _whole(hands) or hands < 1:
        raise InputError(f"'hands' must be a whole number >= 1, not {hands!r}")
    partners = data.get("partners")
    partners = False if partners is None else partners  # optional: null is the default
    if not isinstance(partners, bool):
        raise InputError("'partners' must be true or false")
    totals = data.get("totals")
    if not isinstance(totals, list) or len(totals) != 4 or not all(map(_whole, totals)):
        raise InputError("'totals' must be a list of four whole numbers")
    seats = data.get("seats")
    seats = [{}, {}, {}, {}] if seats is None else seats
    if not isinstance(seats, list) or len(seats) != 4:
        raise InputError("'seats' must be a list of four objects")
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict):
            raise InputError(f"seat {i} must be an object")
        extra = set(seat) - SEAT_KEYS
        if extra:
            raise InputError(f"seat {i}: unknown field {sorted(extra)[0]!r}")
        for key in ("left", "dropped"):
            if key in seat and not isinstance(seat[key], bool):
                raise InputError(f"seat {i}: '{key}' must be true or false")
        if seat.get("left") and seat.get("dropped"):
            raise InputError(f"seat {i}: 'left' and 'dropped' exclude each other")
        if seat.get("substitute_rating") is not None:
            r = seat["substitute_rating"]
            if isinstance(r, bool) or not isinstance(r, (int, float)):
                raise InputError(f"seat {i}: 'substitute_rating' must be a number")
            if not (seat.get("left") or seat.get("dropped")):
                raise InputError(f"seat {i}: a substitute needs 'left' or 'dropped'")
    return settle(hands, totals, partners, seats)


class KastetRating:
    """The platform's P-9 hook (``protocol.RatingScheme``): Kastet's own rating."""

    START = START_RATING  # S-P1

    def leave_cost(self, options: dict, completed_hands: int) -> int:
        """S-P8: the leaver loses 2H at once, whatever their standing."""
        return -2 * options["hands"]

    def match_changes(self, result, partners: bool, players: list,
                      options: dict) -> list[int | None]:  # fmt: skip
        """S-P2 … S-P7 for each seat's player at the end of a rated match; None where
        nothing is written (a bot, a leaver already charged S-P8, or a match that did not
        reach the end of its last hand, S-P1)."""
        hands = options["hands"]
        if result.hands < hands:
            return [None] * len(players)
        points = match_points(hands, list(result.totals), partners)
        out: list[int | None] = []
        for p, player in zip(points, players):
            role = None if player is None else player.get("role")
            if role in (None, "left"):
                out.append(None)
            elif role == "dropped":
                out.append(min(p, 0))  # S-P7
            elif role == "took_over":  # S-P6
                out.append(0 if player.get("rating", 0) > SUBSTITUTE_MAX_RATING else max(p, 0))
            else:
                out.append(p)
        return out
