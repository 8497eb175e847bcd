"""The Kelimeki scenario command (kelimeki-scenario.md)::

    python -m game.engine.replay SCENARIO.json      # "game": "kelimeki"

``run_scenario(data)`` validates the scenario (``InputError`` for a malformed one: the
command exits 2 with one line), plays its actions through ``GAME`` and returns the
documented result.
"""

from __future__ import annotations

from collections import Counter

from game.engine.errors import ActionFormatError, EngineError
from game.engine.scenario_input import (
    ScenarioError,
    action_object,
    checked_actions,
    int_field,
    is_int_in,
)
from games.kelimeki.engine import GAME, parse_placements
from games.kelimeki.engine.alphabet import COUNTS, LETTER_SET, RACK_SIZE, TILE_SET, fold, sort_tiles
from games.kelimeki.engine.board import corners_for
from games.kelimeki.engine.klig import game_points
from games.kelimeki.engine.rules import InvalidWords, ranks
from games.kelimeki.engine.state import State

ACTION_TYPES = ("play", "exchange", "pass", "timeout")


def _tiles(value, what: str) -> list[str]:
    if not isinstance(value, list):
        raise ScenarioError(f"{what} must be a list of tiles")
    for t in value:
        if not isinstance(t, str) or t not in TILE_SET:
            raise ScenarioError(f"{what}: unknown tile {t!r}")
    return list(value)


def _check_action(i: int, a, players: int) -> dict:
    where = action_object(i, a)
    kind = a.get("type")
    if kind not in ACTION_TYPES:
        raise ScenarioError(f"{where}: unknown action type {kind!r}")
    if not is_int_in(a.get("seat"), 0, players - 1):
        raise ScenarioError(f"{where}: 'seat' must be an integer 0..{players - 1}")
    if kind == "play":
        try:
            parse_placements(a.get("placements"))
        except ActionFormatError as exc:
            raise ScenarioError(f"{where}: {exc.detail}") from None
    if kind == "exchange":
        if a.get("letters") is not None:
            _tiles(a["letters"], f"{where}: 'letters'")
    return a


def load_scenario(data) -> tuple[State, list[dict]]:
    """Validate a scenario and set up its game; raises ScenarioError."""
    if not isinstance(data, dict):
        raise ScenarioError("the scenario must be a JSON object")
    if data.get("game") != "kelimeki":
        raise ScenarioError("'game' must be \"kelimeki\"")
    players = data.get("players")
    if type(players) is not int or players not in (2, 4):  # not True, not 2.0
        raise ScenarioError(f"'players' must be 2 or 4, not {players!r}")
    starter = int_field(data, "starter", 0, 0, players - 1)
    racks = data.get("racks")
    if not isinstance(racks, list) or len(racks) != players:
        raise ScenarioError(f"'racks' must be a list of {players} racks")
    racks = [_tiles(r, f"rack {s}") for s, r in enumerate(racks)]
    for s, r in enumerate(racks):
        if not 1 <= len(r) <= RACK_SIZE:
            raise ScenarioError(f"rack {s} must hold 1 to 7 tiles, not {len(r)}")
    bag = _tiles(data.get("bag", []), "'bag'")
    count = Counter(bag)
    for r in racks:
        count.update(r)
    for t, n in count.items():
        if n > COUNTS[t]:
            raise ScenarioError(f"{n} copies of {t!r}: the bag holds only {COUNTS[t]}")
    words = data.get("words")
    if words is not None:
        if not isinstance(words, list):
            raise ScenarioError("'words' must be a list of words")
        for w in words:
            if not isinstance(w, str):
                raise ScenarioError(f"'words': {w!r} is not a word")
            canon = fold(w)
            if len(canon) < 2 or any(ch not in LETTER_SET for ch in canon):
                raise ScenarioError(f"'words': {w!r} is not a playable word (W-D2)")
    actions = checked_actions(data, lambda i, a: _check_action(i, a, players))
    state = State(players=players, corners=corners_for(players), racks=racks, bag=bag,
                  turn=starter, starter=starter, words=words,
                  exchange_to_bottom=True)  # fmt: skip
    return state, actions


def run_action(state: State, a: dict) -> dict:
    seat, kind = a["seat"], a["type"]
    try:
        if kind == "timeout":
            GAME.on_timeout(state, seat, 0.0)
            return {"ok": True}
        events = GAME.apply(state, seat, {k: v for k, v in a.items() if k != "seat"}, 0.0)
    except InvalidWords as exc:
        return {"ok": False, "error": exc.code, "invalid": exc.invalid}
    except EngineError as exc:
        return {"ok": False, "error": exc.code}
    if kind != "play":
        return {"ok": True}
    e = events[0]
    return {"ok": True, "words": e["words"], "bingo": e["bingo"], "points": e["points"],
            "shares": e["shares"], "finish_bonus": e["finish_bonus"]}  # fmt: skip


def result(state: State, results: list[dict]) -> dict:
    places = ranks(state) if state.over else None
    return {
        "results": results,
        "over": state.over,
        "turn": None if state.over else state.turn,
        "bag_count": len(state.bag),
        "racks": [sort_tiles(r) for r in state.racks],
        "scores": list(state.scores),
        "passes": state.passes,
        "forfeited": list(state.forfeited),
        "board": state.board_rows(),
        "zones": state.zone_rows(),
        "deducted": list(state.deducted) if state.over else None,
        "ranks": places,
        "klig": game_points(state.players, places, state.forfeited) if places else None,
    }


def run_scenario(data) -> dict:
    state, actions = load_scenario(data)
    results = [run_action(state, a) for a in actions]
    return result(state, results)
