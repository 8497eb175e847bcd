"""KÜT's dealing (kut.md section 4): a hand dealt from an RNG, or set up from an explicit
deal (scenarios, the trial hand).  The shuffle and tile ids are the okey family's
(``games.okey.engine.deal``); the RNG and P-2's commitment are the platform's
(``game.engine.fair``)."""

from __future__ import annotations

import random

from game.engine.fair import SeededRNG, commitment
from games.kut.engine.state import SEATS, HandState
from games.kut.engine.tasks import task_for
from games.okey.engine.deal import HAND_TILES, STARTER_TILES, deal_order, make_ids, shuffled_deal
from games.okey.engine.rack import Rack
from games.okey.engine.tiles import FAKE, copies_of, face_of


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
            from games.okey.engine.tiles import face_name

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
