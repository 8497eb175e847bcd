"""Kelimeki: the Turkish territory word game for 2 or 4 players (kelimeki.md).

``GAME`` meets ``game.engine.protocol.Game``.  One game is one "hand": the match ends
when the game ends (W-E1, W-E2, W-E6).

Modules: ``alphabet`` (letters, tiles, points, W-D2 folding), ``board`` (layout, blocks,
homes), ``lexicon`` (the word list: a set for ``contains`` and a DAWG for the AI),
``state``, ``rules`` (plays, tax, exchange, pass, forfeit, the end), ``views``,
``movegen`` and ``bots`` (the AI, from a view only), ``klig`` (W-L), ``replay`` (the
scenario command).  Commands::

    python -m game.engine.replay SCENARIO.json          # "game": "kelimeki"
    python -m games.kelimeki.engine.simulate --hands 30 --seed 1
    python -m games.kelimeki.engine.bench --games 10 --seed 2

Chance: the bag is shuffled and the starter drawn with the RNG passed to
``new_match``, which also draws the match's ``secret``; the random places of exchanged
tiles (W-M9) come from ``random.Random`` seeded with that secret and the move number,
since ``apply`` takes no RNG.  The secret is never in a view.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from game.engine.errors import ActionFormatError, RuleError
from game.engine.fair import commitment
from game.engine.protocol import HandResult, InputError, MatchResult
from games.kelimeki.engine import board, bots, rules
from games.kelimeki.engine.alphabet import LETTER_SET, RACK_SIZE, TILE_SET, TILES, sort_tiles
from games.kelimeki.engine.board import corners_for
from games.kelimeki.engine.klig import KLIG, game_points
from games.kelimeki.engine.rules import Placement
from games.kelimeki.engine.state import State
from games.kelimeki.engine.tutorial import TUTORIAL
from games.kelimeki.engine.views import view_for

LIVE_MOVE_SECONDS = 48 * 3600  # W-X3
AI_MOVE_SECONDS = 7 * 24 * 3600


def fair_order(racks: list[list[str]], bag: list[str], secret: int) -> list[str]:
    """P-2: the shuffled bag as dealt — each rack in seat order, then the bag top first
    (``*`` a joker) — and last ``#`` + the secret that places exchanged tiles (W-M9) in
    hex, so the whole game's chance is covered by the commitment."""
    return [t for r in racks for t in r] + list(bag) + [f"#{secret:x}"]


def parse_placements(raw) -> list[Placement]:
    """The wire form of a play's tiles (kelimeki-scenario.md): each
    ``{"row", "col", "letter", "joker"?}``; raises ActionFormatError."""
    if raw is None:
        return []  # no placements at all: the rules answer no_tiles
    if not isinstance(raw, list):
        raise ActionFormatError("bad_action", "'placements' must be a list")
    out = []
    for p in raw:
        if not isinstance(p, dict):
            raise ActionFormatError("bad_action", "a placement must be an object")
        row, col, letter = p.get("row"), p.get("col"), p.get("letter")
        joker = p.get("joker", False)
        if any(isinstance(v, bool) or not isinstance(v, int) for v in (row, col)):
            raise ActionFormatError("bad_action", "a placement needs integer 'row' and 'col'")
        if not isinstance(letter, str) or letter not in LETTER_SET:
            raise ActionFormatError("bad_action", f"{letter!r} is not one of the 29 letters")
        if not isinstance(joker, bool):
            raise ActionFormatError("bad_action", "'joker' must be true or false")
        out.append(Placement(row, col, letter, joker))
    return out


def parse_tiles(raw) -> list[str]:
    if raw is None:
        return []  # nothing named: the rules answer no_tiles (or bag_empty)
    if not isinstance(raw, list) or not all(isinstance(t, str) and t in TILE_SET for t in raw):
        raise ActionFormatError("bad_action", "'letters' must be a list of tiles")
    return list(raw)


class Kelimeki:
    key = "kelimeki"
    name = "Kelimeki"
    seat_counts = (2, 4)
    partners = False
    lower_is_better = False
    default_move_seconds = LIVE_MOVE_SECONDS
    fixed_move_seconds = True
    private_kinds = frozenset()  # Karıştır (W-T6) is the client's own, never sent
    rematch_choice = (None, (1,))  # a rematch: the same players again, nothing to choose
    # W-X5: no test tables (P-3); k-lig is one table for every level (W-L1); the leaving,
    # dropping and replacing rules (P-5, P-11, P-12, P-13) do not apply (W-X3, W-X4)
    practice_tables = False
    ranked_by_level = False
    leaving_rules = False
    guest_play = True  # W-X1: no login needed to play against the AI (game.guests)
    rating = KLIG  # P-9: k-lig (W-L2…W-L4); rewards and ranks: games.kelimeki.klig
    tutorial = TUTORIAL  # the guided first game (issue 29): engine/tutorial.py

    def options_for_seats(self, options: Mapping[str, Any], humans: list[bool]) -> dict:
        """W-M1, W-X3: a table started with one human and the AI in every other seat is
        a game against the AI (7 days per move); with two or more humans it is live
        (48 hours; **Decision**: also when the AI fills some seats of a 4-seat table —
        the humans wait on each other)."""
        return self.clean_options({**options, "vs_ai": sum(humans) == 1,
                                   "move_seconds": None})  # fmt: skip

    def move_seconds_for(self, options: Mapping[str, Any]) -> int:
        """W-X3: 48 hours per move live, 7 days against the AI."""
        return AI_MOVE_SECONDS if options.get("vs_ai") else LIVE_MOVE_SECONDS

    def clean_options(self, options: Mapping[str, Any]) -> dict:
        """Options: ``vs_ai`` (bool) picks the move deadline (W-X3).  (``test_bag``, the
        bag cut short at the deal, is never a player's choice: only the platform's
        browser-test mode adds it, ``services.match_create(test_options=...)``.)"""
        unknown = set(options) - {"vs_ai", "move_seconds"}
        if unknown:
            raise InputError(f"unknown options: {sorted(unknown)}")
        vs_ai = options.get("vs_ai", False)
        if not isinstance(vs_ai, bool):
            raise InputError("'vs_ai' must be true or false")
        # idempotent (the lobby cleans the dialog's options, then the table's again):
        # ``move_seconds`` is accepted back only as W-X3 sets it, never chosen
        if options.get("move_seconds") is not None and options["move_seconds"] != (
                AI_MOVE_SECONDS if vs_ai else LIVE_MOVE_SECONDS):  # fmt: skip
            raise InputError("the move time is W-X3's: 48 hours live, 7 days against the AI")
        return {"vs_ai": vs_ai,
                "move_seconds": AI_MOVE_SECONDS if vs_ai else LIVE_MOVE_SECONDS}  # fmt: skip

    def new_match(self, options: dict, seats: int, rng: random.Random) -> State:
        if seats not in self.seat_counts:
            raise InputError("Kelimeki is played by 2 or 4 players")
        from games.kelimeki.engine.alphabet import COUNTS

        bag = [t for t in TILES for _ in range(COUNTS[t])]
        rng.shuffle(bag)  # W-T4 (P-2: the platform passes the secure RNG)
        racks = []
        for _ in range(seats):  # seat order from seat 0, 7 each from the top
            racks.append(bag[:RACK_SIZE])
            del bag[:RACK_SIZE]
        if options.get("test_bag") is not None:  # browser tests only: a short game
            del bag[options["test_bag"] :]
        starter = rng.randrange(seats)  # W-M1
        state = State(players=seats, corners=corners_for(seats), racks=racks, bag=bag,
                      turn=starter, starter=starter, secret=rng.getrandbits(64))  # fmt: skip
        # P-2 (W-X5): the bag order committed now, revealed when the game is over
        salt = f"{rng.getrandbits(128):032x}"
        order = fair_order(racks, bag, state.secret)
        state.fair = {"commitment": commitment(order, salt), "salt": salt, "order": order}
        return state

    def to_dict(self, state: State) -> dict:
        return state.to_dict()

    def from_dict(self, data: dict) -> State:
        return State.from_dict(data)

    def apply(self, state: State, seat: int, action: dict, now: float) -> list[dict]:
        if not isinstance(seat, int) or not 0 <= seat < state.players:
            raise RuleError("bad_seat")
        if not isinstance(action, dict):
            raise ActionFormatError("bad_action", "an action is an object")
        kind = action.get("type")
        if kind == "play":
            placements = parse_placements(action.get("placements"))
            res, bonus = rules.play(state, seat, placements)
            return [{"type": "play", "seat": seat,
                     "cells": [[i // 15, i % 15, ch, j] for i, ch, j in res.cells],
                     "words": [{"word": w, "points": p} for w, p in res.words],
                     "bingo": res.bingo, "points": res.points, "shares": list(res.shares),
                     "finish_bonus": bonus}] + self._end_events(state)  # fmt: skip
        if kind == "exchange":
            tiles = parse_tiles(action.get("letters"))
            rng = None if state.exchange_to_bottom else random.Random(
                f"{state.secret}:{state.moves}")  # fmt: skip
            rules.exchange(state, seat, tiles, rng)
            return [{"type": "exchange", "seat": seat, "count": len(tiles)}]
        if kind == "pass":
            rules.pass_turn(state, seat)
            return [{"type": "pass", "seat": seat}] + self._end_events(state)
        raise ActionFormatError("unknown_action", f"unknown action type {kind!r}")

    def preview(self, state: State, seat: int, placements_raw) -> dict:
        """W-M7: each word's validity, the points and the tax shares the tentative
        tiles would bring; changes nothing.  Never raises for a rule matter."""
        try:
            placements = parse_placements(placements_raw)
            res = rules.preview(state, seat, placements)
        except rules.InvalidWords as exc:
            return {"ok": False, "error": exc.code, "invalid": exc.invalid}
        except (RuleError, ActionFormatError) as exc:
            return {"ok": False, "error": exc.code}
        return {"ok": True, "words": [{"word": w, "points": p} for w, p in res.words],
                "bingo": res.bingo, "points": res.points, "shares": list(res.shares)}  # fmt: skip

    def _end_events(self, state: State) -> list[dict]:
        if not state.over:
            return []
        return [{"type": "game_over", "end": state.end, "scores": list(state.scores),
                 "deducted": list(state.deducted or [])}]  # fmt: skip

    def log_form(self, action: dict) -> dict:
        keys = {"play": ("placements",), "exchange": ("letters",), "pass": ()}
        return {"type": action["type"], **{k: action[k] for k in keys.get(action["type"], ())
                                           if k in action}}  # fmt: skip

    def view_for(self, state: State, seat: int | None) -> dict:
        return view_for(state, seat)

    def turn_key(self, state: State):
        return [state.moves, state.turn]

    def away_after_timeout(self, state: State, seat: int) -> bool:
        return False  # W-X3: a timeout forfeits the seat; nothing to stand in for

    def bot_pace(self, state: State) -> float:
        return 2.0  # a word takes a while to find

    def to_act(self, state: State) -> tuple[int, ...]:
        return () if state.over else (state.turn,)

    def may_act(self, state: State) -> tuple[int, ...]:
        return self.to_act(state)

    def on_timeout(self, state: State, seat: int, now: float) -> list[dict]:
        """W-X3, W-E6: the seat to move forfeits."""
        at = state.moves
        rules.forfeit(state, seat)
        state.timed_out[seat] = at  # the table says so (issue 29, ``timeout_notes``)
        return [{"type": "forfeit", "seat": seat}] + self._end_events(state)

    def timeout_notes(self, state: State) -> list[dict]:
        """Issue 29: what the timer did for each seat whose move deadline ran out (W-X3):
        its seat forfeited (W-E6) — ``{"seat", "hand_no": 1, "at", "forfeit": True,
        "ended"}``, ``at`` the move count when it happened, ``ended`` whether that ended
        the game (one seat left).  Public facts only: the seat's tiles are never named."""
        return [{"seat": seat, "hand_no": 1, "at": at, "forfeit": True,
                 "ended": state.over and state.end == "forfeit"}
                for seat, at in enumerate(state.timed_out) if at >= 0]  # fmt: skip

    def forfeit(self, state: State, seat: int, now: float) -> list[dict]:
        """W-X5, W-E6: the player gives the game up (*Teslim ol*, the platform's leave
        for a game without P-5's leaving rules), in turn or not: the same forfeit as a
        passed deadline."""
        rules.forfeit(state, seat, any_turn=True)
        return [{"type": "forfeit", "seat": seat}] + self._end_events(state)

    def bot_choose(self, view: dict, level: str, rng: random.Random) -> dict | None:
        if view.get("over") or view.get("turn") != view.get("seat"):
            return None
        return bots.choose(view, level, rng)

    def hand_over(self, state: State) -> bool:
        return state.over

    def start_next_hand(self, state: State, rng: random.Random) -> list[dict]:
        raise RuleError("hand_over" if state.over else "illegal_action",
                        "a Kelimeki match is one game")  # fmt: skip

    def match_over(self, state: State) -> bool:
        return state.over

    def hand_results(self, state: State) -> list[HandResult]:
        if not state.over:
            return []
        return [HandResult(1, list(state.scores), self._detail(state))]

    def _detail(self, state: State) -> dict:
        places = rules.ranks(state)
        # who went out (W-E1): the last mover of a game that ended "out"
        out = (state.last or {}).get("seat") if state.end == "out" else None
        return {"end": state.end, "deducted": list(state.deducted or []), "ranks": places,
                "klig": game_points(state.players, places, state.forfeited),
                "forfeited": list(state.forfeited), "out": out, "moves": state.moves}  # fmt: skip

    def match_result(self, state: State) -> MatchResult:
        places = rules.ranks(state)
        below = len(state.active()) + 1  # W-E6: forfeited seats below everyone
        return MatchResult(
            totals=list(state.scores),
            places=[below if p is None else p for p in places],
            hands=1 if state.over else 0,
            detail=self._detail(state),
        )

    def replay_snapshot(self, state: State) -> dict:
        """One step of the history's replay (the game is over: every rack shown), never
        the bag's order, the salt or the exchanges' secret (a bag count only)."""
        last = state.last or {}
        return {"players": state.players, "layout": list(board.LAYOUT),
                "homes": [list(board.rc(state.home(s))) for s in range(state.players)],
                "board": state.board_rows(), "zones": state.zone_rows(),
                "racks": [sort_tiles(r) for r in state.racks], "scores": list(state.scores),
                "bag_count": len(state.bag), "turn": None if state.over else state.turn,
                "forfeited": list(state.forfeited), "over": state.over, "end": state.end,
                "deducted": state.deducted, "ranks": rules.ranks(state) if state.over else None,
                "move": {k: last[k] for k in ("cells", "words", "points", "count", "finish_bonus")
                         if k in last}}  # fmt: skip

    def export_log(self, state: State, log: list) -> dict:
        """The whole game as a scenario file (kelimeki-scenario.md) for the history's
        download: the deal as committed (P-2: racks, the whole bag, the starter) and the
        moves of the log (``(seat, kind, payload)`` rows in order).  **Decision:** the
        moves stop before the first exchange — a replay returns exchanged tiles to the
        bottom of the bag, the game put them at random places (W-M9), so later draws
        would differ — and before a forfeit out of turn (no scenario action says it)."""
        fair = state.fair
        if not fair:
            return self.export_hand(state)
        tiles = [t for t in fair["order"] if not t.startswith("#")]
        racks = [tiles[RACK_SIZE * s : RACK_SIZE * (s + 1)] for s in range(state.players)]
        data = {"game": "kelimeki", "players": state.players, "starter": state.starter,
                "racks": racks, "bag": tiles[RACK_SIZE * state.players:], "actions": []}  # fmt: skip
        if state.words is not None:
            data["words"] = list(state.words)
        replay = State(players=state.players, corners=state.corners,
                       racks=[list(r) for r in racks], bag=list(data["bag"]),
                       turn=state.starter, starter=state.starter, words=state.words,
                       exchange_to_bottom=True)  # fmt: skip
        for seat, kind, payload in log:
            payload = payload or {}
            if kind in ("play", "pass"):
                action = {"seat": seat, **self.log_form(payload)}
            elif kind == "timeout" or (kind == "leave" and payload.get("forfeit")
                                       and not replay.over and replay.turn == seat):  # fmt: skip
                action = {"seat": seat, "type": "timeout"}
            elif kind == "exchange" or (kind == "leave" and payload.get("forfeit")):
                break
            else:
                continue
            data["actions"].append(action)
            if action["type"] == "timeout":
                rules.forfeit(replay, seat)
            else:
                self.apply(replay, seat, {k: v for k, v in action.items() if k != "seat"}, 0.0)
        return data

    def export_hand(self, state: State) -> dict:
        """The game's current position as a scenario file can start it (racks, bag
        top first); the board must be empty for a replay to reproduce it."""
        return {"game": "kelimeki", "players": state.players, "starter": state.turn,
                "racks": [sort_tiles(r) for r in state.racks], "bag": list(state.bag),
                "actions": []}  # fmt: skip


GAME = Kelimeki()
