"""What one KDVli seat may see (kdvli.md section 10, V-H1…V-H4).

``view_for(match, seat)``: the seat's own tiles (faces, opaque ids, layout) and its own
points (V-S5); of the others only public facts: tile counts, discard piles, who showed
the indicator, scores and totals.  ``seat=None`` is a watcher: no rack at all.  When the
hand is over every rack is revealed with its counted arrangement (V-H4).  Never: another
seat's tiles, ids or points during the hand, the deck order, the deal or any seed.
"""

from __future__ import annotations

from games.kdvli.engine import counting
from games.kdvli.engine.hand import SEATS, Hand, finishing_tiles
from games.okey.engine.deal import deal_order
from games.okey.engine.tiles import face_name, face_of


def _tile(hand: Hand, tile: int) -> dict:
    return {"id": hand.ids[tile], "face": face_name(face_of(tile))}


def _names(faces) -> list[str]:
    return [face_name(f) for f in faces]


def reveal(hand: Hand) -> list[dict]:
    """V-H4: every rack with the arrangement the server counted and its points."""
    out = []
    for s in range(SEATS):
        faces = sorted(hand.faces(s))
        entry: dict = {"tiles": _names(faces)}
        if s == hand.finisher:
            entry.update(points=0, counted=hand.finish_kind,
                         groups=[_names(face_of(t) for t in g) for g in hand.finish_groups],
                         finish_tile=face_name(face_of(hand.finish_tile)))  # fmt: skip
        else:
            c = counting.count(faces, hand.okey)
            entry.update(points=c.points, counted=c.counted, runs_points=c.runs_points,
                         pairs_points=c.pairs_points,
                         groups=[_names(g) for g in (c.groups if c.counted == "runs" else c.pairs)],
                         left=_names(c.left if c.counted == "runs" else c.pairs_left))  # fmt: skip
        out.append(entry)
    return out


def hand_view(hand: Hand, seat: int | None) -> dict:
    thrown = None
    if hand.thrown is not None and not hand.over:
        thrown = {"seat": (hand.turn - 1) % SEATS, "tile": _tile(hand, hand.thrown)}
    view = {
        "game": "kdvli",
        "starter": hand.starter,
        "indicator": face_name(face_of(hand.indicator)),
        "okey": face_name(hand.okey),
        "coloured": face_of(hand.indicator) // 13 in (0, 3),
        "turn": None if hand.over else hand.turn,
        "taken": hand.taken and not hand.over,
        "deck_count": len(hand.deck),
        "thrown": thrown,
        "partners": hand.partners,
        "seats": [
            {
                "count": hand.racks[s].count(),
                "discards": [_tile(hand, t) for t in hand.discards[s]],
                "shown": hand.shown[s],
                "bonus": hand.bonuses[s],
                "turns": hand.turns_done[s],
                "away": hand.away[s],
                "picked": [face_name(face_of(t)) for t in hand.picked[s]],
            }
            for s in range(SEATS)
        ],
        "over": hand.over,
        "void": hand.void,
        "finisher": hand.finisher,
        "finish_kind": hand.finish_kind,
        "multiplier": hand.multiplier,
        "scores": list(hand.scores) if hand.over and hand.scores is not None else None,
        "reveal": reveal(hand) if hand.over else None,
        "me": seat,
        "fair": {"commitment": hand.deal.get("commitment")},
    }
    if hand.over:
        view["fair"]["salt"] = hand.deal.get("salt")
        view["fair"]["order"] = deal_order(hand.deal)
    if seat is not None:
        rack = hand.racks[seat]
        view["rack"] = {
            "cells": [None if t is None else _tile(hand, t) for t in rack.cells],
            "separators": sorted(rack.seps),
        }
        view["points"] = hand.points_of(seat)  # V-S5: only this seat sees its points
        mine = not hand.over and hand.turn == seat
        view["points_shown"] = _points_shown(hand, seat, mine, view["points"])
        first = hand.turns_done[seat] == 0
        ind = face_of(hand.indicator)
        view["can"] = {
            "draw": mine and not hand.may_play() and bool(hand.deck),
            "take": mine and not hand.may_play() and hand.thrown is not None,
            "discard": mine and hand.may_play(),
            "finish": mine and hand.may_play(),
            "show_indicator": mine and first and not hand.taken and not hand.shown[seat]
            and any(face_of(t) == ind for t in rack.tiles()),
        }  # fmt: skip
        # V-F1: the seat's own tiles that could finish now (the table marks them)
        view["finishing_tiles"] = [hand.ids[t] for t in finishing_tiles(hand, seat)]
    return view


# --- replays (protocol.py, optional ``replay_snapshot``) ------------------------------------


def _move_tile(hand: Hand, entry: dict) -> str | None:
    """The face a logged discard or finish names (by face, or by an id resolved here so
    that no id reaches the replay)."""
    if "tile" in entry and isinstance(entry["tile"], str):
        return entry["tile"]
    tid = entry.get("tile_id")
    if tid in hand.ids:
        return face_name(face_of(hand.ids.index(tid)))
    return None


def replay_snapshot(match) -> dict:
    """One replay step, shaped like KÜT's (lobby.history._snapshot) where KDVli has the
    same thing: all four racks as segments of faces, each seat's discards, the deck
    count, the thrown tile, the turn, the scores.  KDVli has no table groups (V-F1: a
    hand is finished in one go), so ``table`` is always empty.  Only for replays, shown
    once the match is over: every rack is revealed; never a tile id, the deck order or
    the seed."""
    hand = match.hand
    thrown = hand.thrown if not hand.over else None
    entry = hand.log[-1] if hand.log else {}
    move = {}
    if entry.get("type") in ("discard", "finish", "timeout"):
        face = _move_tile(hand, entry)
        if entry.get("type") == "timeout" and hand.discards[entry["seat"]]:
            face = face_name(face_of(hand.discards[entry["seat"]][-1]))
        if face is not None:
            move["tile"] = face
    return {
        "hand_no": match.hand_no,
        "indicator": face_name(face_of(hand.indicator)),
        "okey": face_name(hand.okey),
        "starter": hand.starter,
        "turn": None if hand.over else hand.turn,
        "deck": len(hand.deck),
        "thrown": face_name(face_of(thrown)) if thrown is not None else None,
        "thrower": (hand.turn - 1) % SEATS if thrown is not None else None,
        "claimable": False,
        "racks": [
            [[face_name(face_of(t)) for t in seg] for seg in r.segments()] for r in hand.racks
        ],  # fmt: skip
        "counts": [r.count() for r in hand.racks],
        "table": [],
        "discards": [[face_name(face_of(t)) for t in d] for d in hand.discards],
        "shown": list(hand.shown),
        "bonuses": list(hand.bonuses),
        "over": hand.over,
        "void": hand.void,
        "finisher": hand.finisher,
        "finish_tile": face_name(face_of(hand.finish_tile))
        if hand.finish_tile is not None
        else None,
        "finish_kind": hand.finish_kind,
        "multiplier": hand.multiplier,
        "scores": list(hand.scores) if hand.scores is not None else None,
        "totals": match.totals(),
        "move": move,
    }


def _points_shown(hand, seat: int, mine: bool, now: int) -> int | None:
    """V-S5: the seat's points as they stood after its last discard — what the *Masa
    ayarları* panel shows, also to a page loaded in the middle of the seat's turn: the
    rack without the tile taken this turn.  None before the seat's first discard (the
    starter's first turn, 15 tiles).  ``now``: its points as the rack stands."""
    if hand.over or not mine:
        return now
    if hand.taken and hand.took is not None:
        faces = [face_of(t) for t in hand.racks[seat].tiles() if t != hand.took]
        return counting.points(faces, hand.okey)
    return None if hand.starter_first() else now
