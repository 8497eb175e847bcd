"""King's replay step (protocol.py, optional ``replay_snapshot``; issue 19): the four
hands revealed, the trick in progress, the last trick taken, tricks taken per seat, the
contract, trump and scores.  Replays are shown only once the match is over (to its
players and staff), so every hand is shown; never the seed or the deck order."""

from __future__ import annotations

from games.king.engine.cards import SUITS, name
from games.king.engine.match import MatchState


def _names(cards) -> list[str]:
    return [name(c) for c in cards]


def replay_snapshot(match: MatchState) -> dict:
    hand = match.hand
    last = hand.tricks[-1] if hand.tricks else None
    took = [0, 0, 0, 0]
    for _, _, winner in hand.tricks:
        took[winner] += 1
    move = {}
    if hand.log:
        entry = hand.log[-1]
        if entry.get("type") == "play" and "card" in entry:
            c = entry["card"]
            move["card"] = c if isinstance(c, str) else name(c)
        elif entry.get("type") == "choose":
            move["contract"] = hand.contract
    return {
        "hand_no": match.hand_no,
        "chooser": hand.chooser,
        "phase": hand.phase,
        "contract": hand.contract,
        "trump": SUITS[hand.trump] if hand.trump is not None else None,
        "turn": None if hand.over else hand.turn,
        "leader": hand.leader,
        "hands": [_names(h) for h in hand.hands],
        "trick": _names(hand.trick),
        "last_trick": None
        if last is None
        else {"leader": last[0], "cards": _names(last[1]), "winner": last[2]},
        "tricks": took,
        "taken": [_names(t) for t in hand.taken()],
        "running": hand.running_scores(),
        "over": hand.over,
        "scores": list(hand.scores) if hand.scores is not None else None,
        "totals": list(match.totals),
        "move": move,
    }
