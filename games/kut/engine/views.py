"""What one seat may see (boardgame.io's playerView).

``view_for(hand, seat)`` holds the seat's own tiles (faces, opaque ids, layout and
işlek marks) and only public facts about the others: tile counts, table groups,
discard piles, the indicator, the deck's count.  ``view_for(hand, None)`` is the
watchers' view: no rack at all.  Never: another seat's tiles or ids, the deck order,
the deal, the action log or any seed.
"""

from __future__ import annotations

from games.kut.engine.scoring import islek_faces
from games.kut.engine.solver import task_ready
from games.kut.engine.state import SEATS, HandState
from games.kut.engine.tasks import describe
from games.kut.engine.transitions import MAX_CLAIM_RACK
from games.okey.engine.deal import deal_order
from games.okey.engine.groups import natural
from games.okey.engine.tiles import face_name, face_of


def _tile(hand: HandState, tile: int) -> dict:
    return {"id": hand.ids[tile], "face": face_name(face_of(tile))}


def can_claim(hand: HandState, seat: int) -> bool:
    """K-C1, K-C2, K-C6: may ``seat`` claim the thrown tile now?"""
    return (
        not hand.over
        and hand.claimable
        and hand.thrown is not None
        and seat != hand.turn
        and seat != hand.thrower()
        and bool(hand.deck)
        and hand.racks[seat].count() <= MAX_CLAIM_RACK
    )


def view_for(hand: HandState, seat: int | None) -> dict:
    return views_for(hand, (seat,))[0]


def views_for(hand: HandState, seats) -> list[dict]:
    """``view_for`` of each of ``seats``, the public part built once for all (issue 22:
    a move's frames need four or five views of the same hand).  The views share the
    public part's nested objects: read them, never change them in place."""
    public = _public_view(hand)
    wants = None
    out = []
    for seat in seats:
        view = dict(public)
        view["me"] = seat
        if seat is not None:
            if wants is None:  # the same for every seat (the table's işlek tiles)
                wants = islek_faces(hand, include_this_turn=True)
            _add_seat_view(hand, seat, view, wants)
        out.append(view)
    return out


def _public_view(hand: HandState) -> dict:
    okey = hand.okey
    thrown = None
    if hand.thrown is not None:
        thrown = {"seat": hand.thrower(), "tile": _tile(hand, hand.thrown)}
    view = {
        "tasks": hand.tasks,
        "task_no": hand.task_no,
        "task": [list(req) for req in hand.task],
        "task_text": describe(hand.task),
        "starter": hand.starter,
        "indicator": face_name(face_of(hand.indicator)),
        "okey": face_name(okey),
        "turn": None if hand.over else hand.turn,
        "phase": hand.phase,
        "first_turn": hand.first_turn,
        "forced_draw": hand.forced > 0,
        "deck_count": len(hand.deck),
        "thrown": thrown,
        "claimable": hand.claimable and not hand.over,
        "seats": [
            {
                "count": hand.racks[s].count(),
                "opened": hand.opened[s],
                "penalty": hand.penalties[s],
                "discards": [_tile(hand, t) for t in hand.discards[s]],
                "picked": [face_name(face_of(t)) for t in hand.picked[s]],
                "turns": hand.turns_done[s],
            }
            for s in range(SEATS)
        ],
        "table": [
            {
                "owner": g.owner,
                "kind": g.kind,
                "tiles": [_tile(hand, t) for t in g.tiles],
                "values": [None if v is None else face_name(v) for v in g.values],
                "this_turn": g.turn == hand.table_turn and not hand.over,
                "added": list(g.added(hand.table_turn)),  # K-L3 count this turn
            }
            for g in hand.table
        ],
        "over": hand.over,
        "finisher": hand.finisher,
        "scores": list(hand.scores) if hand.scores is not None else None,
        "score_lines": [dict(x) for x in hand.score_lines] if hand.score_lines else None,
        "me": None,
        # provably fair shuffle: the commitment during the hand; salt and order after it
        "fair": {"commitment": hand.deal.get("commitment")},
    }
    if hand.over and hand.deal.get("salt") is not None:
        view["fair"]["salt"] = hand.deal["salt"]
        view["fair"]["order"] = deal_order(hand.deal)
    return view


def _add_seat_view(hand: HandState, seat: int, view: dict, marks) -> None:
    """What only ``seat`` sees: its rack (with işlek marks), its task check, its buttons."""
    okey = hand.okey
    rack = hand.racks[seat]
    wants, okey_ok = marks  # islek_faces: the same for every seat
    cells = []
    for t in rack.cells:
        if t is None:
            cells.append(None)
            continue
        f = face_of(t)
        islek = okey_ok if f == okey else natural(f, okey) in wants
        cells.append({**_tile(hand, t), "islek": islek})
    my_turn = not hand.over and hand.turn == seat
    view["rack"] = {"cells": cells, "separators": sorted(rack.seps)}
    view["opened_this_turn"] = hand.opened[seat] and hand.opened_at[seat] == hand.turns_done[seat]
    # Görevi Aç tells the truth (issue 15): the solver's word on whether the tiles
    # can form the task (K-O2, K-O7), whatever their layout; None once opened.
    view["task_ready"] = (
        None
        if hand.over or hand.opened[seat]
        else task_ready([face_of(t) for t in rack.tiles()], okey, hand.task)
    )
    view["okeys_exempt"] = sum(1 for at in hand.exempt[seat] if at == hand.turns_done[seat])
    view["can"] = {
        "take": my_turn and hand.phase == "take" and hand.thrown is not None
        and not hand.forced,
        "draw": my_turn and hand.phase == "take" and bool(hand.deck),
        "claim": can_claim(hand, seat),
        "play": my_turn and hand.phase == "play",
        "lay_off": my_turn and hand.phase == "play" and hand.opened[seat]
        and hand.opened_at[seat] != hand.turns_done[seat],
        "undo": my_turn and bool(hand.undo),
    }  # fmt: skip
