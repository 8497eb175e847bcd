"""The game's state and its JSON form (kelimeki.md sections 1–7).

The board is kept as flat lists of 225 cells (``board.idx``): ``cells`` holds each
cell's letter or ``None``, ``jokers`` the cells whose tile is a joker, ``placer`` the
seat that put the tile there (``-1`` empty) and ``zone`` the owning seat (``-1`` none).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.kelimeki.engine import board
from games.kelimeki.engine.alphabet import LETTER_SET, fold, lower


@dataclass
class State:
    players: int
    corners: tuple[int, ...]  # W-B3: each seat's corner (board.HOMES / BLOCKS index)
    racks: list[list[str]]
    bag: list[str]  # top first: draws take from the front
    turn: int
    starter: int
    cells: list[str | None] = field(default_factory=lambda: [None] * board.CELLS)
    jokers: set[int] = field(default_factory=set)
    placer: list[int] = field(default_factory=lambda: [-1] * board.CELLS)
    zone: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    passes: int = 0  # W-E2: consecutive passes
    forfeited: list[bool] = field(default_factory=list)
    first_done: list[bool] = field(default_factory=list)  # W-M5: the seat has played
    over: bool = False
    end: str | None = None  # "out" (W-E1), "passes" (W-E2), "forfeit" (W-E6)
    deducted: list[int] | None = None  # W-E3
    words: list[str] | None = None  # the game's own word list (W-D4); None: shipped
    exchange_to_bottom: bool = False  # replays: returned tiles go to the bottom
    secret: int = 0  # seeds the random places of exchanged tiles (W-M9); never shown
    moves: int = 0  # accepted actions so far
    last: dict | None = None  # the last accepted action, for the table (public)
    # P-2 (W-X5): {"commitment", "salt", "order"}: the bag's order as shuffled (racks in
    # seat order, then the bag top first, then "#" + the exchanges' secret in hex),
    # committed at the start; salt and order are shown only once the game is over
    fair: dict | None = None
    # issue 29: each seat's move deadline that ran out (W-X3, W-E6), as the ``moves``
    # count at that moment (-1: none): public, for the table's notice
    timed_out: list[int] = field(default_factory=list)

    def __post_init__(self):
        n = self.players
        if not self.zone:
            self.zone = [-1] * board.CELLS
            for seat, corner in enumerate(self.corners):  # W-Z1
                for i in board.BLOCKS[corner]:
                    self.zone[i] = seat
        self.scores = self.scores or [0] * n
        self.forfeited = self.forfeited or [False] * n
        self.first_done = self.first_done or [False] * n
        self.timed_out = self.timed_out or [-1] * n

    def home(self, seat: int) -> int:
        return board.HOMES[self.corners[seat]]

    def active(self) -> list[int]:
        return [s for s in range(self.players) if not self.forfeited[s]]

    def next_seat(self, seat: int) -> int:
        """W-M1: clockwise, skipping forfeited seats."""
        for step in range(1, self.players + 1):
            s = (seat + step) % self.players
            if not self.forfeited[s]:
                return s
        return seat

    # --- printing -------------------------------------------------------------------

    def board_rows(self) -> list[str]:
        """W-T1 notation: upper case, a joker as its Turkish lower-case letter."""
        out = []
        for r in range(board.SIZE):
            row = []
            for c in range(board.SIZE):
                i = r * board.SIZE + c
                ch = self.cells[i]
                row.append("." if ch is None else lower(ch) if i in self.jokers else ch)
            out.append("".join(row))
        return out

    def zone_rows(self) -> list[str]:
        return [
            "".join("." if z < 0 else str(z) for z in self.zone[r * 15 : r * 15 + 15])
            for r in range(board.SIZE)
        ]

    def placer_rows(self) -> list[str]:
        return [
            "".join("." if p < 0 else str(p) for p in self.placer[r * 15 : r * 15 + 15])
            for r in range(board.SIZE)
        ]

    # --- JSON ----------------------------------------------------------------------

    def to_dict(self) -> dict:
        return {
            "players": self.players,
            "corners": list(self.corners),
            "racks": [list(r) for r in self.racks],
            "bag": list(self.bag),
            "turn": self.turn,
            "starter": self.starter,
            "board": self.board_rows(),
            "placer": self.placer_rows(),
            "zones": self.zone_rows(),
            "scores": list(self.scores),
            "passes": self.passes,
            "forfeited": list(self.forfeited),
            "first_done": list(self.first_done),
            "over": self.over,
            "end": self.end,
            "deducted": None if self.deducted is None else list(self.deducted),
            "words": None if self.words is None else list(self.words),
            "exchange_to_bottom": self.exchange_to_bottom,
            "secret": self.secret,
            "moves": self.moves,
            "last": self.last,
            **({"fair": self.fair} if self.fair is not None else {}),
            **({"timed_out": list(self.timed_out)} if max(self.timed_out) >= 0 else {}),
        }

    @classmethod
    def from_dict(cls, d: dict) -> State:
        cells: list[str | None] = [None] * board.CELLS
        jokers: set[int] = set()
        for r, row in enumerate(d["board"]):
            for c, ch in enumerate(row):
                if ch != ".":
                    i = r * board.SIZE + c
                    if ch not in LETTER_SET:
                        jokers.add(i)
                    cells[i] = fold(ch)
        placer = [-1 if ch == "." else int(ch) for row in d["placer"] for ch in row]
        zone = [-1 if ch == "." else int(ch) for row in d["zones"] for ch in row]
        return cls(
            players=d["players"],
            corners=tuple(d["corners"]),
            racks=[list(r) for r in d["racks"]],
            bag=list(d["bag"]),
            turn=d["turn"],
            starter=d["starter"],
            cells=cells,
            jokers=jokers,
            placer=placer,
            zone=zone,
            scores=list(d["scores"]),
            passes=d["passes"],
            forfeited=list(d["forfeited"]),
            first_done=list(d["first_done"]),
            over=d["over"],
            end=d["end"],
            deducted=None if d["deducted"] is None else list(d["deducted"]),
            words=None if d["words"] is None else list(d["words"]),
            exchange_to_bottom=d["exchange_to_bottom"],
            secret=d["secret"],
            moves=d["moves"],
            last=d["last"],
            fair=d.get("fair"),
            timed_out=list(d.get("timed_out") or []),
        )
