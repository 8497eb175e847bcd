"""Işlek tiles and hand scores (kut.md K-L2, K-S1…K-S6, K-M5)."""

from __future__ import annotations

from games.okey.engine.groups import KUT, RUN, natural
from games.okey.engine.tiles import colour_of, face_of, face_points, make_face, number_of

FINISH_POINTS = -100  # K-S1
FINISH_OKEY_POINTS = -200
NOT_OPENED_POINTS = 200  # K-S2
OKEY_POINTS = 100  # K-S4
ISLEK_POINTS = 100  # K-S5


def group_accepts(group, okey: int) -> tuple[set[int], bool]:
    """What ``group`` could take now, ignoring the per-turn count (K-L3 ends, K-L4
    exchange, K-L5 küt completion): (the natural values it takes, whether a real okey
    fits)."""
    values = group.values
    wants = {v for t, v in zip(group.tiles, values) if v is not None and face_of(t) == okey}
    okey_ok = False
    if group.kind == RUN:
        lo, hi = number_of(values[0]), number_of(values[-1])
        if len(values) < 13:
            okey_ok = True
            if lo > 1:
                wants.add(values[0] - 1)
            if hi < 13:
                wants.add(values[-1] + 1)
    elif group.kind == KUT and len(values) == 3:
        okey_ok = True
        naturals = [v for t, v in zip(group.tiles, values) if face_of(t) != okey]
        number = number_of(naturals[0])
        present = {colour_of(v) for v in naturals}
        wants.update(make_face(c, number) for c in range(4) if c not in present)
    return wants, okey_ok


def fits_group(group, face: int, okey: int) -> bool:
    """Whether ``face`` could be added to ``group`` now, ignoring the per-turn count."""
    wants, okey_ok = group_accepts(group, okey)
    return okey_ok if face == okey else natural(face, okey) in wants


def islek_faces(state, *, include_this_turn: bool = False) -> tuple[set[int], bool]:
    """The union of ``group_accepts`` over the table (K-L2, K-S5)."""
    okey = state.okey
    wants: set[int] = set()
    okey_ok = False
    for g in state.table:
        if not include_this_turn and g.turn == state.table_turn:
            continue
        w, o = group_accepts(g, okey)
        wants |= w
        okey_ok = okey_ok or o
    return wants, okey_ok


def is_islek(state, face: int, *, include_this_turn: bool = False) -> bool:
    """K-S5: the face could go onto a group on the table, groups laid down during the
    turn in progress excepted (unless ``include_this_turn``).  A real okey is işlek
    whenever some run could take it at an end or some küt of three could take it."""
    wants, okey_ok = islek_faces(state, include_this_turn=include_this_turn)
    okey = state.okey
    return okey_ok if face == okey else natural(face, okey) in wants


def okey_penalty_count(state, seat: int) -> int:
    """K-S4 with K-C7: real okeys in hand that cost 100 each."""
    if not state.opened[seat]:
        return 0
    if state.turns_done[seat] - state.opened_at[seat] < 2:
        return 0  # not yet completed one more own turn after the opening turn
    okey = state.okey
    held = sum(1 for t in state.racks[seat].cells if t is not None and face_of(t) == okey)
    exempt = sum(1 for at in state.exempt[seat] if at == state.turns_done[seat])
    return max(0, held - exempt)


def score_lines(state) -> list[dict]:
    """Each seat's hand score with its reasons."""
    okey = state.okey
    lines = []
    for seat in range(4):
        line = {"finish": 0, "not_opened": 0, "tiles": 0, "okeys": 0,
                "penalties": state.penalties[seat]}  # fmt: skip
        if state.finisher == seat:
            line["finish"] = FINISH_OKEY_POINTS if state.finish_okey else FINISH_POINTS
        elif not state.opened[seat]:
            line["not_opened"] = NOT_OPENED_POINTS
        else:
            line["tiles"] = sum(
                face_points(face_of(t), okey)
                for t in state.racks[seat].cells
                if t is not None and face_of(t) != okey
            )
            line["okeys"] = OKEY_POINTS * okey_penalty_count(state, seat)
        line["total"] = sum(line.values())
        lines.append(line)
    return lines


def score_hand(state) -> None:
    state.score_lines = score_lines(state)
    state.scores = [line["total"] for line in state.score_lines]


def winners(totals: list[int]) -> list[int]:
    """K-M5: the seats with the lowest total (shared wins)."""
    low = min(totals)
    return [s for s, t in enumerate(totals) if t == low]
