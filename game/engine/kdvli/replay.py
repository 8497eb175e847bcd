"""The KDVli scenario command (``kdvli-scenario.md``), reached through
``python -m game.engine.replay`` with ``"game": "kdvli"``: ``run_scenario(data)``
returns the result object; a malformed scenario raises ``ScenarioError`` (exit 2)."""

from __future__ import annotations

from ..errors import EngineError
from ..okey.tiles import FAKE, NotationError, face_name, face_of, parse_face
from ..protocol import InputError
from .hand import SEATS, DealError, Hand, apply, from_faces

SCENARIO_TYPES = ("draw", "take_discard", "discard", "finish", "show_indicator", "timeout")
FIELDS = ("starter", "indicator", "racks", "deck", "actions")


class ScenarioError(InputError):
    """A malformed scenario (exit 2)."""


def _faces(value, what: str) -> list[int]:
    if not isinstance(value, list):
        raise ScenarioError(f"{what} must be a list of tiles")
    try:
        return [parse_face(t) for t in value]
    except NotationError as exc:
        raise ScenarioError(f"{what}: {exc}") from None


def _check_action(i: int, a) -> dict:
    where = f"action {i}"
    if not isinstance(a, dict):
        raise ScenarioError(f"{where} must be an object")
    kind = a.get("type")
    if kind not in SCENARIO_TYPES:
        raise ScenarioError(f"{where}: unknown action type {kind!r}")
    seat = a.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise ScenarioError(f"{where}: 'seat' must be 0-3")
    if kind in ("discard", "finish") and "tile" not in a:
        raise ScenarioError(f"{where}: '{kind}' needs a 'tile'")
    if "tile" in a:  # any tile field must be tile notation
        _faces([a["tile"]], f"{where} tile")
    if kind == "finish":
        groups = a.get("groups")
        if not isinstance(groups, list) or not all(isinstance(g, list) for g in groups):
            raise ScenarioError(f"{where}: 'groups' must be a list of tile lists")
        for g in groups:
            _faces(g, f"{where} groups")
    return a


def load_scenario(data) -> tuple[Hand, list[dict]]:
    """Validate a scenario and set up its hand; raises ScenarioError."""
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a JSON object")
    if data.get("game") != "kdvli":
        raise ScenarioError(f"unknown game {data.get('game')!r}")
    for key in FIELDS:
        if key not in data:
            raise ScenarioError(f"'{key}' is missing")
    starter = data["starter"]
    if isinstance(starter, bool) or not isinstance(starter, int) or not 0 <= starter < SEATS:
        raise ScenarioError(f"'starter' must be a seat 0-3, not {starter!r}")
    indicator = _faces([data["indicator"]], "indicator")[0]
    if indicator == FAKE:
        raise ScenarioError("the indicator cannot be a fake okey (V-D1)")
    partners = data.get("partners")
    partners = False if partners is None else partners
    if not isinstance(partners, bool):
        raise ScenarioError("'partners' must be true or false")
    racks = data["racks"]
    if not isinstance(racks, list) or len(racks) != SEATS:
        raise ScenarioError("'racks' must be a list of four racks")
    rack_faces = [_faces(r, f"rack {i}") for i, r in enumerate(racks)]
    deck = _faces(data["deck"], "deck")
    actions = data["actions"]
    if not isinstance(actions, list):
        raise ScenarioError("'actions' must be a list")
    checked = [_check_action(i, a) for i, a in enumerate(actions)]
    try:
        hand = from_faces(starter, indicator, rack_faces, deck, partners)
    except DealError as exc:
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


def _names(tiles) -> list[str]:
    return [face_name(face_of(t)) for t in tiles]


def result_of(hand: Hand, results: list[dict]) -> dict:
    scores = list(hand.scores) if hand.over and hand.scores is not None else None
    return {
        "results": results,
        "over": hand.over,
        "void": hand.void,
        "turn": None if hand.over else hand.turn,
        "deck_count": len(hand.deck),
        "racks": [[face_name(f) for f in sorted(hand.faces(s))] for s in range(SEATS)],
        "discards": [_names(d) for d in hand.discards],
        "shown": list(hand.shown),
        "bonuses": list(hand.bonuses),
        "points": [hand.points_of(s) for s in range(SEATS)],
        "finisher": hand.finisher,
        "finish_tile": None if hand.finish_tile is None else face_name(face_of(hand.finish_tile)),
        "finish_kind": hand.finish_kind,
        "finish_groups": None if hand.finish_groups is None
        else [_names(g) for g in hand.finish_groups],
        "multiplier": hand.multiplier,
        "scores": scores,
        "team_scores": [scores[0] + scores[2], scores[1] + scores[3]]
        if scores is not None and hand.partners else None,
    }  # fmt: skip


def export_scenario(hand: Hand) -> dict:
    """The hand as a scenario file: its deal and every accepted turn action (layout
    moves are left out: they change no result)."""
    deal = hand.deal
    return {
        "game": "kdvli",
        "starter": hand.starter,
        "indicator": face_name(face_of(deal["indicator"])),
        "partners": hand.partners,
        "racks": [_names(r) for r in deal["racks"]],
        "deck": _names(deal["deck"]),
        "actions": [_scenario_action(hand, a) for a in hand.log if a["type"] in SCENARIO_TYPES],
    }


def _scenario_action(hand: Hand, a: dict) -> dict:
    out = {"seat": a["seat"], "type": a["type"]}
    by_id = {tid: face_name(face_of(t)) for t, tid in enumerate(hand.ids)}
    if "tile" in a:
        out["tile"] = a["tile"]
    elif "tile_id" in a:
        out["tile"] = by_id[a["tile_id"]]
    if a["type"] == "finish":
        if "groups" in a:
            out["groups"] = a["groups"]
        elif "group_ids" in a:
            out["groups"] = [[by_id[t] for t in g] for g in a["group_ids"]]
    return out
