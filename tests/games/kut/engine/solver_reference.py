"""Independent references for the hand solver (games/kut/engine/solver.py).

* ``exhaustive(faces, okey, task)`` — brute force over explicit groups; small racks
  only (<= ~10 tiles).
* ``ilp(faces, okey, task)`` — an integer programme solved with PuLP/CBC: every
  candidate run / küt / pair (with real okeys at explicit positions) is an integer
  variable, tile counts are constraints, points left are minimised.
* ``check_groups(...)`` — validity of a solver answer (K-G1…K-G5, exact task shape,
  uses exactly the rack's tiles).

Both references return ``(can_open, value)`` where ``value`` is
  - task ``None``: the minimum points left;
  - a normal task: the minimum points left after arranging the tiles the opening does
    not use into runs and küts (``None`` when it cannot be opened) — the solver's
    ``PLAY`` objective; with ``objective="spec"`` (``exhaustive`` only) the minimum
    points of the tiles the opening does not use, as they are (kut-scenario.md);
  - ``FINISH``: whether some finish leaves a real okey as the last tile; with
    ``objective="spec"`` the fewest points of the one tile a finish can leave.
They share no code with the solver except the tile encoding.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from games.okey.engine.tiles import FAKE

J = "J"  # a real okey in the references' tile multisets
OKEY_POINTS = 100


def natural_face(colour: int, number: int, okey: int) -> int:
    """The natural tile showing colour/number: the okey face's natural is F (K-T6)."""
    f = colour * 13 + number - 1
    return FAKE if f == okey else f


def points(tile, okey: int) -> int:
    if tile == J:
        return OKEY_POINTS
    if tile == FAKE:
        return okey % 13 + 1
    return tile % 13 + 1


def to_tiles(faces, okey):
    return Counter(J if f == okey else f for f in faces)


# --------------------------------------------------------------------------------
# candidate groups (as Counters of tiles), restricted to what the rack can supply

def candidate_groups(rack: Counter, okey: int, kinds=("run", "kut", "pair"),
                     lengths=None):
    """All groups buildable from ``rack``: list of (kind, length, Counter).
    ``lengths``: optional dict kind -> allowed lengths."""
    nj = rack[J]
    out = []

    def allowed(kind, length):
        return lengths is None or length in lengths.get(kind, ())

    if "run" in kinds:
        for c in range(4):
            for s in range(1, 14):
                for e in range(s + 2, 14):
                    length = e - s + 1
                    if not allowed("run", length):
                        continue
                    faces = [natural_face(c, n, okey) for n in range(s, e + 1)]
                    # choose okey positions (at most nj of them), >= 1 natural (K-G5)
                    missing = [i for i, f in enumerate(faces) if rack[f] == 0]
                    if len(missing) > nj:
                        continue
                    extra_pos = [i for i in range(length) if i not in missing]
                    for k in range(0, nj - len(missing) + 1):
                        for extra in _combos(extra_pos, k):
                            okpos = set(missing) | set(extra)
                            if len(okpos) >= length:
                                continue
                            g = Counter()
                            for i, f in enumerate(faces):
                                g[J if i in okpos else f] += 1
                            if _fits(g, rack):
                                out.append(("run", length, g))
    if "kut" in kinds:
        for n in range(1, 14):
            for size in (3, 4):
                if not allowed("kut", size):
                    continue
                for cols in _combos(list(range(4)), size):
                    for k in range(0, min(nj, size - 1) + 1):
                        for okc in _combos(list(cols), k):
                            g = Counter()
                            for c in cols:
                                g[J if c in okc else natural_face(c, n, okey)] += 1
                            if _fits(g, rack):
                                out.append(("kut", size, g))
    if "pair" in kinds and allowed("pair", 2):
        naturals = [t for t in rack if t != J]
        for t in naturals:
            g = Counter({t: 2})
            if _fits(g, rack):
                out.append(("pair", 2, g))
            if t != FAKE and nj >= 1:  # K-G3: F + real okey is not a pair
                out.append(("pair", 2, Counter({t: 1, J: 1})))
    # dedupe
    seen = set()
    res = []
    for kind, length, g in out:
        key = (kind, tuple(sorted(g.items(), key=str)))
        if key not in seen:
            seen.add(key)
            res.append((kind, length, g))
    return res


def _combos(items, k):
    from itertools import combinations

    return combinations(items, k)


def _fits(g: Counter, rack: Counter) -> bool:
    return all(rack[t] >= n for t, n in g.items())


def _key(rack: Counter):
    return tuple(sorted(((str(t), n) for t, n in rack.items() if n), key=str))


# --------------------------------------------------------------------------------
# exhaustive search

def _min_left(rack: Counter, okey: int) -> int:
    """Minimum points left arranging ``rack`` into runs and küts (brute force)."""
    cands = candidate_groups(rack, okey, kinds=("run", "kut"))

    @lru_cache(maxsize=None)
    def best(key):
        r = Counter(dict((_untag(t), n) for t, n in key))
        tiles = sorted((t for t in r if r[t]), key=str)
        if not tiles:
            return 0
        t = tiles[0]
        # either t (one copy) is left, or it is in a group
        r1 = r.copy()
        r1[t] -= 1
        res = points(t, okey) + best(_key(r1))
        for _kind, _len, g in cands:
            if g[t] and _fits(g, r):
                res = min(res, best(_key(r - g)))
        return res

    return best(_key(rack))


def _untag(s: str):
    return J if s == J else int(s)


def _can_cover_all_but_one(rack: Counter, okey: int):
    """K-O7: (possible, possible with a real okey as the last tile)."""
    cands = candidate_groups(rack, okey, kinds=("run", "kut"))

    @lru_cache(maxsize=None)
    def cover(key):
        r = Counter(dict((_untag(t), n) for t, n in key))
        tiles = sorted((t for t in r if r[t]), key=str)
        if not tiles:
            return True
        t = tiles[0]
        for _kind, _len, g in cands:
            if g[t] and _fits(g, r) and cover(_key(r - g)):
                return True
        return False

    possible = okey_last = False
    cheapest = None
    for t in list(rack):
        if rack[t] == 0:
            continue
        r = rack.copy()
        r[t] -= 1
        if cover(_key(r)):
            possible = True
            if t == J:
                okey_last = True
            if cheapest is None or points(t, okey) < cheapest:
                cheapest = points(t, okey)
    return possible, okey_last, cheapest


def _raw(rack: Counter, okey: int) -> int:
    """The points of ``rack``'s tiles as they are (a real okey 100)."""
    return sum(points(t, okey) * n for t, n in rack.items())


def exhaustive(faces, okey: int, task, objective: str = "play"):
    rack = to_tiles(faces, okey)
    if task is None:
        return None, _min_left(rack, okey)
    if tuple(task) == ():
        if objective == "spec" and len(faces) < 2:  # nothing to submit: no finish
            return False, None
        if not faces:
            return False, False
        possible, okey_last, cheapest = _can_cover_all_but_one(rack, okey)
        return possible, (cheapest if objective == "spec" else okey_last)
    need = Counter((k, n) for k, n in task)
    lengths = {}
    for k, n in need:
        lengths.setdefault(k, set()).add(n)
    cands = candidate_groups(rack, okey, kinds=tuple(lengths), lengths=lengths)
    best = None
    seen = set()

    def rec(i, remaining: Counter, r: Counter):
        nonlocal best
        if sum(remaining.values()) == 0:
            k = _key(r)
            if k in seen:
                return
            seen.add(k)
            v = _raw(r, okey) if objective == "spec" else _min_left(r, okey)
            if best is None or v < best:
                best = v
            return
        for idx in range(i, len(cands)):
            kind, length, g = cands[idx]
            if remaining[(kind, length)] and _fits(g, r):
                remaining[(kind, length)] -= 1
                rec(idx, remaining, r - g)
                remaining[(kind, length)] += 1

    rec(0, need.copy(), rack)
    return best is not None, best


# --------------------------------------------------------------------------------
# integer programme (PuLP / CBC)

def ilp(faces, okey: int, task, time_limit: int = 60):
    import pulp  # test dependency, imported lazily

    rack = to_tiles(faces, okey)
    tiles = [t for t in rack if rack[t]]
    free = candidate_groups(rack, okey, kinds=("run", "kut"))
    prob = pulp.LpProblem("kut", pulp.LpMinimize)
    xs = [pulp.LpVariable(f"g{i}", 0, 2, cat="Integer") for i in range(len(free))]
    left = {t: pulp.LpVariable(f"l_{t}", 0, rack[t], cat="Integer") for t in tiles}
    ts = []
    task_cands = []
    if task is not None and tuple(task) != ():
        need = Counter((k, n) for k, n in task)
        lengths = {}
        for k, n in need:
            lengths.setdefault(k, set()).add(n)
        task_cands = candidate_groups(rack, okey, kinds=tuple(lengths), lengths=lengths)
        ts = [pulp.LpVariable(f"t{i}", 0, 5, cat="Integer") for i in range(len(task_cands))]
        for (k, n), cnt in need.items():
            prob += pulp.lpSum(
                v for v, (kind, length, _g) in zip(ts, task_cands)
                if kind == k and length == n
            ) == cnt
    for t in tiles:
        prob += (
            pulp.lpSum(x * g[t] for x, (_k, _l, g) in zip(xs, free) if g[t])
            + pulp.lpSum(v * g[t] for v, (_k, _l, g) in zip(ts, task_cands) if g[t])
            + left[t]
            == rack[t]
        )
    finish = task is not None and tuple(task) == ()
    if finish:
        if not faces:
            return False, False
        prob += pulp.lpSum(left.values()) == 1
        # prefer the okey as the last tile
        prob += -(left[J] if J in left else 0)
    else:
        prob += pulp.lpSum(left[t] * points(t, okey) for t in tiles)
    status = prob.solve(pulp.PULP_CBC_CMD(msg=False, timeLimit=time_limit))
    name = pulp.LpStatus[status]
    if name == "Infeasible":
        if finish:
            return False, False
        return False, None
    if name != "Optimal":
        raise RuntimeError(f"CBC status {name}")
    if finish:
        return True, bool(J in left and round(left[J].value()) == 1)
    value = round(pulp.value(prob.objective) or 0)
    if task is None:
        return None, value
    return True, value


# --------------------------------------------------------------------------------
# validity of a solver answer

def group_kind(group, okey):
    """'run' / 'kut' / 'pair' if ``group`` (faces, real okey = okey face) is valid as
    given (runs in ascending order with okeys at their positions), else None."""
    n = len(group)
    nat = [f for f in group if f != okey]
    if not nat:  # K-G5
        return None

    def value(f):
        if f == FAKE:
            return okey // 13, okey % 13 + 1
        return f // 13, f % 13 + 1

    kinds = set()
    if n == 2:
        a, b = group
        if a != okey and b != okey and a == b:
            kinds.add("pair")
        if (a == okey) != (b == okey) and FAKE not in group:
            kinds.add("pair")
    if 3 <= n <= 13:
        # run: the first natural fixes colour and start
        i0 = next(i for i, f in enumerate(group) if f != okey)
        c0, v0 = value(group[i0])
        start = v0 - i0
        ok = 1 <= start and start + n - 1 <= 13
        if ok:
            for i, f in enumerate(group):
                if f == okey:
                    continue
                c, v = value(f)
                if c != c0 or v != start + i:
                    ok = False
                    break
        if ok:
            kinds.add("run")
    if 3 <= n <= 4:
        vals = [value(f) for f in nat]
        if len({v for _c, v in vals}) == 1 and len({c for c, _v in vals}) == len(vals):
            kinds.add("kut")
    return kinds


def check_solution(faces, okey, task, sol):
    """Raise AssertionError if ``sol`` is not a valid answer shape for ``task``."""
    used = Counter()
    for g, kind in zip(sol.groups, sol.kinds):
        ks = group_kind(g, okey)
        assert ks and kind in ks, (g, kind, ks)
        used.update(g)
    used.update(sol.left)
    assert used == Counter(faces), (sorted(used.elements()), sorted(faces))
    assert len(sol.groups) == len(sol.kinds)
    assert sol.points_left == sum(
        OKEY_POINTS if f == okey else points(f, okey) for f in sol.left
    )
    if task is None or not sol.can_open:
        assert "pair" not in sol.kinds
        if task is None:
            assert sol.can_open is None
    elif tuple(task) == ():
        assert "pair" not in sol.kinds
        assert len(sol.left) == 1
    else:
        shape = Counter((k, len(g)) for g, k in zip(sol.groups, sol.kinds))
        assert shape == Counter((k, n) for k, n in task), (shape, task)
