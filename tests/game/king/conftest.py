from tests.game.conftest import players  # noqa: F401
