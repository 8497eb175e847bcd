"""Building KDVli scenarios in tests: name the tiles that matter, the rest of each rack
is filled from tiles no test names (deterministically)."""

from __future__ import annotations

from collections import Counter

from games.kdvli.engine.replay import load_scenario, run_scenario
from games.okey.engine.tiles import face_name, okey_face, parse_face

ALL = [face_name(f) for f in range(52) for _ in range(2)] + ["F", "F"]


def scenario(racks=None, *, starter=0, indicator="Y5", deck=None, actions=(), partners=None,
             filler_avoid=()) -> dict:  # fmt: skip
    """A valid scenario.  ``racks``: {seat: "R1 R2 ..."} (missing tiles are filled);
    ``deck``: "..." top first (default: 10 filler tiles)."""
    racks = racks or {}
    named = Counter([indicator])
    given = {s: r.split() for s, r in racks.items()}
    for r in given.values():
        named.update(r)
    deck_given = deck.split() if isinstance(deck, str) else deck
    if deck_given:
        named.update(deck_given)
    okey = "F" if indicator == "F" else face_name(okey_face(parse_face(indicator)))
    avoid = set(filler_avoid) | {okey}
    pool = []
    left = Counter(ALL) - named
    # filler: tiles that make few groups (spread numbers and colours), never okey-like
    for name in sorted(left, key=lambda n: (n == "F", n[1:], n[0])):
        if name in avoid or name == "F":
            continue
        pool.extend([name] * left[name])
    out_racks = []
    for seat in range(4):
        want = 15 if seat == starter else 14
        r = list(given.get(seat, []))
        while len(r) < want:
            r.append(_take(pool, r))
        out_racks.append(r)
    if deck_given is None:
        deck_given = [pool.pop() for _ in range(10)]
    s = {"game": "kdvli", "starter": starter, "indicator": indicator, "racks": out_racks,
         "deck": deck_given, "actions": [dict(a) for a in actions]}  # fmt: skip
    if partners is not None:
        s["partners"] = partners
    return s


def _take(pool: list[str], rack: list[str]) -> str:
    """A filler tile unlike the rack's (no same face, colour neighbour or number)."""
    for i, name in enumerate(pool):
        c, n = name[0], int(name[1:])
        clash = any(
            t == name
            or (t[0] == c and t != "F" and abs(int(t[1:]) - n) <= 2)
            or (t != "F" and int(t[1:]) == n)
            for t in rack
        )
        if not clash:
            return pool.pop(i)
    return pool.pop()


def run(s: dict) -> dict:
    return run_scenario(s)


def hand_of(s: dict):
    hand, _actions = load_scenario(s)
    return hand


def act(seat, kind, **kw) -> dict:
    return {"seat": seat, "type": kind, **kw}
