"""The scenario command (``kut-scenario.md``)::

    python -m game.engine.replay SCENARIO.json      # or '-' for standard input

Prints one JSON result and exits 0 (rejected actions are reported per action); a
malformed scenario exits 2 with a one-line message on standard error.
"""

from __future__ import annotations

import sys

from .actions import ACTION_TYPES
from .deal import DealError, hand_from_faces
from .errors import EngineError
from .protocol import InputError
from .state import HandState
from .tasks import TASK_LISTS
from .tiles import NotationError, face_name, face_of, parse_face
from .transitions import apply

SCENARIO_TYPES = (
    "take_discard", "draw", "claim", "open", "new_groups", "lay_off", "auto_lay_off",
    "undo", "discard", "timeout",
)  # fmt: skip


class ScenarioError(InputError):
    """A malformed scenario (exit 2)."""


def _int_field(d: dict, key: str, default, lo: int, hi: int) -> int:
    v = d.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ScenarioError(f"'{key}' must be an integer {lo}..{hi}, not {v!r}")
    return v


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
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise ScenarioError(f"{where}: 'seat' must be 0-3")
    if kind in ("discard", "lay_off"):
        if "tile" not in a:
            raise ScenarioError(f"{where}: '{kind}' needs a 'tile'")
        _faces([a["tile"]], f"{where} tile")
    if kind == "lay_off":
        g = a.get("group")
        if isinstance(g, bool) or not isinstance(g, int) or g < 0:
            raise ScenarioError(f"{where}: 'group' must be a table index")
        if a.get("end") not in (None, "left", "right"):
            raise ScenarioError(f"{where}: 'end' must be 'left' or 'right'")
    if kind in ("open", "new_groups"):
        groups = a.get("groups")
        if groups is not None:
            if not isinstance(groups, list) or not all(isinstance(g, list) for g in groups):
                raise ScenarioError(f"{where}: 'groups' must be a list of tile lists")
            for g in groups:
                _faces(g, f"{where} groups")
    return a


def load_scenario(data) -> tuple[HandState, list[dict]]:
    """Validate a scenario and set up its hand; raises ScenarioError."""
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a JSON object")
    game = data.get("game", "kut")
    if game != "kut":
        raise ScenarioError(f"unknown game {game!r}")
    tasks = data.get("tasks", 8)
    if tasks not in TASK_LISTS or isinstance(tasks, bool):
        raise ScenarioError(f"'tasks' must be 5, 8 or 12, not {tasks!r}")
    task = _int_field(data, "task", 1, 1, tasks)
    starter = _int_field(data, "starter", 0, 0, 3)
    if "indicator" not in data:
        raise ScenarioError("'indicator' is missing")
    indicator = _faces([data["indicator"]], "indicator")[0]
    if face_name(indicator) == "F":
        raise ScenarioError("the indicator cannot be a fake okey (K-D1)")
    racks = data.get("racks")
    if not isinstance(racks, list) or len(racks) != 4:
        raise ScenarioError("'racks' must be a list of four racks")
    rack_faces = [_faces(r, f"rack {i}") for i, r in enumerate(racks)]
    deck = _faces(data.get("deck", []), "deck")
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise ScenarioError("'actions' must be a list")
    checked = [_check_action(i, a) for i, a in enumerate(actions)]
    try:
        hand = hand_from_faces(tasks, task, starter, indicator, rack_faces, deck)
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


def main(argv: list[str] | None = None) -> int:
    """The command: dispatches on the scenario's ``"game"`` (default ``"kut"``)."""
    from .cli import main as cli_main

    return cli_main("replay", argv)


assert set(SCENARIO_TYPES) <= set(ACTION_TYPES)

if __name__ == "__main__":
    sys.exit(main())
