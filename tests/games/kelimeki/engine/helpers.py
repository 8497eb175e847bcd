"""Building Kelimeki positions for tests."""

from __future__ import annotations

from games.kelimeki.engine import GAME
from games.kelimeki.engine.board import corners_for
from games.kelimeki.engine.rules import Placement
from games.kelimeki.engine.state import State


def make_state(players=2, racks=None, bag=(), rows=None, placer=None, first_done=None,
               words=None, turn=0) -> State:  # fmt: skip
    """A state with ``rows`` ({row: 15-char string}) on the board, every tile placed
    by ``placer`` (a seat, default 0) and the zones grown from them (W-Z3)."""
    st = State(players=players, corners=corners_for(players),
               racks=[list(r) for r in (racks or [["A"]] * players)], bag=list(bag),
               turn=turn, starter=turn, words=words, exchange_to_bottom=True)  # fmt: skip
    d = st.to_dict()
    board = ["." * 15] * 15
    for r, text in (rows or {}).items():
        board[r] = text
    d["board"] = board
    who = str(0 if placer is None else placer)
    d["placer"] = ["".join("." if ch == "." else who for ch in row) for row in board]
    if first_done is not None:
        d["first_done"] = list(first_done)
    st = State.from_dict(d)
    from games.kelimeki.engine.rules import _grow_zones

    _grow_zones(st)
    return st


def P(row, col, letter, joker=False) -> Placement:  # noqa: N802
    return Placement(row, col, letter, joker)


def snapshot(state) -> dict:
    return GAME.to_dict(state)
