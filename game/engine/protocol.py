"""The Game protocol: everything the platform asks of a game (house-style, "Many games,
one platform"; portal.md).

A game is one pure-Python package under ``game/engine/`` (no Django) that exports
``GAME``, an object meeting :class:`Game`, and is named by one line in
``game/engine/registry.py``.  The platform (services, frames, consumers, timers, bots,
history, ranking, admin, lobby) only ever talks to this protocol.

Conventions every game follows:

* State is the game's own object; ``to_dict``/``from_dict`` round-trip it through JSON
  exactly (replaying the seed and the action log reproduces it).
* ``apply`` either returns a list of event dicts or raises an ``EngineError`` (from
  ``game.engine.errors``: ``RuleError`` for a well-formed but illegal action,
  ``ActionFormatError`` for a malformed one) with a stable snake_case ``code`` — and then
  the state is exactly as before.
* ``now`` is seconds since the epoch (float), passed in: the engine never reads a clock,
  and never calls ``random``: chance comes from the injected ``rng`` (``random.Random``
  API; a seeded one in tests, a secure one in production).
* Views are JSON-ready dicts holding only what that seat (or a watcher, ``seat=None``)
  may see (P-1): never another seat's tiles or cards, the deck order or the seed.
* Bots choose from a view, never from the state (P-1).
* ``apply`` and ``on_timeout`` leave the state complete: when an action ends a hand, its
  result is in ``hand_results`` and ``match_result`` at once, and ``match_over`` is true
  if it was the last hand; ``start_next_hand`` then only deals.

Optional members (the platform checks them with ``getattr``; a game may leave them out):

* ``replay_snapshot(state) -> dict`` — one step of a replay (``lobby.history.replay_hand``):
  the whole table as JSON-ready dict, every rack or hand revealed.  Replays are shown only
  once the match is over, to its players and staff (``lobby.history.match_visible_to``),
  so nothing is hidden from them — but never the seed, a salt, tile ids or the deck
  order (a deck *count* is fine).  Without it, the platform uses KÜT's snapshot.
* ``replay_template`` — the template of the game's replay page (default
  ``history/replay.html``, the okey-tile replay that KÜT and KDVli share).
* ``practice_tables`` (default True) — whether the game has P-3's test tables.  False
  (Kelimeki, W-X5): every table is rated; the create-table dialog offers no choice and
  the lobby refuses an unrated table.
* ``ranked_by_level`` (default True) — P-7's one ranking per game *and level*.  False
  (Kelimeki's k-lig, W-L1): one ranking for all levels (stored with level ``""``); the
  leaderboard shows no level tabs.
* ``leaving_rules`` (default True) — whether P-5/P-11/P-12/P-13 apply.  False
  (Kelimeki, W-X3/W-X5: a correspondence game): a closed page or a lost socket is not
  leaving (no drop to a bot, no abandoning for inactivity), and starting another match
  of the game does not leave the running ones (W-X4).
* ``forfeit(state, seat, now) -> list[dict]`` — a game without leaving rules
  (``leaving_rules = False``) may say what leaving is instead: the platform's leave
  (``services.match_leave``, the table's exit button) then calls it, in turn or not, and
  logs the leave with ``"forfeit": true`` so that replays apply it again.  Kelimeki's
  W-E6 (W-X5: "the only way out of a game is the forfeit"): the seat takes no more
  turns; no bot plays on for it.  An ``EngineError`` (the seat forfeited already) means
  nothing to do.
* ``export_log(state, log) -> dict`` — the history's scenario download from the whole
  log (``log``: the match's ``(seat, kind, payload)`` rows in order; ``state``: as the
  hand ended) instead of ``export_hand(state)``: Kelimeki's one game from its committed
  deal with its moves.
* ``options_for_seats(options, humans) -> dict`` — the options a lobby table's match
  starts with, given which seats are humans (``humans``: one bool per seat): Kelimeki's
  game against the AI (one human) has another clock than a live one (W-M1, W-X3).
* ``move_seconds_for(options) -> int`` — the game's own move clock in seconds (W-X3:
  48 h live, 7 days against the AI) instead of P-6's table move time; the platform's
  deadline (``Match.deadline``, the sweep, ``on_timeout``) enforces it.
* ``guest_play`` (default False) — visitors without an account may play the game
  against its bots (``game.guests``, issue 27): an unrecorded match
  (``Match.Kind.GUEST``: unrated, no move clock, in no history, ranking or lobby list)
  whose human seat is bound to the visitor's session.  True: Kelimeki (W-X1).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

BOT_LEVELS = ("easy", "normal", "hard")  # P-7: Acemi / Orta / Usta tables


class InputError(ValueError):
    """Malformed input to a command or to ``clean_options``: the commands print its
    message on one line and exit 2."""


@dataclass(frozen=True)
class HandResult:
    """One finished hand, for history and the end-of-hand table."""

    hand_no: int
    scores: list[int]  # per seat, this hand's points as the game counts them
    detail: dict = field(default_factory=dict)  # game-specific lines (JSON-ready)


@dataclass(frozen=True)
class MatchResult:
    """A finished (or, on leaving, a partial) match, for history and ranking."""

    totals: list[int]  # per seat
    places: list[int]  # 1 = first; equal totals share a place
    hands: int  # hands completed
    detail: dict = field(default_factory=dict)


@runtime_checkable
class Game(Protocol):
    key: str  # "kut", "kdvli", "king", "kastet", "kelimeki"
    name: str  # the game's own name (not translated): "KÜT", "KDVli Okey", ...
    seat_counts: tuple[int, ...]  # (4,) for most; Kelimeki (2, 4)
    partners: bool  # P-8: may be played 0+2 against 1+3
    lower_is_better: bool  # KÜT and KDVli count points against you
    default_move_seconds: int  # P-6 default
    fixed_move_seconds: bool  # KÜT's fixed 45 s (K-N6): the host cannot change it
    # action types that change only the acting seat's private arrangement (KÜT's rack
    # layout): never another seat's business — no shared version, no clock, no broadcast
    private_kinds: frozenset[str]

    def clean_options(self, options: Mapping[str, Any]) -> dict:
        """Validated per-game options (with defaults filled in); raises InputError."""
        ...

    def new_match(self, options: dict, seats: int, rng: random.Random) -> Any:
        """A new match, its first hand dealt."""
        ...

    def to_dict(self, state: Any) -> dict: ...

    def from_dict(self, data: dict) -> Any: ...

    def apply(self, state: Any, seat: int, action: dict, now: float) -> list[dict]:
        """Play ``action`` for ``seat``; events, or an EngineError and no change."""
        ...

    def log_form(self, action: dict) -> dict:
        """An accepted action as the append-only log keeps it: only the keys the rules
        read (no client junk), so that replaying the log gives the same state."""
        ...

    def view_for(self, state: Any, seat: int | None) -> dict:
        """What one seat (or a watcher, ``None``) may see."""
        ...

    def to_act(self, state: Any) -> tuple[int, ...]:
        """The seats whose move the clock is waiting for (empty between hands)."""
        ...

    def turn_key(self, state: Any) -> Any:
        """A JSON-ready value that changes exactly when a new turn starts (the move
        clock restarts then, P-6)."""
        ...

    def away_after_timeout(self, state: Any, seat: int) -> bool:
        """After a timeout of ``seat``: is the seat now *away* (a bot plays it at once
        until its player acts again)?"""
        ...

    def may_act(self, state: Any) -> tuple[int, ...]:
        """The seats that may act now (``to_act`` plus, say, claimants): bots are asked."""
        ...

    def on_timeout(self, state: Any, seat: int, now: float) -> list[dict]:
        """What the server does for ``seat`` when its move time runs out."""
        ...

    def bot_pace(self, state: Any) -> float:
        """How long a bot thinks about its next move, relative to the site's base pace
        (1.0; quicker for a plain draw, slower for a hard choice)."""
        ...

    def bot_choose(self, view: dict, level: str, rng: random.Random) -> dict | None:
        """A bot's action for the view's seat at ``level`` (BOT_LEVELS), or None."""
        ...

    def hand_over(self, state: Any) -> bool: ...

    def start_next_hand(self, state: Any, rng: random.Random) -> list[dict]:
        """Deal the next hand after a finished one (raises RuleError when over)."""
        ...

    def match_over(self, state: Any) -> bool: ...

    def hand_results(self, state: Any) -> list[HandResult]: ...

    def match_result(self, state: Any) -> MatchResult: ...

    def export_hand(self, state: Any) -> dict:
        """The current hand as this game's scenario file (replays, downloads)."""
        ...


def places_of(totals: list[int], lower_is_better: bool) -> list[int]:
    """1-based places; equal totals share the better place (1, 1, 3, 4)."""
    key = (lambda t: t) if lower_is_better else (lambda t: -t)
    return [1 + sum(1 for o in totals if key(o) < key(t)) for t in totals]


class RatingScheme(Protocol):
    """P-9: a game whose rules define their own rating (KDVli Okey's 1500 points,
    Kastet's, Kelimeki's k-lig) gives its GAME a ``rating`` attribute meeting this; the
    platform then writes it instead of P-4's placings.  Games without one use P-4.

    ``players`` has one entry per seat: None for a bot, else ``{"rating": the player's
    rating now, "role": "played" | "took_over" | "dropped" | "left"}`` ("took_over": a
    replacement, P-12; "dropped": dropped out and never came back, P-13; "left": left of
    their own will — ``leave_cost`` was written at that moment)."""

    START: int

    def leave_cost(self, options: dict, completed_hands: int) -> int:
        """The change written at once when a player leaves a rated match (≤ 0)."""
        ...

    def match_changes(self, result: MatchResult, partners: bool, players: list,
                      options: dict) -> list[int | None]:  # fmt: skip
        """The change written for each seat's player when a rated match ends (None:
        nothing written)."""
        ...
