"""What happens after a change commits (house style, "One path for every action": after
commit, broadcast each seat its own view and schedule bot moves).

The services announce; they never call the modules that act (no import circle: the
services sit below the broadcast, the runner, the ranking and the games' own
bookkeeping).  Each event is a Django signal sent once the transaction that made the
change has committed (``after_commit``); its receivers are connected when the apps are
ready:

* ``match_changed`` (``match_id``; ``match``, ``seats``, ``state`` as committed, or None
  to read them again) — every seat's new frame (``game.broadcast``), then the next bot
  move if one is due (``game.runner``): ``game.receivers``.
* ``seat_changed`` (``match_id``, ``match``, ``seats``, ``state``, ``seat``) — a change
  only that seat may see (its rack layout): that seat's frame alone.
* ``presence_changed`` (``match_id``) — the seat labels changed (a socket came or went,
  a request for a left seat…).
* ``seat_closed`` (``match_id``, ``seat``) — the seat's player left: their sockets close.
* ``match_finished`` (``match_id``) — a match ended (finished or abandoned): its analysis
  queued (``game.analysis``, issue 31) and the ranking
  (``lobby``).
* ``player_left`` (``match_id``, ``user_id``) — a player left a running match: a game's
  own leaving cost (P-9, ``lobby``).
* ``tutorial_completed`` (``game``, ``user_id``) — a player did everything a guided first
  hand asks (``game.tutorial``).

The module imports nothing of the platform: it is the bottom of the dependency order,
beside ``game.errors``.
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

match_changed = Signal()
seat_changed = Signal()
presence_changed = Signal()
seat_closed = Signal()
match_finished = Signal()
player_left = Signal()
tutorial_completed = Signal()


def after_commit(signal: Signal, **kwargs) -> None:
    """Send ``signal`` with ``kwargs`` once the current transaction commits (at once when
    there is none)."""
    transaction.on_commit(lambda: signal.send(sender=None, **kwargs))
