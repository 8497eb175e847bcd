"""The rack (*ıstaka*, kut.md section 11, kdvli.md V-R1): two rows of 16 cells plus
separators.  Shared by the okey family; ``games.okey.engine.rack`` re-exports it.

Cells hold physical tile numbers or ``None``.  A separator ``i`` stands between cell
``i`` and cell ``i + 1`` of the same row (so ``i`` is never 15 or 31); separators use no
cell (K-O5).
"""

from __future__ import annotations

ROW = 16
CELLS = 2 * ROW
VALID_SEPARATORS = frozenset(i for i in range(CELLS - 1) if i % ROW != ROW - 1)


class Rack:
    __slots__ = ("cells", "seps")

    def __init__(self, cells=None, seps=()):
        self.cells: list[int | None] = list(cells) if cells is not None else [None] * CELLS
        self.seps: set[int] = set(seps)

    # -- contents --------------------------------------------------------------
    def tiles(self) -> list[int]:
        """Tiles in reading order (top row left to right, then bottom row)."""
        return [t for t in self.cells if t is not None]

    def count(self) -> int:
        return CELLS - self.cells.count(None)

    def __contains__(self, tile: int) -> bool:
        return tile in self.cells

    def add(self, tile: int) -> int:
        """K-R3: a new tile goes to the first empty cell; returns the cell."""
        i = self.cells.index(None)
        self.cells[i] = tile
        return i

    def remove(self, tile: int) -> int:
        i = self.cells.index(tile)
        self.cells[i] = None
        return i

    # -- segments (K-O5) -------------------------------------------------------
    def segments(self) -> list[list[int]]:
        """Maximal runs of adjacent tiles not split by a separator, an empty cell or a
        row end, in reading order; each a list of tiles."""
        out: list[list[int]] = []
        current: list[int] = []
        for i, tile in enumerate(self.cells):
            if tile is None:
                if current:
                    out.append(current)
                    current = []
            else:
                current.append(tile)
            if i % ROW == ROW - 1 or i in self.seps:
                if current:
                    out.append(current)
                    current = []
        if current:
            out.append(current)
        return out

    # -- moving tiles (K-R2) ---------------------------------------------------
    def move(self, tile: int, to: int) -> None:
        """Move ``tile`` to cell ``to``; if it is taken, the neighbouring tiles shift
        along to make room (towards the nearest empty cell of that row, else the other
        row)."""
        src = self.cells.index(tile)
        if src == to:
            return
        self.cells[src] = None
        if self.cells[to] is not None:
            self._make_room(to)
        self.cells[to] = tile

    def _make_room(self, at: int) -> None:
        row_start = at - at % ROW
        row_end = row_start + ROW
        right = next((j for j in range(at + 1, row_end) if self.cells[j] is None), None)
        left = next((j for j in range(at - 1, row_start - 1, -1) if self.cells[j] is None), None)
        if right is not None and (left is None or right - at <= at - left):
            for j in range(right, at, -1):
                self.cells[j] = self.cells[j - 1]
            self.cells[at] = None
        elif left is not None:
            for j in range(left, at):
                self.cells[j] = self.cells[j + 1]
            self.cells[at] = None
        else:
            # The row is full: push the tile at ``at`` into the first empty cell anywhere
            # else (never ``at`` itself: the moved tile goes there and would overwrite
            # it; ``move`` has emptied the moved tile's own cell, so one exists).
            displaced = self.cells[at]
            self.cells[at] = None
            free = next(j for j, cell in enumerate(self.cells) if cell is None and j != at)
            self.cells[free] = displaced

    def toggle_separator(self, at: int) -> None:
        if at in self.seps:
            self.seps.discard(at)
        else:
            self.seps.add(at)

    # -- serialisation ---------------------------------------------------------
    def to_dict(self) -> dict:
        return {"cells": list(self.cells), "seps": sorted(self.seps)}

    @classmethod
    def from_dict(cls, d: dict) -> Rack:
        return cls(d["cells"], d["seps"])

    def copy(self) -> Rack:
        return Rack(self.cells, self.seps)
