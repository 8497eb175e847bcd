"""Shuffling and tile ids shared by the okey family (kut.md section 4, kdvli.md V-D1,
kastet.md S-D1), and the dealt order that P-2's commitment covers
(``game.engine.fair.commitment``).  The RNG is always passed in (``game.engine.fair``)."""

from __future__ import annotations

import random

from games.okey.engine.tiles import ALL_TILES, FAKE, NUM_TILES, face_of, tile_name

HAND_TILES = 14  # K-D2, V-D2
STARTER_TILES = 15


def deal_order(deal: dict) -> list[str]:
    """The dealt order of all tiles as faces: the indicator, each seat's rack in seat
    order, then the deck from the top (the "deck order" a commitment covers)."""
    tiles = [deal["indicator"], *[t for r in deal["racks"] for t in r], *deal["deck"]]
    return [tile_name(t) for t in tiles]


def make_ids(rng: random.Random) -> list[str]:
    """Per-hand opaque tile ids (K-T7): random, unique, unrelated to the face."""
    ids: list[str] = []
    seen: set[str] = set()
    while len(ids) < NUM_TILES:
        tid = f"{rng.getrandbits(40):010x}"
        if tid not in seen:
            seen.add(tid)
            ids.append(tid)
    return ids


def shuffled_deal(rng: random.Random) -> tuple[int, list[int]]:
    """K-D1: shuffle, turn the indicator; a fake okey goes back at a random position.
    Returns (indicator, the remaining tiles top first)."""
    tiles = list(ALL_TILES)
    rng.shuffle(tiles)
    indicator = tiles.pop(0)
    while face_of(indicator) == FAKE:
        tiles.insert(rng.randrange(len(tiles) + 1), indicator)
        indicator = tiles.pop(0)
    return indicator, tiles
