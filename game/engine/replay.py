"""The scenario command (``kut-scenario.md`` and each game's ``<game>-scenario.md``)::

    python -m game.engine.replay SCENARIO.json      # or '-' for standard input

Dispatches on the scenario's ``"game"`` through the registry (a scenario without one
is KÜT's, ``registry.DEFAULT_GAME``) to the game's own ``replay.run_scenario``.  Prints
one JSON result and exits 0 (rejected actions are reported per action); a malformed
scenario exits 2 with a one-line message on standard error.
"""

from __future__ import annotations

import sys

from game.engine.cli import main

if __name__ == "__main__":
    sys.exit(main("replay"))
