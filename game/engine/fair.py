"""P-2, provably fair dealing — the platform's, for every game (portal.md P-2).

The engines never create randomness of their own: they take an RNG (anything with the
``random.Random`` interface).  ``secure_rng()`` is the production default;
``SeededRNG(seed)`` is a deterministic generator keyed by a secret seed (SHA-256 in
counter mode), so a match can be replayed from its seed while its outputs (tile ids
among them) reveal nothing about the seed or the deal.  ``new_seed()`` makes a match's
secret seed.  ``commitment(order, salt)`` is the one hash every game that reveals its
deal publishes when the deal is made (P-2; ``SECURITY.md`` section 2): the salt and the
order are shown once the hand is over, so anyone can check the deal was fixed before the
first move (``game.fairness``'s ``/verify/`` page).
"""

from __future__ import annotations

import hashlib
import random
import secrets


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


def commitment(order: list[str], salt: str) -> str:
    """SHA-256 over the salt and the dealt order: published when the hand starts, the
    salt and the order are revealed when it ends, so anyone can check the shuffle was
    fixed in advance (provably fair, beyond P-2)."""
    text = "kut-deal-v1|" + salt + "|" + ",".join(order)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
