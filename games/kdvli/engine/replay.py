"""The KDVli scenario command (``kdvli-scenario.md``), reached through
``python -m game.engine.replay`` with ``"game": "kdvli"``: ``run_scenario(data)``
returns the result object; a malformed scenario raises ``ScenarioError`` (exit 2)."""

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
from games.kdvli.engine.hand import SEATS, DealError, Hand, apply, from_faces
from games.okey.engine.scenario import faces, four_racks, indicator, tile_groups
from games.okey.engine.tiles import face_name, face_of

SCENARIO_TYPES = ("draw", "take_discard", "discard", "finish", "show_indicator", "timeout")
FIELDS = ("starter", "indicator", "racks", "deck", "actions")


def _check_action(i: int, a) -> dict:
    where = action_object(i, a)
    kind = a.get("type")
    if kind not in SCENARIO_TYPES:
        raise ScenarioError(f"{where}: unknown action type {kind!r}")
    if not is_int_in(a.get("seat"), 0, SEATS - 1):
        raise ScenarioError(f"{where}: 'seat' must be 0-3")
    if kind in ("discard", "finish") and "tile" not in a:
        raise ScenarioError(f"{where}: '{kind}' needs a 'tile'")
    if "tile" in a:  # any tile field must be tile notation
        faces([a["tile"]], f"{where} tile")
    if kind == "finish":
        tile_groups(a.get("groups"), where)
    return a


def load_scenario(data) -> tuple[Hand, list[dict]]:
    """Validate a scenario and set up its hand; raises ScenarioError."""
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a JSON object")
    if data.get("game") != "kdvli":
        raise ScenarioError(f"unknown game {data.get('game')!r}")
    require(data, FIELDS)
    starter = seat_field(data, "starter")
    indicator_face = indicator(data["indicator"], "V-D1")
    partners = optional_bool(data, "partners")
    rack_faces = four_racks(data["racks"])
    deck = faces(data["deck"], "deck")
    checked = checked_actions(data, _check_action)
    try:
        hand = from_faces(starter, indicator_face, rack_faces, deck, partners)
    except DealError as exc:
        raise ScenarioError(str(exc)) from None
    return hand, checked


def run_scenario(data) -> dict:
    hand, actions = load_scenario(data)
    return result_of(hand, play_actions(hand, actions, apply))


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
