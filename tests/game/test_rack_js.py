"""The tables move a tile on the rack locally before the server answers
(okey/tiles.js ``localMove``): KÜT and KDVli send the move and show the
result at once, Kastet sends the whole new layout (S-X4).  Under node, on thousands of
random racks, it must give exactly the server's ``Rack.move`` (K-R2, V-R1) — on KÜT's
rows of 16 and, with the same shifting, on Kastet's rows of 12 — or Kastet's layout
would be refused (``bad_layout``) and the others would flicker.  The case that once
differed: a tile moved into a full row when the first empty cell is the target's own."""

from __future__ import annotations

import random

from games.okey.engine import rack as okey_rack
from games.okey.engine.rack import Rack
from tests.nodejs import map_in_node


def server_move(cells: list, tile: int, to: int, row: int) -> list:
    """``Rack.move`` with rows of ``row`` cells (the module's ROW, as Kastet's rack is
    KÜT's rack with rows of 12)."""
    saved = okey_rack.ROW
    okey_rack.ROW = row
    try:
        rack = Rack(cells)
        rack.move(tile, to)
        return rack.cells
    finally:
        okey_rack.ROW = saved


def random_cases(n: int, seed: int = 7) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        row = 16 if i % 2 else 12
        size = 2 * row
        count = rng.randint(1, size - 1)
        cells = [None] * size
        for t, at in enumerate(rng.sample(range(size), count)):
            cells[at] = t
        if i % 5 == 0 and count >= row:  # a full top row: the case the JS once got wrong
            tiles = [t for t in cells if t is not None]
            bottom = tiles[row:] + [None] * (2 * row - count)
            rng.shuffle(bottom)
            cells = tiles[:row] + bottom
        tiles = [t for t in cells if t is not None]
        out.append({"cells": cells, "tile": rng.choice(tiles), "to": rng.randrange(size),
                    "row": row})  # fmt: skip
    return out


def test_the_tables_local_move_is_the_servers(tmp_path):
    cases = random_cases(6000)
    mapper = """(c) => {
      const cells = c.cells.map((t) => (t === null ? null : { id: t }));
      localMove(cells, c.tile, c.to, c.row);
      return cells.map((x) => (x ? x.id : null));
    }"""
    got = map_in_node(tmp_path, "okey/tiles.js", "localMove", mapper, cases)
    full_rows = 0
    for case, js in zip(cases, got, strict=True):
        want = server_move(case["cells"], case["tile"], case["to"], case["row"])
        assert js == want, case
        assert sorted(t for t in js if t is not None) == sorted(
            t for t in case["cells"] if t is not None
        )  # no tile lost or doubled
        full_rows += all(c is not None for c in case["cells"][: case["row"]])
    assert full_rows > 500
