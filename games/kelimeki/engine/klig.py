"""k-lig points, ranks, one-time rewards and celebrations (kelimeki.md W-L1…W-L9).

Pure functions over a player's record: the platform stores ``total`` (may go below 0,
W-L5), the thresholds already rewarded, whether Kozmik was ever reached and the highest
multiple of 100 ever celebrated, and calls :func:`apply_change` after each game.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

# W-L2: place points by the number of seats the game started with.
PLACE_POINTS = {2: {1: 2, 2: 0}, 4: {1: 2, 2: 1, 3: 0, 4: 0}}
FORFEIT_POINTS = -2  # W-L4

# W-L5: (rank, threshold, one-time reward); Çaylak is the start (also below 0).
RANKS: tuple[tuple[str, int | None, int], ...] = (
    ("Çaylak", None, 0),
    ("Hececi", 25, 3),
    ("Kelimeci", 75, 5),
    ("Usta", 150, 10),
    ("Üstat", 300, 15),
    ("Bilge", 500, 25),
    ("Efsane", 800, 40),
    ("Kozmik", 1200, 60),
)
TOP = "Kozmik"


def game_points(players: int, places: list[int | None], forfeited: list[bool]) -> list[int]:
    """W-L2…W-L4: each seat's k-lig change from one finished game (rewards aside).
    ``places`` as W-E5 gives them (shared places for equal scores, ``None`` for a
    forfeited seat)."""
    table = PLACE_POINTS[players]
    return [
        FORFEIT_POINTS if forfeited[s] else table.get(places[s] or 0, 0) for s in range(players)
    ]


@dataclass(frozen=True)
class Record:
    total: int = 0
    rewarded: frozenset[int] = field(default_factory=frozenset)  # thresholds paid (W-L6)
    kozmik: bool = False  # W-L7: once Kozmik, always Kozmik
    celebrated: int = 0  # the highest multiple of 100 celebrated (W-L8)


@dataclass(frozen=True)
class Change:
    record: Record
    rewards: tuple[tuple[str, int], ...]  # (rank, reward) given by this change
    celebrations: tuple[int, ...]  # multiples of 100 reached for the first time


def apply_change(record: Record, delta: int) -> Change:
    """Add a game's points, then W-L6 rewards (each threshold once in a lifetime, the
    new total checked again), W-L7 Kozmik and W-L8 celebrations."""
    total = record.total + delta
    rewarded = set(record.rewarded)
    given: list[tuple[str, int]] = []
    again = True
    while again:
        again = False
        for name, threshold, reward in RANKS[1:]:
            if threshold is not None and total >= threshold and threshold not in rewarded:
                rewarded.add(threshold)
                given.append((name, reward))
                total += reward
                again = True
    kozmik = record.kozmik or total >= RANKS[-1][1]
    celebrations = tuple(range(max(record.celebrated, 0) + 100, total + 1, 100))
    celebrated = max(record.celebrated, total // 100 * 100) if total > 0 else record.celebrated
    new = replace(record, total=total, rewarded=frozenset(rewarded), kozmik=kozmik,
                  celebrated=celebrated)  # fmt: skip
    return Change(new, tuple(given), celebrations)


def rank_of(record: Record) -> str:
    """W-L7: the highest rank whose threshold the current total reaches (Kozmik kept)."""
    if record.kozmik:
        return TOP
    name = RANKS[0][0]
    for rank, threshold, _ in RANKS[1:]:
        if threshold is not None and record.total >= threshold:
            name = rank
    return name


def seal_card(record: Record) -> dict:
    """W-L9: the current total, the next rank and the points still needed (none at
    Kozmik)."""
    current = rank_of(record)
    if current == TOP:
        return {"total": record.total, "rank": current, "next": None, "needed": None}
    for name, threshold, _ in RANKS[1:]:
        if threshold is not None and record.total < threshold:
            return {"total": record.total, "rank": current, "next": name,
                    "needed": threshold - record.total}  # fmt: skip
    return {"total": record.total, "rank": current, "next": None, "needed": None}


class KligScheme:
    """P-9: k-lig as the platform's rating scheme (``GAME.rating``).  The platform writes
    each game's place or forfeit points (W-L2…W-L4) through it; the one-time rewards,
    ranks and celebrations (W-L5…W-L8) are added on top by ``games.kelimeki.klig`` with
    :func:`apply_change`, which needs the player's whole record."""

    START = 0  # W-L5: everyone starts at Çaylak, 0

    def leave_cost(self, options: dict, completed_hands: int) -> int:
        """W-X5: the only way out of a game is the forfeit; leaving it costs what a
        forfeit costs (W-L4)."""
        return FORFEIT_POINTS

    def match_changes(self, result, partners: bool, players: list,
                      options: dict) -> list[int | None]:  # fmt: skip
        """W-L1…W-L4 from the result's ``klig`` line (the engine's ``game_points``);
        None for an AI seat (W-L1) and for a player who left (written when they left)."""
        points = (result.detail or {}).get("klig") or [0] * len(players)
        return [None if p is None or p.get("role") == "left" else int(points[s])
                for s, p in enumerate(players)]  # fmt: skip


KLIG = KligScheme()
