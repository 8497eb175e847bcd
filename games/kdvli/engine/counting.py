"""Exact counting of a KDVli rack (kdvli.md V-S2): the least points left out of runs and
sets, and out of pairs, from the tiles alone.  It serves the points of every seat at the
end of a hand (V-S3), the *Masa ayarları* display (V-S5), *Seri Diz* / *Çift Diz*
(V-R2), the solver command and the bots.

    count(faces, okey) -> Count

``faces`` are tile faces (``games.okey.engine.tiles``); a face equal to ``okey`` is a real
okey (wild, V-T3), ``FAKE`` a natural tile of the okey's face (V-T4).  Values follow
V-T6: a natural tile counts its number, ``F`` and a real okey the real okey's number.

Method (runs and sets)
----------------------
Maximise the value covered by groups; points = total value − covered.

1. **Sets** are enumerated number by number: at each number every choice of at most two
   sets from the colours present, each either natural (3 or 4 colours) or two colours
   plus one real okey.  A set of one natural and two okeys is never needed (the same
   tiles make a run), and a fourth tile that is an okey is accounted for in step 3.
2. **Runs** are solved per colour on what the sets leave, by an exact search over the
   positions 1..14 (14 is the high 1 after 13; each 1 is placed at 1 or at 14 by the
   caller): the lowest natural left is either left out or the lowest natural of a run
   ``[s, e]`` whose positions below it are okeys (padding) and whose empty positions are
   okeys.  The search returns, for each exact number of okeys used, the best natural
   value covered; it is cached per (colour counts, okeys) for the whole process.
   Substituting an okey for a natural inside a run is never needed: the natural would
   either join another run (an equal exchange) or be left out, and a left-out natural at
   a run's end is covered by leaving out the lowest natural (or the high 1) instead,
   which are a run's least-valued tiles.
3. The colours are combined over the okeys (at most two); an okey no run took may still
   join a set of three as its fourth tile.

Pairs are exact by enumerating what each real okey (at most two) pairs with.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations, combinations_with_replacement

from games.kdvli.engine.groups import natural
from games.okey.engine.tiles import FAKE, colour_of, make_face, number_of

MAX_TILES = 15  # a rack between take and throw (V-N2)
NEG = -(10**6)


@dataclass
class Count:
    runs_points: int
    groups: list[list[int]]  # runs and sets reaching runs_points (faces)
    left: list[int]
    pairs_points: int  # not doubled
    pairs: list[list[int]]
    pairs_left: list[int]
    points: int = field(init=False)  # min(runs, 2 × pairs): what the seat pays at M = 1
    counted: str = field(init=False)  # "runs" | "pairs"

    def __post_init__(self):
        self.points = min(self.runs_points, 2 * self.pairs_points)
        self.counted = "runs" if self.runs_points <= 2 * self.pairs_points else "pairs"


def _pos_value(q: int) -> int:
    return 1 if q == 14 else q


# --- runs of one colour ------------------------------------------------------------


@lru_cache(maxsize=1 << 18)
def _runs(counts: tuple, w: int) -> tuple[tuple, tuple]:
    """Best natural value covered by runs of one colour, for each exact number of okeys
    used ``0..w``; ``counts[q - 1]`` is the number of naturals at position ``q`` (1..14).
    Returns ``(values, choices)``; a choice is None (nothing left), ``(0,)`` (leave the
    lowest natural out) or ``(p, e, x)`` (a run from ``p - x`` to ``e``)."""
    p = 1
    for c in counts:
        if c:
            break
        p += 1
    if p > 14:
        return (0,) + (NEG,) * w, (None,) * (w + 1)
    vals = [NEG] * (w + 1)
    chs: list = [None] * (w + 1)
    cur = list(counts)
    cur[p - 1] -= 1
    sub, _ = _runs(tuple(cur), w)
    for j in range(w + 1):
        if sub[j] > vals[j]:
            vals[j], chs[j] = sub[j], (0,)
    # runs whose lowest natural is p (cur already has p's copy taken)
    nat = _pos_value(p)
    gaps = 0
    for e in range(p, 15):
        if e > p:
            if counts[e - 1]:
                cur[e - 1] -= 1
                nat += _pos_value(e)
            else:
                gaps += 1
                if gaps > w:
                    break
        lo = 2 if e == 14 else 1
        key = None
        for x in range(w - gaps + 1):
            s = p - x
            if s < lo:
                break
            length = e - s + 1
            if length > 13:
                break
            if length < 3:
                continue
            used = x + gaps
            if key is None:
                key = tuple(cur)
            sub, _ = _runs(key, w - used)
            for j in range(w - used + 1):
                if sub[j] > NEG:
                    v = sub[j] + nat
                    if v > vals[j + used]:
                        vals[j + used], chs[j + used] = v, (p, e, x)
    return tuple(vals), tuple(chs)


@lru_cache(maxsize=1 << 16)
def _colour(counts13: tuple, w: int) -> tuple[tuple, tuple]:
    """``_runs`` with each 1 placed low or high (V-G1); returns (values, ones-high)."""
    ones = counts13[0]
    best = [NEG] * (w + 1)
    high = [0] * (w + 1)
    for b in range(ones + 1):
        vals, _ = _runs((ones - b, *counts13[1:], b), w)
        for j in range(w + 1):
            if vals[j] > best[j]:
                best[j], high[j] = vals[j], b
    return tuple(best), tuple(high)


def _colour_runs(colour: int, counts13: tuple, w: int, j: int, okey: int) -> list[list[int]]:
    """The runs reaching ``_colour(counts13, w)[0][j]``, as faces."""
    _, high = _colour(counts13, w)
    b = high[j]
    counts = [counts13[0] - b, *counts13[1:], b]
    out = []
    while True:
        _, chs = _runs(tuple(counts), w)
        ch = chs[j]
        if ch is None:
            break
        p = next(q for q in range(1, 15) if counts[q - 1])
        if ch == (0,):
            counts[p - 1] -= 1
            continue
        _, e, x = ch
        faces = [okey] * x
        used = x
        for q in range(p, e + 1):
            if counts[q - 1]:
                counts[q - 1] -= 1
                f = make_face(colour, 1 if q == 14 else q)
                faces.append(FAKE if f == okey else f)
            else:
                faces.append(okey)
                used += 1
        out.append(faces)
        w -= used
        j -= used
    return out


# --- sets ---------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _set_options(cnt4: tuple, wilds: int) -> tuple:
    """The ways to take sets at one number: ``(removed per colour, okeys, sets)``, a set
    being ``(colours, okeys)``; the first option takes nothing."""
    present = [c for c in range(4) if cnt4[c]]
    singles = []
    for size in (2, 3, 4):
        for cols in combinations(present, size):
            if size >= 3:
                singles.append((cols, 0))
            elif wilds:
                singles.append((cols, 1))
    options = {((0, 0, 0, 0), 0): ()}
    for s in singles:
        rem = tuple(1 if c in s[0] else 0 for c in range(4))
        options.setdefault((rem, s[1]), (s,))
    for a, b in combinations_with_replacement(singles, 2):
        k = a[1] + b[1]
        if k > wilds:
            continue
        rem = tuple((c in a[0]) + (c in b[0]) for c in range(4))
        if any(rem[c] > cnt4[c] for c in range(4)):
            continue
        options.setdefault((rem, k), (a, b))
    return tuple((rem, k, sets) for (rem, k), sets in options.items())


def _natural_counts(faces: list[int], okey: int) -> tuple[list[list[int]], int]:
    counts = [[0] * 13 for _ in range(4)]
    wild = 0
    for f in faces:
        if f == okey:
            wild += 1
        else:
            n = natural(f, okey)
            counts[colour_of(n)][number_of(n) - 1] += 1
    return counts, wild


def _combine(arrs: list[tuple], r: int) -> tuple[list[int], list[list[int]]]:
    """Best sum over colours for each total okeys ``0..r``, with the split per colour."""
    best = list(arrs[0][: r + 1])
    split = [[j] for j in range(r + 1)]
    for arr in arrs[1:]:
        nb = [NEG] * (r + 1)
        ns: list = [None] * (r + 1)
        for a in range(r + 1):
            if best[a] <= NEG:
                continue
            for b in range(r + 1 - a):
                if arr[b] <= NEG:
                    continue
                v = best[a] + arr[b]
                if v > nb[a + b]:
                    nb[a + b], ns[a + b] = v, split[a] + [b]
        best, split = nb, ns
    return best, split


def runs_count(faces: list[int], okey: int) -> tuple[int, list[list[int]], list[int]]:
    """V-S2 runs points: ``(points, groups, left)`` for the least points left out of
    runs and sets."""
    counts, wilds = _natural_counts(faces, okey)
    okey_value = number_of(okey)
    total = sum(_value(f, okey) for f in faces)
    numbers = []
    for n in range(13):
        opts = _set_options(tuple(counts[c][n] for c in range(4)), wilds)
        if len(opts) > 1:
            numbers.append((n, opts))
    best = [NEG, None]  # covered, (chosen sets, wilds for runs, split)

    def leaf(chosen, sets_value, ks, threes):
        r = wilds - ks
        arrs = [_colour(tuple(counts[c]), r)[0] for c in range(4)]
        comb, split = _combine(arrs, r)
        for j in range(r + 1):
            if comb[j] <= NEG:
                continue
            absorbed = min(r - j, threes)
            covered = sets_value + comb[j] + (ks + j + absorbed) * okey_value
            if covered > best[0]:
                best[0] = covered
                best[1] = (list(chosen), r, split[j], absorbed)

    def walk(i, chosen, sets_value, ks, threes):
        if best[0] >= total:
            return
        if i == len(numbers):
            leaf(chosen, sets_value, ks, threes)
            return
        n, opts = numbers[i]
        for rem, k, sets in opts:
            if ks + k > wilds:
                continue
            if any(counts[c][n] < rem[c] for c in range(4)):
                continue
            for c in range(4):
                counts[c][n] -= rem[c]
            chosen.append((n, sets))
            nat = sum(rem) * (n + 1)
            three = sum(1 for s in sets if len(s[0]) + s[1] == 3)
            walk(i + 1, chosen, sets_value + nat, ks + k, threes + three)
            chosen.pop()
            for c in range(4):
                counts[c][n] += rem[c]

    walk(0, [], 0, 0, 0)
    chosen, r, split, absorbed = best[1]
    groups: list[list[int]] = []
    for n, sets in chosen:
        for cols, k in sets:
            g = []
            for c in cols:
                counts[c][n] -= 1
                f = make_face(c, n + 1)
                g.append(FAKE if f == okey else f)
            groups.append(g + [okey] * k)
    for c in range(4):
        groups.extend(_colour_runs(c, tuple(counts[c]), r, split[c], okey))
    for g in groups:
        if absorbed and len(g) == 3 and _is_set_shape(g, okey):
            g.append(okey)
            absorbed -= 1
    left = _minus(faces, [f for g in groups for f in g])
    return total - best[0], groups, left


def _is_set_shape(g: list[int], okey: int) -> bool:
    nums = {number_of(natural(f, okey)) for f in g if f != okey}
    return len(nums) == 1 and len([f for f in g if f != okey]) < 4


def _value(face: int, okey: int) -> int:
    return number_of(okey if face in (FAKE, okey) else face)


def _minus(faces: list[int], used: list[int]) -> list[int]:
    rest = list(faces)
    for f in used:
        rest.remove(f)
    return sorted(rest)


# --- pairs --------------------------------------------------------------------------


def pairs_count(faces: list[int], okey: int) -> tuple[int, list[list[int]], list[int]]:
    """V-S2 pairs points (not doubled): ``(points, pairs, left)``.  A pair is two tiles
    of one face (``F F`` too) or a natural plus a real okey (V-G3)."""
    wilds = sum(1 for f in faces if f == okey)
    naturals = [f for f in faces if f != okey]
    by_face: dict[int, list[int]] = {}
    for f in naturals:
        by_face.setdefault(natural(f, okey), []).append(f)
    okey_value = number_of(okey)
    targets = [None, *sorted(by_face)]
    best = None
    for choice in combinations_with_replacement(targets, wilds):
        ok = all(choice.count(t) <= len(by_face[t]) for t in set(choice) if t is not None)
        if not ok:
            continue
        cost = okey_value * choice.count(None)
        for face, tiles in by_face.items():
            rest = len(tiles) - choice.count(face)
            if rest % 2:
                cost += number_of(face)
        if best is None or cost < best[0]:
            best = (cost, choice)
    cost, choice = best
    pairs: list[list[int]] = []
    left: list[int] = []
    for face in sorted(by_face):
        tiles = list(by_face[face])
        for _ in range(choice.count(face)):
            pairs.append([tiles.pop(), okey])
        while len(tiles) >= 2:
            pairs.append([tiles.pop(), tiles.pop()])
        left.extend(tiles)
    left.extend([okey] * choice.count(None))
    return cost, pairs, sorted(left)


def count(faces: list[int], okey: int) -> Count:
    """Both V-S2 counts of a rack (0..15 tiles)."""
    faces = list(faces)
    rp, groups, left = runs_count(faces, okey)
    pp, pairs, pleft = pairs_count(faces, okey)
    return Count(rp, groups, left, pp, pairs, pleft)


def points(faces: list[int], okey: int) -> int:
    """V-S2: ``min(runs points, 2 × pairs points)``."""
    return count(faces, okey).points


def finishes(faces: list[int], okey: int, kinds=("runs", "pairs"), counter=None) -> list[tuple]:
    """Every ``(finishing face, kind, groups)`` that 15 faces allow (V-F1, V-F2): the
    other 14 make runs and sets (``"runs"``) or seven pairs (``"pairs"``), in face order.
    ``counter(faces, okey)`` counts a rack (``count``, or a cached copy of it)."""
    counter = counter or count
    out = []
    # Without f the points drop by at most f's value (an arrangement of the rest is one
    # of the whole rack with f left out), so only tiles worth at least the whole rack's
    # points can be finishing tiles: usually none, and one count decides.
    whole = counter(faces, okey)
    for f in sorted(set(faces)):
        v = _value(f, okey)
        if v < whole.runs_points and v < whole.pairs_points:
            continue
        rest = list(faces)
        rest.remove(f)
        c = counter(rest, okey)
        if "runs" in kinds and c.runs_points == 0:
            out.append((f, "runs", c.groups))
        if "pairs" in kinds and c.pairs_points == 0 and len(c.pairs) == 7:
            out.append((f, "pairs", c.pairs))
    return out
