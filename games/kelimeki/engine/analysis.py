"""Kelimeki's analysis (issue 31, *Analiz*): each move of a game against the best legal
play (``python -m game.engine.analyse``, kelimeki-scenario.md).

**What is searched.**  For every accepted move (*Oyna*, *Değiştir*, *Pas Geç*) the
seat's own view at that moment (``views.view_for``: the board, the zones, the scores,
the bag's count and its own rack — never the bag's order or another rack, P-1, W-T5)
goes to the AI's move generator (``movegen``: every legal play of the rack, W-M3…W-M6,
with the game's own word list, W-D4).  A timeout (W-X3, W-E6) is no move and is left
out, as are rejected actions (they changed nothing).

**Value, in points.**  What the move adds to its mover's own score, as the rules count
it: the play's points (W-S3, bingo included) less the tax shares it pays to the
opponents whose zones it touches (W-Z6, W-Z7: ``shares[seat]``), plus the joker finish
(W-E4).  The tax paid is subtracted; what the play takes from the others' racks at the
end (W-E3) is not counted (it depends on their racks).  An exchange or a pass is worth
0.  ``best`` is the legal play worth most (ties: fewer jokers, fewer tiles, then the
first in board order), with its placements so that a board can draw it; ``rank`` is 1
plus the number of legal plays worth strictly more than the move; ``plays`` the number
of legal plays.  ``detail`` gives the move's and the best play's words, points and
shares.

**What is exact and what is bounded.**  The budget counts generator steps (one cell
tried on a line's walk), never seconds; decisions are analysed in order until it runs
out (the rest is left out, ``complete`` false).  Jokers multiply the plays (29 letters
each), so each decision has its own cap, ``DECISION_LIMIT``, and is searched in stages:
the plays without a joker, then with at most one, then with both — each stage whole
before the next, the plays of a smaller rack being plays of the whole rack too.  A
decision whose last stage does not finish is reported with ``exact`` false and a
``bound`` saying which plays were searched in full (its best and rank are then those
among the plays found: the cost is at least the one reported).
"""

from __future__ import annotations

from game.engine import analysis as shared
from game.engine.analysis import Budget
from games.kelimeki.engine import GAME
from games.kelimeki.engine.alphabet import JOKER, ORDER
from games.kelimeki.engine.lexicon import lexicon_for
from games.kelimeki.engine.movegen import Move, Position, generate_bounded
from games.kelimeki.engine.replay import load_scenario, run_action
from games.kelimeki.engine.rules import JOKER_FINISH, evaluate_play

KEY = "kelimeki"
UNIT = "points"
THRESHOLDS = {"loss": 10, "big_loss": 30}
DEFAULT_BUDGET = 200_000  # generator steps per game (analysis_bench: CPU p99 under 1 s)
DECISION_LIMIT = 60_000  # steps per decision: a rack with both jokers stops here
KINDS = ("play", "exchange", "pass")
# what a decision cut short by DECISION_LIMIT searched in full (the jokers' stage done)
SEARCHED = {-1: "no play", 0: "the plays without a joker", 1: "the plays with at most one joker"}


def gain(move: Move, view: dict) -> int:
    """What the play adds to the mover's score: kept after the tax (W-Z6) plus the
    joker finish when it goes out with jokers only (W-E1, W-E4)."""
    out = view["bag_count"] == 0 and move.tiles == len(view["rack"])
    bonus = JOKER_FINISH * move.tiles if out and move.jokers == move.tiles else 0
    return move.kept + bonus


def _rank_key(move: Move, view: dict) -> tuple:
    """Best first: value, fewer jokers, fewer tiles, then board order and the letters
    (the same play whatever order the plays were found in)."""
    return (gain(move, view), -move.jokers, -move.tiles,
            tuple((-i, ORDER[ch]) for i, ch, _ in move.cells))  # fmt: skip


def plays(view: dict, limit: int) -> tuple[list[Move], int, int, int]:
    """The legal plays of the view's seat, searched in stages of 0, 1, 2 jokers within
    ``limit`` steps: (the plays found, the steps, the most jokers searched in full — -1
    when not even the plays without one were —, the jokers in the rack)."""
    pos = Position.from_view(view)
    lex = lexicon_for(view["words"])
    rack = list(pos.rack)
    jokers = rack.count(JOKER)
    letters = [t for t in rack if t != JOKER]
    found: dict = {}
    used = 0
    full = -1
    for j in range(jokers + 1):
        pos.rack = letters + [JOKER] * j
        moves, steps, done = generate_bounded(pos, lex, limit - used)
        used += steps
        for m in moves:
            found.setdefault(frozenset(m.cells), m)
        if not done:
            break
        full = j
    return list(found.values()), used, full, jokers


def _detail(view: dict, move: Move) -> dict:
    pos = Position.from_view(view)
    res = evaluate_play(pos.cells, pos.jokers, pos.zone, pos.forfeited, pos.seat,
                        pos.first_done, pos.home, pos.rack, move.placements(),
                        lexicon_for(view["words"]))  # fmt: skip
    return {"words": [{"word": w, "points": p} for w, p in res.words], "points": res.points,
            "shares": list(res.shares), "finish_bonus": gain(move, view) - move.kept}  # fmt: skip


def judge(step: int, seat: int, kind: str, view: dict, action: dict, result: dict,
          limit: int) -> tuple[dict | None, int]:  # fmt: skip
    """One move against the best play: (its decision, the steps spent); the decision is
    None when ``limit`` ran out before a stage finished that ``DECISION_LIMIT`` would
    have let finish (the game's budget is spent: the move is not analysed)."""
    moves, used, full, jokers = plays(view, limit)
    exact = full == jokers
    if not exact and limit < DECISION_LIMIT:
        return None, used
    played = {k: v for k, v in action.items() if k != "seat"}
    if kind == "play":
        value = result["shares"][seat] + result["finish_bonus"]
        mine = {k: result[k] for k in ("words", "points", "shares", "finish_bonus")}
    else:
        value, mine = 0, None
    best = max(moves, key=lambda m: _rank_key(m, view)) if moves else None
    best_value = max(value, gain(best, view)) if best else value
    notes = []
    if best is not None and best_value > value:
        if best.tiles == 7 and (kind != "play" or result["bingo"] == 0):
            notes.append("missed_bingo")  # W-S4
        if kind != "play":
            notes.append("missed_play")
    if mine is not None and any(p for s, p in enumerate(mine["shares"]) if s != seat):
        notes.append("paid_tax")  # W-Z6
    bound = None
    if not exact:
        bound = f"steps {DECISION_LIMIT}: {SEARCHED[full]} searched in full"
    decision = shared.decision(
        THRESHOLDS, step=step, seat=seat, kind=kind, played=played,
        best=best.to_action() if best else None, value=value, best_value=best_value,
        exact=exact, bound=bound, notes=notes,
        rank=1 + sum(1 for m in moves if gain(m, view) > value), plays=len(moves),
        detail={"played": mine,
                "best": _detail(view, best) if best and best_value > value else None},
    )  # fmt: skip
    return decision, used


def analyse(data, budget: int | None = None) -> dict:
    """The analysis of one Kelimeki game (module docstring); ``budget`` in generator
    steps (default ``DEFAULT_BUDGET``).  Malformed input raises ``ScenarioError``."""
    state, actions = load_scenario(data)
    moves = []
    for step, a in enumerate(actions):
        seat, kind = a["seat"], a["type"]
        mine = kind in KINDS and not state.over and state.turn == seat
        view = GAME.view_for(state, seat) if mine else None  # what the seat saw (P-1)
        result = run_action(state, a)
        if mine and result["ok"]:
            moves.append((step, seat, kind, view, a, result))
    limit = DEFAULT_BUDGET if budget is None else budget
    spend = Budget(limit, "steps")
    out = []
    for step, seat, kind, view, action, result in moves:
        decision, used = judge(step, seat, kind, view, action, result,
                               min(DECISION_LIMIT, spend.left))  # fmt: skip
        spend.used += used
        if decision is None:
            break
        out.append(decision)
    return shared.report(KEY, UNIT, THRESHOLDS, spend, out, complete=len(out) == len(moves),
                         seats=state.players)  # fmt: skip


def run_scenario(data) -> dict:
    """The registry's ``analyse`` command for ``"game": "kelimeki"``."""
    return analyse(data)
