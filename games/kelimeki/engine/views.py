"""What one seat (or a watcher) may see (kelimeki.md W-T5, P-1, P-2)."""

from __future__ import annotations

from collections import Counter

from games.kelimeki.engine import board
from games.kelimeki.engine.alphabet import COUNTS, JOKER, TILES, sort_tiles
from games.kelimeki.engine.klig import game_points
from games.kelimeki.engine.rules import ranks
from games.kelimeki.engine.state import State


def unseen(state: State, seat: int | None) -> dict[str, int]:
    """W-T5 *Torba*: per tile, the 100 minus the board minus the viewer's own rack."""
    left = Counter(COUNTS)
    for i, ch in enumerate(state.cells):
        if ch is not None:
            left[JOKER if i in state.jokers else ch] -= 1
    if seat is not None:
        left.subtract(state.racks[seat])
    return {t: left[t] for t in TILES if left[t] > 0}


def view_for(state: State, seat: int | None) -> dict:
    n = state.players
    places = ranks(state) if state.over else None
    view = {
        "game": "kelimeki",
        "seat": seat,
        "players": n,
        "corners": list(state.corners),
        "homes": [list(board.rc(state.home(s))) for s in range(n)],
        "layout": list(board.LAYOUT),
        "board": state.board_rows(),
        "placer": state.placer_rows(),
        "zones": state.zone_rows(),
        "rack": sort_tiles(state.racks[seat]) if seat is not None else None,
        "rack_counts": [len(r) for r in state.racks],
        "bag_count": len(state.bag),
        "unseen": unseen(state, seat),
        "scores": list(state.scores),
        "turn": None if state.over else state.turn,
        "passes": state.passes,
        "forfeited": list(state.forfeited),
        "first_done": list(state.first_done),
        "words": state.words,  # the game's own list (W-D4), None for the shipped one
        "last": state.last,
        "over": state.over,
        "end": state.end,
        "deducted": state.deducted,
        "ranks": places,
        "klig": game_points(n, places, state.forfeited) if places else None,
        # hints for the table (W-M9): how many tiles an exchange may return now
        "max_exchange": (
            min(len(state.bag), len(state.racks[seat]))
            if seat is not None and not state.over and state.turn == seat
            else 0
        ),
    }
    if state.fair:  # P-2: the commitment from the start; salt and order at the end
        view["fair"] = {"commitment": state.fair["commitment"]}
    if state.over:  # P-2: revealed once the game is over
        view["racks"] = [sort_tiles(r) for r in state.racks]
        view["bag"] = list(state.bag)
        if state.fair:
            view["fair"].update(salt=state.fair["salt"], order=list(state.fair["order"]))
    return view
