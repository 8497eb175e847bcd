"""The 15 × 15 board: bonus cells, starting blocks, home squares, seats' corners
(kelimeki.md W-B1…W-B7, W-Z1)."""

from __future__ import annotations

SIZE = 15  # W-B1
CELLS = SIZE * SIZE
CENTRE = (7, 7)

# W-B4, exactly as drawn in the spec: H home, o starting-block cell, 2 X2, 3 X3, . plain.
LAYOUT = (
    "Hooo..232..oooH",
    "oooo.32223.oooo",
    "oooo.......oooo",
    "oooo...3...oooo",
    "....22...22....",
    ".3..22.2.22..3.",
    "22....222....22",
    "32.3.22322.3.23",
    "22....222....22",
    ".3..22.2.22..3.",
    "....22...22....",
    "oooo...3...oooo",
    "oooo.......oooo",
    "oooo.32223.oooo",
    "Hooo..232..oooH",
)
# W-B5, W-B7: one letter multiplier per cell (1, 2 or 3).
MULT: tuple[int, ...] = tuple(int(ch) if ch in "23" else 1 for row in LAYOUT for ch in row)


def idx(row: int, col: int) -> int:
    return row * SIZE + col


def rc(i: int) -> tuple[int, int]:
    return divmod(i, SIZE)


# Neighbours sharing a side (diagonals never count).
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        idx(r + dr, c + dc)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
        if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE
    )
    for r in range(SIZE)
    for c in range(SIZE)
)

# W-B2: corners 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left.
HOMES = (idx(0, 0), idx(0, 14), idx(14, 14), idx(14, 0))
_BLOCK_RANGES = ((range(0, 4), range(0, 4)), (range(0, 4), range(11, 15)),
                 (range(11, 15), range(11, 15)), (range(11, 15), range(0, 4)))  # fmt: skip
BLOCKS: tuple[frozenset[int], ...] = tuple(
    frozenset(idx(r, c) for r in rows for c in cols) for rows, cols in _BLOCK_RANGES
)


def corners_for(players: int) -> tuple[int, ...]:
    """W-B3: each seat's corner; two players sit at opposite corners."""
    return (0, 1, 2, 3) if players == 4 else (0, 2)
