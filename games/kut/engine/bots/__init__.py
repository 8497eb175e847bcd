"""Bots at three levels (P-1: they see a seat's **view** only, never the state).

    choose(view, level, rng) -> action | None     # the bot's next move on its turn
    wants_claim(view, level, rng) -> bool          # out of turn: claim the thrown tile?

The view is the plain JSON dict of ``views.view_for``; callers pass a copy, so a bot can
reach nothing but what a human in that seat would see.  Each call returns ONE action;
the caller applies it (through the same path as a human's) and asks again until the
turn passes.

* ``easy``   plays legal, plain moves: always draws, opens when it can, lays off with
  İşle, discards a random tile.
* ``normal`` takes the thrown tile when it helps, opens as soon as it can, lays off,
  exchanges okeys, lays down new groups, discards the least useful tile while avoiding
  işlek discards, and claims a thrown tile that lets it open.
* ``hard``   as normal, with exact solver evaluations for takes, claims and discards,
  spends okeys it would be fined for (K-S4), and avoids feeding the next player what it
  visibly collects.
"""

from __future__ import annotations

from games.kut.engine.bots.play import LEVELS, choose, wants_claim

__all__ = ["LEVELS", "choose", "wants_claim"]
