"""Shuffling and dealing (kut.md section 4), and hands set up from an explicit deal.

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

from .rack import Rack
from .state import SEATS, HandState
from .tasks import task_for
from .tiles import ALL_TILES, FAKE, NUM_TILES, copies_of, face_of

HAND_TILES = 14  # K-D2
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
    from .tiles import tile_name

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


def new_hand(tasks: int, task_no: int, starter: int, rng: random.Random) -> HandState:
    """Deal a hand: the starter 15 tiles, the others 14, 48 left in the deck (K-D2)."""
    indicator, tiles = shuffled_deal(rng)
    racks: list[list[int]] = [[] for _ in range(SEATS)]
    pos = 0
    for seat in range(SEATS):
        n = STARTER_TILES if seat == starter else HAND_TILES
        racks[seat] = tiles[pos : pos + n]
        pos += n
    ids = make_ids(rng)
    salt = f"{rng.getrandbits(128):032x}"
    return hand_from_tiles(tasks, task_no, starter, indicator, racks, tiles[pos:], ids, salt)


def hand_from_tiles(
    tasks: int,
    task_no: int,
    starter: int,
    indicator: int,
    racks: list[list[int]],
    deck_top_first: list[int],
    ids: list[str],
    salt: str | None = None,
) -> HandState:
    task_for(tasks, task_no)  # validates
    s = HandState()
    s.tasks, s.task_no, s.starter, s.indicator = tasks, task_no, starter, indicator
    s.ids = ids
    s.racks = [Rack(list(r) + [None] * (32 - len(r))) for r in racks]
    s.deck = list(reversed(deck_top_first))
    s.turn = starter
    s.phase = "play"  # K-D3: the starter does not draw first
    s.first_turn = True
    s.deal = {
        "indicator": indicator,
        "racks": [list(r) for r in racks],
        "deck": list(deck_top_first),
    }
    s.deal["salt"] = salt or ""
    s.deal["commitment"] = commitment(deal_order(s.deal), s.deal["salt"])
    return s


class DealError(ValueError):
    """An explicit deal that cannot exist (a third copy, wrong rack sizes…)."""


def hand_from_faces(
    tasks: int,
    task_no: int,
    starter: int,
    indicator: int,
    racks: list[list[int]],
    deck_top_first: list[int],
    rng: random.Random | None = None,
) -> HandState:
    """A hand from an explicit deal given by faces (scenarios, the trial hand)."""
    if not isinstance(starter, int) or isinstance(starter, bool) or not 0 <= starter < SEATS:
        raise DealError("starter must be a seat 0-3")
    if face_of(copies_of(indicator)[0]) == FAKE:
        raise DealError("the indicator cannot be a fake okey (K-D1)")
    if len(racks) != SEATS:
        raise DealError("there must be four racks")
    for seat, rack in enumerate(racks):
        want = STARTER_TILES if seat == starter else HAND_TILES
        if len(rack) != want:
            raise DealError(f"rack {seat} must hold {want} tiles, not {len(rack)} (K-D2)")
    used: dict[int, int] = {}

    def take(face: int) -> int:
        n = used.get(face, 0)
        if n >= 2:
            from .tiles import face_name

            raise DealError(f"a third copy of {face_name(face)} (K-T1, K-T3)")
        used[face] = n + 1
        return copies_of(face)[n]

    ind = take(indicator)
    rack_tiles = [[take(f) for f in rack] for rack in racks]
    deck = [take(f) for f in deck_top_first]
    rng = rng or SeededRNG(b"scenario")
    ids = make_ids(rng)
    return hand_from_tiles(tasks, task_no, starter, ind, rack_tiles, deck, ids,
                           f"{rng.getrandbits(128):032x}")  # fmt: skip
