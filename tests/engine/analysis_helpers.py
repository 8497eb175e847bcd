"""Shared checks of the analysis command (issue 31) for the tile games' tests: the
command's exit codes, determinism, the partial analysis under a small budget, and the
secrecy swap (hidden tiles of another seat exchanged with undrawn deck tiles)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_command(stdin: str, *args):
    return subprocess.run(
        [sys.executable, "-m", "game.engine.analyse", *(args or ("-",))],
        cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def check_shape(out: dict, game: str, unit: str) -> None:
    assert out["game"] == game and out["unit"] == unit
    assert set(out) == {"game", "unit", "thresholds", "complete", "budget", "decisions",
                        "summary"}  # fmt: skip
    assert set(out["budget"]) == {"limit", "used", "unit"}
    assert out["budget"]["used"] <= out["budget"]["limit"]
    for d in out["decisions"]:
        assert set(d) == {"step", "seat", "kind", "played", "best", "value", "best_value",
                          "cost", "exact", "bound", "mark", "notes"}  # fmt: skip
        assert d["cost"] >= 0
        assert (d["best"] is None) == (d["cost"] == 0)
        assert d["exact"] == (d["bound"] is None) or not d["exact"]
    assert [s["seat"] for s in out["summary"]] == [0, 1, 2, 3]
    for s in out["summary"]:
        mine = [d for d in out["decisions"] if d["seat"] == s["seat"]]
        assert s["decisions"] == len(mine) == s["good"] + s["loss"] + s["big_loss"]
        assert s["total_cost"] == sum(d["cost"] for d in mine)


def check_prefix(full: dict, part: dict) -> None:
    """A budget-cut analysis holds a prefix of the full one's decisions."""
    assert full["complete"] and not part["complete"]
    n = len(part["decisions"])
    assert n < len(full["decisions"])
    for a, b in zip(full["decisions"][:n], part["decisions"]):
        assert a["step"] == b["step"] and a["seat"] == b["seat"]


def hidden_swap(scenario: dict, final_racks: list[list[str]], seat: int,
                deck_left: int) -> dict | None:  # fmt: skip
    """The scenario with one tile that ``seat`` never sees swapped: a face another seat
    was dealt and still holds at the end, against a deck tile nobody drew; the undrawn
    tail of the deck also reversed (its order)."""
    s = copy.deepcopy(scenario)
    deck = s["deck"]
    tail = list(range(len(deck) - deck_left, len(deck)))
    if not tail:
        return None
    for other in range(4):
        if other == seat:
            continue
        for i, face in enumerate(s["racks"][other]):
            j = next((j for j in tail if deck[j] != face), None)
            if face in final_racks[other] and j is not None:
                s["racks"][other][i], deck[j] = deck[j], face
                deck[tail[0] :] = list(reversed(deck[tail[0] :]))
                return s
    return None


def seat_decisions(out: dict, seat: int) -> str:
    return json.dumps([d for d in out["decisions"] if d["seat"] == seat], sort_keys=True)


def check_secrecy(hands: list[dict], replay, analyse, public: str) -> int:
    """For each hand and seat where ``hidden_swap`` leaves every public fact (the
    replay's ``results`` and ``public`` field) as it was, the seat's analysis must be
    unchanged; returns how many (hand, seat) were checked."""
    checked = 0
    for data in hands:
        res = replay(data)
        for seat in range(4):
            changed = hidden_swap(data, res["racks"], seat, res["deck_count"])
            if changed is None:
                continue
            res2 = replay(changed)
            if res2["results"] != res["results"] or res2[public] != res[public]:
                continue
            assert seat_decisions(analyse(changed), seat) == seat_decisions(analyse(data), seat)
            checked += 1
    return checked
