"""Plays, exchanges, passes, forfeits and the end of the game (kelimeki.md W-M*, W-S*,
W-Z*, W-E*).  Every refused action raises ``RuleError`` (with the scenario format's
code) before anything changes."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from game.engine.errors import RuleError
from games.kelimeki.engine import board
from games.kelimeki.engine.alphabet import JOKER, POINTS, RACK_SIZE
from games.kelimeki.engine.lexicon import Lexicon, lexicon_for
from games.kelimeki.engine.state import State

BINGO = 25  # W-S4
JOKER_FINISH = 25  # W-E4, per joker
SIZE = board.SIZE


class InvalidWords(RuleError):
    """W-M7: some word of the play is not in the list; ``invalid`` names them."""

    def __init__(self, invalid: list[str]):
        super().__init__("invalid_word", " ".join(invalid))
        self.invalid = invalid


@dataclass(frozen=True)
class Placement:
    row: int
    col: int
    letter: str  # the letter shown (a joker's named letter)
    joker: bool = False


@dataclass(frozen=True)
class PlayResult:
    cells: tuple[tuple[int, str, bool], ...]  # (index, letter, joker), in line order
    words: tuple[tuple[str, int], ...]  # W-M4 order, each with its points (W-S1)
    bingo: int
    points: int  # W-S3
    shares: tuple[int, ...]  # per seat; they add up to ``points`` (W-Z6, W-Z7)
    touched: tuple[int, ...]  # the opponents whose zones the play touches (W-Z5)


def tax_shares(points: int, k: int) -> int:
    """W-Z6, W-Z7: each touched opponent's share, rounded down."""
    if k == 0:
        return 0
    if k == 1:
        return points // 3
    if k == 2:
        return points // 4
    return 2 * points // 9


def _line(cells, start: int, step: int, along_row: bool) -> list[int]:
    """The unbroken run of occupied cells (``cells`` maps index -> letter) through
    ``start`` in one direction (W-M4)."""
    r, c = board.rc(start)
    dr, dc = (0, 1) if along_row else (1, 0)
    while 0 <= r - dr and 0 <= c - dc and cells.get((r - dr) * SIZE + c - dc) is not None:
        r, c = r - dr, c - dc
    run = []
    while r < SIZE and c < SIZE and cells.get(r * SIZE + c) is not None:
        run.append(r * SIZE + c)
        r, c = r + dr, c + dc
    return run


def evaluate_play(
    cells: Sequence[str | None],
    jokers: set[int] | frozenset[int],
    zone: Sequence[int],
    forfeited: Sequence[bool],
    seat: int,
    first_done: bool,
    home: int,
    rack: Sequence[str],
    placements: Sequence[Placement],
    lexicon: Lexicon,
) -> PlayResult:
    """Check and score a play on a position, changing nothing (W-M3…W-M7, W-S, W-Z5…
    W-Z7).  The checks run in the order of kelimeki-scenario.md's rejection codes."""
    if not placements:
        raise RuleError("no_tiles")
    need = Counter(JOKER if p.joker else p.letter for p in placements)
    have = Counter(rack)
    if any(have[t] < n for t, n in need.items()):
        raise RuleError("tiles_not_in_rack")
    if any(not (0 <= p.row < SIZE and 0 <= p.col < SIZE) for p in placements):
        raise RuleError("off_board")
    placed = {p.row * SIZE + p.col: p for p in placements}
    if len(placed) != len(placements):
        raise RuleError("duplicate_cell")
    if any(cells[i] is not None for i in placed):
        raise RuleError("cell_occupied")
    rows = {p.row for p in placements}
    cols = {p.col for p in placements}
    if len(rows) > 1 and len(cols) > 1:
        raise RuleError("not_in_line")
    # the board's letters with the play's tiles laid over it (index -> letter)
    over = {i: ch for i, ch in enumerate(cells) if ch is not None}
    for i, p in placed.items():
        over[i] = p.letter
    order = sorted(placed)
    # W-M4: along the row if several tiles share it, or a single tile has a
    # horizontal neighbour; else along the column.
    if len(placed) > 1:
        along_row = len(rows) == 1
    else:
        i = order[0]
        r, c = board.rc(i)
        along_row = (c > 0 and cells[i - 1] is not None) or (
            c < SIZE - 1 and cells[i + 1] is not None
        )
    step = 1 if along_row else SIZE
    for i in range(order[0], order[-1] + 1, step):  # W-M3: no gaps
        if over.get(i) is None:
            raise RuleError("gap")
    main = _line(over, order[0], step, along_row)
    lines: list[list[int]] = [main] if len(main) >= 2 else []
    for i in order:
        cross = _line(over, i, 0, not along_row)
        if len(cross) >= 2:
            lines.append(cross)
    if not first_done:  # W-M5
        if home not in placed and not any(home in line for line in lines):
            raise RuleError("must_cover_home")
    elif not any(cells[n] is not None for i in placed for n in board.NEIGHBOURS[i]):
        raise RuleError("not_connected")  # W-M6
    if not lines:
        raise RuleError("no_word")
    texts = ["".join(over[i] for i in line) for line in lines]
    invalid = [w for w in texts if not lexicon.contains(w)]
    if invalid:
        raise InvalidWords(invalid)
    words = []
    for text, line in zip(texts, lines):
        pts = 0
        for i in line:
            p = placed.get(i)
            if p is None:
                pts += 0 if i in jokers else POINTS[cells[i]]
            elif not p.joker:
                pts += POINTS[p.letter] * board.MULT[i]  # W-S1, W-S2, W-B6
        words.append((text, pts))
    bingo = BINGO if len(placements) == RACK_SIZE else 0
    points = sum(p for _, p in words) + bingo
    touched = set()
    for i in placed:  # W-Z5: placed tiles on or beside a zone cell
        for j in (i, *board.NEIGHBOURS[i]):
            z = zone[j]
            if z >= 0 and z != seat and not forfeited[z]:
                touched.add(z)
    share = tax_shares(points, len(touched))
    shares = [share if s in touched else 0 for s in range(len(forfeited))]
    shares[seat] = points - share * len(touched)
    return PlayResult(
        cells=tuple((i, placed[i].letter, placed[i].joker) for i in order),
        words=tuple(words),
        bingo=bingo,
        points=points,
        shares=tuple(shares),
        touched=tuple(sorted(touched)),
    )


def check_turn(state: State, seat: int) -> None:
    if state.over:
        raise RuleError("game_over")
    if seat != state.turn:
        raise RuleError("not_your_turn")


def preview(state: State, seat: int, placements: Sequence[Placement]) -> PlayResult:
    """W-M7: what a play would bring, for the seat's own rack; changes nothing."""
    return evaluate_play(
        state.cells, state.jokers, state.zone, state.forfeited, seat,
        state.first_done[seat], state.home(seat), state.racks[seat], placements,
        lexicon_for(state.words),
    )  # fmt: skip


def _remove(rack: list[str], tiles: Sequence[str]) -> list[str]:
    out = list(rack)
    for t in tiles:
        out.remove(t)
    return out


def _draw(state: State, seat: int) -> None:
    """W-M8: refill from the top of the bag up to 7 tiles."""
    take = min(RACK_SIZE - len(state.racks[seat]), len(state.bag))
    state.racks[seat].extend(state.bag[:take])
    del state.bag[:take]


def rack_value(rack: Sequence[str]) -> int:
    return sum(POINTS[t] for t in rack)


def _finish(state: State, end: str) -> None:
    state.over = True
    state.end = end
    if end == "forfeit":  # W-E6: no deductions
        state.deducted = [0] * state.players
    else:  # W-E3
        state.deducted = [rack_value(r) for r in state.racks]
        for s in range(state.players):
            state.scores[s] -= state.deducted[s]


def play(state: State, seat: int, placements: Sequence[Placement]) -> tuple[PlayResult, int]:
    """Apply a play; returns its result and the W-E4 joker finish bonus."""
    check_turn(state, seat)
    res = preview(state, seat, placements)
    state.racks[seat] = _remove(state.racks[seat], [JOKER if j else ch for _, ch, j in res.cells])
    for i, ch, joker in res.cells:
        state.cells[i] = ch
        state.placer[i] = seat
        if joker:
            state.jokers.add(i)
    for s, pts in enumerate(res.shares):
        state.scores[s] += pts
    _grow_zones(state)
    _draw(state, seat)
    state.first_done[seat] = True
    state.passes = 0
    state.moves += 1
    bonus = 0
    if not state.racks[seat]:  # W-E1 (the bag is empty too)
        if all(j for _, _, j in res.cells):  # W-E4
            bonus = JOKER_FINISH * len(res.cells)
            state.scores[seat] += bonus
        _finish(state, "out")
    else:
        state.turn = state.next_seat(seat)
    state.last = {"seat": seat, "type": "play", "cells": [i for i, _, _ in res.cells],
                  "words": [w for w, _ in res.words], "points": res.points,
                  "shares": list(res.shares), "finish_bonus": bonus}  # fmt: skip
    return res, bonus


def _grow_zones(state: State) -> None:
    """W-Z3: a tile in no zone joins its placer's zone when next to a cell of it,
    repeated until nothing changes (chains of the placer's own tiles)."""
    changed = True
    while changed:
        changed = False
        for i, p in enumerate(state.placer):
            if p >= 0 and state.zone[i] < 0:
                if any(state.zone[n] == p for n in board.NEIGHBOURS[i]):
                    state.zone[i] = p
                    changed = True


def exchange(state: State, seat: int, tiles: Sequence[str], rng: random.Random | None) -> None:
    """W-M9: draw first, then the returned tiles go back into the bag (at random
    places; at the bottom in the listed order when ``rng`` is None, for replays)."""
    check_turn(state, seat)
    if not state.bag:
        raise RuleError("bag_empty")
    if not tiles:
        raise RuleError("no_tiles")
    have = Counter(state.racks[seat])
    if any(have[t] < n for t, n in Counter(tiles).items()):
        raise RuleError("tiles_not_in_rack")
    if len(state.bag) < len(tiles):
        raise RuleError("bag_too_small")
    drawn = state.bag[: len(tiles)]
    del state.bag[: len(tiles)]
    state.racks[seat] = _remove(state.racks[seat], tiles) + drawn
    for t in tiles:
        if rng is None:
            state.bag.append(t)
        else:
            state.bag.insert(rng.randint(0, len(state.bag)), t)
    state.passes = 0
    state.moves += 1
    state.turn = state.next_seat(seat)
    state.last = {"seat": seat, "type": "exchange", "count": len(tiles)}


def pass_turn(state: State, seat: int) -> None:
    """W-M10, W-E2."""
    check_turn(state, seat)
    state.passes += 1
    state.moves += 1
    state.last = {"seat": seat, "type": "pass"}
    if state.passes >= 2 * len(state.active()):
        _finish(state, "passes")
    else:
        state.turn = state.next_seat(seat)


def forfeit(state: State, seat: int, any_turn: bool = False) -> None:
    """W-E6: the move deadline of the seat to move passed (W-X3) — or, with
    ``any_turn``, the player gave the game up (*Teslim ol*, W-X5: the only way out of a
    game), also while another seat is to move.  The seat takes no more turns, its tiles
    stay in its rack and its zone collects no more tax (W-Z6, ``forfeited``); with one
    seat left the game ends at once without W-E3's deductions."""
    if state.over:
        raise RuleError("game_over")
    if not 0 <= seat < state.players:
        raise RuleError("bad_seat")
    if not any_turn:
        # a timeout is a turn's (kelimeki-scenario.md: game_over, not_your_turn); a
        # forfeited seat is never the one to move
        check_turn(state, seat)
    if state.forfeited[seat]:
        raise RuleError("forfeited")
    on_turn = seat == state.turn
    state.forfeited[seat] = True
    state.passes = 0  # W-E2: a forfeit sets the count back to 0
    if on_turn:
        state.moves += 1  # a new turn starts (another seat's clock runs)
    state.last = {"seat": seat, "type": "forfeit"}
    if len(state.active()) == 1:
        _finish(state, "forfeit")
    elif on_turn:
        state.turn = state.next_seat(seat)


def ranks(state: State) -> list[int | None]:
    """W-E5: places among the seats not forfeited; equal scores share a place."""
    live = [s for s in range(state.players) if not state.forfeited[s]]
    return [
        None if state.forfeited[s]
        else 1 + sum(1 for o in live if state.scores[o] > state.scores[s])
        for s in range(state.players)
    ]  # fmt: skip


def shuffle_rack(tiles: Sequence[str], rng: random.Random) -> list[str]:
    """W-T6 *Karıştır*: the same tiles in a random order.  Not a move: the table does
    it for its own seat at any time (also out of turn); nothing else changes."""
    out = list(tiles)
    rng.shuffle(out)
    return out
