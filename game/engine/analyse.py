"""The analysis command (issue 31, "Analiz")::

    python -m game.engine.analyse SCENARIO.json      # or '-' for standard input

The same input as ``python -m game.engine.replay`` (each game's ``<game>-scenario.md``);
prints the analysis of the scenario as one JSON object and exits 0; a malformed
scenario exits 2 with a one-line message on standard error.  Dispatches on the
scenario's ``"game"`` (a scenario without one is KÜT's) to the game's own
``analysis.run_scenario`` (the report's shape: ``game.engine.analysis``).
"""

from __future__ import annotations

import sys

from game.engine.cli import main

if __name__ == "__main__":
    sys.exit(main("analyse"))
