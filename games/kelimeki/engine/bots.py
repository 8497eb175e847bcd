"""The AI at three levels (kelimeki issue, P-1, P-7).  A bot sees only a view: the
board, zones, scores, the bag's count and its own rack.

* ``hard`` plays the legal play that keeps the most points after the territory tax
  (W-Z6; the W-E4 joker finish counted), i.e. the best-scoring play for itself.
* ``normal`` aims at a random 45–75 % of the best kept score and plays the play
  nearest to it.
* ``easy`` plays short words (at most 3 tiles) aiming at 20–45 % of the best.
With no play: exchange (the highest-valued tiles, as many as the bag allows), else pass.

Each level has a work budget per decision (the engine reads no clock): ``BUDGETS``, the
move generator's search steps (``movegen.generate``).  Plays without jokers come first
and are almost always all found; the joker plays, the generator's costly part (both
jokers in the rack: up to 500,000 steps, about a second of CPU), are searched as far as
the budget goes (README, "Benchmarks").
"""

from __future__ import annotations

import random

from games.kelimeki.engine.alphabet import JOKER, POINTS
from games.kelimeki.engine.lexicon import lexicon_for
from games.kelimeki.engine.movegen import Move, Position, generate
from games.kelimeki.engine.rules import JOKER_FINISH

# Search steps per decision, about 2 µs each on this machine (README, "Benchmarks").
BUDGETS = {"easy": 8000, "normal": 8000, "hard": 10000}


def _value(move: Move, view: dict) -> int:
    bonus = 0
    if view["bag_count"] == 0 and move.tiles == len(view["rack"]) and move.jokers == move.tiles:
        bonus = JOKER_FINISH * move.tiles  # W-E4
    return move.kept + bonus


def best_move(view: dict, budget: int | None = BUDGETS["hard"]) -> Move | None:
    """The best-scoring legal play for the view's seat found within ``budget`` search
    steps (None: every play), or None (ties: fewer jokers, then fewer tiles, then the
    first in board order — deterministic)."""
    moves = generate(Position.from_view(view), lexicon_for(view["words"]), budget)
    if not moves:
        return None
    return max(moves, key=lambda m: (_value(m, view), -m.jokers, -m.tiles, _order(m)))


def _order(m: Move) -> tuple:
    return tuple(-i for i, _, _ in m.cells)


def _fallback(view: dict, rng: random.Random) -> dict:
    rack = view["rack"]
    if view["bag_count"] > 0:
        count = min(view["bag_count"], len(rack))
        worst = sorted(rack, key=lambda t: (t == JOKER, -POINTS[t], rng.random()))[:count]
        return {"type": "exchange", "letters": worst}
    return {"type": "pass"}


def choose(view: dict, level: str, rng: random.Random) -> dict:
    if view.get("over") or view.get("turn") != view.get("seat"):
        raise ValueError("not this seat's turn")
    moves = generate(Position.from_view(view), lexicon_for(view["words"]), BUDGETS.get(level))
    if not moves:
        return _fallback(view, rng)
    if level == "hard":
        best = max(moves, key=lambda m: (_value(m, view), -m.jokers, -m.tiles, _order(m)))
        return best.to_action()
    best_value = max(_value(m, view) for m in moves)
    if level == "easy":
        pool = [m for m in moves if m.tiles <= 3 and m.jokers == 0] or moves
        target = best_value * rng.uniform(0.2, 0.45)
    else:
        pool = [m for m in moves if m.jokers == 0] or moves
        target = best_value * rng.uniform(0.45, 0.75)
    dist = min(abs(_value(m, view) - target) for m in pool)
    near = [m for m in pool if abs(_value(m, view) - target) == dist]
    near.sort(key=_order)
    return rng.choice(near).to_action()
