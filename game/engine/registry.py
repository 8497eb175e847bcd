"""The one list of games (house-style, "Many games, one platform").

Adding a game is its package under ``game/engine/<key>/`` (exporting ``GAME``, see
``protocol.py``), its templates and static files, and one line here.  Each entry also
names the game's command functions: ``python -m game.engine.replay`` (and ``solve``,
``rating``, ``analyse``) dispatch on the input's ``"game"`` through ``command()``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from game.engine.protocol import InputError


@dataclass(frozen=True)
class GameEntry:
    key: str
    package: str  # dotted path of the module exporting GAME
    commands: dict[str, str] = field(default_factory=dict)  # command -> "module:function"


# each command's module in a game's package (default: the command's name) and function
_MODULE = {"analyse": "analysis"}
_FUNCTION = {"replay": "run_scenario", "analyse": "run_scenario"}


def _entry(key: str, *, commands: tuple[str, ...] = ("replay",)) -> GameEntry:
    pkg = f"game.engine.{key}"
    return GameEntry(
        key,
        pkg,
        {c: f"{pkg}.{_MODULE.get(c, c)}:{_FUNCTION.get(c, 'run_query')}" for c in commands},
    )


GAMES: dict[str, GameEntry] = {
    # KÜT's commands keep their historical modules (kut-scenario.md).
    "kut": GameEntry("kut", "game.engine.kut", {
        "replay": "game.engine.replay:run_scenario",
        "solve": "game.engine.solve:run_query",
        "analyse": "game.engine.kut.analysis:run_scenario",
    }),
    "kdvli": _entry("kdvli", commands=("replay", "solve", "analyse")),
    "king": _entry("king"),
    "kastet": _entry("kastet", commands=("replay", "rating", "analyse")),
    "kelimeki": _entry("kelimeki"),
}  # fmt: skip

DEFAULT_GAME = "kut"


def command(name: str, data: Any) -> Callable[[Any], dict]:
    """The function that answers command ``name`` for this input's ``"game"``."""
    key = data.get("game", DEFAULT_GAME) if isinstance(data, dict) else DEFAULT_GAME
    entry = GAMES.get(key) if isinstance(key, str) else None
    target = entry.commands.get(name) if entry else None
    if target is None:
        known = ", ".join(repr(k) for k, e in GAMES.items() if name in e.commands)
        raise InputError(f"unknown game {key!r} for {name} (one of {known})")
    module, func = target.split(":")
    try:
        return getattr(importlib.import_module(module), func)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):  # the game's own package is not there
            raise InputError(f"the game {key!r} is not available yet") from None
        raise


def get(key: str):
    """The registered game's GAME object (raises KeyError for an unknown key)."""
    return importlib.import_module(GAMES[key].package).GAME


def playable(key: str) -> bool:
    """Whether the site can seat players at ``key``: its package is there and names a
    table template (games still being built are shown as coming soon)."""
    try:
        return bool(getattr(get(key), "table_template", None))
    except (KeyError, ImportError, AttributeError):
        return False
