"""The rating command (kastet-scenario.md, "The rating command")::

    python -m game.engine.rating QUERY.json      # or '-' for standard input

Dispatches on the query's ``"game"`` through the registry (only games with a rating
command of their own answer it)."""

from __future__ import annotations

import sys

from game.engine.cli import main

if __name__ == "__main__":
    sys.exit(main("rating"))
