"""Bots: legal play at every level, view-only decisions (P-1), opening when possible."""

from __future__ import annotations

import ast
import copy
import random
from pathlib import Path

import pytest

from game.engine.fair import SeededRNG
from games.kut.engine import bots
from games.kut.engine.deal import new_hand
from games.kut.engine.simulate import bot_view, play_bot_hand, simulate
from games.kut.engine.state import HandState
from games.kut.engine.transitions import apply

BOTS_DIR = Path(__file__).resolve().parents[4] / "games" / "kut" / "engine" / "bots"
ALLOWED = {"groups", "solver", "tasks", "tiles", "play"}


def test_bot_code_cannot_import_the_state():
    """P-1: the bot package imports only pure tile/group/solver helpers, never the state,
    the transitions, the deal or the views (so it can only read the view it is given)."""
    for path in BOTS_DIR.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level >= 1:
                mod = (node.module or "").split(".")[0]
                assert mod in ALLOWED, f"{path.name} imports {node.module}"
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert not alias.name.startswith("game"), alias.name


def _shuffle_hidden(hand: HandState, seat: int, rng: random.Random) -> HandState:
    """A state that differs from ``hand`` only in what ``seat`` cannot see: the other
    racks' tiles and the deck are swapped around (counts kept)."""
    other = HandState.from_dict(hand.to_dict())
    hidden = list(other.deck)
    slots = []
    for s in range(4):
        if s == seat:
            continue
        for i, t in enumerate(other.racks[s].cells):
            if t is not None:
                hidden.append(t)
                slots.append((s, i))
    rng.shuffle(hidden)
    for s, i in slots:
        other.racks[s].cells[i] = hidden.pop()
    other.deck = hidden
    return other


@pytest.mark.parametrize("level", bots.LEVELS)
def test_hidden_information_does_not_change_a_bot_decision(level):
    """View tampering: whatever the other racks and the deck hold, a bot that sees the
    same view makes the same move — it cannot reach them."""
    rng = random.Random(7)
    for seed in range(12):
        hand = new_hand(8, 1 + seed % 7, seed % 4, SeededRNG(seed))
        for _ in range(rng.randrange(0, 40)):
            if hand.over:
                break
            action = bots.choose(bot_view(hand, hand.turn), "normal", random.Random(1))
            apply(hand, hand.turn, action)
        if hand.over:
            continue
        seat = hand.turn
        twin = _shuffle_hidden(hand, seat, rng)
        v1, v2 = bot_view(hand, seat), bot_view(twin, seat)
        assert v1 == v2
        assert bots.choose(v1, level, random.Random(3)) == bots.choose(v2, level,
                                                                     random.Random(3))


def test_a_bot_gets_a_detached_copy():
    hand = new_hand(8, 2, 0, SeededRNG(1))
    view = bot_view(hand, 0)
    before = hand.to_dict()
    tampered = copy.deepcopy(view)
    tampered["rack"]["cells"] = tampered["rack"]["cells"][::-1]
    view["seats"][1]["count"] = 99
    bots.choose(tampered, "hard", random.Random(1))
    assert hand.to_dict() == before


@pytest.mark.parametrize("level", bots.LEVELS)
def test_bot_only_hands_end_with_legal_moves(level):
    """Every move a bot makes is accepted by the engine; every hand ends."""
    for seed in range(6):
        hand = new_hand(12, 1 + (seed * 5) % 12, seed % 4, SeededRNG(f"b{seed}"))
        n = play_bot_hand(hand, [level] * 4, random.Random(seed))
        assert hand.over and n > 0


def test_levels_are_ordered_and_normal_opens_when_it_can():
    """A small CI sample of the 2000-hand comparison (README: simulation command)."""
    r = simulate(40, ["hard", "normal", "easy", "normal"], seed=5)["levels"]
    assert r["normal"]["mean"] < r["easy"]["mean"]
    assert r["normal"]["opened_when_could"] >= 0.9
    assert r["hard"]["opened_when_could"] >= 0.9
