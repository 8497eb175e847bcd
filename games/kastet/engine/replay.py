"""Kastet's scenario command (``kastet-scenario.md``)::

    python -m game.engine.replay SCENARIO.json      # with "game": "kastet"

``run_scenario(data)`` sets up the hand (a deal or a position), plays the actions in
order and returns the documented result; a malformed scenario raises
``protocol.InputError`` (the command exits 2 with its one-line message).
"""

from __future__ import annotations

from game.engine.scenario_input import (
    ScenarioError,
    action_object,
    checked_actions,
    is_int_in,
    optional_bool,
    play_actions,
    require,
    seat_field,
)
from games.kastet.engine.deal import PositionError, hand_from_faces
from games.kastet.engine.groups import read_group, read_pair
from games.kastet.engine.rules import apply, team_scores
from games.kastet.engine.state import HandState
from games.okey.engine.scenario import faces, four_racks, indicator
from games.okey.engine.tiles import face_name, face_of

SCENARIO_TYPES = ("lay", "draw", "pass", "undo", "timeout")


def _groups(value, what: str) -> list[list[int]]:
    if not isinstance(value, list):
        raise ScenarioError(f"{what} must be a list of groups (tile lists)")
    return [faces(g, f"{what} group {i}") for i, g in enumerate(value)]


def _check_action(i: int, a) -> dict:
    where = action_object(i, a)
    kind = a.get("type")
    if kind not in SCENARIO_TYPES:
        raise ScenarioError(f"{where}: unknown action type {kind!r} (Kastet has "
                            f"{', '.join(SCENARIO_TYPES)})")  # fmt: skip
    seat = a.get("seat")
    if not is_int_in(seat, 0, 3):
        raise ScenarioError(f"{where}: 'seat' must be a seat 0-3, not {seat!r}")
    if kind == "lay":
        if "table" not in a:
            raise ScenarioError(f"{where}: a lay needs 'table', the whole new run area")
        _groups(a["table"], f"{where} table")
        if a.get("pairs") is not None:
            _groups(a["pairs"], f"{where} pairs")
    return a


def load_scenario(data) -> tuple[HandState, list[dict]]:
    """Validate a scenario and set up its hand; raises ScenarioError."""
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a JSON object")
    if data.get("game") != "kastet":
        raise ScenarioError(f"'game' must be 'kastet', not {data.get('game')!r}")
    require(data, ("starter", "indicator", "racks", "deck", "actions"))
    starter = seat_field(data, "starter")
    if not isinstance(data["indicator"], str):
        raise ScenarioError("'indicator' must be a tile like 'R7'")
    indicator_face = indicator(data["indicator"], "S-T2, S-D1")
    partners = optional_bool(data, "partners")  # optional: null is the default
    rack_faces = four_racks(data.get("racks"))
    deck = faces(data["deck"], "deck")
    # optional, absent or null: empty; anything else must be a list (false, 0, "" and {}
    # are malformed, not "empty")
    table = _groups([] if data.get("table") is None else data["table"], "table")
    pairs = _groups([] if data.get("pairs") is None else data["pairs"], "pairs")
    checked = checked_actions(data, _check_action)
    try:
        hand = hand_from_faces(starter, indicator_face, rack_faces, deck, table, pairs, partners)
    except PositionError as exc:
        raise ScenarioError(str(exc)) from None
    return hand, checked


def run_scenario(data) -> dict:
    hand, actions = load_scenario(data)
    return result_of(hand, play_actions(hand, actions, apply))


def _sorted_names(tiles) -> list[str]:
    return [face_name(f) for f in sorted(face_of(t) for t in tiles)]


def _value_names(values) -> list:
    return [None if v is None else face_name(v) for v in values]


def table_json(hand: HandState) -> list[dict]:
    okey = hand.okey
    out = []
    for g in hand.table:
        faces = [face_of(t) for t in g]
        kind, values = read_group(faces, okey)
        out.append({"kind": kind, "tiles": [face_name(f) for f in faces],
                    "values": _value_names(values)})  # fmt: skip
    return out


def pairs_json(hand: HandState) -> list[dict]:
    okey = hand.okey
    out = []
    for p in hand.pairs:
        faces = [face_of(t) for t in p]
        kind, values = read_pair(faces, okey)
        out.append({"kind": kind, "tiles": [face_name(f) for f in faces],
                    "values": _value_names(values)})  # fmt: skip
    return out


def result_of(hand: HandState, results: list[dict]) -> dict:
    return {
        "results": results,
        "over": hand.over,
        "turn": None if hand.over else hand.turn,
        "deck_count": len(hand.deck),
        "racks": [_sorted_names(hand.rack_tiles(s)) for s in range(4)],
        "table": table_json(hand),
        "pairs": pairs_json(hand),
        "finisher": hand.finisher,
        "blocked": hand.blocked,
        "scores": list(hand.scores) if hand.scores is not None else None,
        "team_scores": team_scores(hand.scores) if hand.over and hand.partners else None,
    }


def export_scenario(hand: HandState) -> dict:
    """The hand as a scenario file: its starting position and every accepted action."""
    d = hand.deal
    out = {"game": "kastet", "starter": d["starter"], "indicator": d["indicator"],
           "partners": hand.partners, "racks": [list(r) for r in d["racks"]],
           "deck": list(d["deck"]), "table": [list(g) for g in d["table"]],
           "pairs": [list(p) for p in d["pairs"]], "actions": [dict(a) for a in hand.log]}  # fmt: skip
    return out
