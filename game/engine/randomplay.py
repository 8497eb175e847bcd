"""Random legal play: drives hands for property tests and the engine benchmark.

It works on the full state (it is a test driver, not a bot: bots live in ``bots/`` and
see only a view).  Every action it sends is one the engine accepts; a rejection is a bug.
"""

from __future__ import annotations

import random

from .errors import RuleError
from .groups import classify, natural
from .scoring import group_accepts
from .state import SEATS, HandState, next_seat
from .tasks import KUT, RUN, is_finish
from .tiles import face_of
from .transitions import _placement, apply
from .views import can_claim


def _candidate_groups(tiles: list[int], okey: int, kind: str, length: int) -> list[list[int]]:
    """Some groups of exactly ``length`` of ``kind`` from ``tiles`` (physical)."""
    okeys = [t for t in tiles if face_of(t) == okey]
    by_face: dict[int, int] = {}
    for t in tiles:
        f = face_of(t)
        if f != okey:
            by_face.setdefault(f, t)
    out = []
    if kind == KUT:
        for number in range(1, 14):
            naturals = []
            for colour in range(4):
                f = colour * 13 + number - 1
                t = by_face.get(f) if f != okey else None
                if t is None and f == okey:
                    t = by_face.get(52)
                if t is not None:
                    naturals.append(t)
            for use_ok in range(min(len(okeys), length - 1) + 1):
                nat = length - use_ok
                if nat <= len(naturals) and nat >= 1:
                    out.append(naturals[:nat] + okeys[:use_ok])
    elif kind == RUN:
        for colour in range(4):
            for start in range(1, 15 - length):
                group, used_ok = [], 0
                for n in range(start, start + length):
                    f = colour * 13 + n - 1
                    t = by_face.get(f) if f != okey else by_face.get(52)
                    if t is None:
                        if used_ok < len(okeys):
                            t = okeys[used_ok]
                            used_ok += 1
                        else:
                            break
                    group.append(t)
                else:
                    out.append(group)
    else:  # pairs
        seen = {}
        for t in tiles:
            f = face_of(t)
            if f == okey:
                continue
            if f in seen:
                out.append([seen.pop(f), t])
            else:
                seen[f] = t
        for f, t in seen.items():
            if okeys and f != 52:
                out.append([t, okeys[0]])
    return [g for g in out if classify([face_of(t) for t in g], okey, (kind,))]


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


def turn_options(hand: HandState, seat: int, rng: random.Random) -> list[dict]:
    """Some legal actions for the player whose turn it is (mixed kinds)."""
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
        if is_finish(task):
            pass
        elif rng.random() < 0.5:
            found = find_task(tiles, okey, task)
            if found and sum(map(len, found)) < len(tiles):
                opts.append({"type": "open", "group_ids": [_names(hand, g) for g in found]})
    elif hand.opened_at[seat] != hand.turns_done[seat]:
        for length in (3, 4):
            for kind in (RUN, KUT):
                for g in _candidate_groups(tiles, okey, kind, length)[:1] if rng.random() < 0.5 else ():
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
    opts = turn_options(hand, seat, rng)
    budget = undo_budget if undo_budget is not None else [3]
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
    budget = [3]
    n = 0
    while not hand.over:
        random_step(hand, rng, undo_budget=budget, **kw)
        n += 1
        if n > max_actions:
            raise RuntimeError("random hand did not end")
    return n


__all__ = ["find_task", "play_random_hand", "random_step", "turn_options", "next_seat"]
