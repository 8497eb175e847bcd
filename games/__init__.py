"""The games' homes: one package (a Django app) per game, plus ``okey``, what the three
tile games share.  No game imports another game; the platform (``game``, ``lobby``,
``accounts``, ``kut_site``) reaches them only through ``game.engine.registry``.
Importing a game's engine (``games.<key>.engine``) loads no Django."""
