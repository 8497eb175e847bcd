"""Input checks shared by the games' scenario and solver commands (``*-scenario.md``).

Each check raises ``ScenarioError`` (scenario command) or ``QueryError`` (solver
command), both ``protocol.InputError``: the command prints the one-line message and
exits 2.  The message texts are part of the commands' contract; callers with a message
of their own keep it and use only the predicates here.
"""

from __future__ import annotations

from collections.abc import Callable

from game.engine.errors import EngineError
from game.engine.protocol import InputError


class ScenarioError(InputError):
    """A malformed scenario (exit 2)."""


class QueryError(InputError):
    """A malformed solver query (exit 2)."""


def is_int_in(value, lo: int, hi: int) -> bool:
    """``value`` is an int (not a bool) in ``lo..hi``."""
    return not isinstance(value, bool) and isinstance(value, int) and lo <= value <= hi


def int_field(d: dict, key: str, default, lo: int, hi: int) -> int:
    v = d.get(key, default)
    if not is_int_in(v, lo, hi):
        raise ScenarioError(f"'{key}' must be an integer {lo}..{hi}, not {v!r}")
    return v


def seat_field(d: dict, key: str) -> int:
    """A required seat 0-3 (``starter``)."""
    v = d.get(key)
    if not is_int_in(v, 0, 3):
        raise ScenarioError(f"'{key}' must be a seat 0-3, not {v!r}")
    return v


def require(data: dict, keys) -> None:
    for key in keys:
        if key not in data:
            raise ScenarioError(f"'{key}' is missing")


def optional_bool(data: dict, key: str) -> bool:
    """An optional true/false field; missing or null is false."""
    v = data.get(key)
    v = False if v is None else v
    if not isinstance(v, bool):
        raise ScenarioError(f"'{key}' must be true or false")
    return v


def action_object(i: int, a) -> str:
    """Action ``i`` must be an object; returns its name for messages."""
    where = f"action {i}"
    if not isinstance(a, dict):
        raise ScenarioError(f"{where} must be an object")
    return where


def checked_actions(data: dict, check: Callable[[int, object], dict]) -> list[dict]:
    """The scenario's ``actions`` list (default empty), each passed through ``check``."""
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise ScenarioError("'actions' must be a list")
    return [check(i, a) for i, a in enumerate(actions)]


def play_actions(hand, actions: list[dict], apply: Callable) -> list[dict]:
    """Apply each checked action in order; a rejected one is reported, not raised."""
    results = []
    for a in actions:
        action = {k: v for k, v in a.items() if k != "seat"}
        try:
            apply(hand, a["seat"], action)
            results.append({"ok": True})
        except EngineError as exc:
            results.append({"ok": False, "error": exc.code})
    return results
