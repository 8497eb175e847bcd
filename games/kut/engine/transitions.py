"""Applying actions to a hand (kut.md sections 4–10).

``apply(state, seat, action)`` checks the action completely *before* touching the
state: an illegal action raises ``RuleError`` (or ``ActionFormatError``) and changes
nothing.  A legal one mutates ``state`` in place and returns a list of events (small
dicts describing what happened, for animations and logs; never secrets).
"""

from __future__ import annotations

from game.engine.errors import RuleError
from games.kut.engine.actions import LAYOUT_TYPES, parse_action
from games.kut.engine.scoring import is_islek, score_hand
from games.kut.engine.state import SEATS, Group, HandState, next_seat
from games.kut.engine.tasks import is_finish, is_pairs
from games.okey.engine.groups import (
    KUT,
    PAIR,
    RUN,
    classify,
    exchange_index,
    group_values,
    kut_takes,
    run_end_fits,
)
from games.okey.engine.rack import CELLS, Rack
from games.okey.engine.tiles import face_name, face_of, number_of

MAX_CLAIM_RACK = 29  # K-C2
FORCED_AFTER = 8  # K-N5: two full rounds of taking the thrown tile
FORCED_TURNS = 4


def apply(state: HandState, seat: int, action: dict) -> list[dict]:
    """Apply one action of ``seat``; returns events.  Raises RuleError/ActionFormatError."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise RuleError("bad_seat")
    a = parse_action(action)
    if state.over:
        raise RuleError("hand_over")
    kind = a["type"]
    events = _HANDLERS[kind](state, seat, a)
    if kind not in LAYOUT_TYPES:
        if kind != "timeout":
            state.timeouts[seat] = 0
        state.log.append(_log_entry(seat, a, events))
    return events


def _log_entry(seat: int, a: dict, events: list[dict]) -> dict:
    """The accepted action in scenario form (kut-scenario.md), tiles by face."""
    entry = {"seat": seat, "type": a["type"]}
    for ev in events:
        if "log" in ev:
            entry.update(ev.pop("log"))
    return entry


# --- helpers -------------------------------------------------------------------------


def _turn_check(state: HandState, seat: int) -> None:
    if seat != state.turn:
        raise RuleError("not_your_turn")


def _play_check(state: HandState, seat: int) -> None:
    _turn_check(state, seat)
    if state.phase != "play":
        raise RuleError("must_take_first")


def _layoff_check(state: HandState, seat: int) -> None:
    _play_check(state, seat)
    if not state.opened[seat]:
        raise RuleError("not_opened")
    if state.opened_at[seat] == state.turns_done[seat]:
        raise RuleError("opened_this_turn")  # K-O4


def _resolve_tile(state: HandState, seat: int, a: dict, avoid=()) -> int:
    """The physical tile an action names, from ``seat``'s rack."""
    rack = state.racks[seat]
    if "tile_id" in a:
        tile = state.tile_by_id(a["tile_id"])
        if tile is None or tile not in rack or tile in avoid:
            raise RuleError("tile_not_in_rack")
        return tile
    return _pick_face(state, rack, a["tile"], avoid)


def _pick_face(state: HandState, rack: Rack, face: int, avoid=()) -> int:
    for tile in rack.cells:
        if tile is not None and tile not in avoid and face_of(tile) == face:
            return tile
    raise RuleError("tile_not_in_rack", face_name(face))


def _resolve_groups(state: HandState, seat: int, a: dict) -> list[list[int]] | None:
    """Explicit groups as physical tiles (distinct copies), or None for rack segments."""
    used: set[int] = set()
    out = []
    if "group_ids" in a:
        rack = state.racks[seat]
        for g in a["group_ids"]:
            tiles = []
            for tid in g:
                tile = state.tile_by_id(tid)
                if tile is None or tile not in rack or tile in used:
                    raise RuleError("tile_not_in_rack")
                used.add(tile)
                tiles.append(tile)
            out.append(tiles)
        return out
    if "groups" in a:
        rack = state.racks[seat]
        for g in a["groups"]:
            tiles = []
            for face in g:
                tile = _pick_face(state, rack, face, used)
                used.add(tile)
                tiles.append(tile)
            out.append(tiles)
        return out
    return None


def _faces(tiles: list[int]) -> list[int]:
    return [face_of(t) for t in tiles]


def _snapshot(state: HandState, seat: int) -> None:
    state.undo.append(
        (
            "move",
            [g.copy() for g in state.table],
            list(state.racks[seat].cells),
            state.opened[seat],
            state.opened_at[seat],
            state.opened_pairs[seat],
        )
    )


def _remove_tiles(rack: Rack, tiles) -> None:
    for t in tiles:
        rack.remove(t)


def _names(tiles) -> list[str]:
    return [face_name(face_of(t)) for t in tiles]


# --- taking ------------------------------------------------------------------------


def _take_check(state: HandState, seat: int) -> None:
    _turn_check(state, seat)
    if state.phase != "take":
        raise RuleError("first_turn_no_take" if state.first_turn else "already_taken")


def _take_discard(state: HandState, seat: int, a: dict) -> list[dict]:
    _take_check(state, seat)
    if state.forced:
        raise RuleError("must_draw")  # K-N5
    if state.thrown is None:
        raise RuleError("no_thrown_tile")
    return _do_take_discard(state, seat)


def _do_take_discard(state: HandState, seat: int) -> list[dict]:
    tile = state.thrown
    state.discards[state.thrower()].pop()
    state.racks[seat].add(tile)
    state.thrown = None
    state.claimable = False
    state.taken = tile
    state.took_discard = True
    state.phase = "play"
    state.undo.append(("take", tile))  # K-U2
    state.picked[seat].append(tile)
    return [{"type": "took_discard", "seat": seat, "tile": face_name(face_of(tile))}]


def _draw(state: HandState, seat: int, a: dict) -> list[dict]:
    _take_check(state, seat)
    if not state.deck:
        raise RuleError("deck_empty")
    return _do_draw(state, seat)


def _do_draw(state: HandState, seat: int) -> list[dict]:
    tile = state.deck.pop()
    state.racks[seat].add(tile)
    state.taken = tile
    state.took_discard = False
    state.phase = "play"
    # K-C1: drawing instead of taking the thrown tile makes it claimable (K-C6, K-D4:
    # not once the deck's last tile is drawn).
    state.claimable = state.thrown is not None and bool(state.deck)
    return [{"type": "drew", "seat": seat}]


def _claim(state: HandState, seat: int, a: dict) -> list[dict]:
    if seat == state.turn:
        raise RuleError("claim_own_turn")
    if not state.claimable or state.thrown is None:
        raise RuleError("claim_not_open")
    thrower = state.thrower()
    if seat == thrower:
        raise RuleError("own_discard")
    if not state.deck:
        raise RuleError("deck_empty")
    rack = state.racks[seat]
    if rack.count() > MAX_CLAIM_RACK:
        raise RuleError("too_many_tiles")
    tile = state.thrown
    state.discards[thrower].pop()
    state.thrown = None
    state.claimable = False
    rack.add(tile)
    state.picked[seat].append(tile)
    penalty = state.deck.pop()
    rack.add(penalty)
    okey = state.okey
    for t in (tile, penalty):  # K-C7: exempt until the holder's own next turn is done
        if face_of(t) == okey:
            state.exempt[seat].append(state.turns_done[seat])
    return [
        {
            "type": "claimed",
            "seat": seat,
            "tile": face_name(face_of(tile)),
            "from": thrower,
        }
    ]


# --- opening -------------------------------------------------------------------------


def _match_task(readings: list[list[tuple[str, list]]], task) -> list[tuple[str, list]] | None:
    """Assign each group one reading so that the kinds and lengths are exactly the
    task's (K-O2); None if impossible."""
    need = sorted(task)
    n = len(readings)
    if n != len(need):
        return None
    chosen: list = [None] * n

    def go(i: int, left: list) -> bool:
        if i == n:
            return True
        for kind, values in readings[i]:
            req = (kind, len(values))
            if req in left:
                rest = list(left)
                rest.remove(req)
                chosen[i] = (kind, values)
                if go(i + 1, rest):
                    return True
        return False

    return chosen if go(0, need) else None


def _segments_for_task(state: HandState, seat: int, task):
    """K-O5: the first segments in reading order that satisfy the task."""
    okey = state.okey
    segs = state.racks[seat].segments()
    found: list = []

    def go(i: int, left: list) -> bool:
        if not left:
            return True
        if i == len(segs):
            return False
        seg = segs[i]
        for kind, values in classify(_faces(seg), okey):
            req = (kind, len(seg))
            if req in left:
                rest = list(left)
                rest.remove(req)
                found.append((seg, kind, values))
                if go(i + 1, rest):
                    return True
                found.pop()
        return go(i + 1, left)

    return found if go(0, sorted(task)) else None


def _open(state: HandState, seat: int, a: dict) -> list[dict]:
    _play_check(state, seat)
    if state.opened[seat]:
        raise RuleError("already_opened")  # K-O3
    task = state.task
    okey = state.okey
    rack = state.racks[seat]
    explicit = _resolve_groups(state, seat, a)
    if is_finish(task):
        groups = _finish_groups(state, seat, explicit)
    elif explicit is not None:
        readings = []
        for tiles in explicit:
            r = classify(_faces(tiles), okey)
            if not r:
                raise RuleError("invalid_group")
            readings.append(r)
        chosen = _match_task(readings, task)
        if chosen is None:
            raise RuleError("task_mismatch")
        groups = [(tiles, kind, values) for tiles, (kind, values) in zip(explicit, chosen)]
    else:
        groups = _segments_for_task(state, seat, task)
        if groups is None:
            raise RuleError("task_mismatch")  # a warning; no tile moves (K-O5)
    used = sum(len(g[0]) for g in groups)
    if used >= rack.count():
        raise RuleError("rack_would_be_empty")  # K-N4
    _snapshot(state, seat)
    for tiles, kind, values in groups:
        _remove_tiles(rack, tiles)
        state.table.append(Group(seat, kind, tiles, values, state.table_turn))
    state.opened[seat] = True
    state.opened_at[seat] = state.turns_done[seat]
    state.opened_pairs[seat] = is_pairs(task)
    return [
        {
            "type": "opened",
            "seat": seat,
            "log": {"groups": [_names(g[0]) for g in groups]},
        }
    ]


def _finish_groups(state: HandState, seat: int, explicit):
    """K-O7: every tile but one in runs and küts, all at once."""
    okey = state.okey
    rack = state.racks[seat]
    if explicit is None:
        groups, loose = [], 0
        for seg in rack.segments():
            r = classify(_faces(seg), okey, (RUN, KUT))
            if r:
                groups.append((seg, *r[0]))
            else:
                loose += len(seg)
        if loose != 1 or not groups:
            raise RuleError("finish_incomplete")
        return groups
    groups = []
    for tiles in explicit:
        r = classify(_faces(tiles), okey, (RUN, KUT))
        if not r:
            raise RuleError("invalid_group")
        groups.append((tiles, *r[0]))
    if sum(len(g[0]) for g in groups) != rack.count() - 1:
        raise RuleError("finish_incomplete")
    return groups


# --- laying off and new groups ---------------------------------------------------------


def _new_group_kinds(state: HandState, seat: int) -> tuple:
    if is_pairs(state.task) and state.opened_pairs[seat]:
        return (RUN, KUT, PAIR)  # K-O6 decision
    return (RUN, KUT)


def _new_groups(state: HandState, seat: int, a: dict) -> list[dict]:
    _layoff_check(state, seat)
    okey = state.okey
    kinds = _new_group_kinds(state, seat)
    explicit = _resolve_groups(state, seat, a)
    groups = []
    if explicit is not None:
        for tiles in explicit:
            r = classify(_faces(tiles), okey, kinds)
            if not r:
                if len(tiles) == 2 and PAIR not in kinds and classify(_faces(tiles), okey, (PAIR,)):
                    raise RuleError("pairs_not_allowed")
                raise RuleError("invalid_group")
            groups.append((tiles, *r[0]))
    else:
        for seg in state.racks[seat].segments():
            r = classify(_faces(seg), okey, kinds)
            if r:
                groups.append((seg, *r[0]))
        if not groups:
            raise RuleError("no_groups")
    rack = state.racks[seat]
    if sum(len(g[0]) for g in groups) >= rack.count():
        raise RuleError("rack_would_be_empty")  # K-N4
    _snapshot(state, seat)
    for tiles, kind, values in groups:
        _remove_tiles(rack, tiles)
        state.table.append(Group(seat, kind, tiles, values, state.table_turn))
    return [{"type": "new_groups", "seat": seat, "log": {"groups": [_names(g[0]) for g in groups]}}]


def _placement(state: HandState, group: Group, tile: int, end: str | None, *, limit=True):
    """Where ``tile`` goes on ``group``: ("exchange", index) or ("left"|"right", None).
    Raises RuleError when it cannot go there (K-L3…K-L6)."""
    okey = state.okey
    face = face_of(tile)
    faces = _faces(group.tiles)
    ex = exchange_index(group.values, faces, face, okey)
    if ex is not None:
        return ("exchange", ex)  # K-L4: exchanges do not count toward K-L3
    if group.kind == PAIR:
        raise RuleError("pair_cannot_grow")  # K-L6
    if group.kind == KUT:
        if not kut_takes(group.values, faces, face, okey):
            raise RuleError("cannot_lay_off")
        return ("right", None)
    fits_left, fits_right = run_end_fits(group.values, face, okey)
    if end is None:
        if fits_left and fits_right:
            raise RuleError("end_required")
        end = "left" if fits_left else "right" if fits_right else None
        if end is None:
            raise RuleError("cannot_lay_off")
    elif not (fits_left if end == "left" else fits_right):
        raise RuleError("cannot_lay_off")
    if limit:
        left, right = group.added(state.table_turn)
        if (left if end == "left" else right) >= 2:
            raise RuleError("lay_off_limit")  # K-L3
    return (end, None)


def _place(state: HandState, seat: int, group: Group, tile: int, where) -> int | None:
    """Put ``tile`` from the rack onto ``group``; returns the okey taken back, if any."""
    rack = state.racks[seat]
    okey = state.okey
    end, index = where
    rack.remove(tile)
    taken = None
    if end == "exchange":
        taken = group.tiles[index]
        group.tiles[index] = tile
        rack.add(taken)  # K-R3: to the first empty cell
    elif end == "left":
        group.tiles.insert(0, tile)
        group.note_add(state.table_turn, "left")
    else:
        group.tiles.append(tile)
        if group.kind == RUN:
            group.note_add(state.table_turn, "right")
    group.values = group_values(group.kind, _faces(group.tiles), okey)
    return taken


def _lay_off(state: HandState, seat: int, a: dict) -> list[dict]:
    _layoff_check(state, seat)
    if a["group"] >= len(state.table):
        raise RuleError("no_such_group")
    group = state.table[a["group"]]
    tile = _resolve_tile(state, seat, a)
    where = _placement(state, group, tile, a.get("end"))
    if where[0] != "exchange" and state.racks[seat].count() <= 1:
        raise RuleError("rack_would_be_empty")  # K-N4
    _snapshot(state, seat)
    taken = _place(state, seat, group, tile, where)
    log = {"tile": face_name(face_of(tile)), "group": a["group"]}
    if where[0] in ("left", "right") and face_of(tile) == state.okey:
        log["end"] = where[0]
    ev = {"type": "laid_off", "seat": seat, "group": a["group"], "log": log}
    if taken is not None:
        ev["exchange"] = True
    return [ev]


def auto_lay_off_moves(state: HandState, seat: int) -> list[tuple[int, int, tuple]]:
    """K-L7 on a copy of the table: the (tile, group index, placement) moves İşle would
    make, in order.  Natural tiles first in face order (R, Y, B, K, F by number: not the
    rack layout, so that a replay makes the same moves), each to the first group in table
    order that takes it (an exchange before an end extension), repeated until nothing
    fits; then the real okeys the player held before pressing (not those taken back by
    this press).  Respects K-L3 and K-N4."""
    sim = _Sim(state, seat)
    moves = []
    okey = state.okey
    progress = True
    while progress:
        progress = False
        for tile in sim.rack_tiles():
            if face_of(tile) == okey:
                continue
            hit = sim.first_fit(tile)
            if hit is not None and sim.count() <= 1 and hit[2][0] != "exchange":
                continue  # K-N4: the last tile stays; an exchange keeps the count (K-L7)
            if hit is not None:
                moves.append(hit)
                sim.do(*hit)
                progress = True
    for tile in [t for t in sim.rack_tiles() if face_of(t) == okey and t not in sim.returned]:
        if sim.count() <= 1:
            break
        hit = sim.first_fit(tile)
        if hit is not None:
            moves.append(hit)
            sim.do(*hit)
    return moves


class _Sim:
    """A throw-away copy of one seat's rack and the table, for planning İşle."""

    def __init__(self, state: HandState, seat: int):
        self.state = state
        self.table = [g.copy() for g in state.table]
        self.rack = state.racks[seat].copy()
        self.returned: set[int] = set()

    def rack_tiles(self) -> list[int]:
        return sorted(self.rack.tiles(), key=face_of)

    def count(self) -> int:
        return self.rack.count()

    def first_fit(self, tile: int):
        best = None
        for i, g in enumerate(self.table):
            for end in (None, "right", "left"):
                try:
                    where = _placement(self.state, g, tile, end)
                except RuleError:
                    continue
                if where[0] == "exchange":
                    return (tile, i, where)
                if best is None:
                    best = (tile, i, where)
                break
        return best

    def do(self, tile: int, index: int, where) -> None:
        g = self.table[index]
        self.rack.remove(tile)
        okey = self.state.okey
        if where[0] == "exchange":
            back = g.tiles[where[1]]
            g.tiles[where[1]] = tile
            self.rack.add(back)
            self.returned.add(back)
        elif where[0] == "left":
            g.tiles.insert(0, tile)
            g.note_add(self.state.table_turn, "left")
        else:
            g.tiles.append(tile)
            if g.kind == RUN:
                g.note_add(self.state.table_turn, "right")
        g.values = group_values(g.kind, _faces(g.tiles), okey)


def _auto_lay_off(state: HandState, seat: int, a: dict) -> list[dict]:
    _layoff_check(state, seat)
    moves = auto_lay_off_moves(state, seat)
    if not moves:
        raise RuleError("nothing_to_lay_off")
    _snapshot(state, seat)
    for tile, index, where in moves:
        _place(state, seat, state.table[index], tile, where)
    return [{"type": "auto_laid_off", "seat": seat, "count": len(moves)}]


# --- undo ----------------------------------------------------------------------------


def _undo(state: HandState, seat: int, a: dict) -> list[dict]:
    _turn_check(state, seat)
    if not state.undo:
        raise RuleError("nothing_to_undo")  # K-U3
    snap = state.undo.pop()
    rack = state.racks[seat]
    if snap[0] == "take":  # K-U2: put the thrown tile back
        tile = snap[1]
        rack.remove(tile)
        state.discards[state.thrower()].append(tile)
        state.picked[seat].pop()
        state.thrown = tile
        state.taken = None
        state.took_discard = False
        state.phase = "take"
        return [{"type": "undo", "seat": seat, "what": "take"}]
    _, table, cells, opened, opened_at, opened_pairs = snap
    state.table = table
    state.opened[seat] = opened
    state.opened_at[seat] = opened_at
    state.opened_pairs[seat] = opened_pairs
    _restore_rack(rack, cells)
    return [{"type": "undo", "seat": seat, "what": "move"}]


def _restore_rack(rack: Rack, cells: list) -> None:
    """Bring the rack back to the snapshot's tiles, keeping the player's later layout
    for tiles that stayed; returning tiles go back to their old cell if free."""
    want = {t for t in cells if t is not None}
    for i, t in enumerate(rack.cells):
        if t is not None and t not in want:
            rack.cells[i] = None
    have = {t for t in rack.cells if t is not None}
    for i, t in enumerate(cells):
        if t is not None and t not in have:
            if rack.cells[i] is None:
                rack.cells[i] = t
            else:
                rack.add(t)


# --- discarding and timeouts --------------------------------------------------------------


def _discard(state: HandState, seat: int, a: dict) -> list[dict]:
    _play_check(state, seat)
    tile = _resolve_tile(state, seat, a)
    return _do_discard(state, seat, tile)


def _do_discard(state: HandState, seat: int, tile: int) -> list[dict]:
    rack = state.racks[seat]
    face = face_of(tile)
    finishing = rack.count() == 1  # K-F1
    penalty = 0
    if not finishing and is_islek(state, face):
        penalty = 100  # K-S5
    rack.remove(tile)
    state.discards[seat].append(tile)
    state.penalties[seat] += penalty
    if not state.first_turn:  # K-N5
        if state.forced:
            state.forced -= 1
            if not state.forced:
                state.streak = 0
        elif state.took_discard:
            state.streak += 1
            if state.streak >= FORCED_AFTER:
                state.forced = FORCED_TURNS
                state.streak = 0
        else:
            state.streak = 0
    state.turns_done[seat] += 1
    state.table_turn += 1
    state.undo = []
    state.taken = None
    state.took_discard = False
    state.first_turn = False
    state.claimable = False
    ev = {"type": "discarded", "seat": seat, "tile": face_name(face), "penalty": penalty,
          "log": {"tile": face_name(face)}}  # fmt: skip
    events = [ev]
    if finishing:
        state.over = True
        state.finisher = seat
        state.finish_okey = face == state.okey
        state.thrown = None
    elif not state.deck:  # K-D4
        state.over = True
        state.thrown = None
    else:
        state.thrown = tile
        state.turn = next_seat(seat)
        state.phase = "take"
    if state.over:
        score_hand(state)
        events.append({"type": "hand_over", "finisher": state.finisher, "scores": state.scores})
    return events


def timeout_discard_choice(state: HandState, seat: int) -> int:
    """K-N7: the tile taken this turn if still held and not a real okey; otherwise the
    highest-numbered tile that is not a real okey (ties: the first in R, Y, B, K, F
    order); a real okey only if nothing else is left."""
    okey = state.okey
    rack = state.racks[seat]
    taken = state.taken
    if taken is not None and face_of(taken) != okey:
        # by face, so that a replay (which names tiles by face) makes the same choice
        same = [t for t in rack.tiles() if face_of(t) == face_of(taken)]
        if same:
            return taken if taken in same else same[0]
    tiles = [t for t in rack.tiles() if face_of(t) != okey]
    if not tiles:
        return rack.tiles()[0]
    best = None
    best_key = None
    for t in tiles:
        f = face_of(t)
        num = number_of(okey) if f == 52 else number_of(f)
        key = (-num, f)
        if best_key is None or key < best_key:
            best, best_key = t, key
    return best


def _timeout(state: HandState, seat: int, a: dict) -> list[dict]:
    _turn_check(state, seat)
    events: list[dict] = []
    if state.phase == "take":
        if state.deck:
            events += _do_draw(state, seat)
            state.claimable = False  # the turn ends at once
        elif state.thrown is not None:
            events += _do_take_discard(state, seat)
    tile = timeout_discard_choice(state, seat)
    events += _do_discard(state, seat, tile)
    state.timeouts[seat] += 1
    events.append({"type": "timeout", "seat": seat, "timeouts": state.timeouts[seat]})
    return events


# --- rack layout (any time during the hand, no turn needed) ---------------------------------


def _layout(state: HandState, seat: int, a: dict) -> list[dict]:
    rack = state.racks[seat]
    cells = []
    for tid in a["cells"]:
        if tid is None:
            cells.append(None)
            continue
        tile = state.tile_by_id(tid)
        if tile is None:
            raise RuleError("bad_layout")
        cells.append(tile)
    placed = [t for t in cells if t is not None]
    if len(placed) != len(set(placed)) or sorted(placed) != sorted(rack.tiles()):
        raise RuleError("bad_layout")
    rack.cells = cells
    rack.seps = set(a["separators"])
    return [{"type": "layout", "seat": seat}]


def _move(state: HandState, seat: int, a: dict) -> list[dict]:
    tile = state.tile_by_id(a["tile_id"])
    rack = state.racks[seat]
    if tile is None or tile not in rack:
        raise RuleError("tile_not_in_rack")
    rack.move(tile, a["to"])
    return [{"type": "layout", "seat": seat}]


def _separator(state: HandState, seat: int, a: dict) -> list[dict]:
    state.racks[seat].toggle_separator(a["at"])
    return [{"type": "layout", "seat": seat}]


def _arrange(state: HandState, seat: int, a: dict) -> list[dict]:
    """K-R4 Diz: a new layout with separators; nothing is opened."""
    from games.kut.engine.arrange import arrange  # the solver is only needed here

    new = arrange(state, seat)
    rack = state.racks[seat]
    rack.cells, rack.seps = new.cells, new.seps
    return [{"type": "layout", "seat": seat}]


_HANDLERS = {
    "take_discard": _take_discard,
    "draw": _draw,
    "claim": _claim,
    "open": _open,
    "new_groups": _new_groups,
    "lay_off": _lay_off,
    "auto_lay_off": _auto_lay_off,
    "undo": _undo,
    "discard": _discard,
    "timeout": _timeout,
    "layout": _layout,
    "move": _move,
    "separator": _separator,
    "arrange": _arrange,
}

assert len(_HANDLERS) == len(set(_HANDLERS)) and CELLS == 32
