"""The coming-soon game's engine: the bare toy game's rules."""

from tests.toygame.engine import ToyGame


class Later(ToyGame):
    key = "later"
    name = "Later"


GAME = Later()
