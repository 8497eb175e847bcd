"""An independent brute-force reference for the exact counting (kdvli.md V-S2), sharing
no code with ``games/kdvli/engine/counting.py`` beyond the face encoding.

Tiles are tokens: ``(colour, number)`` for a natural tile (a fake okey is the real
okey's colour and number, V-T4) and ``"J"`` for a real okey (wild, V-T3).  Every group
that contains the first remaining natural is tried (runs with okeys at any positions,
V-G1/V-G4; sets, V-G2; pairs, V-G3), or that natural is left out; memoised on the
remaining multiset.  Small racks only.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations

J = "J"


def tokens(faces, okey):
    out = []
    for f in faces:
        if f == okey:
            out.append(J)
        else:
            g = okey if f == 52 else f
            out.append((g // 13, g % 13 + 1))
    return out


def _value(tok, okey):
    return okey % 13 + 1 if tok == J else tok[1]


def _key(c: Counter):
    return tuple(sorted(((k if k != J else (9, 9)), v) for k, v in c.items() if v > 0))


def _runs_with(first, rack: Counter):
    colour, number = first
    wilds = rack[J]
    for lo, hi in ((1, 13), (2, 14)):
        pos_first = number if (lo == 1 or number != 1) else 14
        if lo == 1 and number == 1:
            pos_first = 1
        if not lo <= pos_first <= hi:
            continue
        for s in range(lo, pos_first + 1):
            for e in range(max(pos_first, s + 2), hi + 1):
                if e - s + 1 > 13:
                    break
                positions = [q for q in range(s, e + 1) if q != pos_first]
                # each other position: the natural (if the rack has it) or an okey
                have = [q for q in positions if rack[(colour, 1 if q == 14 else q)] > 0]
                must_j = len(positions) - len(have)
                if must_j > wilds:
                    continue
                for k in range(0, wilds - must_j + 1):
                    for as_j in combinations(have, k):
                        g = Counter({first: 1})
                        for q in positions:
                            if q in have and q not in as_j:
                                g[(colour, 1 if q == 14 else q)] += 1
                            else:
                                g[J] += 1
                        yield g


def _sets_with(first, rack: Counter):
    colour, number = first
    others = [c for c in range(4) if c != colour and rack[(c, number)] > 0]
    for size in range(0, 4):
        for cols in combinations(others, size):
            for k in range(0, rack[J] + 1):
                if 3 <= 1 + size + k <= 4:
                    g = Counter({first: 1, J: k})
                    for c in cols:
                        g[(c, number)] += 1
                    yield g


def _fits(g: Counter, rack: Counter) -> bool:
    return all(rack[k] >= v for k, v in g.items())


def runs_points(faces, okey) -> int:
    """The least sum of values left out of runs and sets."""
    return _best(Counter(tokens(faces, okey)), okey, "runs")


def pairs_points(faces, okey) -> int:
    return _best(Counter(tokens(faces, okey)), okey, "pairs")


def _best(rack: Counter, okey: int, mode: str) -> int:
    @lru_cache(maxsize=None)
    def go(key):
        r = Counter(dict((k if k != (9, 9) else J, v) for k, v in key))
        naturals = sorted(k for k, v in r.items() if k != J and v > 0)
        if not naturals:
            return r[J] * (okey % 13 + 1)
        first = naturals[0]
        r[first] -= 1
        best = _value(first, okey) + go(_key(r))
        r[first] += 1
        if mode == "runs":
            cands = list(_runs_with(first, r)) + list(_sets_with(first, r))
        else:
            cands = []
            if r[first] >= 2:
                cands.append(Counter({first: 2}))
            if r[J]:
                cands.append(Counter({first: 1, J: 1}))
        for g in cands:
            if _fits(g, r):
                rest = r - g
                best = min(best, go(_key(rest)))
        return best

    return go(_key(rack))
