"""The toy game's scenario command (``python -m game.engine.replay``, dispatched by the
registry): a hand's scenario (``GAME.export_hand``) replayed move by move from its deal
(O-R7).  Each move is reported ``ok`` or with the engine's code; the answer ends with
the count, the winner and the hand's scores (O-R3)."""

from __future__ import annotations

from game.engine.errors import EngineError
from game.engine.protocol import InputError
from tests.toygame.engine import GAME, new_hand


def _seat_list(data: dict, name: str, ok) -> list[int]:
    value = data.get(name)
    if not isinstance(value, list) or len(value) != 2 or not all(ok(v) for v in value):
        raise InputError(f"{name} must be a list of two valid values")
    return value


def run_scenario(data: dict) -> dict:
    if not isinstance(data, dict) or data.get("game") != "toy":
        raise InputError('a toy scenario is an object with "game": "toy"')
    first = data.get("first")
    if first not in (0, 1) or isinstance(first, bool):
        raise InputError("first must be 0 or 1")
    secret = _seat_list(data, "secret", lambda v: v in (1, 2, 3) and not isinstance(v, bool))
    moves = data.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, list) and len(m) == 2 for m in moves):
        raise InputError("moves must be a list of [seat, n] pairs")
    hand_no = data.get("hand_no", 1)
    state = {"hands": 3, "hand_no": hand_no, "results": [], "totals": [0, 0], "over": False,
             "hand": new_hand(first, list(secret))}  # fmt: skip
    results = []
    for seat, n in moves:
        try:
            GAME.apply(state, seat, {"type": "add", "n": n}, 0.0)
            results.append({"ok": True})
        except EngineError as exc:
            results.append({"ok": False, "code": exc.code})
    hand = state["hand"]
    over = hand["winner"] is not None
    return {"game": "toy", "hand_no": hand_no, "results": results, "over": over,
            "count": hand["count"], "winner": hand["winner"],
            "scores": state["results"][0]["scores"] if over else None}  # fmt: skip
