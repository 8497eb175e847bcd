"""The platform's pure-Python side (no Django, no game): the Game protocol every game
meets (``protocol``), the one list of games (``registry``), P-2's fair dealing (``fair``),
the engines' typed errors (``errors``), the generic checks of command input
(``scenario_input``), small statistics for benches (``stats``), and the documented
commands ``replay``, ``solve`` and ``rating`` (``python -m game.engine.<command>``), which
dispatch on the input's ``"game"`` to the game's own engine under ``games/<key>/engine``."""
