"""What the move timer did (S-N7), told to the table so that a timeout is never silent
(issue 29; ``game/engine/protocol.py``: ``timeout_notes``).

The hand's log is public (every entry is something every seat saw, S-V1) and holds the
timeout as ``{"seat", "type": "timeout"}`` only (the scenario form,
``kastet-scenario.md``).  What the server did then follows from the counts at that moment,
which the log gives when walked from the deal: a standing lay → *Pas* (the lays stand; an
empty rack finishes, S-F1); none → a draw if S-N2 allows it, else *Pas* because the rack
holds 22 tiles (S-N5) or the deck is empty (S-E1).  Only counts are used: a note never
says which tile was drawn (S-V2).
"""

from __future__ import annotations

from games.kastet.engine.state import MAX_RACK, SEATS, HandState

# what the timer did for the player (the table's words: games/kastet/web.py)
DREW = "draw"  # S-N7, S-N2: a tile drawn
PASSED_LAYS_STAND = "pass_laid"  # S-N7, S-N3: Pas, the turn's lays stand
FINISHED = "finish"  # S-N7, S-F1: Pas with an empty rack finished the hand
PASSED_RACK_FULL = "pass_full"  # S-N7, S-N5: Pas, 22 tiles
PASSED_DECK_EMPTY = "pass_empty"  # S-N7, S-E1: Pas, the deck is empty


def _count(groups) -> int:
    return sum(len(g) for g in groups)


def timeout_notes(hand: HandState | None, hand_no: int) -> list[dict]:
    """One note per seat whose last turn ran out and who has not acted since:
    ``{"seat", "hand_no", "at", "did"}`` — ``at`` the timeout's place in the hand's log
    (the client shows each note once), ``did`` one of the names above."""
    if hand is None or not any(hand.timeouts):
        return []
    deal = hand.deal
    deck = len(deal["deck"])
    racks = [len(r) for r in deal["racks"]]
    table = _count(deal["table"])
    pairs = _count(deal["pairs"])
    standing: list[tuple[int, int, int]] = []  # (rack, table, pairs) before each lay (S-U1)
    last: dict[int, dict] = {}
    for at, entry in enumerate(hand.log):
        seat, kind = entry.get("seat"), entry.get("type")
        if kind == "lay":
            standing.append((racks[seat], table, pairs))
            new_table, new_pairs = _count(entry["table"]), _count(entry.get("pairs", ()))
            racks[seat] -= new_table + new_pairs - table
            table, pairs = new_table, pairs + new_pairs
        elif kind == "undo" and standing:
            racks[seat], table, pairs = standing.pop()
        elif kind in ("draw", "pass"):
            if kind == "draw":
                racks[seat] += 1
                deck -= 1
            standing = []
        elif kind == "timeout":
            if standing:
                did = FINISHED if racks[seat] == 0 else PASSED_LAYS_STAND
            elif racks[seat] >= MAX_RACK:
                did = PASSED_RACK_FULL
            elif not deck:
                did = PASSED_DECK_EMPTY
            else:
                did = DREW
                racks[seat] += 1
                deck -= 1
            standing = []
            last[seat] = {"seat": seat, "hand_no": hand_no, "at": at, "did": did}
    return [last[s] for s in range(SEATS) if hand.timeouts[s] and s in last]
