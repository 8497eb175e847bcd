"""How the load harness's simulated humans choose their moves (issue 30).

A simulated human sees only what its socket shows: the seat's own view (``frame["hand"]``,
the game's ``view_for``), never the database.  It moves when the view says it is its turn
(``turn`` is its seat and the hand is not over) and picks a legal move with the game's
own bot on that view (bots are pure functions of a view, P-1) at ``level``.

Kelimeki's AI searches the whole move tree (thousands of steps a move); a client that
drives hundreds of tables on the machine under test cannot afford that, so its humans
take a play from a small search (``KELIMEKI_STEPS``) — still a legal word the server
checks — and exchange or pass when it finds none, as the bots do.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from game.engine import registry

# the games, and the mix: the share of tables a portal would see (an assumption: the
# classic tile games most, the card and word games less; Kelimeki half 2, half 4 seats)
GAMES = ("kut", "kdvli", "king", "kastet", "kelimeki")
MIX = {"kut": 0.35, "kdvli": 0.2, "king": 0.15, "kastet": 0.15, "kelimeki": 0.15}
# the simulated humans' level: KÜT's as before; the cheap level elsewhere (client CPU)
HUMAN_LEVEL = {"kut": "normal", "kdvli": "easy", "king": "easy", "kastet": "easy"}
KELIMEKI_STEPS = 1500


def my_turn(view: dict | None, seat: int) -> bool:
    return bool(view) and not view.get("over") and view.get("turn") == seat


def _kelimeki(view: dict, level: str, rng: random.Random) -> dict | None:
    from games.kelimeki.engine import bots
    from games.kelimeki.engine.lexicon import lexicon_for
    from games.kelimeki.engine.movegen import Position, generate

    moves = generate(Position.from_view(view), lexicon_for(view["words"]), KELIMEKI_STEPS)
    if not moves:
        return bots._fallback(view, rng)
    plain = [m for m in moves if m.jokers == 0] or moves
    return rng.choice(plain).to_action()


def chooser(game: str) -> Callable[[dict, str, random.Random], dict | None]:
    """``choose(view, level, rng)`` of ``game``'s simulated humans."""
    if game == "kelimeki":
        return _kelimeki
    return registry.get(game).bot_choose


def level_for(game: str, level: str | None) -> str:
    return level or HUMAN_LEVEL.get(game, "easy")


def mix_counts(tables: int) -> dict[str, int]:
    """``tables`` split over the games in ``MIX``'s shares (largest remainders; every
    game at least one table when there are enough)."""
    raw = {g: tables * share for g, share in MIX.items()}
    counts = {g: int(x) for g, x in raw.items()}
    rest = sorted(raw, key=lambda g: raw[g] - counts[g], reverse=True)
    for g in rest[: tables - sum(counts.values())]:
        counts[g] += 1
    if tables >= len(MIX):
        for g in MIX:
            if counts[g] == 0:
                top = max(counts, key=counts.get)
                counts[top] -= 1
                counts[g] += 1
    return counts
