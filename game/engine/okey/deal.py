"""Shuffling, tile ids and the provably fair commitment, shared by the okey family
(kut.md section 4, kdvli.md V-D1, P-2).  ``game.engine.deal`` (KÜT's dealing) imports
these.

The engine never creates randomness of its own: it takes an RNG (anything with the
``random.Random`` interface).  ``secure_rng()`` is the production default;
``SeededRNG(seed)`` is a deterministic generator keyed by a secret seed (SHA-256 in
counter mode), so a match can be replayed from its seed while its outputs (tile ids
among them) reveal nothing about the seed or the deck.
"""

from __future__ import annotations

import hashlib
import random
import secrets

from .tiles import ALL_TILES, FAKE, NUM_TILES, face_of, tile_name

HAND_TILES = 14  # K-D2, V-D2
STARTER_TILES = 15


class SeededRNG(random.Random):
    """A deterministic, unpredictable RNG: SHA-256(seed ‖ counter) blocks."""

    def __init__(self, seed: bytes | str | int = b""):
        self._key = b""
        self._counter = 0
        self._pool = 0
        self._bits = 0
        super().__init__(0)
        self.seed(seed)

    def seed(self, a=None, version=2):  # noqa: D401 - random.Random API
        if a is None:
            return
        if isinstance(a, int):
            a = a.to_bytes((a.bit_length() + 8) // 8, "big", signed=True)
        elif isinstance(a, str):
            a = a.encode()
        self._key = hashlib.sha256(b"kut-rng|" + bytes(a)).digest()
        self._counter = 0
        self._pool = 0
        self._bits = 0

    def _block(self) -> int:
        data = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        return int.from_bytes(data, "big")

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        while self._bits < k:
            self._pool = (self._pool << 256) | self._block()
            self._bits += 256
        self._bits -= k
        out = self._pool >> self._bits
        self._pool &= (1 << self._bits) - 1
        return out

    def random(self) -> float:
        return self.getrandbits(53) / (1 << 53)

    def getstate(self):
        return (self._key, self._counter, self._pool, self._bits)

    def setstate(self, state):
        self._key, self._counter, self._pool, self._bits = state


def secure_rng() -> random.Random:
    """K-D1, P-2: the production shuffle uses the operating system's CSPRNG."""
    return secrets.SystemRandom()


def new_seed() -> str:
    return secrets.token_hex(32)


def deal_order(deal: dict) -> list[str]:
    """The dealt order of all tiles as faces: the indicator, each seat's rack in seat
    order, then the deck from the top (the "deck order" a commitment covers)."""
    tiles = [deal["indicator"], *[t for r in deal["racks"] for t in r], *deal["deck"]]
    return [tile_name(t) for t in tiles]


def commitment(order: list[str], salt: str) -> str:
    """SHA-256 over the salt and the dealt order: published when the hand starts, the
    salt and the order are revealed when it ends, so anyone can check the shuffle was
    fixed in advance (provably fair, beyond P-2)."""
    text = "kut-deal-v1|" + salt + "|" + ",".join(order)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


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
