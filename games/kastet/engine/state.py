"""Kastet's hand and match state, serialisable with ``to_dict()`` / ``from_dict()``.

The state is the whole truth, secrets included (deck order, every rack, the opaque tile
ids, the deal).  Never send it to a client: ``views.view_for`` decides what a seat sees.
Tiles are KÜT's physical tile numbers 0..105 (``games.okey.engine.tiles``); faces and notation
are KÜT's too (S-T1).
"""

from __future__ import annotations

from games.okey.engine.tiles import face_of, okey_face

SEATS = 4
SLOTS = 26  # S-A1: the run area's slots
MAX_RACK = 22  # S-N5
RACK_CELLS = 24  # S-X4: two rows of 12 cells
ROW = 12
HAND_TILES = 14  # S-D2
BLOCK_PASSES = 4  # S-E2: a full round of passes without a lay


def next_seat(seat: int) -> int:
    """S-M1: the next player is the one on the right."""
    return (seat + 1) % SEATS


class HandState:
    """One hand (*el*) of Kastet."""

    __slots__ = (
        "hand_no", "partners", "starter", "indicator", "ids", "deck", "racks", "table",
        "pairs", "turn", "turn_no", "undo", "passes", "timeouts", "laid", "over", "finisher",
        "blocked", "scores", "deal", "log", "_id_map",
    )  # fmt: skip

    def __init__(self):
        self.hand_no = 1
        self.partners = False
        self.starter = 0
        self.indicator = 0  # a physical tile (S-T2)
        self.ids: list[str] = []  # opaque id of each physical tile (S-T1, K-T7)
        self.deck: list[int] = []  # top first
        self.racks: list[list[int | None]] = [[None] * RACK_CELLS for _ in range(SEATS)]
        self.table: list[list[int]] = []  # the run area: groups of tiles, in order (S-A1)
        self.pairs: list[list[int]] = []  # the pair area, oldest first (S-A2)
        self.turn = 0
        self.turn_no = 0  # turns begun this hand (the move clock restarts with each, S-N6)
        # S-U1: one snapshot per accepted lay of the turn in progress: (rack, table, pairs)
        self.undo: list[dict] = []
        self.passes = 0  # S-E2: turns in a row ended by a pass without a standing lay
        self.timeouts = [0] * SEATS  # S-N7: consecutive timeouts per seat
        self.laid = [0] * SEATS  # rack tiles each seat laid this hand (final lays)
        self.over = False
        self.finisher: int | None = None
        self.blocked = False
        self.scores: list[int] | None = None
        self.deal: dict = {}  # the starting position, as faces (export_hand)
        self.log: list[dict] = []  # accepted actions in scenario form
        self._id_map: dict[str, int] | None = None

    # -- derived -----------------------------------------------------------------------
    @property
    def okey(self) -> int:
        """S-T3: the real okey's face."""
        return okey_face(face_of(self.indicator))

    def rack_tiles(self, seat: int) -> list[int]:
        return [t for t in self.racks[seat] if t is not None]

    def rack_count(self, seat: int) -> int:
        return RACK_CELLS - self.racks[seat].count(None)

    def tile_by_id(self, tid: str) -> int | None:
        if self._id_map is None:
            self._id_map = {t: i for i, t in enumerate(self.ids)}
        return self._id_map.get(tid)

    def all_tiles(self) -> list[int]:
        """Every tile of the hand: indicator, racks, deck, run area and pair area."""
        out = [self.indicator, *self.deck]
        for s in range(SEATS):
            out += self.rack_tiles(s)
        for g in self.table:
            out += g
        for p in self.pairs:
            out += p
        return out

    # -- serialisation -----------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "hand_no": self.hand_no,
            "partners": self.partners,
            "starter": self.starter,
            "indicator": self.indicator,
            "ids": list(self.ids),
            "deck": list(self.deck),
            "racks": [list(r) for r in self.racks],
            "table": [list(g) for g in self.table],
            "pairs": [list(p) for p in self.pairs],
            "turn": self.turn,
            "turn_no": self.turn_no,
            "undo": [
                {
                    "rack": list(u["rack"]),
                    "table": [list(g) for g in u["table"]],
                    "pairs": [list(p) for p in u["pairs"]],
                }
                for u in self.undo
            ],  # fmt: skip
            "passes": self.passes,
            "timeouts": list(self.timeouts),
            "laid": list(self.laid),
            "over": self.over,
            "finisher": self.finisher,
            "blocked": self.blocked,
            "scores": list(self.scores) if self.scores is not None else None,
            "deal": _copy(self.deal),
            "log": _copy(self.log),
        }

    @classmethod
    def from_dict(cls, d: dict) -> HandState:
        s = cls()
        s.hand_no = d["hand_no"]
        s.partners = d["partners"]
        s.starter = d["starter"]
        s.indicator = d["indicator"]
        s.ids = list(d["ids"])
        s.deck = list(d["deck"])
        s.racks = [list(r) for r in d["racks"]]
        s.table = [list(g) for g in d["table"]]
        s.pairs = [list(p) for p in d["pairs"]]
        s.turn = d["turn"]
        s.turn_no = d["turn_no"]
        s.undo = [
            {"rack": list(u["rack"]), "table": [list(g) for g in u["table"]],
             "pairs": [list(p) for p in u["pairs"]]}
            for u in d["undo"]
        ]  # fmt: skip
        s.passes = d["passes"]
        s.timeouts = list(d["timeouts"])
        s.laid = list(d["laid"])
        s.over = d["over"]
        s.finisher = d["finisher"]
        s.blocked = d["blocked"]
        s.scores = list(d["scores"]) if d["scores"] is not None else None
        s.deal = _copy(d["deal"])
        s.log = _copy(d["log"])
        return s


def _copy(x):
    """A structural copy of JSON data (lists, dicts, scalars)."""
    if isinstance(x, list):
        return [_copy(i) for i in x]
    if isinstance(x, dict):
        return {k: _copy(v) for k, v in x.items()}
    return x
