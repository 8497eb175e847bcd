"""The Game protocol: everything the platform asks of a game's engine (house-style,
"Many games, one platform"; portal.md).

A game's engine is one pure-Python package, ``games/<key>/engine`` (no Django), that
exports ``GAME``, an object meeting :class:`Game`, and is named by one line in
``game/engine/registry.py``.  The platform (services, frames, consumers, timers, bots,
history, ranking, admin, lobby) only ever talks to this protocol, and to the game's web
side through ``game.web`` (templates, strings).

Conventions every game follows:

* State is the game's own object; ``to_dict``/``from_dict`` round-trip it through JSON
  exactly (replaying the seed and the action log reproduces it).
* ``apply`` either returns a list of event dicts or raises an ``EngineError`` (from
  ``game.engine.errors``: ``RuleError`` for a well-formed but illegal action,
  ``ActionFormatError`` for a malformed one) with a stable snake_case ``code`` — and then
  the state is exactly as before.
* ``now`` is seconds since the epoch (float), passed in: the engine never reads a clock,
  and never calls ``random``: chance comes from the injected ``rng`` (``random.Random``
  API; ``game.engine.fair.SeededRNG`` in tests, a secure one in production).
* Views are JSON-ready dicts holding only what that seat (or a watcher, ``seat=None``)
  may see (P-1): never another seat's tiles or cards, the deck order or the seed.
* Bots choose from a view, never from the state (P-1).
* ``apply`` and ``on_timeout`` leave the state complete: when an action ends a hand, its
  result is in ``hand_results`` and ``match_result`` at once, and ``match_over`` is true
  if it was the last hand; ``start_next_hand`` then only deals.

Optional members (:data:`OPTIONAL`).  ``registry.get`` fills each one a game leaves out
with its default, once, when the game is first loaded (:func:`complete`, boardgame.io's
``ProcessGameConfig``), so the platform reads every member plainly, never with a
``getattr`` default of its own:

* ``views_for(state, seats) -> list[dict]`` — the views of several seats (``None``: the
  watchers) at once, sharing their public part (issue 22).  Default: ``view_for`` per seat.
* ``replay_snapshot(state) -> dict`` — one step of a replay: the whole table as a
  JSON-ready dict, every rack or hand revealed.  Replays are shown only once the match is
  over, to its players and staff, so nothing is hidden from them — but never the seed, a
  salt, tile ids or the deck order (a count is fine).  Default None: no replay steps.
* ``rating`` — P-9: a game whose rules define their own rating gives a
  :class:`RatingScheme`; default None: P-4's placings.
* ``rematch_choice`` — ``(option, values)``: the one option a rematch chooses again
  (KÜT's tasks, K-X2; King's length, G-X5; KDVli's hands).  Default None: a plain rematch
  with the options as they were.
* ``practice_tables`` (default True) — whether the game has P-3's test tables.  False
  (Kelimeki, W-X5): every table is rated.
* ``ranked_by_level`` (default True) — P-7's one ranking per game *and level*.  False
  (Kelimeki's k-lig, W-L1): one ranking for all levels (stored with level ``""``).
* ``leaving_rules`` (default True) — whether P-5/P-11/P-12/P-13 apply.  False (Kelimeki,
  W-X3/W-X5: a correspondence game): a lost socket is not leaving, housekeeping never
  closes the match as idle, starting another match of the game leaves no running one.
* ``forfeit(state, seat, now) -> list[dict]`` — for a game without leaving rules: what
  leaving is instead (``services.match_leave`` calls it, in turn or not, and logs the
  leave with ``"forfeit": true`` so replays apply it).  Kelimeki's W-E6.  An
  ``EngineError`` means nothing to do.  Default None.
* ``export_log(state, log) -> dict`` — the history's scenario download from the whole log
  (``log``: the match's ``(seat, kind, payload)`` rows) instead of ``export_hand(state)``.
  Default None.
* ``options_for_seats(options, humans) -> dict`` — the options a lobby table's match
  starts with, given which seats are humans (one bool per seat): Kelimeki's game against
  the AI has another clock than a live one (W-M1, W-X3).  Default: the options as they are.
* ``move_seconds_for(options) -> int`` — the game's own move clock in seconds instead of
  P-6's table move time (Kelimeki's W-X3).  Default None: P-6.
* ``tutorial`` — a guided first hand (KÜT's trial hand, K-X1) meeting
  :class:`Tutorial`.  Default None: the game offers none.
* ``guest_play`` (default False) — visitors without an account may play the game
  against its bots (``game.guests``, issue 27): an unrecorded match
  (``Match.Kind.GUEST``: unrated, no move clock, in no history, ranking or lobby list)
  whose human seat is bound to the visitor's session.  True: Kelimeki (W-X1).
* ``timeout_notes(state) -> list[dict]`` — what the timer did for each seat whose turn
  ran out and who has not acted since, so that a timeout is never silent (K-N7; issue 29:
  every game): public facts only, each with ``seat``, ``hand_no`` and ``at`` (unique to
  that timeout within the hand: the table shows each note once) plus the game's own
  fields its table puts in words (KÜT: the tile discarded and whether the server drew).
  The platform sends them to every seat in the frame's ``match.timeouts``.  Default
  None: no notes (the contract suite requires them of every game).
* ``quick_options`` — the options of a short match: *Hemen Oyna*'s match against bots
  when no table of the game is waiting for players (issue 29; KÜT's 5 tasks, King's 4
  hands).  Default ``{}``: the game's defaults.
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
    key: str  # its key in the one list of games (game.engine.registry.GAMES)
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


class Tutorial(Protocol):
    """A game's guided first hand (KÜT's trial hand, K-X1): a scripted deal, scripted
    moves for the bots and the one action the player is asked for at each step.  The
    platform plays it as a match of kind ``trial`` (unrated, recorded nowhere) through the
    same service path; the hints' words are the game's web side's."""

    options: dict  # the tutorial match's options (KÜT: 12 tasks, whose first is a küt of 3)
    seats: int
    human_seat: int  # the player's seat; the others are bots
    bot_level: str  # BOT_LEVELS

    def initial_state(self, seed: str) -> Any:
        """The tutorial's state before the first move (its scripted deal)."""
        ...

    def check_action(self, state: Any, seat: int, action: dict) -> None:
        """Raise ``RuleError`` unless ``action`` is what the script asks of the player now."""
        ...

    def bot_choice(self, state: Any, bots: set[int]) -> Any:
        """The next scripted bot move ``(seat, action)``, :data:`WAIT` (the player is to
        act), or None (no script: the bots play as bots)."""
        ...

    def progress(self, state: Any) -> dict:
        """The step the player is at (a JSON-ready dict the table shows as its hint)."""
        ...

    def completed(self, state: Any) -> bool:
        """Whether the player did everything the tutorial asks."""
        ...

    def finish(self, state: Any) -> None:
        """End the match with its one hand (the tutorial is over)."""
        ...


WAIT = "wait"  # Tutorial.bot_choice: the script waits for the player


@dataclass(frozen=True)
class ScriptedTutorial:
    """A :class:`Tutorial` made of a game's script functions (KÜT's trial hand, King's
    guided hand, Kelimeki's guided game): ``initial_state(seed)``, ``check_action(part,
    seat, action)``, ``bot_choice(part, bots)``, ``progress(part)``, ``completed(part)``
    and ``finish(state)``, where ``part`` is what the script reads — the match state
    itself, or its one hand (``part = lambda state: state.hand``)."""

    options: dict
    seats: int
    human_seat: int
    bot_level: str
    script: Any  # the module (or object) with the functions above
    part: Any = None  # state -> what the script's functions read (default: the state)

    def _part(self, state: Any) -> Any:
        return state if self.part is None else self.part(state)

    def initial_state(self, seed: str) -> Any:
        return self.script.initial_state(seed)

    def check_action(self, state: Any, seat: int, action: dict) -> None:
        self.script.check_action(self._part(state), seat, action)

    def bot_choice(self, state: Any, bots: set[int]) -> Any:
        return self.script.bot_choice(self._part(state), bots)

    def progress(self, state: Any) -> dict:
        return self.script.progress(self._part(state))

    def completed(self, state: Any) -> bool:
        return self.script.completed(self._part(state))

    def finish(self, state: Any) -> None:
        self.script.finish(state)


def _views_for(game):
    def views_for(state, seats):
        return [game.view_for(state, seat) for seat in seats]

    return views_for


def _options_for_seats(options, humans):
    return dict(options)


# member -> its default (a callable given the game, for members whose default depends on it)
OPTIONAL: dict[str, Any] = {
    "views_for": _views_for,
    "replay_snapshot": None,
    "rating": None,
    "rematch_choice": None,
    "practice_tables": True,
    "ranked_by_level": True,
    "leaving_rules": True,
    "forfeit": None,
    "export_log": None,
    "options_for_seats": lambda game: _options_for_seats,
    "move_seconds_for": None,
    "tutorial": None,
    "guest_play": False,
    "quick_options": lambda game: {},
    "timeout_notes": None,
}
REQUIRED = tuple(
    name for name in Game.__dict__ if not name.startswith("_") and name not in OPTIONAL
) + tuple(Game.__annotations__)


def complete(game):
    """Fill in every optional member ``game`` leaves out with its default (once; the
    same object is returned).  Raises ``TypeError`` naming a required member it lacks."""
    if getattr(game, "_protocol_complete", False):
        return game
    missing = [name for name in REQUIRED if not hasattr(game, name)]
    if missing:
        raise TypeError(f"{game!r} lacks the protocol's {', '.join(sorted(set(missing)))}")
    for name, default in OPTIONAL.items():
        if not hasattr(game, name):
            setattr(game, name, default(game) if callable(default) else default)
    game._protocol_complete = True
    return game
