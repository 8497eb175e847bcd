"""The exact hand solver behind *Diz* (K-R4), the bots and the "points left" display.

Pure Python, no Django.  Entry point::

    solve(faces, okey, task) -> Solution

``faces`` are tile faces as in :mod:`game.engine.tiles` (a face equal to ``okey`` is a
real okey, ``FAKE`` is a fake okey), ``okey`` is the real okey's face and ``task`` is
``None`` (already opened), a task tuple from :mod:`game.engine.tasks`, or ``FINISH``.

Rules used (``kut.md``):

* K-G1 runs: 3..13 tiles of one colour, consecutive, 1 low only; K-G2 küts: 3..4
  tiles of one number in distinct colours; K-G3 pairs: two identical naturals
  (``F F`` included) or a natural plus a real okey (``F`` + real okey is *not* a pair,
  two real okeys are never a pair); K-G5 every group holds a non-okey (automatic for
  runs and küts, which have >= 3 tiles while at most 2 real okeys exist).
* K-T5 real okeys are wild; K-T6 a fake okey is a natural copy of the okey face, so
  the "natural" count of the okey face is the number of ``F`` tiles.
* K-O2 exact task lengths; K-O6 exactly 5 pairs; K-O7 finish from hand.
* K-S3/K-S4 points: a tile counts its number, ``F`` the okey's number, a real okey 100.

Method: an exact dynamic programme over the numbers 1..13 (a "broken profile" that
handles one colour at a time inside each number).  Per colour it keeps the lengths of
up to two open free runs (capped at 3: a run of >= 3 may continue or stop), the
lengths of open *task* runs (exact length), the real okeys still unused and the task
groups still needed.  After the four colours of a number, the naturals not taken by
runs are split into küts / pairs / left-over by a cached per-number table.  Two free
runs per colour suffice: if three runs of one colour overlapped, their common part
would need a real okey at every position (only two naturals per face), so it is at
most two long, and the run ending first and the run starting last can be merged into
one run, freeing the okeys of the overlap (they can extend the merged run).

Objectives (lexicographic, smaller is better):

* ``task None`` / failed task: points left (K-S3, real okey 100).
* a task that can be opened: (1) points that would stay in hand after arranging the
  tiles not used by the opening into runs and küts; (2) real okeys used by the
  opening, counting 2 per okey in a küt and 1 per okey in a run or pair (K-R4: küts
  are kept whole / natural first, and okeys are kept in hand when possible).
  ``points_left`` is reported for the remaining tiles as they are.
* ``FINISH``: exactly one tile left; prefer that tile to be a real okey (K-S1: -200).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from game.engine.tiles import FAKE

RUN, KUT, PAIR = "run", "kut", "pair"
OKEY_POINTS = 100
MAX_TILES = 32
_SCALE = 8  # primary cost * _SCALE + secondary (task okey weight <= 4)


class SolverError(ValueError):
    """Invalid solver input (not a possible rack)."""


@dataclass
class Solution:
    can_open: bool | None
    groups: list[list[int]] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    left: list[int] = field(default_factory=list)
    points_left: int = 0

    def as_dict(self) -> dict:
        return {
            "can_open": self.can_open,
            "groups": [list(g) for g in self.groups],
            "kinds": list(self.kinds),
            "left": list(self.left),
            "points_left": self.points_left,
        }


# --------------------------------------------------------------------------------
# per-colour state: free run slots (sorted pair a <= b, values 0..3) and task runs
# (sorted tuple of open lengths, at most two).  Encoded as one small int.

_TA_LIST: list[tuple] = [()]
for _l1 in range(1, 5):
    _TA_LIST.append((_l1,))
for _l1 in range(1, 5):
    for _l2 in range(_l1, 5):
        _TA_LIST.append((_l1, _l2))
_TA_CODE = {ta: i for i, ta in enumerate(_TA_LIST)}


def _cs_encode(a: int, b: int, ta: tuple) -> int:
    if a > b:
        a, b = b, a
    return (a * 4 + b) + 16 * _TA_CODE[ta]


def _cs_decode(cs: int) -> tuple[int, int, tuple]:
    code = cs & 15
    return code >> 2, code & 3, _TA_LIST[cs >> 4]


_FREE_ACTS = {
    # value before this number -> list of (value after, action)
    0: ((0, "none"), (1, "start")),
    1: ((2, "cont"),),
    2: ((3, "cont"),),
    3: ((3, "cont"), (0, "end")),
}

_COLOUR_CACHE: dict = {}
_STATS = None


def _colour_opts(cs: int, x: int, j: int, tr_can: int, L: int, n: int) -> list:
    """Options for one colour at number ``n``.

    ``cs`` colour state, ``x`` naturals of (colour, n), ``j`` real okeys available,
    ``tr_can`` task runs that may still start, ``L`` task run length.
    Returns tuples ``(new_cs, started, okeys, task_okeys, resid, detail)`` where detail is
    ``(free_actions, free_nat_flags, task_nat_flags, starts)`` for reconstruction.
    """
    key = (cs, x, j, tr_can, L, n)
    res = _COLOUR_CACHE.get(key)
    if res is not None:
        return res
    a, b, ta = _cs_decode(cs)
    out = []
    seen = set()
    # task runs: all continue; 0..tr_can starts
    t_after_cont = []
    for ln in ta:
        t_after_cont.append(ln + 1)
    max_start = tr_can if (L and n + L - 1 <= 13) else 0
    for acts_a in _FREE_ACTS[a]:
        for acts_b in _FREE_ACTS[b]:
            na, nb = acts_a[0], acts_b[0]
            # run shorter than 3 must be able to reach 3 within 1..13
            bad = False
            for v in (na, nb):
                if (v == 1 and n > 11) or (v == 2 and n > 12):
                    bad = True
            if bad:
                continue
            kf = (acts_a[1] in ("start", "cont")) + (acts_b[1] in ("start", "cont"))
            for starts in range(max_start + 1):
                kt = len(ta) + starts
                new_ta = [ln for ln in t_after_cont if ln < L] + [1] * starts
                if len(new_ta) > 2:
                    continue
                new_ta_t = tuple(sorted(new_ta))
                ncs = _cs_encode(na, nb, new_ta_t)
                for rt in range(min(kt, x) + 1):
                    for rf in range(min(kf, x - rt) + 1):
                        ok = (kt - rt) + (kf - rf)
                        if ok > j:
                            continue
                        tok = kt - rt
                        resid = x - rt - rf
                        sig = (ncs, starts, ok, tok, resid)
                        if sig in seen:
                            continue
                        seen.add(sig)
                        detail = ((acts_a[1], acts_b[1]), rf, rt, starts)
                        out.append((ncs, starts, ok, tok, resid, detail))
    res = out
    _COLOUR_CACHE[key] = res
    return res


# --------------------------------------------------------------------------------
# per-number split of the residual naturals into küts / pairs / left.

def _kut_candidates():
    cands = []
    for size in (3, 4):
        for cols in combinations(range(4), size):
            for nok in range(0, 3):
                for okcols in combinations(cols, nok):
                    if nok >= size:
                        continue
                    nat = tuple(c for c in cols if c not in okcols)
                    cands.append((cols, nat, okcols))
    return cands


_KUT_CANDS = _kut_candidates()
_RESID_CACHE: dict = {}


def _resid_opts(y: tuple, j: int, tk: int, Lk: int, p: int, okcol: int) -> list:
    """Ways to use the residual naturals ``y`` (per colour) at one number.

    ``j`` okeys available, ``tk`` task küts (length ``Lk``) still needed, ``p`` pairs
    still needed, ``okcol`` the colour whose natural at this number is ``F`` (no
    F + okey pair) or -1.  Returns tuples
    ``(okeys, tk_done, p_done, nat_left, task_weight, groups)``; ``groups`` is a tuple
    of ``(kind, colours_natural, colours_okey, is_task)``.
    """
    key = (y, j, tk, Lk, p, okcol)
    res = _RESID_CACHE.get(key)
    if res is not None:
        return res
    cands = []
    for cols, nat, okc in _KUT_CANDS:
        cands.append((KUT, nat, okc, False))
        if tk and len(cols) == Lk:
            cands.append((KUT, nat, okc, True))
    if p:
        for c in range(4):
            cands.append((PAIR, (c, c), (), True))
            if c != okcol:
                cands.append((PAIR, (c,), (c,), True))
    best: dict = {}

    def rec(start, yy, jj, tkd, pd, weight, groups):
        sig = (j - jj, tkd, pd, sum(yy))
        cur = best.get(sig)
        if cur is None or weight < cur[0]:
            best[sig] = (weight, groups)
        for i in range(start, len(cands)):
            kind, nat, okc, is_task = cands[i]
            nok = len(okc)
            if nok > jj:
                continue
            if is_task:
                if kind == KUT and tkd >= tk:
                    continue
                if kind == PAIR and pd >= p:
                    continue
            ny = list(yy)
            okflag = True
            for c in nat:
                ny[c] -= 1
                if ny[c] < 0:
                    okflag = False
            if not okflag:
                continue
            w = weight
            if is_task:
                w += nok * (2 if kind == KUT else 1)
            rec(
                i,
                ny,
                jj - nok,
                tkd + (1 if (is_task and kind == KUT) else 0),
                pd + (1 if kind == PAIR else 0),
                w,
                groups + ((kind, nat, okc, is_task),),
            )

    rec(0, list(y), j, 0, 0, 0, ())
    res = [
        (ok, tkd, pd, left, w, groups)
        for (ok, tkd, pd, left), (w, groups) in best.items()
    ]
    _RESID_CACHE[key] = res
    return res


# --------------------------------------------------------------------------------
# the dynamic programme

def _dp(nat, J, okey, mode, Lr=0, nr=0, Lk=0, nk=0, npairs=0):
    """Run the DP.  ``mode``: "open" (points), "task" (points of the arranged rest +
    task okey weight) or "finish" (exactly one tile left, prefer a real okey).
    Returns (cost, path) or None when infeasible; path is a list of choices."""
    okc, okn = divmod(okey, 13)
    okn += 1
    finish = mode == "finish"
    # state: (cs0, cs1, cs2, cs3, J, tr, tk, p, fl) + partial residuals
    start = (0, 0, 0, 0, J, nr, nk, npairs, 0)
    layer = {start: (0, None, None)}
    history = []
    for n in range(1, 14):
        row = nat[n]
        for c in range(4):
            x = row[c]
            new = {}
            for st, val in layer.items():
                cost = val[0]
                tr = st[5]
                for ncs, started, ok, tok, resid, det in _colour_opts(
                    st[c], x, st[4], tr if tr < 2 else 2, Lr, n
                ):
                    if started > tr:
                        continue
                    nst = list(st)
                    nst[c] = ncs
                    nst[4] -= ok
                    nst[5] = tr - started
                    nst.append(resid)
                    nst = tuple(nst)
                    ncost = cost + tok
                    old = new.get(nst)
                    if old is None or ncost < old[0]:
                        new[nst] = (ncost, st, det)
            history.append(new)
            layer = new
            if _STATS is not None:
                _STATS.append(len(new))
            if not layer:
                return None
        # residual split
        new = {}
        oc = okc if okn == n else -1
        for st, val in layer.items():
            cost = val[0]
            base = st[:9]
            y = st[9:]
            jj, tk, p, fl = base[4], base[6], base[7], base[8]
            for ok, tkd, pd, left, w, groups in _resid_opts(y, jj, tk, Lk, p, oc):
                if finish:
                    nfl = fl + left
                    if nfl > 1:
                        continue
                    ncost = cost + left  # a natural left is worse than an okey left
                else:
                    nfl = 0
                    ncost = cost + (left * n) * _SCALE + w
                nst = base[:4] + (jj - ok, base[5], tk - tkd, p - pd, nfl)
                old = new.get(nst)
                if old is None or ncost < old[0]:
                    new[nst] = (ncost, st, groups)
        history.append(new)
        layer = new
        if not layer:
            return None
    best = None
    for st, val in layer.items():
        ok_final = True
        for c in range(4):
            a, b, ta = _cs_decode(st[c])
            if a in (1, 2) or b in (1, 2) or ta:
                ok_final = False
                break
        if not ok_final or st[5] or st[6] or st[7]:
            continue
        cost = val[0]
        if finish:
            if st[8] + st[4] != 1:
                continue
        else:
            cost += st[4] * OKEY_POINTS * _SCALE
        if best is None or cost < best[0]:
            best = (cost, st)
    if best is None:
        return None
    # walk back
    path = []
    st = best[1]
    for layer_d in reversed(history):
        cost, prev, det = layer_d[st]
        path.append(det)
        st = prev
    path.reverse()
    return best[0], path


def _reconstruct(path, nat, okey, Lr=0):
    """Turn a DP path into groups.  Returns (free_groups, task_groups, used counts)."""
    okc, okn = divmod(okey, 13)
    okn += 1

    def nat_face(c, n):
        return FAKE if (c == okc and n == okn) else c * 13 + n - 1

    free_groups: list[tuple[str, list[int]]] = []
    task_groups: list[tuple[str, list[int]]] = []
    # per colour: two free slots (each a list of faces or None), task runs list
    free = [[None, None] for _ in range(4)]
    tasks_open: list[list] = [[] for _ in range(4)]
    i = 0
    for n in range(1, 14):
        for c in range(4):
            (act_a, act_b), rf, rt, starts = path[i]
            i += 1
            # canonical slot order = sorted by capped length (a <= b)
            slots = free[c]

            def cap(s):
                return 0 if s is None else min(len(s), 3)

            order = sorted(range(2), key=lambda k: cap(slots[k]))
            nat_left_f = rf
            for k, act in zip(order, (act_a, act_b)):
                if act == "none":
                    continue
                if act == "end":
                    free_groups.append((RUN, slots[k]))
                    slots[k] = None
                    continue
                if nat_left_f > 0:
                    face = nat_face(c, n)
                    nat_left_f -= 1
                else:
                    face = okey
                if act == "start":
                    slots[k] = [face]
                else:
                    slots[k].append(face)
            # task runs: continue all open ones, then start new ones
            nat_left_t = rt
            for run in tasks_open[c]:
                if len(run) >= Lr:
                    continue
                if nat_left_t > 0:
                    run.append(nat_face(c, n))
                    nat_left_t -= 1
                else:
                    run.append(okey)
            for _ in range(starts):
                if nat_left_t > 0:
                    face = nat_face(c, n)
                    nat_left_t -= 1
                else:
                    face = okey
                tasks_open[c].append([face])
        groups = path[i]
        i += 1
        for kind, natc, okcs, is_task in groups:
            faces = [nat_face(cc, n) for cc in natc] + [okey] * len(okcs)
            if kind == KUT:
                # küt: naturals in colour order, okeys after
                pass
            (task_groups if is_task else free_groups).append((kind, faces))
    for c in range(4):
        for s in free[c]:
            if s is not None:
                free_groups.append((RUN, s))
    return free_groups, task_groups, tasks_open


def _finish_task_runs(tasks_open, Lr):
    """Split the (possibly consecutive) task runs of each colour into runs of Lr."""
    out = []
    for c in range(4):
        for run in tasks_open[c]:
            out.append((RUN, run))
    return out


def _count(faces, okey):
    nat = [[0, 0, 0, 0] for _ in range(14)]
    J = 0
    okc, okn = divmod(okey, 13)
    okn += 1
    for f in faces:
        if f == okey:
            J += 1
        elif f == FAKE:
            nat[okn][okc] += 1
        elif 0 <= f < 52:
            nat[f % 13 + 1][f // 13] += 1
        else:
            raise SolverError(f"bad face {f!r}")
    for n in range(1, 14):
        for c in range(4):
            if nat[n][c] > 2:
                raise SolverError("more than two copies of a face")
    if J > 2:
        raise SolverError("more than two real okeys")
    if len(faces) > MAX_TILES:
        raise SolverError("more than 32 tiles")
    return nat, J


def tile_points(face: int, okey: int) -> int:
    """K-S3/K-S4 points of one tile left in hand (a real okey counts 100)."""
    if face == okey:
        return OKEY_POINTS
    if face == FAKE:
        return okey % 13 + 1
    return face % 13 + 1


def _minus(faces, used):
    rest = list(faces)
    for f in used:
        rest.remove(f)
    return rest


def _sorted_left(faces):
    return sorted(faces)


def _group_order(groups):
    """Runs first (by colour, start), then küts (by number), then pairs."""
    return groups


def _solve_open(faces, okey, nat, J) -> Solution:
    res = _dp(nat, J, okey, "open")
    assert res is not None  # leaving everything is always possible
    free_groups, _task, _ = _reconstruct(res[1], nat, okey)
    used = [f for _, g in free_groups for f in g]
    left = _sorted_left(_minus(faces, used))
    return Solution(
        can_open=None,
        groups=[g for _, g in free_groups],
        kinds=[k for k, _ in free_groups],
        left=left,
        points_left=sum(tile_points(f, okey) for f in left),
    )


def solve(faces, okey: int, task) -> Solution:
    """Solve a rack exactly.  See the module docstring."""
    faces = list(faces)
    if not isinstance(okey, int) or not 0 <= okey < 52:
        raise SolverError(f"bad okey face {okey!r}")
    nat, J = _count(faces, okey)
    if task is None:
        return _solve_open(faces, okey, nat, J)
    task = tuple(task)
    if task == ():
        res = _dp(nat, J, okey, "finish") if faces else None
        if res is None:
            sol = _solve_open(faces, okey, nat, J)
            sol.can_open = False
            return sol
        free_groups, _t, _ = _reconstruct(res[1], nat, okey)
        used = [f for _, g in free_groups for f in g]
        left = _sorted_left(_minus(faces, used))
        return Solution(
            can_open=True,
            groups=[g for _, g in free_groups],
            kinds=[k for k, _ in free_groups],
            left=left,
            points_left=sum(tile_points(f, okey) for f in left),
        )
    Lr = nr = Lk = nk = npairs = 0
    for kind, length in task:
        if kind == RUN:
            if nr and length != Lr:
                raise SolverError("task runs of different lengths are not supported")
            Lr, nr = length, nr + 1
        elif kind == KUT:
            if nk and length != Lk:
                raise SolverError("task küts of different lengths are not supported")
            Lk, nk = length, nk + 1
        elif kind == PAIR:
            if length != 2:
                raise SolverError("a pair has two tiles")
            npairs += 1
        else:
            raise SolverError(f"unknown group kind {kind!r}")
    if nr > 2 or nk > 2 or (Lr and not 3 <= Lr <= 5) or (Lk and Lk not in (3, 4)):
        raise SolverError(f"unsupported task {task!r}")
    res = _dp(nat, J, okey, "task", Lr, nr, Lk, nk, npairs)
    if res is None:
        sol = _solve_open(faces, okey, nat, J)
        sol.can_open = False
        return sol
    _free, task_groups, tasks_open = _reconstruct(res[1], nat, okey, Lr)
    groups = []
    # order as in the task: küts, runs, pairs in the order the task lists them
    kuts = [g for k, g in task_groups if k == KUT]
    pairs = [g for k, g in task_groups if k == PAIR]
    runs = [g for k, g in _finish_task_runs(tasks_open, Lr)]
    kinds = []
    for kind, _length in task:
        if kind == KUT:
            groups.append(kuts.pop(0))
        elif kind == RUN:
            groups.append(runs.pop(0))
        else:
            groups.append(pairs.pop(0))
        kinds.append(kind)
    assert not kuts and not runs and not pairs
    used = [f for g in groups for f in g]
    left = _sorted_left(_minus(faces, used))
    return Solution(
        can_open=True,
        groups=groups,
        kinds=kinds,
        left=left,
        points_left=sum(tile_points(f, okey) for f in left),
    )
