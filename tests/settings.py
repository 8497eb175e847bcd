"""The test suite's settings: the site's own, plus the toy game (``tests/toygame``),
registered by the one line every new game needs."""

from game.engine import registry

registry.register("toy", "tests.toygame.engine")  # the toy game: its one registration line

from kut_site.settings import *  # noqa: E402, F403  (INSTALLED_APPS follows the registry)
