"""The portal rules every game shares (portal.md, P-…), as pure functions.

No Django here: the lobby, the ranking and the services call these with plain values, so
each rule is tested on its own (tests/game/test_portal.py).
"""

from __future__ import annotations

from collections.abc import Sequence

# P-7: the table's level, chosen by its host; bot seats play at the table's level.
LEVELS = ("acemi", "orta", "usta")
BOT_LEVEL_OF = {"acemi": "easy", "orta": "normal", "usta": "hard"}
DEFAULT_LEVEL = "orta"

# P-6: a rated table's move time, 30–300 s in steps of 15 s (Decision in portal.md).
MOVE_SECONDS_MIN, MOVE_SECONDS_MAX, MOVE_SECONDS_STEP = 30, 300, 15
MOVE_SECONDS_CHOICES = tuple(range(MOVE_SECONDS_MIN, MOVE_SECONDS_MAX + 1, MOVE_SECONDS_STEP))
WARN_SECONDS = 10  # P-6: the top bar warns in the last 10 seconds

# P-4 outcomes (stored on RankingResult.outcome) and their points.
FIRST, SHARED_FIRST, MIDDLE, LAST, SHARED_LAST = (
    "first", "shared_first", "middle", "last", "shared_last")  # fmt: skip
LEFT_LOSS, LEFT_LEADING, PARTNER_BONUS = "left_loss", "left_leading", "partner_bonus"
POINTS = {FIRST: 1, SHARED_FIRST: 0, MIDDLE: 0, LAST: -1, SHARED_LAST: -1,
          LEFT_LOSS: -1, LEFT_LEADING: 0, PARTNER_BONUS: 1}  # fmt: skip


class PortalError(ValueError):
    """A table option outside the portal rules."""


def move_seconds(game, value: int | None) -> int | None:
    """P-6: the move time of a rated table of ``game`` (a protocol Game).  None for a
    game with its own clock (``move_seconds_for``: Kelimeki's days, W-X3)."""
    if getattr(game, "move_seconds_for", None) is not None:
        return None
    if game.fixed_move_seconds or value is None:
        return game.default_move_seconds  # KÜT keeps its fixed 45 s (K-N6)
    if isinstance(value, bool) or value not in MOVE_SECONDS_CHOICES:
        raise PortalError(
            f"move time is {MOVE_SECONDS_MIN}–{MOVE_SECONDS_MAX} s in steps of "
            f"{MOVE_SECONDS_STEP} s (P-6)"
        )
    return value


def bot_level(level: str) -> str:
    """P-7: the bot level that plays at a table of this level."""
    try:
        return BOT_LEVEL_OF[level]
    except KeyError:
        raise PortalError(f"unknown table level {level!r} (P-7)") from None


def placings(places: Sequence[int]) -> list[str]:
    """P-4 outcome of each seat from its place (1 = first; equal totals share a place).

    A sole first +1, a sole last −1, those between 0; sharing first 0, sharing last −1;
    when everyone is level, everyone shares first (0).  With two players this is win +1,
    draw 0, loss −1."""
    worst = max(places)
    if worst == 1:
        return [SHARED_FIRST] * len(places)
    firsts, lasts = places.count(1), places.count(worst)
    out = []
    for p in places:
        if p == 1:
            out.append(FIRST if firsts == 1 else SHARED_FIRST)
        elif p == worst:
            out.append(LAST if lasts == 1 else SHARED_LAST)
        else:
            out.append(MIDDLE)
    return out


def _better(a: int, b: int, lower_is_better: bool) -> bool:
    return a < b if lower_is_better else a > b


def team_totals(totals: Sequence[int]) -> list[int]:
    """P-8: seats 0+2 against 1+3; each seat gets its team's total."""
    teams = [totals[0] + totals[2], totals[1] + totals[3]]
    return [teams[s % 2] for s in range(len(totals))]


def partner_placings(totals: Sequence[int], lower_is_better: bool) -> list[str]:
    """P-8: partners get the same ranking points — the winning team +1, the losing −1,
    a draw 0."""
    team = team_totals(totals)
    out = []
    for s in range(len(totals)):
        mine, theirs = team[s], team[(s + 1) % 2]
        if mine == theirs:
            out.append(SHARED_FIRST)
        else:
            out.append(FIRST if _better(mine, theirs, lower_is_better) else LAST)
    return out


def leave_outcome(seat: int, completed_totals: Sequence[int] | None,
                  lower_is_better: bool) -> str:  # fmt: skip
    """P-5: a leaver during the first hand (no completed hand) loses (−1); later, a sole
    leader on the completed hands' totals gets nothing written; anyone else −1."""
    if not completed_totals:
        return LEFT_LOSS
    mine = completed_totals[seat]
    others = [t for s, t in enumerate(completed_totals) if s != seat]
    if all(_better(mine, t, lower_is_better) for t in others):
        return LEFT_LEADING
    return LEFT_LOSS


def partner_leave_outcomes(seat: int, completed_totals: Sequence[int] | None,
                           lower_is_better: bool) -> tuple[str, str]:  # fmt: skip
    """P-10: (the leaver's outcome, the partner's).  Team ahead on the completed hands:
    nothing for the leaver, +1 for the partner; level: −1 and 0; behind: both −1.
    Leaving in the first hand counts as level-or-behind: the leaver loses (P-5)."""
    if not completed_totals:
        return LEFT_LOSS, MIDDLE
    team = team_totals(completed_totals)
    mine, theirs = team[seat], team[(seat + 1) % 2]
    if mine == theirs:
        return LEFT_LOSS, MIDDLE
    if _better(mine, theirs, lower_is_better):
        return LEFT_LEADING, PARTNER_BONUS
    return LEFT_LOSS, LAST


# --- optional protocol hints (game/engine/protocol.py), read with their defaults -----------


def practice_tables(game) -> bool:
    """P-3: whether the game has test tables (Kelimeki has none, W-X5)."""
    return bool(getattr(game, "practice_tables", True))


def ranked_by_level(game) -> bool:
    """P-7: one ranking per level (Kelimeki's k-lig is one table for all, W-L1)."""
    return bool(getattr(game, "ranked_by_level", True))


def leaving_rules(game) -> bool:
    """P-5, P-11, P-12, P-13 (Kelimeki: not, W-X5)."""
    return bool(getattr(game, "leaving_rules", True))


def guest_play(game) -> bool:
    """Whether visitors without an account may play the game against its bots (issue
    27: Kelimeki, W-X1; ``game.guests``)."""
    return bool(getattr(game, "guest_play", False))


def games_without_leaving_rules() -> list[str]:
    """The registered games whose GAME says ``leaving_rules = False`` (Kelimeki)."""
    from game.engine import registry

    out = []
    for key in registry.GAMES:
        try:
            if not leaving_rules(registry.get(key)):
                out.append(key)
        except ImportError:
            continue
    return out


def ranking_level(game, level: str) -> str:
    """The level a ranking row of ``game`` is kept under: the table's (P-7), or ``""``
    for a game ranked across levels."""
    return level if ranked_by_level(game) else ""
