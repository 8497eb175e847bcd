"""Hand and match state, serialisable with ``to_dict()`` / ``from_dict()``.

The state is the whole truth, secrets included (deck order, every rack, the opaque
ids).  Never send it to a client: ``views.view_for`` decides what a seat may see.
"""

from __future__ import annotations

from games.kut.engine.tasks import task_for
from games.okey.engine.rack import Rack
from games.okey.engine.tiles import NUM_TILES, face_of, okey_face

SEATS = 4
# The okey face for each possible indicator tile (fake okeys never indicate).
_OKEY_BY_INDICATOR = [okey_face(face_of(t)) if t < 104 else -1 for t in range(NUM_TILES)]


def next_seat(seat: int) -> int:
    """K-M1: the next player is the one on your right."""
    return (seat + 1) % SEATS


def prev_seat(seat: int) -> int:
    return (seat - 1) % SEATS


class Group:
    """A group on the table (K-L1)."""

    __slots__ = ("owner", "kind", "tiles", "values", "turn", "adds")

    def __init__(self, owner, kind, tiles, values, turn, adds=None):
        self.owner: int = owner
        self.kind: str = kind
        self.tiles: list[int] = list(tiles)
        self.values: list[int | None] = list(values)
        self.turn: int = turn  # the table turn number in which it was laid down (K-S5)
        # [table turn, tiles added at the left end, at the right end] (K-L3)
        self.adds: list[int] = list(adds) if adds else [-1, 0, 0]

    def added(self, turn: int) -> tuple[int, int]:
        if self.adds[0] != turn:
            return (0, 0)
        return (self.adds[1], self.adds[2])

    def note_add(self, turn: int, end: str) -> None:
        if self.adds[0] != turn:
            self.adds = [turn, 0, 0]
        self.adds[1 if end == "left" else 2] += 1

    def to_dict(self) -> dict:
        return {
            "owner": self.owner,
            "kind": self.kind,
            "tiles": list(self.tiles),
            "values": list(self.values),
            "turn": self.turn,
            "adds": list(self.adds),
        }

    @classmethod
    def from_dict(cls, d: dict) -> Group:
        return cls(d["owner"], d["kind"], d["tiles"], d["values"], d["turn"], d["adds"])

    def copy(self) -> Group:
        return Group(self.owner, self.kind, self.tiles, self.values, self.turn, self.adds)


class HandState:
    """One hand (*el*): the deal, every rack, the table and the turn in progress."""

    __slots__ = (
        "tasks", "task_no", "starter", "indicator", "ids", "deck", "racks", "discards",
        "thrown", "claimable", "table", "turn", "phase", "first_turn", "taken",
        "took_discard", "undo", "opened", "opened_at", "opened_pairs", "turns_done",
        "exempt", "penalties", "streak", "forced", "timeouts", "table_turn", "over",
        "finisher", "finish_okey", "scores", "score_lines", "deal", "log", "picked", "_id_map",
    )  # fmt: skip

    def __init__(self):
        self.tasks = 8
        self.task_no = 1
        self.starter = 0
        self.indicator = 0  # a physical tile
        self.ids: list[str] = []  # opaque id of each physical tile (K-T7)
        self.deck: list[int] = []  # top of the deck LAST (pop())
        self.racks: list[Rack] = []
        self.discards: list[list[int]] = [[], [], [], []]
        self.thrown: int | None = None  # the tile thrown to the player whose turn it is
        self.claimable = False  # K-C1: the thrown tile may be claimed by others
        self.table: list[Group] = []
        self.turn = 0
        self.phase = "play"  # "take": must take a tile first; "play": may play/discard
        self.first_turn = True  # the starter's first turn (K-D3)
        self.taken: int | None = None  # the tile taken this turn (K-N7)
        self.took_discard = False  # this turn's take was the thrown tile (K-N5, K-U2)
        self.undo: list = []  # snapshots of the turn's provisional moves (K-U1, K-U2)
        self.opened = [False] * SEATS
        self.opened_at: list[int | None] = [None] * SEATS  # turns_done when opened (K-S4)
        self.opened_pairs = [False] * SEATS  # opened with pairs (K-O6)
        self.turns_done = [0] * SEATS  # own turns completed
        self.exempt: list[list[int]] = [[], [], [], []]  # K-C7: turns_done at receipt
        self.penalties = [0] * SEATS  # K-S5
        self.streak = 0  # consecutive turns that took the thrown tile (K-N5)
        self.forced = 0  # turns left that must draw from the centre (K-N5)
        self.timeouts = [0] * SEATS  # consecutive timeouts (K-N7)
        self.table_turn = 0  # counts every completed turn of the hand
        self.over = False
        self.finisher: int | None = None
        self.finish_okey = False
        self.scores: list[int] | None = None
        self.score_lines: list[dict] | None = None
        self.deal: dict = {}  # the initial deal, for exporting the hand as a scenario
        self.log: list[dict] = []  # accepted actions in scenario form
        self.picked: list[list[int]] = [[], [], [], []]  # tiles taken from discards (public)
        self._id_map: dict[str, int] | None = None  # cache: opaque id -> tile

    # -- derived -----------------------------------------------------------------
    @property
    def task(self):
        return task_for(self.tasks, self.task_no)

    @property
    def okey(self) -> int:
        """The real okey's face (K-T4)."""
        return _OKEY_BY_INDICATOR[self.indicator]

    def tile_by_id(self, tid: str) -> int | None:
        if self._id_map is None:
            self._id_map = {x: t for t, x in enumerate(self.ids)}
        return self._id_map.get(tid)

    def thrower(self) -> int:
        """The seat whose discard is thrown to the player whose turn it is."""
        return prev_seat(self.turn)

    def rack_count(self, seat: int) -> int:
        return self.racks[seat].count()

    def tile_id(self, tile: int) -> str:
        return self.ids[tile]

    # -- serialisation -----------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "tasks": self.tasks,
            "task_no": self.task_no,
            "starter": self.starter,
            "indicator": self.indicator,
            "ids": list(self.ids),
            "deck": list(self.deck),
            "racks": [r.to_dict() for r in self.racks],
            "discards": [list(d) for d in self.discards],
            "thrown": self.thrown,
            "claimable": self.claimable,
            "table": [g.to_dict() for g in self.table],
            "turn": self.turn,
            "phase": self.phase,
            "first_turn": self.first_turn,
            "taken": self.taken,
            "took_discard": self.took_discard,
            "undo": [_snap_to_dict(s) for s in self.undo],
            "opened": list(self.opened),
            "opened_at": list(self.opened_at),
            "opened_pairs": list(self.opened_pairs),
            "turns_done": list(self.turns_done),
            "exempt": [list(e) for e in self.exempt],
            "penalties": list(self.penalties),
            "streak": self.streak,
            "forced": self.forced,
            "timeouts": list(self.timeouts),
            "table_turn": self.table_turn,
            "over": self.over,
            "finisher": self.finisher,
            "finish_okey": self.finish_okey,
            "scores": list(self.scores) if self.scores is not None else None,
            "score_lines": [dict(x) for x in self.score_lines] if self.score_lines else None,
            "deal": self.deal,
            "log": list(self.log),
            "picked": [list(p) for p in self.picked],
        }

    @classmethod
    def from_dict(cls, d: dict) -> HandState:
        s = cls()
        s.tasks = d["tasks"]
        s.task_no = d["task_no"]
        s.starter = d["starter"]
        s.indicator = d["indicator"]
        s.ids = list(d["ids"])
        s.deck = list(d["deck"])
        s.racks = [Rack.from_dict(r) for r in d["racks"]]
        s.discards = [list(x) for x in d["discards"]]
        s.thrown = d["thrown"]
        s.claimable = d["claimable"]
        s.table = [Group.from_dict(g) for g in d["table"]]
        s.turn = d["turn"]
        s.phase = d["phase"]
        s.first_turn = d["first_turn"]
        s.taken = d["taken"]
        s.took_discard = d["took_discard"]
        s.undo = [_snap_from_dict(x) for x in d["undo"]]
        s.opened = list(d["opened"])
        s.opened_at = list(d["opened_at"])
        s.opened_pairs = list(d["opened_pairs"])
        s.turns_done = list(d["turns_done"])
        s.exempt = [list(x) for x in d["exempt"]]
        s.penalties = list(d["penalties"])
        s.streak = d["streak"]
        s.forced = d["forced"]
        s.timeouts = list(d["timeouts"])
        s.table_turn = d["table_turn"]
        s.over = d["over"]
        s.finisher = d["finisher"]
        s.finish_okey = d["finish_okey"]
        s.scores = list(d["scores"]) if d["scores"] is not None else None
        s.score_lines = [dict(x) for x in d["score_lines"]] if d["score_lines"] else None
        s.deal = d["deal"]
        s.log = list(d["log"])
        s.picked = [list(p) for p in d.get("picked", [[], [], [], []])]
        return s

    def copy(self) -> HandState:
        return HandState.from_dict(self.to_dict())


# Undo snapshots (K-U1, K-U2):
#   ("take", tile)                                  undo putting back the thrown tile
#   ("move", table, cells, opened, opened_at, opened_pairs)   state before a provisional move


def _snap_to_dict(snap) -> list:
    if snap[0] == "take":
        return ["take", snap[1]]
    _, table, cells, opened, opened_at, opened_pairs = snap
    return ["move", [g.to_dict() for g in table], list(cells), opened, opened_at, opened_pairs]


def _snap_from_dict(d) -> tuple:
    if d[0] == "take":
        return ("take", d[1])
    _, table, cells, opened, opened_at, opened_pairs = d
    return ("move", [Group.from_dict(g) for g in table], list(cells), opened, opened_at,
            opened_pairs)  # fmt: skip
