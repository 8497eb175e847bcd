"""A King match's record page (issue 19, item 4): King's hand results carry their own
detail (chooser, contract, trump: king.md G-Q1) instead of KÜT's task and reasons, so
its page shows the score table by contract (G-Q3) from the match's stored record."""

from __future__ import annotations

from game.engine import registry
from game.fairness import verify_url
from game.models import Match
from games.king.engine.match import recorded_check
from lobby.history import seat_name

SUIT_SYMBOL = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


def king_record(match: Match) -> dict:
    """One row per recorded hand: number, chooser, contract, trump, the four hand scores,
    the running totals and the link that checks the hand's deal (P-2)."""
    names = [seat_name(s) for s in match.seats.select_related("user").order_by("seat")]
    rows = []
    if match.state:
        state = registry.get("king").from_dict(match.state)
        running = [0] * len(names)
        for r in state.results:
            running = [t + s for t, s in zip(running, r["scores"])]
            check = recorded_check(r)  # G-V2: the deal kept with P-2's check
            rows.append({
                "hand_no": r["hand_no"],
                "chooser": names[r["chooser"]],
                "contract": r["contract"],
                "trump": SUIT_SYMBOL.get(r["trump"] or "", ""),
                "scores": list(r["scores"]),
                "running": list(running),
                "verify": verify_url(check) if check else "",
            })  # fmt: skip
    return {"names": names, "rows": rows, "length": (match.options or {}).get("length")}
