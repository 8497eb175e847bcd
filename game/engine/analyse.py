"""The analysis command (issue 31, "Analiz")::

    python -m game.engine.analyse SCENARIO.json      # or '-' for standard input

The same input as ``python -m game.engine.replay`` (each game's ``<game>-scenario.md``);
prints the analysis of the scenario as one JSON object and exits 0; a malformed
scenario exits 2 with a one-line message on standard error.  Dispatches on the
scenario's ``"game"`` (default ``"kut"``) through the registry's ``analyse`` command.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """The command: dispatches on the scenario's ``"game"`` (default ``"kut"``)."""
    from game.engine.cli import main as cli_main

    return cli_main("analyse", argv)


if __name__ == "__main__":
    sys.exit(main())
