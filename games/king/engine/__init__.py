"""King, the Turkish trick-taking card game (``docs/rules/king.md``): pure Python.

``cards`` the deck and notation (G-C*), ``contracts`` the contracts and quota (G-H*,
G-Q1), ``hand`` one hand's state, legal cards, transitions and scores (G-P*, G-S*),
``match`` the hands of a match, ``views`` what a seat may see (G-V*, G-Q2, G-Q3),
``bots`` easy/normal/hard from a view, ``replay`` the scenario command, ``game`` the
platform's ``GAME`` (protocol.Game); ``simulate`` and ``bench`` are commands.
"""

from games.king.engine.game import GAME, KingGame

__all__ = ["GAME", "KingGame"]
