"""Random legal play: drives hands for property tests and the engine benchmark.

It works on the full state (it is a test driver, not a bot: bots live in ``bots/`` and
see only a view).  Every action it sends is one the engine accepts; a rejection is a bug.
"""

from __future__ import annotations

import random

from game.engine.errors import RuleError
from games.kut.engine.scoring import group_accepts
from games.kut.engine.state import SEATS, HandState, next_seat
from games.kut.engine.tasks import is_finish
from games.kut.engine.transitions import _placement, apply
from games.kut.engine.views import can_claim
from games.okey.engine.groups import KUT, RUN, natural
from games.okey.engine.tiles import FAKE, face_of


def _candidate_groups(tiles: list[int], okey: int, kind: str, length: int) -> list[list[int]]:
    """Some valid groups of exactly ``length`` of ``kind`` from ``tiles`` (physical)."""
    okeys = []
    by_value: dict[int, int] = {}  # natural value -> one tile showing it (F: the okey face)
    for t in tiles:
        f = face_of(t)
        if f == okey:
            okeys.append(t)
        else:
            by_value.setdefault(okey if f == FAKE else f, t)
    n_ok = len(okeys)
    out = []
    if kind == KUT:
        for number in range(13):
            naturals = [by_value[c * 13 + number] for c in range(4) if c * 13 + number in by_value]
            for use_ok in range(min(n_ok, length - 1) + 1):
                nat = length - use_ok
                if 1 <= nat <= len(naturals):
                    out.append(naturals[:nat] + okeys[:use_ok])
    elif kind == RUN:
        for colour in range(4):
            row = [by_value.get(colour * 13 + n) for n in range(13)]
            for start in range(14 - length):
                window = row[start : start + length]
                missing = window.count(None)
                if missing <= n_ok and missing < length:
                    it = iter(okeys)
                    out.append([t if t is not None else next(it) for t in window])
    else:  # pairs
        seen: dict[int, int] = {}
        for t in tiles:
            f = face_of(t)
            if f == okey:
                continue
            if f in seen:
                out.append([seen.pop(f), t])
            else:
                seen[f] = t
        if okeys:
            out += [[t, okeys[0]] for f, t in seen.items() if f != FAKE]
    return out


def find_task(tiles: list[int], okey: int, task) -> list[list[int]] | None:
    """Some way to open ``task`` from ``tiles`` (not exhaustive; good enough for play)."""
    cands = {req: _candidate_groups(tiles, okey, *req) for req in set(task)}
    reqs = list(task)

    def go(i: int, used: frozenset):
        if i == len(reqs):
            return []
        for g in cands[reqs[i]]:
            if used.isdisjoint(g):
                sub = go(i + 1, used.union(g))
                if sub is not None:
                    return [g] + sub
        return None

    return go(0, frozenset())


def _names(hand: HandState, tiles) -> list[str]:
    return [hand.ids[t] for t in tiles]


def turn_options(hand: HandState, seat: int, rng: random.Random, search: bool = True) -> list[dict]:
    """Some legal actions for the player whose turn it is (mixed kinds); ``search``
    also looks for openings and new groups (the costly part)."""
    opts: list[dict] = []
    rack = hand.racks[seat]
    okey = hand.okey
    if hand.phase == "take":
        if hand.thrown is not None and not hand.forced:
            opts.append({"type": "take_discard"})
        if hand.deck:
            opts.append({"type": "draw"})
        if hand.undo:
            opts.append({"type": "undo"})
        return opts
    tiles = rack.tiles()
    if not hand.opened[seat]:
        task = hand.task
        if is_finish(task) or not search:
            pass
        elif rng.random() < 0.7:
            found = find_task(tiles, okey, task)
            if found and sum(map(len, found)) < len(tiles):
                opts.append({"type": "open", "group_ids": [_names(hand, g) for g in found]})
    elif hand.opened_at[seat] != hand.turns_done[seat]:
        for length in (3, 4) if search else ():
            for kind in (RUN, KUT):
                for g in (
                    _candidate_groups(tiles, okey, kind, length)[:1] if rng.random() < 0.5 else ()
                ):
                    if len(g) < len(tiles):
                        opts.append({"type": "new_groups", "group_ids": [_names(hand, g)]})
        if len(tiles) > 1:
            accepts = [group_accepts(g, okey) for g in hand.table]
            for t in tiles:
                f = face_of(t)
                nat = natural(f, okey)
                for i, g in enumerate(hand.table):
                    wants, okey_ok = accepts[i]
                    if not (okey_ok if f == okey else nat in wants):
                        continue
                    for end in ("left", "right"):
                        try:
                            where = _placement(hand, g, t, end)
                        except RuleError:
                            continue
                        opt = {"type": "lay_off", "tile_id": hand.ids[t], "group": i}
                        if where[0] != "exchange":
                            opt["end"] = end
                        opts.append(opt)
                        break
    if hand.undo:
        opts.append({"type": "undo"})
    for t in rng.sample(tiles, min(3, len(tiles))):
        opts.append({"type": "discard", "tile_id": hand.ids[t]})
    return opts


def random_step(hand: HandState, rng: random.Random, *, p_claim=0.3, p_timeout=0.02,
                p_undo=0.1, undo_budget: list | None = None) -> tuple[int, dict]:  # fmt: skip
    """Choose and apply one random legal action; returns (seat, action)."""
    seat = hand.turn
    if hand.claimable and rng.random() < p_claim:
        claimants = [s for s in range(SEATS) if can_claim(hand, s)]
        if claimants:
            s = rng.choice(claimants)
            action = {"type": "claim"}
            apply(hand, s, action)
            return s, action
    if rng.random() < p_timeout:
        action = {"type": "timeout"}
        apply(hand, seat, action)
        return seat, action
    budget = undo_budget if undo_budget is not None else [3, -1, 0]
    if len(budget) < 3:
        budget.extend([-1, 0])
    if budget[1] != hand.table_turn:  # searches for groups at most twice a turn
        budget[1], budget[2] = hand.table_turn, 0
    budget[2] += 1
    opts = turn_options(hand, seat, rng, search=budget[2] <= 2)
    plays = [o for o in opts if o["type"] not in ("undo", "discard")]
    undos = [o for o in opts if o["type"] == "undo"]
    discards = [o for o in opts if o["type"] == "discard"]
    if undos and budget[0] > 0 and rng.random() < p_undo:
        budget[0] -= 1
        action = undos[0]
    elif plays and (hand.phase == "take" or rng.random() < 0.8):
        action = rng.choice(plays)
    else:
        action = rng.choice(discards) if discards else rng.choice(opts)
    apply(hand, seat, action)
    if action["type"] == "discard":
        budget[0] = 3
    return seat, action


def play_random_hand(hand: HandState, rng: random.Random, max_actions: int = 5000, **kw) -> int:
    """Play to the end; returns the number of actions applied."""
    budget = [3, -1, 0]
    n = 0
    while not hand.over:
        random_step(hand, rng, undo_budget=budget, **kw)
        n += 1
        if n > max_actions:
            raise RuntimeError("random hand did not end")
    return n


__all__ = ["find_task", "play_random_hand", "random_step", "turn_options", "next_seat"]
