"""The solver command (``kut-scenario.md`` and ``kdvli-scenario.md``, "The solver command")::

    python -m game.engine.solve QUERY.json      # or '-' for standard input

Dispatches on the query's ``"game"`` through the registry (a query without one is
KÜT's) to the game's own ``solve.run_query``.  Malformed input exits 2 with a one-line
message on standard error.
"""

from __future__ import annotations

import sys

from game.engine.cli import main

if __name__ == "__main__":
    sys.exit(main("solve"))
