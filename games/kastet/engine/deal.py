"""Dealing (kastet.md section 4) and hands set up from an explicit position.

KÜT's shuffle is reused as it is (S-D1 = K-D1): ``games.okey.engine.deal.shuffled_deal`` turns
the indicator and puts a fake okey back; its opaque ids (``make_ids``, S-T1) too.
"""

from __future__ import annotations

import random

from game.engine.fair import SeededRNG
from games.kastet.engine.groups import read_group, read_pair
from games.kastet.engine.state import HAND_TILES, MAX_RACK, RACK_CELLS, SEATS, SLOTS, HandState
from games.okey.engine.deal import make_ids, shuffled_deal
from games.okey.engine.tiles import FAKE, copies_of, face_name, face_of, okey_face


class PositionError(ValueError):
    """A position that cannot exist (a third copy, a bad rack size, an invalid group…)."""


def new_hand(starter: int, rng: random.Random, hand_no: int = 1,
             partners: bool = False) -> HandState:  # fmt: skip
    """S-D1, S-D2: shuffle, turn the indicator, 14 tiles to every seat, 49 in the deck."""
    indicator, tiles = shuffled_deal(rng)
    racks = [tiles[s * HAND_TILES : (s + 1) * HAND_TILES] for s in range(SEATS)]
    deck = tiles[SEATS * HAND_TILES :]
    return _hand(starter, indicator, racks, deck, [], [], make_ids(rng), hand_no, partners)


def _hand(starter, indicator, racks, deck, table, pairs, ids, hand_no, partners) -> HandState:
    h = HandState()
    h.hand_no, h.partners, h.starter, h.turn = hand_no, partners, starter, starter
    h.indicator = indicator
    h.ids = ids
    h.racks = [list(r) + [None] * (RACK_CELLS - len(r)) for r in racks]
    h.deck = list(deck)
    h.table = [list(g) for g in table]
    h.pairs = [list(p) for p in pairs]

    def names(ts):
        return [face_name(face_of(t)) for t in ts]

    h.deal = {
        "starter": starter,
        "indicator": face_name(face_of(indicator)),
        "racks": [names(r) for r in racks],
        "deck": names(deck),
        "table": [names(g) for g in table],
        "pairs": [names(p) for p in pairs],
    }
    return h


def hand_from_faces(starter: int, indicator: int, racks: list[list[int]], deck: list[int],
                    table: list[list[int]] = (), pairs: list[list[int]] = (),
                    partners: bool = False, rng: random.Random | None = None,
                    hand_no: int = 1) -> HandState:  # fmt: skip
    """A hand from an explicit position given by faces (scenarios); raises PositionError."""
    if isinstance(starter, bool) or not isinstance(starter, int) or not 0 <= starter < SEATS:
        raise PositionError("'starter' must be a seat 0-3")
    if indicator == FAKE:
        raise PositionError("the indicator cannot be a fake okey (S-D1)")
    if len(racks) != SEATS:
        raise PositionError("there must be four racks")
    for seat, rack in enumerate(racks):
        if not 1 <= len(rack) <= MAX_RACK:
            raise PositionError(f"rack {seat} holds {len(rack)} tiles: 1 to 22 (S-N5)")
    if len(table) > SLOTS:
        raise PositionError(f"the table holds {len(table)} groups: at most 26 (S-A1)")
    used: dict[int, int] = {}

    def take(face: int) -> int:
        n = used.get(face, 0)
        if n >= 2:
            raise PositionError(f"a third copy of {face_name(face)} (S-T1)")
        used[face] = n + 1
        return copies_of(face)[n]

    ind = take(indicator)
    okey = okey_face(indicator)
    rack_tiles = [[take(f) for f in r] for r in racks]
    deck_tiles = [take(f) for f in deck]
    table_tiles = [[take(f) for f in g] for g in table]
    pair_tiles = [[take(f) for f in p] for p in pairs]
    for i, g in enumerate(table):
        if read_group(list(g), okey) is None:
            names = " ".join(face_name(f) for f in g)
            raise PositionError(f"table group {i} ({names}) is no valid run or set (S-L3)")
    for i, p in enumerate(pairs):
        if read_pair(list(p), okey) is None:
            names = " ".join(face_name(f) for f in p)
            raise PositionError(f"pair {i} ({names}) is no valid pair (S-G3)")
    rng = rng or SeededRNG(b"kastet-scenario")
    return _hand(starter, ind, rack_tiles, deck_tiles, table_tiles, pair_tiles, make_ids(rng),
                 hand_no, partners)  # fmt: skip
