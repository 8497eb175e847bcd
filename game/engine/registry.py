"""The one list of games (house-style, "Many games, one platform").

Adding a game is its home under ``games/<key>/`` (its engine package exporting ``GAME``,
see ``protocol.py``) and one line here.  Each entry also names the documented commands
the game answers: ``python -m game.engine.replay`` (and ``solve``, ``rating``, ``analyse``) dispatch on
the input's ``"game"`` through ``command()`` to ``<engine>.<module>:<function>``
(``COMMANDS``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game.engine.protocol import InputError, complete


class Unavailable(InputError):
    """The game is registered but its package, or this command's module, is not there
    (yet): the commands print this on one line and exit 2."""


# each command's module and function inside a game's engine package (the convention)
COMMANDS = {
    "replay": "replay:run_scenario",
    "solve": "solve:run_query",
    "rating": "rating:run_query",
    "analyse": "analysis:run_scenario",
}


@dataclass(frozen=True)
class GameEntry:
    key: str
    package: str  # dotted path of the game's engine package (it exports GAME)
    commands: tuple[str, ...] = ("replay",)  # the documented commands it answers

    def target(self, name: str) -> str | None:
        """``module:function`` of command ``name`` for this game, or None."""
        if name not in self.commands:
            return None
        module, func = COMMANDS[name].split(":")
        return f"{self.package}.{module}:{func}"


GAMES: dict[str, GameEntry] = {
    "kut": GameEntry("kut", "games.kut.engine", ("replay", "solve", "analyse")),
    "kdvli": GameEntry("kdvli", "games.kdvli.engine", ("replay", "solve", "analyse")),
    "king": GameEntry("king", "games.king.engine", ("replay", "analyse")),
    "kastet": GameEntry("kastet", "games.kastet.engine", ("replay", "rating", "analyse")),
    "kelimeki": GameEntry("kelimeki", "games.kelimeki.engine", ("replay", "analyse")),
}

# KÜT's scenario and solver files predate the "game" field (kut-scenario.md): the
# commands read a file without one as KÜT's.
DEFAULT_GAME = "kut"


def command(name: str, data: Any) -> Callable[[Any], dict]:
    """The function that answers command ``name`` for this input's ``"game"``."""
    key = data.get("game", DEFAULT_GAME) if isinstance(data, dict) else DEFAULT_GAME
    entry = GAMES.get(key) if isinstance(key, str) else None
    target = entry.target(name) if entry else None
    if target is None:
        known = ", ".join(repr(k) for k, e in GAMES.items() if name in e.commands)
        raise InputError(f"unknown game {key!r} for {name} (one of {known})")
    module, func = target.split(":")
    try:
        return getattr(importlib.import_module(module), func)
    except ModuleNotFoundError as exc:
        if exc.name == entry.package or (exc.name and entry.package.startswith(exc.name + ".")):
            raise Unavailable(f"the game {key!r} is not available yet") from None
        if exc.name == module:  # the game is there, this command's module not (yet)
            noun = "analysis" if name == "analyse" else name
            raise Unavailable(f"{noun} not available for this game ({key!r})") from None
        raise


def get(key: str):
    """The registered game's GAME, its optional members filled in with their defaults
    (``protocol.complete``).  Raises KeyError for an unknown key."""
    return complete(importlib.import_module(GAMES[key].package).GAME)


def home(key: str) -> str:
    """The dotted path of the game's home package (its Django app): the package its
    engine sits in (``games.kut`` for ``games.kut.engine``)."""
    return GAMES[key].package.rpartition(".")[0]


def homes() -> list[str]:
    """Every registered game's home package (its Django app), in registry order."""
    return [home(key) for key in GAMES]


def register(key: str, package: str, commands: tuple[str, ...] = ("replay",)) -> None:
    """Add a game that lives outside this list (the test suite's toy game, from its
    settings): the same as a line in ``GAMES``."""
    GAMES[key] = GameEntry(key, package, commands)
