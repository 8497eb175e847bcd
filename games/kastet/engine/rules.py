"""Kastet's actions and their effects (kastet.md sections 6–9).

``apply(hand, seat, action)`` plays one action of ``seat`` and returns events, or raises
an ``EngineError`` (``RuleError`` for an illegal action, ``ActionFormatError`` for a
malformed one) and changes nothing: every check runs before the first change.

Actions (JSON):

* ``{"type": "lay", "table": [[tile, …], …], "pairs": [[tile, tile], …]}`` — the whole
  new run area and optional new pairs (S-L1 … S-L7).  A tile is a face (``"R7"``, any
  copy: copies are interchangeable) or a tile's opaque id from the view.
* ``{"type": "draw"}`` (S-N2), ``{"type": "pass"}`` (S-N3, S-N4, S-F1, S-E2),
  ``{"type": "undo"}`` (S-U1 … S-U3), ``{"type": "timeout"}`` (S-N7).
* ``{"type": "arrange", "cells": [id | null, …24]}`` — the seat's own rack arrangement
  (S-X4); allowed at any time during the hand, it changes no rule state.
"""

from __future__ import annotations

from game.engine.errors import ActionFormatError, RuleError
from games.kastet.engine.groups import read_group, read_pair
from games.kastet.engine.state import (
    BLOCK_PASSES,
    MAX_RACK,
    RACK_CELLS,
    SEATS,
    SLOTS,
    HandState,
    next_seat,
)
from games.okey.engine.tiles import NotationError, face_name, face_of, face_points, parse_face

ACTION_TYPES = ("lay", "draw", "pass", "undo", "timeout", "arrange")
FINISH_SCORE = -50  # S-S1
AWAY_AFTER_TIMEOUTS = 2  # S-N7: two consecutive timeouts mark the seat away

# The codes this game raises beyond game.engine.errors.CODES (docs, translations, tests).
CODES = {
    "already_laid": "you have laid this turn: press Pas (S-N1, S-N2)",
    "rack_full": "a rack holds at most 22 tiles: lay or press Pas (S-N5)",
    "deck_empty": "the deck is empty: lay or press Pas (S-E1)",
    "must_lay_or_draw": "lay or draw: Pas without a lay only when you cannot draw (S-N4)",
    "too_many_groups": "the run area has 26 slots (S-A1)",
    "invalid_group": "every group must be a valid run or set (S-L3)",
    "table_tile_missing": "every tile of the run area must stay on it (S-L2)",
    "tiles_not_in_rack": "those tiles are not in your rack (S-L2)",
    "nothing_laid": "lay at least one tile from your rack (S-L2)",
    "pairs_need_26_groups": "pairs only when all 26 slots are full (S-L5)",
    "invalid_pair": "not a valid pair (S-G3)",
    "nothing_to_undo": "nothing to undo this turn (S-U1, S-U3)",
    "unknown_tile": "no such tile",
    "bad_layout": "the rack layout does not hold exactly your tiles (S-X4)",
}


def apply(hand: HandState, seat: int, action: dict) -> list[dict]:
    """Apply one action of ``seat``; returns events.  Raises and changes nothing when
    the action is malformed or illegal."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise RuleError("bad_seat")
    if not isinstance(action, dict):
        raise ActionFormatError("bad_action", "an action is an object")
    kind = action.get("type")
    if kind not in ACTION_TYPES:
        raise ActionFormatError("unknown_action", f"no action type {kind!r}")
    if hand.over:
        raise RuleError("hand_over")
    if kind == "arrange":
        return _arrange(hand, seat, action)
    if seat != hand.turn:
        raise RuleError("not_your_turn")
    events = _HANDLERS[kind](hand, seat, action)
    if kind != "timeout":
        hand.timeouts[seat] = 0
    return events


def log_form(action: dict) -> dict:
    """An accepted action as the log keeps it: only the keys the rules read."""
    kind = action.get("type")
    keep = {"lay": ("table", "pairs"), "arrange": ("cells",)}.get(kind, ())
    return {"type": kind, **{k: action[k] for k in keep if k in action}}


# --- laying (section 7) -------------------------------------------------------------


def _token_list(value, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise ActionFormatError("bad_action", f"{what} must be a list of tiles")
    return value


def _resolve(hand: HandState, token: str):
    """A face (int) for notation, or ``("id", tile)`` for an opaque id."""
    try:
        return parse_face(token)
    except NotationError:
        tile = hand.tile_by_id(token)
        if tile is None:
            raise ActionFormatError("unknown_tile", f"no tile {token!r}") from None
        return ("id", tile)


def plan_lay(hand: HandState, seat: int, action: dict) -> tuple[list, list, list]:
    """Check a lay move (S-L1 … S-L6) without changing anything.  Returns
    (new run area, new pairs, rack tiles laid) as tile lists; raises RuleError."""
    groups = action.get("table")
    if not isinstance(groups, list):
        raise ActionFormatError("bad_action", "a lay needs 'table': the whole new run area")
    groups = [_token_list(g, "a group") for g in groups]
    pairs = action.get("pairs") or []
    if not isinstance(pairs, list):
        raise ActionFormatError("bad_action", "'pairs' must be a list of pairs")
    pairs = [_token_list(p, "a pair") for p in pairs]
    if len(groups) > SLOTS:
        raise RuleError("too_many_groups", f"{len(groups)} groups for {SLOTS} slots (S-A1)")
    if pairs and len(groups) != SLOTS:
        raise RuleError("pairs_need_26_groups", "pairs only when every slot is full (S-L5)")
    resolved_g = [[_resolve(hand, t) for t in g] for g in groups]
    resolved_p = [[_resolve(hand, t) for t in p] for p in pairs]

    table_pool: dict[int, list[int]] = {}
    for g in hand.table:
        for t in g:
            table_pool.setdefault(face_of(t), []).append(t)
    rack_pool: dict[int, list[int]] = {}
    for t in hand.rack_tiles(seat):
        rack_pool.setdefault(face_of(t), []).append(t)
    used: set[int] = set()

    def take_id(tile: int, table_ok: bool) -> int:
        f = face_of(tile)
        if tile in used:
            raise RuleError("tiles_not_in_rack", "a tile named twice")
        if table_ok and tile in table_pool.get(f, ()):
            table_pool[f].remove(tile)
        elif tile in rack_pool.get(f, ()):
            rack_pool[f].remove(tile)
        else:  # another seat's, the deck's or the pair area's: not yours to lay (S-L6)
            raise RuleError("tiles_not_in_rack", "that tile is not in your rack")
        used.add(tile)
        return tile

    # ids first (they name one physical tile), then faces: table copies before rack ones
    new_table: list[list[int | None]] = [
        [take_id(r[1], True) if isinstance(r, tuple) else None for r in g] for g in resolved_g
    ]
    new_pairs: list[list[int | None]] = [
        [take_id(r[1], False) if isinstance(r, tuple) else None for r in p] for p in resolved_p
    ]
    for gi, g in enumerate(resolved_g):
        for i, r in enumerate(g):
            if isinstance(r, tuple):
                continue
            pool = table_pool.get(r) or rack_pool.get(r)
            if not pool:
                raise RuleError("tiles_not_in_rack", f"no {face_name(r)} in your rack (S-L2)")
            new_table[gi][i] = pool.pop(0)
    for pi, p in enumerate(resolved_p):
        for i, r in enumerate(p):
            if isinstance(r, tuple):
                continue
            pool = rack_pool.get(r)
            if not pool:
                raise RuleError("tiles_not_in_rack", f"no {face_name(r)} in your rack (S-L2)")
            new_pairs[pi][i] = pool.pop(0)
    missing = [t for pool in table_pool.values() for t in pool]
    if missing:
        raise RuleError("table_tile_missing",
                        f"{face_name(face_of(missing[0]))} must stay on the table (S-L2)")  # fmt: skip
    on_table = {t for g in hand.table for t in g}
    laid = [t for g in new_table for t in g if t not in on_table]
    laid += [t for p in new_pairs for t in p]
    if not laid:
        raise RuleError("nothing_laid", "lay at least one tile from your rack (S-L2)")
    okey = hand.okey
    bad = [i for i, g in enumerate(new_table) if read_group([face_of(t) for t in g], okey) is None]
    if bad:
        raise RuleError("invalid_group", f"invalid groups: {bad} (S-L3)")
    bad = [i for i, p in enumerate(new_pairs) if read_pair([face_of(t) for t in p], okey) is None]
    if bad:
        raise RuleError("invalid_pair", f"invalid pairs: {bad} (S-G3)")
    return new_table, new_pairs, laid


def _lay(hand: HandState, seat: int, action: dict) -> list[dict]:
    new_table, new_pairs, laid = plan_lay(hand, seat, action)
    rack = hand.racks[seat]
    hand.undo.append({"rack": list(rack), "table": [list(g) for g in hand.table],
                      "pairs": [list(p) for p in hand.pairs]})  # fmt: skip
    gone = set(laid)
    hand.racks[seat] = [None if t in gone else t for t in rack]
    hand.table = new_table
    hand.pairs = hand.pairs + new_pairs  # S-L6: the pair area only grows
    entry = {"seat": seat, "type": "lay", "table": _names(new_table)}
    if new_pairs:
        entry["pairs"] = _names(new_pairs)
    hand.log.append(entry)
    return [{"type": "lay", "seat": seat, "tiles": len(laid), "pairs": len(new_pairs),
             "rack_count": hand.rack_count(seat)}]  # fmt: skip


def _names(groups) -> list[list[str]]:
    return [[face_name(face_of(t)) for t in g] for g in groups]


# --- drawing, passing, undoing (sections 6, 8, 9) -----------------------------------


def draw_refusal(hand: HandState, seat: int) -> str | None:
    """Why ``seat`` may not draw now (S-N2, S-N5, S-U2), or None."""
    if hand.undo:
        return "already_laid"
    if hand.rack_count(seat) >= MAX_RACK:
        return "rack_full"
    if not hand.deck:
        return "deck_empty"
    return None


def _draw(hand: HandState, seat: int, action: dict) -> list[dict]:
    why = draw_refusal(hand, seat)
    if why:
        raise RuleError(why)
    tile = hand.deck.pop(0)
    rack = hand.racks[seat]
    rack[rack.index(None)] = tile  # a new tile goes to the first empty cell
    hand.passes = 0  # S-E2: a draw restarts the count
    hand.log.append({"seat": seat, "type": "draw"})
    _next_turn(hand)
    return [{"type": "draw", "seat": seat, "deck_count": len(hand.deck)}]


def pass_refusal(hand: HandState, seat: int) -> str | None:
    """S-N4: Pas without a standing lay only for a seat that cannot draw."""
    if hand.undo:
        return None
    if hand.rack_count(seat) < MAX_RACK and hand.deck:
        return "must_lay_or_draw"
    return None


def _pass(hand: HandState, seat: int, action: dict) -> list[dict]:
    why = pass_refusal(hand, seat)
    if why:
        raise RuleError(why)
    hand.log.append({"seat": seat, "type": "pass"})
    return _do_pass(hand, seat)


def _do_pass(hand: HandState, seat: int) -> list[dict]:
    events: list[dict] = [{"type": "pass", "seat": seat, "laid": bool(hand.undo)}]
    if hand.undo:  # S-N3: the lays are final
        before = sum(1 for t in hand.undo[0]["rack"] if t is not None)
        hand.laid[seat] += before - hand.rack_count(seat)
        hand.passes = 0
        if hand.rack_count(seat) == 0:  # S-F1
            hand.undo = []
            _end(hand, finisher=seat)
            return events + [{"type": "hand_over", "finisher": seat, "scores": hand.scores}]
    else:
        hand.passes += 1
        if hand.passes >= BLOCK_PASSES:  # S-E2: a full round in which no tile moved
            _end(hand, finisher=None)
            return events + [{"type": "hand_over", "blocked": True, "scores": hand.scores}]
    _next_turn(hand)
    return events


def _undo(hand: HandState, seat: int, action: dict) -> list[dict]:
    if not hand.undo:
        raise RuleError("nothing_to_undo")
    snap = hand.undo.pop()
    hand.racks[seat] = list(snap["rack"])
    hand.table = [list(g) for g in snap["table"]]
    hand.pairs = [list(p) for p in snap["pairs"]]
    hand.log.append({"seat": seat, "type": "undo"})
    return [{"type": "undo", "seat": seat, "rack_count": hand.rack_count(seat)}]


def _timeout(hand: HandState, seat: int, action: dict) -> list[dict]:
    """S-N7: with a standing lay, Pas; else draw if allowed, else Pas."""
    hand.timeouts[seat] += 1
    events = [{"type": "timeout", "seat": seat, "timeouts": hand.timeouts[seat]}]
    hand.log.append({"seat": seat, "type": "timeout"})
    if not hand.undo and draw_refusal(hand, seat) is None:
        tile = hand.deck.pop(0)
        rack = hand.racks[seat]
        rack[rack.index(None)] = tile
        hand.passes = 0
        _next_turn(hand)
        return events + [{"type": "draw", "seat": seat, "deck_count": len(hand.deck)}]
    return events + _do_pass(hand, seat)


def _next_turn(hand: HandState) -> None:
    hand.undo = []
    hand.turn = next_seat(hand.turn)
    hand.turn_no += 1


def _arrange(hand: HandState, seat: int, action: dict) -> list[dict]:
    cells = action.get("cells")
    if not isinstance(cells, list) or len(cells) != RACK_CELLS:
        raise ActionFormatError("bad_layout", f"a rack layout has {RACK_CELLS} cells")
    tiles = []
    for c in cells:
        if c is None:
            tiles.append(None)
            continue
        t = hand.tile_by_id(c) if isinstance(c, str) else None
        if t is None:
            raise RuleError("bad_layout")
        tiles.append(t)
    mine = hand.rack_tiles(seat)
    placed = [t for t in tiles if t is not None]
    if len(placed) != len(set(placed)) or sorted(placed) != sorted(mine):
        raise RuleError("bad_layout")
    hand.racks[seat] = tiles
    return [{"type": "arrange", "seat": seat}]


# --- the end of the hand (section 9) ------------------------------------------------


def rack_points(hand: HandState, seat: int) -> int:
    """S-S2, S-S3: the numbers of the tiles left (a fake okey and a real okey count the
    okey's number)."""
    okey = hand.okey
    return sum(face_points(face_of(t), okey) for t in hand.rack_tiles(seat))


def _end(hand: HandState, finisher: int | None) -> None:
    hand.over = True
    hand.finisher = finisher
    hand.blocked = finisher is None
    hand.scores = [FINISH_SCORE if s == finisher else rack_points(hand, s) for s in range(SEATS)]


def team_scores(scores: list[int]) -> list[int]:
    """S-S5: seats 0 + 2 against 1 + 3."""
    return [scores[0] + scores[2], scores[1] + scores[3]]


_HANDLERS = {"lay": _lay, "draw": _draw, "pass": _pass, "undo": _undo, "timeout": _timeout}
