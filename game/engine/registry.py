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


# command -> (module in the game's package, function); the rest answer a query
SCENARIO_COMMANDS = {"replay": ("replay", "run_scenario"), "analyse": ("analysis", "run_scenario")}
# what a command is called when a game does not have it (yet)
COMMAND_NOUNS = {"analyse": "analysis"}


class Unavailable(InputError):
    """The game is registered but its package, or this command's module, is not there
    (yet): the commands print this on one line and exit 2."""


def _entry(key: str, *, commands: tuple[str, ...] = ("replay", "analyse")) -> GameEntry:
    pkg = f"game.engine.{key}"
    return GameEntry(key, pkg, {
        c: "{}.{}:{}".format(pkg, *SCENARIO_COMMANDS.get(c, (c, "run_query"))) for c in commands
    })  # fmt: skip


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
        if exc.name and entry.package.startswith(exc.name):  # the game's package is not there
            raise Unavailable(f"the game {key!r} is not available yet") from None
        if exc.name == module:  # the game is there, this command's module not (yet)
            raise Unavailable(f"{COMMAND_NOUNS.get(name, name)} not available for this game "
                              f"({key!r})") from None  # fmt: skip
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
