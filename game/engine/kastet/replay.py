"""Kastet's scenario command (``kastet-scenario.md``)::

    python -m game.engine.replay SCENARIO.json      # with "game": "kastet"

``run_scenario(data)`` sets up the hand (a deal or a position), plays the actions in
order and returns the documented result; a malformed scenario raises
``protocol.InputError`` (the command exits 2 with its one-line message).
"""

from __future__ import annotations

from ..errors import EngineError
from ..protocol import InputError
from ..tiles import NotationError, face_name, face_of, parse_face
from .deal import PositionError, hand_from_faces
from .groups import read_group, read_pair
from .rules import apply, team_scores
from .state import HandState

SCENARIO_TYPES = ("lay", "draw", "pass", "undo", "timeout")


class ScenarioError(InputError):
    """A malformed scenario (exit 2)."""


def _faces(value, what: str) -> list[int]:
    if not isinstance(value, list):
        raise ScenarioError(f"{what} must be a list of tiles")
    try:
        return [parse_face(t) for t in value]
    except NotationError as exc:
        raise ScenarioError(f"{what}: {exc}") from None


def _groups(value, what: str) -> list[list[int]]:
    if not isinstance(value, list):
        raise ScenarioError(f"{what} must be a list of groups (tile lists)")
    return [_faces(g, f"{what} group {i}") for i, g in enumerate(value)]


def _check_action(i: int, a) -> dict:
    where = f"action {i}"
    if not isinstance(a, dict):
        raise ScenarioError(f"{where} must be an object")
    kind = a.get("type")
    if kind not in SCENARIO_TYPES:
        raise ScenarioError(f"{where}: unknown action type {kind!r} (Kastet has "
                            f"{', '.join(SCENARIO_TYPES)})")  # fmt: skip
    seat = a.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
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
    for key in ("starter", "indicator", "racks", "deck", "actions"):
        if key not in data:
            raise ScenarioError(f"'{key}' is missing")
    starter = data.get("starter")
    if isinstance(starter, bool) or not isinstance(starter, int) or not 0 <= starter <= 3:
        raise ScenarioError(f"'starter' must be a seat 0-3, not {starter!r}")
    if not isinstance(data["indicator"], str):
        raise ScenarioError("'indicator' must be a tile like 'R7'")
    indicator = _faces([data["indicator"]], "indicator")[0]
    if face_name(indicator) == "F":
        raise ScenarioError("the indicator cannot be a fake okey (S-T2, S-D1)")
    partners = data.get("partners")
    partners = False if partners is None else partners  # optional: null is the default
    if not isinstance(partners, bool):
        raise ScenarioError("'partners' must be true or false")
    racks = data.get("racks")
    if not isinstance(racks, list) or len(racks) != 4:
        raise ScenarioError("'racks' must be a list of four racks")
    rack_faces = [_faces(r, f"rack {i}") for i, r in enumerate(racks)]
    deck = _faces(data["deck"], "deck")
    table = _groups(data.get("table") or [], "table")
    pairs = _groups(data.get("pairs") or [], "pairs")
    actions = data["actions"]
    if not isinstance(actions, list):
        raise ScenarioError("'actions' must be a list")
    checked = [_check_action(i, a) for i, a in enumerate(actions)]
    try:
        hand = hand_from_faces(starter, indicator, rack_faces, deck, table, pairs, partners)
    except PositionError as exc:
        raise ScenarioError(str(exc)) from None
    return hand, checked


def run_scenario(data) -> dict:
    hand, actions = load_scenario(data)
    results = []
    for a in actions:
        action = {k: v for k, v in a.items() if k != "seat"}
        try:
            apply(hand, a["seat"], action)
            results.append({"ok": True})
        except EngineError as exc:
            results.append({"ok": False, "error": exc.code})
    return result_of(hand, results)


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
