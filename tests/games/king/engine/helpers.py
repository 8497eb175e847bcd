"""Building King scenarios for tests (king-scenario.md)."""

from __future__ import annotations

from games.king.engine.cards import NAMES
from games.king.engine.replay import run_scenario

# Seat s holds the 13 cards of suit s: 0 spades, 1 hearts, 2 clubs, 3 diamonds.
BY_SUIT = [[r + s for r in "AKQJT98765432"] for s in "SHCD"]


def deal(*fixed: list[str]) -> list[list[str]]:
    """Four 13-card hands: seat s gets ``fixed[s]`` (may be short or missing), topped up
    in order S H C D, A down to 2 with the cards nobody was given."""
    fixed = [list(f) for f in fixed] + [[] for _ in range(4 - len(fixed))]
    used = {c for f in fixed for c in f}
    assert len(used) == sum(map(len, fixed)), "a card given twice"
    rest = [c for c in NAMES if c not in used]
    hands = []
    for f in fixed:
        need = 13 - len(f)
        hands.append(f + rest[:need])
        rest = rest[need:]
    return hands


def choose(seat: int, contract: str, trump: str | None = None) -> dict:
    a = {"seat": seat, "type": "choose", "contract": contract}
    if trump is not None:
        a["trump"] = trump
    return a


def play(seat: int, *cards: str) -> list[dict]:
    """Plays by consecutive seats from ``seat``: play(1, "AS", "2S") is seat 1 then 2."""
    return [{"seat": (seat + i) % 4, "type": "play", "card": c} for i, c in enumerate(cards)]


def timeout(seat: int) -> dict:
    return {"seat": seat, "type": "timeout"}


def scenario(hands, actions=(), chooser=0, length=20, chosen=None) -> dict:
    s = {"game": "king", "length": length, "chooser": chooser, "hands": hands,
         "actions": list(actions)}  # fmt: skip
    if chosen is not None:
        s["chosen"] = chosen
    return s


def run(hands, actions=(), chooser=0, length=20, chosen=None) -> dict:
    return run_scenario(scenario(hands, actions, chooser, length, chosen))


def errors(out: dict) -> list[str | None]:
    return [None if r["ok"] else r["error"] for r in out["results"]]
