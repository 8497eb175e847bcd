"""KÜT's scenario command (``kut-scenario.md``), answered through the platform's
``python -m game.engine.replay SCENARIO.json`` (``run_scenario``): one JSON result,
rejected actions reported per action; a malformed scenario raises ``ScenarioError``
(the command prints it on one line and exits 2).  ``export_scenario`` writes a hand
back as a scenario file (history downloads)."""

from __future__ import annotations

from game.engine.scenario_input import (
    ScenarioError,
    action_object,
    checked_actions,
    int_field,
    is_int_in,
    play_actions,
    require,
)
from games.kut.engine.actions import ACTION_TYPES
from games.kut.engine.deal import DealError, hand_from_faces
from games.kut.engine.state import HandState
from games.kut.engine.tasks import TASK_LISTS
from games.kut.engine.transitions import apply
from games.okey.engine.scenario import faces, four_racks, indicator, tile_groups
from games.okey.engine.tiles import face_name, face_of

SCENARIO_TYPES = (
    "take_discard", "draw", "claim", "open", "new_groups", "lay_off", "auto_lay_off",
    "undo", "discard", "timeout",
)  # fmt: skip


def _check_action(i: int, a) -> dict:
    where = action_object(i, a)
    kind = a.get("type")
    if kind not in SCENARIO_TYPES:
        raise ScenarioError(f"{where}: unknown action type {kind!r}")
    if not is_int_in(a.get("seat"), 0, 3):
        raise ScenarioError(f"{where}: 'seat' must be 0-3")
    if kind in ("discard", "lay_off"):
        if "tile" not in a:
            raise ScenarioError(f"{where}: '{kind}' needs a 'tile'")
        faces([a["tile"]], f"{where} tile")
    if kind == "lay_off":
        g = a.get("group")
        if isinstance(g, bool) or not isinstance(g, int) or g < 0:
            raise ScenarioError(f"{where}: 'group' must be a table index")
        if a.get("end") not in (None, "left", "right"):
            raise ScenarioError(f"{where}: 'end' must be 'left' or 'right'")
    if kind in ("open", "new_groups"):
        if a.get("groups") is not None:
            tile_groups(a["groups"], where)
    return a


def load_scenario(data) -> tuple[HandState, list[dict]]:
    """Validate a scenario and set up its hand; raises ScenarioError."""
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a JSON object")
    game = data.get("game", "kut")
    if game != "kut":
        raise ScenarioError(f"unknown game {game!r}")
    tasks = data.get("tasks", 8)
    if isinstance(tasks, bool) or not isinstance(tasks, int) or tasks not in TASK_LISTS:
        raise ScenarioError(f"'tasks' must be 5, 8 or 12, not {tasks!r}")
    task = int_field(data, "task", 1, 1, tasks)
    starter = int_field(data, "starter", 0, 0, 3)
    require(data, ("indicator",))
    indicator_face = indicator(data["indicator"], "K-D1")
    rack_faces = four_racks(data.get("racks"))
    deck = faces(data.get("deck", []), "deck")
    checked = checked_actions(data, _check_action)
    try:
        hand = hand_from_faces(tasks, task, starter, indicator_face, rack_faces, deck)
    except DealError as exc:
        raise ScenarioError(str(exc)) from None
    return hand, checked


def run_scenario(data) -> dict:
    hand, actions = load_scenario(data)
    return result_of(hand, play_actions(hand, actions, apply))


def _sorted_names(tiles) -> list[str]:
    return [face_name(f) for f in sorted(face_of(t) for t in tiles)]


def result_of(hand: HandState, results: list[dict]) -> dict:
    return {
        "results": results,
        "over": hand.over,
        "turn": None if hand.over else hand.turn,
        "deck_count": len(hand.deck),
        "racks": [_sorted_names(r.tiles()) for r in hand.racks],
        "table": [
            {
                "owner": g.owner,
                "kind": g.kind,
                "tiles": [face_name(face_of(t)) for t in g.tiles],
                "values": [None if v is None else face_name(v) for v in g.values],
            }
            for g in hand.table
        ],
        "discards": [[face_name(face_of(t)) for t in d] for d in hand.discards],
        "opened": list(hand.opened),
        "penalties": list(hand.penalties),
        "finisher": hand.finisher,
        "scores": list(hand.scores) if hand.scores is not None else None,
    }


def export_scenario(hand: HandState) -> dict:
    """The hand as a scenario file: its deal and every accepted action (match records,
    replays, downloads)."""
    deal = hand.deal
    return {
        "game": "kut",
        "tasks": hand.tasks,
        "task": hand.task_no,
        "starter": hand.starter,
        "indicator": face_name(face_of(deal["indicator"])),
        "racks": [[face_name(face_of(t)) for t in r] for r in deal["racks"]],
        "deck": [face_name(face_of(t)) for t in deal["deck"]],
        "actions": [dict(a) for a in hand.log],
    }


assert set(SCENARIO_TYPES) <= set(ACTION_TYPES)
