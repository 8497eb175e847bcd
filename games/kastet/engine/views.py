"""What one seat may see (kastet.md section 11).

``view_for(hand, seat, match)`` holds the seat's own rack (faces, opaque ids, its own
arrangement), the indicator, the run area and the pair area (lays of the turn in
progress included, S-V1), every rack's tile count, the deck's count, whose turn it is,
hints for the seat's legal moves, and the scores so far.  ``seat=None`` is a watcher: no
rack.  Never (S-V2): another seat's tiles or ids, the deck, the deal, the log, a seed.
Once the hand is over every rack's remaining tiles are shown (S-V3).
"""

from __future__ import annotations

from games.kastet.engine.groups import read_group, read_pair
from games.kastet.engine.rules import draw_refusal, pass_refusal, team_scores
from games.kastet.engine.state import MAX_RACK, ROW, SEATS, SLOTS, HandState
from games.okey.engine.tiles import face_name, face_of


def _tile(hand: HandState, tile: int) -> dict:
    return {"id": hand.ids[tile], "face": face_name(face_of(tile))}


def _values(values) -> list:
    return [None if v is None else face_name(v) for v in values]


def view_for(hand: HandState, seat: int | None, match=None) -> dict:
    okey = hand.okey
    table = []
    for g in hand.table:
        kind, values = read_group([face_of(t) for t in g], okey)
        table.append({"kind": kind, "tiles": [_tile(hand, t) for t in g],
                      "values": _values(values)})  # fmt: skip
    pairs = []
    for p in hand.pairs:
        kind, values = read_pair([face_of(t) for t in p], okey)
        pairs.append({"kind": kind, "tiles": [_tile(hand, t) for t in p],
                      "values": _values(values)})  # fmt: skip
    view = {
        "game": "kastet",
        "me": seat,
        "hand_no": hand.hand_no,
        "partners": hand.partners,
        "starter": hand.starter,
        "indicator": face_name(face_of(hand.indicator)),
        "okey": face_name(okey),
        "turn": None if hand.over else hand.turn,
        "deck_count": len(hand.deck),
        "slots": SLOTS,
        "max_rack": MAX_RACK,
        "table": table,
        "pairs": pairs,
        "pairs_open": len(hand.table) == SLOTS,  # S-L5
        "laid_this_turn": bool(hand.undo) and not hand.over,  # lays show as accepted
        "passes_in_row": hand.passes,  # S-E2
        "seats": [
            {"count": hand.rack_count(s), "laid": hand.laid[s], "timeouts": hand.timeouts[s]}
            for s in range(SEATS)
        ],
        "over": hand.over,
        "finisher": hand.finisher,
        "blocked": hand.blocked,
        "scores": list(hand.scores) if hand.scores is not None else None,
        "team_scores": team_scores(hand.scores) if hand.over and hand.partners else None,
        "racks_shown": None,
    }
    if hand.over:  # S-V3: the tiles left make the scores
        view["racks_shown"] = [
            [face_name(f) for f in sorted(face_of(t) for t in hand.rack_tiles(s))]
            for s in range(SEATS)
        ]
    if match is not None:
        view["match"] = {
            "hands": match.hands,
            "hand_no": match.hand_no,
            "rated": match.rated,
            "move_seconds": match.move_seconds,
            "hand_scores": [list(r["scores"]) for r in match.results],
            "totals": list(match.totals),
            "team_totals": team_scores(match.totals) if match.partners else None,
            "over": match.over,
        }
    if seat is not None:
        rack = hand.racks[seat]
        my_turn = not hand.over and hand.turn == seat
        view["rack"] = {
            "cells": [None if t is None else _tile(hand, t) for t in rack],
            "row": ROW,
        }
        view["can"] = {
            "lay": my_turn,
            "draw": my_turn and draw_refusal(hand, seat) is None,
            "pass": my_turn and pass_refusal(hand, seat) is None,
            "undo": my_turn and bool(hand.undo),
            "finish": my_turn and bool(hand.undo) and hand.rack_count(seat) == 0,
        }
    return view


# --- replays (protocol.py, optional ``replay_snapshot``) ------------------------------------


def _segments(rack: list) -> list[list[str]]:
    """A rack's tiles as faces, split where the player left empty cells (its own order)."""
    out: list[list[str]] = [[]]
    for t in rack:
        if t is None:
            if out[-1]:
                out.append([])
        else:
            out[-1].append(face_name(face_of(t)))
    return [seg for seg in out if seg]


def replay_snapshot(match) -> dict:
    """One replay step, shaped like KÜT's (lobby.history._snapshot): all four racks as
    faces, the deck count, the turn, the run area's groups and the pair area's pairs (as
    ``table``, with no owner: everything laid is common property, S-A3), the scores.
    Kastet has no discards.  Only for replays, shown once the match is over: every rack is
    revealed; never a tile id, the deck order or the seed.  ``move`` names what a lay put
    on the table (the groups that hold a tile laid from the rack), by faces."""
    hand = match.hand
    okey = hand.okey
    table = []
    for g in hand.table:
        read = read_group([face_of(t) for t in g], okey)
        table.append({"kind": read[0] if read else "run", "owner": None,
                      "tiles": [face_name(face_of(t)) for t in g]})  # fmt: skip
    for p in hand.pairs:
        table.append({"kind": "pair", "owner": None, "tiles": [face_name(face_of(t)) for t in p]})
    entry = hand.log[-1] if hand.log else {}
    move = {}
    if entry.get("type") == "lay" and hand.undo:  # the groups this lay made or changed
        before = {tuple(g) for g in hand.undo[-1]["table"]}
        changed = [g for g in hand.table if tuple(g) not in before] + hand.pairs[
            len(hand.undo[-1]["pairs"]) :
        ]
        move["groups"] = [[face_name(face_of(t)) for t in g] for g in changed]
    return {
        "hand_no": match.hand_no,
        "indicator": face_name(face_of(hand.indicator)),
        "okey": face_name(okey),
        "starter": hand.starter,
        "turn": None if hand.over else hand.turn,
        "deck": len(hand.deck),
        "thrown": None,
        "thrower": None,
        "claimable": False,
        "racks": [_segments(hand.racks[s]) for s in range(SEATS)],
        "counts": [hand.rack_count(s) for s in range(SEATS)],
        "table": table,
        "discards": [[] for _ in range(SEATS)],
        "over": hand.over,
        "blocked": hand.blocked,
        "finisher": hand.finisher,
        "scores": list(hand.scores) if hand.scores is not None else None,
        "totals": list(match.totals),
        "move": move,
    }
