"""One KDVli hand: its state and every action's rules (kdvli.md sections 4–9).

``Hand`` is the whole truth (deck order, every rack, opaque ids) and round-trips through
``to_dict``/``from_dict``.  ``apply(hand, seat, action)`` plays one action or raises an
``EngineError`` with a stable code and changes nothing (actions are checked fully before
anything moves).  Views (``views.py``) decide what a seat may see.
"""

from __future__ import annotations

import random

from game.engine.errors import ActionFormatError, RuleError
from game.engine.fair import SeededRNG, commitment
from games.kdvli.engine import counting
from games.kdvli.engine.groups import finish_kind, value
from games.okey.engine.deal import HAND_TILES, STARTER_TILES, deal_order, make_ids, shuffled_deal
from games.okey.engine.rack import CELLS, VALID_SEPARATORS, Rack
from games.okey.engine.tiles import (
    FAKE,
    NotationError,
    colour_of,
    copies_of,
    face_name,
    face_of,
    okey_face,
    parse_face,
)

SEATS = 4
FINISH_POINTS = -50  # V-S3
SHOW_BONUS = (-25, -50)  # V-I2: colourless, coloured
AWAY_AFTER = 2  # V-N6: consecutive timeouts
TURN_TYPES = ("draw", "take_discard", "discard", "finish", "show_indicator", "timeout")
LAYOUT_TYPES = ("move", "separator", "layout", "arrange")
ACTION_TYPES = TURN_TYPES + LAYOUT_TYPES


# Every code KDVli's engine raises (replay output, error frames, translations).
CODES = {
    "bad_action": "the action is malformed",
    "unknown_action": "no such action type (KDVli has no opening, lay-off, claim or undo)",
    "bad_seat": "no such seat",
    "hand_over": "the hand has ended (V-F5, V-E1)",
    "not_your_turn": "it is not this seat's turn",
    "first_turn_no_take": "the starter does not take on the first turn (V-D3)",
    "already_taken": "a tile was already taken this turn (V-N1)",
    "must_take_first": "take a tile first (V-N1)",
    "no_thrown_tile": "there is no tile thrown to you (V-N1)",
    "deck_empty": "the centre deck is empty",
    "tile_not_in_rack": "that tile is not in your rack",
    "no_indicator_tile": "you do not hold the indicator's other copy (V-I1)",
    "not_first_turn": "the indicator is shown only on your first turn (V-I1)",
    "indicator_after_take": "the indicator is shown before taking a tile (V-I1)",
    "already_shown": "you have shown the indicator already (V-I3)",
    "finish_mismatch": "the groups and the finishing tile are not exactly your rack (V-F1)",
    "invalid_finish": "14 tiles in runs and sets, or exactly seven pairs (V-F2, V-F3)",
    "bad_layout": "the rack layout does not hold exactly your tiles (V-R1)",
    "hand_not_over": "the hand is still being played",
    "match_over": "the match is over",
}


class DealError(ValueError):
    """An explicit deal that cannot exist."""


def next_seat(seat: int) -> int:
    """V-M1: turns pass to the right."""
    return (seat + 1) % SEATS


def prev_seat(seat: int) -> int:
    return (seat - 1) % SEATS


def coloured(indicator_face: int) -> bool:
    """V-T5: a red or black indicator is coloured."""
    return colour_of(indicator_face) in (0, 3)


class Hand:
    __slots__ = (
        "starter", "indicator", "ids", "deck", "racks", "discards", "thrown", "turn",
        "taken", "turns_done", "shown", "bonuses", "over", "void", "finisher",
        "finish_tile", "finish_kind", "finish_groups", "multiplier", "scores",
        "end_points", "timeouts", "away", "partners", "deal", "log", "picked", "took",
    )  # fmt: skip

    def __init__(self):
        self.starter = 0
        self.indicator = 0  # a physical tile
        self.ids: list[str] = []
        self.deck: list[int] = []  # the top is the LAST element
        self.racks: list[Rack] = []
        self.discards: list[list[int]] = [[] for _ in range(SEATS)]
        self.thrown: int | None = None  # the tile the seat to act may take (V-N1)
        self.turn = 0
        self.taken = False  # a tile was taken this turn
        self.turns_done = [0] * SEATS
        self.shown = [False] * SEATS
        self.bonuses = [0] * SEATS
        self.over = False
        self.void = False
        self.finisher: int | None = None
        self.finish_tile: int | None = None
        self.finish_kind: str | None = None
        self.finish_groups: list[list[int]] | None = None
        self.multiplier: int | None = None
        self.scores: list[int] | None = None
        self.end_points: list[int] | None = None
        self.timeouts = [0] * SEATS
        self.away = [False] * SEATS
        self.partners = False
        self.deal: dict = {}
        self.log: list[dict] = []
        self.picked: list[list[int]] = [[] for _ in range(SEATS)]  # taken from a pile (V-H1)
        self.took: int | None = None  # the tile taken this turn (V-N6)

    # -- derived -----------------------------------------------------------------
    @property
    def okey(self) -> int:
        """V-T3: the real okey's face."""
        return okey_face(face_of(self.indicator))

    def first_turn(self, seat: int) -> bool:
        return self.turns_done[seat] == 0

    def starter_first(self) -> bool:
        """V-D3: the starter's first turn (no take)."""
        return self.turn == self.starter and self.turns_done[self.starter] == 0

    def may_play(self) -> bool:
        """Discard or finish is allowed now (V-N1, V-N2, V-D3)."""
        return self.taken or self.starter_first()

    def faces(self, seat: int) -> list[int]:
        return [face_of(t) for t in self.racks[seat].tiles()]

    def points_of(self, seat: int) -> int:
        """V-S2 for the seat's current rack (0 for the finisher)."""
        if self.finisher == seat:
            return 0
        return counting.points(self.faces(seat), self.okey)

    def tile_count(self) -> int:
        n = 1 + len(self.deck) + sum(len(d) for d in self.discards)
        n += sum(r.count() for r in self.racks)
        return n + (1 if self.finish_tile is not None else 0)

    # -- serialisation -------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "starter": self.starter, "indicator": self.indicator, "ids": list(self.ids),
            "deck": list(self.deck), "racks": [r.to_dict() for r in self.racks],
            "discards": [list(d) for d in self.discards], "thrown": self.thrown,
            "turn": self.turn, "taken": self.taken, "turns_done": list(self.turns_done),
            "shown": list(self.shown), "bonuses": list(self.bonuses), "over": self.over,
            "void": self.void, "finisher": self.finisher, "finish_tile": self.finish_tile,
            "finish_kind": self.finish_kind,
            "finish_groups": None if self.finish_groups is None
            else [list(g) for g in self.finish_groups],
            "multiplier": self.multiplier,
            "scores": None if self.scores is None else list(self.scores),
            "end_points": None if self.end_points is None else list(self.end_points),
            "timeouts": list(self.timeouts), "away": list(self.away),
            "partners": self.partners, "deal": dict(self.deal),
            "log": [dict(a) for a in self.log], "picked": [list(p) for p in self.picked],
            "took": self.took,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, d: dict) -> Hand:
        h = cls()
        for key in cls.__slots__:
            setattr(h, key, d[key])
        h.racks = [Rack.from_dict(r) for r in d["racks"]]
        h.ids = list(d["ids"])
        h.deck = list(d["deck"])
        h.discards = [list(x) for x in d["discards"]]
        for key in ("turns_done", "shown", "bonuses", "timeouts", "away"):
            setattr(h, key, list(d[key]))
        h.log = [dict(a) for a in d["log"]]
        h.picked = [list(p) for p in d["picked"]]
        h.deal = dict(d["deal"])
        return h

    def copy(self) -> Hand:
        return Hand.from_dict(self.to_dict())


# --- setting a hand up (section 4) ------------------------------------------------------


def from_tiles(starter, indicator, racks, deck_top_first, ids, salt="", partners=False) -> Hand:
    h = Hand()
    h.starter, h.indicator, h.ids, h.partners = starter, indicator, list(ids), partners
    h.racks = [Rack(list(r) + [None] * (CELLS - len(r))) for r in racks]
    h.deck = list(reversed(deck_top_first))
    h.turn = starter
    h.deal = {"indicator": indicator, "racks": [list(r) for r in racks],
              "deck": list(deck_top_first), "salt": salt}  # fmt: skip
    h.deal["commitment"] = commitment(deal_order(h.deal), salt)
    return h


def new_hand(starter: int, rng: random.Random, partners: bool = False) -> Hand:
    """V-D1, V-D2: shuffle, turn the indicator (a fake goes back), deal 15/14/14/14."""
    indicator, tiles = shuffled_deal(rng)
    racks, pos = [], 0
    for seat in range(SEATS):
        n = STARTER_TILES if seat == starter else HAND_TILES
        racks.append(tiles[pos : pos + n])
        pos += n
    ids = make_ids(rng)
    salt = f"{rng.getrandbits(128):032x}"
    return from_tiles(starter, indicator, racks, tiles[pos:], ids, salt, partners)


def from_faces(starter, indicator, racks, deck_top_first, partners=False, rng=None) -> Hand:
    """A hand from an explicit deal by faces (scenarios); raises DealError."""
    if isinstance(starter, bool) or not isinstance(starter, int) or not 0 <= starter < SEATS:
        raise DealError("'starter' must be a seat 0-3")
    if indicator == FAKE:
        raise DealError("the indicator cannot be a fake okey (V-D1)")
    if len(racks) != SEATS:
        raise DealError("'racks' must hold four racks")
    for seat, rack in enumerate(racks):
        want = STARTER_TILES if seat == starter else HAND_TILES
        if len(rack) != want:
            raise DealError(f"rack {seat} must hold {want} tiles, not {len(rack)} (V-D2)")
    used: dict[int, int] = {}

    def take(face: int) -> int:
        n = used.get(face, 0)
        if n >= 2:
            from games.okey.engine.tiles import face_name

            raise DealError(f"a third copy of {face_name(face)} (V-T1)")
        used[face] = n + 1
        return copies_of(face)[n]

    ind = take(indicator)
    rack_tiles = [[take(f) for f in r] for r in racks]
    deck = [take(f) for f in deck_top_first]
    rng = rng or SeededRNG(b"kdvli-scenario")
    return from_tiles(starter, ind, rack_tiles, deck, make_ids(rng),
                      f"{rng.getrandbits(128):032x}", partners)  # fmt: skip


# --- actions ------------------------------------------------------------------------------


def _bad(detail: str):
    return ActionFormatError("bad_action", detail)


def _find_tile(hand: Hand, seat: int, a: dict, exclude=()) -> int:
    """The rack tile an action names by ``tile_id`` or by face (``tile``)."""
    rack = hand.racks[seat]
    if "tile_id" in a:
        tid = a["tile_id"]
        if not isinstance(tid, str):
            raise _bad("tile_id must be a tile id")
        for t in rack.tiles():
            if hand.ids[t] == tid and t not in exclude:
                return t
        raise RuleError("tile_not_in_rack")
    if "tile" not in a:
        raise _bad("name the tile ('tile' or 'tile_id')")
    try:
        face = parse_face(a["tile"])
    except NotationError as exc:
        raise _bad(str(exc)) from None
    for t in rack.tiles():
        if face_of(t) == face and t not in exclude:
            return t
    raise RuleError("tile_not_in_rack")


def _finish_groups(hand: Hand, seat: int, a: dict, tile: int) -> list[list[int]]:
    """The finisher's groups as physical tiles: named by id (``group_ids``), by face
    (``groups``), or the rack's segments without the finishing tile (V-F3)."""
    rack = hand.racks[seat]
    if "group_ids" in a or "groups" in a and a["groups"] is not None:
        key = "group_ids" if "group_ids" in a else "groups"
        groups = a[key]
        if not isinstance(groups, list) or not all(isinstance(g, list) for g in groups):
            raise _bad(f"{key} must be a list of tile lists")
        if len(groups) > 16 or any(len(g) > 15 for g in groups):
            raise _bad(f"{key}: too many tiles")
        free = [t for t in rack.tiles() if t != tile]
        out = []
        for g in groups:
            tiles = []
            for ref in g:
                if key == "group_ids":
                    t = next((x for x in free if hand.ids[x] == ref), None)
                else:
                    try:
                        face = parse_face(ref)
                    except NotationError as exc:
                        raise _bad(str(exc)) from None
                    t = next((x for x in free if face_of(x) == face), None)
                if t is None:
                    raise RuleError("finish_mismatch", "the groups are not your rack")
                free.remove(t)
                tiles.append(t)
            out.append(tiles)
        if free:
            raise RuleError("finish_mismatch", "every tile but the finishing one is grouped")
        return out
    # V-F3: the finishing tile leaves its cell empty, which ends a segment there
    rest = rack.copy()
    rest.remove(tile)
    return rest.segments()


def _end_turn(hand: Hand, seat: int) -> None:
    hand.turns_done[seat] += 1
    hand.taken = False
    hand.took = None


def _finish(hand: Hand, seat: int, tile: int, groups: list[list[int]], kind: str) -> None:
    """V-F5, V-S1, V-S3: the hand ends; every seat is scored."""
    hand.racks[seat].remove(tile)
    hand.finisher, hand.finish_tile, hand.finish_kind = seat, tile, kind
    hand.finish_groups = [list(g) for g in groups]
    okey = hand.okey
    m = 1
    if coloured(face_of(hand.indicator)):
        m *= 2
    if kind == "pairs":
        m *= 2
    if face_of(tile) == okey:
        m *= 2
    hand.multiplier = m
    pts = [0 if s == seat else hand.points_of(s) for s in range(SEATS)]
    hand.end_points = pts
    hand.scores = [
        (FINISH_POINTS * m if s == seat else pts[s] * m) + hand.bonuses[s] for s in range(SEATS)
    ]
    hand.over = True
    hand.thrown = None
    _end_turn(hand, seat)


def _discard(hand: Hand, seat: int, tile: int) -> None:
    hand.racks[seat].remove(tile)
    hand.discards[seat].append(tile)
    _end_turn(hand, seat)
    if not hand.deck:  # V-E1, V-E2: the void hand
        hand.over = True
        hand.void = True
        hand.thrown = None
        hand.scores = [0] * SEATS
        hand.end_points = [hand.points_of(s) for s in range(SEATS)]
        return
    hand.thrown = tile
    hand.turn = next_seat(seat)


def _take(hand: Hand, seat: int, kind: str) -> None:
    if hand.starter_first():
        raise RuleError("first_turn_no_take")
    if hand.taken:
        raise RuleError("already_taken")
    if kind == "draw":
        if not hand.deck:
            raise RuleError("deck_empty")
        tile = hand.deck.pop()
    else:
        if hand.thrown is None or not hand.discards[prev_seat(seat)] \
                or hand.discards[prev_seat(seat)][-1] != hand.thrown:  # fmt: skip
            raise RuleError("no_thrown_tile")
        tile = hand.discards[prev_seat(seat)].pop()
        hand.picked[seat].append(tile)  # public: every seat saw it on the pile (V-H1)
    hand.racks[seat].add(tile)
    hand.taken = True
    hand.took = tile
    hand.thrown = None


def timeout_discard(hand: Hand, seat: int, taken: int | None) -> int:
    """V-N6: the tile taken this turn unless it is a real okey, else the highest-valued
    tile that is not a real okey (ties: red, yellow, blue, black, fake); a real okey only
    if nothing else is left."""
    okey = hand.okey
    if taken is not None and face_of(taken) != okey:
        return taken
    tiles = hand.racks[seat].tiles()
    others = [t for t in tiles if face_of(t) != okey]
    if not others:
        return tiles[0]

    def key(t):
        f = face_of(t)
        return (-value(f, okey), 4 if f == FAKE else colour_of(f))

    return min(others, key=key)


def _check_turn(hand: Hand, seat: int) -> None:
    if hand.over:
        raise RuleError("hand_over")
    if seat != hand.turn:
        raise RuleError("not_your_turn")


def apply(hand: Hand, seat: int, action: object) -> list[dict]:
    """Play one action; returns events, or raises an EngineError and changes nothing."""
    if not isinstance(action, dict):
        raise _bad("an action must be a JSON object")
    kind = action.get("type")
    if not isinstance(kind, str):
        raise _bad("the action has no type")
    if kind not in ACTION_TYPES:
        raise ActionFormatError("unknown_action", f"unknown action type {kind[:40]!r}")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise ActionFormatError("bad_seat")
    if kind in LAYOUT_TYPES:
        return _layout(hand, seat, kind, action)
    _check_turn(hand, seat)
    events: list[dict] = []
    if kind in ("draw", "take_discard"):
        _take(hand, seat, kind)
        events.append({"type": kind, "seat": seat})
    elif kind == "show_indicator":
        _show(hand, seat)
        events.append({"type": "show_indicator", "seat": seat, "bonus": hand.bonuses[seat]})
    elif kind == "discard":
        if not hand.may_play():
            raise RuleError("must_take_first")
        tile = _find_tile(hand, seat, action)
        _discard(hand, seat, tile)
        events.append({"type": "discard", "seat": seat, "void": hand.void})
    elif kind == "finish":
        if not hand.may_play():
            raise RuleError("must_take_first")
        tile = _find_tile(hand, seat, action)
        groups = _finish_groups(hand, seat, action, tile)
        fk = finish_kind([[face_of(t) for t in g] for g in groups], hand.okey)
        if fk is None:
            raise RuleError("invalid_finish", "14 tiles in runs and sets, or seven pairs")
        _finish(hand, seat, tile, groups, fk)
        events.append({"type": "finish", "seat": seat, "kind": fk, "multiplier": hand.multiplier})
    elif kind == "timeout":
        before = hand.racks[seat].tiles()
        drew = not hand.may_play()
        spent = _timeout_apply(hand, seat, before, drew)
        events.append({"type": "timeout", "seat": seat, "away": hand.away[seat]})
    if kind != "timeout" and not action.get("auto"):
        hand.timeouts[seat] = 0
        hand.away[seat] = False
    hand.log.append({**_logged(seat, kind, action), **(spent if kind == "timeout" else {})})
    if hand.over:
        events.append({"type": "hand_over", "void": hand.void, "scores": list(hand.scores)})
    return events


def _timeout_apply(hand: Hand, seat: int, before: list[int], drew: bool) -> dict:
    """V-N6; returns the public facts the log keeps for the timeout notice (issue 29):
    the face discarded and where a tile was taken from (``deck``, ``thrown`` or None)."""
    took = None
    if drew:
        took = "deck" if hand.deck else "thrown"
        _take(hand, seat, "draw" if took == "deck" else "take_discard")
    tile = timeout_discard(hand, seat, hand.took)
    hand.timeouts[seat] += 1
    if hand.timeouts[seat] >= AWAY_AFTER:
        hand.away[seat] = True
    _discard(hand, seat, tile)
    return {"discarded": face_name(face_of(tile)), "took": took}


def _show(hand: Hand, seat: int) -> None:
    """V-I1…V-I3: show the other copy of the indicator's face."""
    if hand.shown[seat]:
        raise RuleError("already_shown")
    if not hand.first_turn(seat):
        raise RuleError("not_first_turn")
    if hand.taken:
        raise RuleError("indicator_after_take")
    face = face_of(hand.indicator)
    if not any(face_of(t) == face for t in hand.racks[seat].tiles()):
        raise RuleError("no_indicator_tile")
    hand.shown[seat] = True
    hand.bonuses[seat] = SHOW_BONUS[1 if coloured(face) else 0]


def _logged(seat: int, kind: str, action: dict) -> dict:
    out = {"seat": seat, "type": kind}
    for key in ("tile", "tile_id", "groups", "group_ids", "to", "at", "cells",
                "separators", "how"):  # fmt: skip
        if key in action:
            out[key] = action[key]
    return out


# --- the rack layout (V-R1, V-R2) -----------------------------------------------------------


def _layout(hand: Hand, seat: int, kind: str, a: dict) -> list[dict]:
    if hand.over:
        raise RuleError("hand_over")
    rack = hand.racks[seat]
    if kind == "move":
        to = a.get("to")
        if isinstance(to, bool) or not isinstance(to, int) or not 0 <= to < CELLS:
            raise _bad(f"'to' must be a cell 0..{CELLS - 1}")
        tile = _find_tile(hand, seat, a)
        rack.move(tile, to)
    elif kind == "separator":
        at = a.get("at")
        if isinstance(at, bool) or not isinstance(at, int) or at not in VALID_SEPARATORS:
            raise _bad("'at' must be a separator position")
        rack.toggle_separator(at)
    elif kind == "layout":
        cells, seps = a.get("cells"), a.get("separators", [])
        if not isinstance(cells, list) or len(cells) != CELLS or not isinstance(seps, list):
            raise _bad(f"cells must be a list of {CELLS}")
        if any(isinstance(s, bool) or s not in VALID_SEPARATORS for s in seps):
            raise _bad("a separator cannot stand there")
        by_id = {hand.ids[t]: t for t in rack.tiles()}
        new = [None if c is None else by_id.get(c) if isinstance(c, str) else -1 for c in cells]
        placed = [t for t in new if t is not None]
        if -1 in placed or sorted(placed) != sorted(rack.tiles()):
            raise RuleError("bad_layout")
        rack.cells, rack.seps = new, set(seps)
    else:  # arrange: Seri Diz / Çift Diz (V-R2)
        how = a.get("how", "runs")
        if how not in ("runs", "pairs"):
            raise _bad("'how' must be 'runs' or 'pairs'")
        arrange(hand, seat, how)
    return [{"type": kind, "seat": seat}]


def finishing(hand: Hand, seat: int, kinds=("runs", "pairs")) -> list[tuple]:
    """The finishes ``seat`` could make now (V-F1, V-F2): ``(finishing face, kind,
    groups of the other 14)`` — none unless it is the seat's turn with 15 tiles, after
    its take (or on the starter's first turn).  A real okey first (it doubles what the
    others pay, V-S1), then in face order."""
    rack = hand.racks[seat]
    if hand.over or hand.turn != seat or not hand.may_play() or rack.count() != 15:
        return []
    fins = counting.finishes([face_of(t) for t in rack.tiles()], hand.okey, kinds)
    return sorted(fins, key=lambda fin: fin[0] != hand.okey)


def finishing_tiles(hand: Hand, seat: int) -> list[int]:
    """The seat's tiles that could be its finishing tile now (either kind, V-F1)."""
    faces = {fin[0] for fin in finishing(hand, seat)}
    return [t for t in hand.racks[seat].tiles() if face_of(t) in faces]


def arrange(hand: Hand, seat: int, how: str) -> None:
    """V-R2: lay the rack out as the counted runs and sets (or pairs), groups apart,
    left-over tiles at the end; nothing is discarded.  When the rack can finish that
    way now (V-F1, V-F2), the groups are those of the other 14 tiles and the finishing
    tile comes last, alone, ready to go on the indicator."""
    rack = hand.racks[seat]
    tiles = rack.tiles()
    faces = [face_of(t) for t in tiles]
    fins = finishing(hand, seat, (how,))
    if fins:
        groups = fins[0][2]
    else:
        c = counting.count(faces, hand.okey)
        groups = c.groups if how == "runs" else c.pairs
    pool = list(tiles)

    def pick(face):
        t = next(x for x in pool if face_of(x) == face)
        pool.remove(t)
        return t

    laid = [[pick(f) for f in g] for g in groups]
    cells: list[int | None] = [None] * CELLS
    seps: set[int] = set()
    i = 0
    for g in laid:
        row_left = 16 - i % 16
        if len(g) > row_left:
            i += row_left
        for t in g:
            cells[i] = t
            i += 1
        if i % 16 and i < CELLS:
            seps.add(i - 1)
    for t in pool:
        while cells[i] is not None:
            i += 1
        cells[i] = t
        i += 1
    rack.cells, rack.seps = cells, seps
