"""The exact hand solver behind *Diz* (K-R4), the bots and the "points left" display.

Pure Python, no Django.  Entry point::

    solve(faces, okey, task) -> Solution

``faces`` are tile faces as in :mod:`game.engine.tiles` (a face equal to ``okey`` is a
real okey, ``FAKE`` is a fake okey), ``okey`` is the real okey's face and ``task`` is
``None`` (already opened), a task tuple from :mod:`game.engine.tasks`, or ``FINISH``.

Rules used (``kut.md``):

* K-G1 runs: 3..13 tiles of one colour, consecutive, 1 low only; K-G2 küts: 3..4
  tiles of one number in distinct colours; K-G3 pairs: two identical naturals
  (``F F`` included) or a natural plus a real okey (``F`` + real okey is *not* a
  pair; two real okeys are never a pair); K-G5 every group holds a non-okey.
* K-T5 real okeys are wild; K-T6 a fake okey is a natural copy of the okey face, so
  the "natural" count of the okey face is the number of ``F`` tiles.
* K-O2 exact task lengths; K-O6 exactly 5 pairs; K-O7 finish from hand.
* K-S3/K-S4 points: a tile counts its number, ``F`` the okey's number, a real okey 100.

Method
------
An exact dynamic programme over the numbers 1..13, one colour at a time inside each
number ("broken profile").  Real okeys are split into three roles so that the DP only
branches on okeys whose position matters:

* **gap** okeys inside a free run, between two naturals;
* **padding** okeys that bring a free run or küt with one or two naturals up to three
  tiles (their position never matters: any side fits inside 1..13);
* **extra** okeys, which only need room in some free group: a run of length ``l``
  takes ``13 - l`` more, a küt of three one more.  The DP tracks the room (capped at
  2, the number of okeys) and charges 100 for each okey without room.

So a free run is represented by its *core*, from its first to its last natural.  Per
colour the state keeps up to two open cores (length so far capped at 3, pending gap
okeys, and whether the run started at 1 or 2, the only runs that can reach 12 tiles and
have room < 2).  Two free runs per colour suffice: if three cores of one colour
overlapped, every position of their common part would need a gap okey (a face has at
most two natural copies), so it has at most two positions and the core ending first and
the core starting last can be merged.  Task runs (exact length, K-O2) are tracked
separately with okeys anywhere.  Tiles a free group does not use are split per number
into küts / pairs / left-over by a cached table.

Objectives (lexicographic, smaller is better):

* ``task None`` / a task that cannot be opened: points left (K-S3, real okey 100).
* a task that can be opened: (1) the points that would stay in hand after arranging
  the tiles not used by the opening into runs and küts; (2) real okeys used by the
  opening, 2 per okey in a küt and 1 per okey in a run or pair (K-R4: küts are kept
  whole, i.e. natural, first; okeys stay in hand when possible).
  ``points_left`` reports the remaining tiles as they are (not further arranged).
* ``FINISH``: exactly one tile left; prefer that tile to be a real okey (K-S1: -200).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from game.engine.tiles import FAKE

RUN, KUT, PAIR = "run", "kut", "pair"
OKEY_POINTS = 100
MAX_TILES = 32
_SCALE = 8  # cost = primary * _SCALE + secondary (task okey weight <= 4)


class SolverError(ValueError):
    """Invalid solver input (not a possible rack or task)."""


@dataclass
class Solution:
    can_open: bool | None
    groups: list[list[int]] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    left: list[int] = field(default_factory=list)
    points_left: int = 0


def tile_points(face: int, okey: int) -> int:
    """K-S3/K-S4 points of one tile left in hand (a real okey counts 100)."""
    if face == okey:
        return OKEY_POINTS
    if face == FAKE:
        return okey % 13 + 1
    return face % 13 + 1


# --------------------------------------------------------------------------------
# free run slots.  0 = no run; otherwise 1 + ((k - 1) * 3 + g) * 3 + ls with
# k = core length so far (capped at 3), g = pending gap okeys (0..2),
# ls = 1 / 2 when the run started at number 1 / 2, else 0.

_NSLOT = 28


def _slot(k: int, g: int, ls: int) -> int:
    return 1 + ((k - 1) * 3 + g) * 3 + ls


def _unslot(v: int) -> tuple[int, int, int]:
    v -= 1
    ls = v % 3
    v //= 3
    return v // 3 + 1, v % 3, ls


def _ls(n: int, exact: bool) -> int:
    """Start marker: only runs starting at 1 or 2 can reach 12+ tiles (room < 2).
    Without ``exact`` every run is assumed to have room 2 (a relaxation that the
    caller verifies, falling back to the exact state space when it fails)."""
    return n if (n <= 2 and exact) else 0


def _end_room(v: int, e: int) -> tuple[int, int]:
    """(room for extra okeys capped at 2, padding okeys) of a core ending at ``e``."""
    k, g, ls = _unslot(v)
    if k < 3:
        return 2, 3 - k
    if ls == 0:
        return 2, 0
    length = e - ls + 1
    return min(2, 13 - length), 0


def _slot_actions(v: int, n: int, exact: bool) -> list:
    """(new slot, naturals, okeys, room, action) for one free slot at number n."""
    if v == 0:
        return [(0, 0, 0, 0, "none"), (_slot(1, 0, _ls(n, exact)), 1, 0, 0, "start")]
    k, g, ls = _unslot(v)
    acts = [(_slot(min(3, k + g + 1), 0, ls), 1, 0, 0, "cont")]
    if g < 2 and n <= 12:
        acts.append((_slot(k, g + 1, ls), 0, 1, 0, "gap"))
    if g == 0 and k > 1:
        # a lone natural + 2 okeys is left to the küt table (same tiles, same room)
        room, pad = _end_room(v, n - 1)
        acts.append((0, 0, pad, room, "end"))
        acts.append((_slot(1, 0, _ls(n, exact)), 1, pad, room, "restart"))
    return acts


# per-colour state: sorted pair of slots (a <= b) and the sorted tuple of open task
# run lengths (at most two, each 1..4)
_TA_LIST: list[tuple] = [()]
for _l1 in range(1, 5):
    _TA_LIST.append((_l1,))
for _l1 in range(1, 5):
    for _l2 in range(_l1, 5):
        _TA_LIST.append((_l1, _l2))
_TA_CODE = {ta: i for i, ta in enumerate(_TA_LIST)}
_PAIRS = _NSLOT * _NSLOT


def _cs_encode(a: int, b: int, ta: tuple) -> int:
    if a > b:
        a, b = b, a
    return a * _NSLOT + b + _PAIRS * _TA_CODE[ta]


def _cs_decode(cs: int) -> tuple[int, int, tuple]:
    ta, ab = divmod(cs, _PAIRS)
    a, b = divmod(ab, _NSLOT)
    return a, b, _TA_LIST[ta]


_COLOUR_CACHE: dict = {}
_STATS = None  # debugging hook: a list collects the DP layers


def _colour_opts(
    cs: int, x: int, j: int, tr_can: int, L: int, n: int, exact: bool, free: bool = True
) -> list:
    """Options for one colour at number ``n``.

    ``cs`` colour state, ``x`` naturals of (colour, n), ``j`` real okeys available,
    ``tr_can`` task runs that may still start, ``L`` task run length.  Returns tuples
    ``(new_cs, started, okeys, task_okeys, resid, room, detail)``.
    """
    key = (cs, x, j, tr_can, L, n, exact, free)
    res = _COLOUR_CACHE.get(key)
    if res is not None:
        return res
    a, b, ta = _cs_decode(cs)
    out = []
    seen = set()
    max_start = tr_can if (L and n + L - 1 <= 13) else 0
    cont = [ln + 1 for ln in ta]
    if free:
        acts_b_all = _slot_actions(b, n, exact)
        acts_a_all = _slot_actions(a, n, exact)
    else:  # feasibility of the task only: no free runs
        acts_b_all = acts_a_all = [(0, 0, 0, 0, "none")]
    for act_a in acts_a_all:
        for act_b in acts_b_all:
            if a == b and act_b[4] < act_a[4]:
                continue  # symmetric duplicate
            nf = act_a[1] + act_b[1]
            if nf > x:
                continue
            of = act_a[2] + act_b[2]
            if of > j:
                continue
            room = act_a[3] + act_b[3]
            for starts in range(max_start + 1):
                kt = len(ta) + starts
                new_ta = [ln for ln in cont if ln < L] + [1] * starts
                if len(new_ta) > 2:
                    continue
                ncs = _cs_encode(act_a[0], act_b[0], tuple(sorted(new_ta)))
                rts = range(min(kt, x - nf) + 1)
                if not free:  # feasibility: naturals first is never worse
                    rts = (min(kt, x - nf),)
                for rt in rts:
                    tok = kt - rt
                    ok = of + tok
                    if ok > j:
                        continue
                    resid = x - nf - rt
                    sig = (ncs, starts, ok, tok, resid, room)
                    if sig in seen:
                        continue
                    seen.add(sig)
                    detail = (act_a[4], act_a[0], act_b[4], act_b[0], rt, starts)
                    out.append((ncs, starts, ok, tok, resid, room, detail))
    _COLOUR_CACHE[key] = out
    return out


# --------------------------------------------------------------------------------
# per-number split of the residual naturals into küts / pairs / left.

def _kut_candidates():
    """(natural colours, okeys, room, is_task_size) for free küts and task küts."""
    free = []
    for size in range(1, 5):
        for cols in combinations(range(4), size):
            pad = max(0, 3 - size)
            free.append((cols, pad, 1 if size + pad == 3 else 0))
    task = {}
    for L in (3, 4):
        lst = []
        for size in range(1, L + 1):
            for cols in combinations(range(4), size):
                lst.append((cols, L - size))
        task[L] = lst
    return free, task


_FREE_KUTS, _TASK_KUTS = _kut_candidates()
_RESID_CACHE: dict = {}


def _resid_opts(
    y: tuple, j: int, tk: int, Lk: int, p: int, okcol: int, free: bool = True
) -> list:
    """Ways to use the residual naturals ``y`` (per colour) at one number.

    ``j`` okeys available, ``tk`` task küts of length ``Lk`` still needed, ``p`` pairs
    still needed, ``okcol`` the colour whose natural at this number is ``F`` (no
    ``F`` + okey pair) or -1.  Returns tuples
    ``(okeys, tk_done, p_done, nat_left, room, weight, groups)``; ``groups`` is a
    tuple of ``(kind, natural colours, okeys, is_task)``.
    """
    key = (y, j, tk, Lk, p, okcol, free)
    res = _RESID_CACHE.get(key)
    if res is not None:
        return res
    cands = []  # (kind, nat colours, okeys, room, is_task, weight)
    for cols, pad, room in _FREE_KUTS if free else ():
        cands.append((KUT, cols, pad, room, False, 0))
    if tk:
        for cols, nok in _TASK_KUTS[Lk]:
            cands.append((KUT, cols, nok, 0, True, 2 * nok))
    if p:
        for c in range(4):
            cands.append((PAIR, (c, c), 0, 0, True, 0))
            if c != okcol:
                cands.append((PAIR, (c,), 1, 0, True, 1))
    best: dict = {}

    def rec(start, yy, jj, tkd, pd, room, weight, groups):
        sig = (j - jj, tkd, pd, sum(yy), min(room, 2))
        cur = best.get(sig)
        if cur is None or weight < cur[0]:
            best[sig] = (weight, groups)
        for i in range(start, len(cands)):
            kind, nat, nok, r, is_task, w = cands[i]
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
            rec(
                i,
                ny,
                jj - nok,
                tkd + (1 if (is_task and kind == KUT) else 0),
                pd + (1 if kind == PAIR else 0),
                room + r,
                weight + w,
                groups + ((kind, nat, nok, is_task),),
            )

    rec(0, list(y), j, 0, 0, 0, 0, ())
    res = [
        (ok, tkd, pd, left, room, w, groups)
        for (ok, tkd, pd, left, room), (w, groups) in best.items()
    ]
    # drop options dominated by one with the same okeys/task progress, no more
    # naturals left, no less room and no more weight
    res.sort(key=lambda o: (o[0], o[1], o[2], o[3], -o[4], o[5]))
    kept = []
    for o in res:
        dominated = False
        for q in kept:
            if (
                q[0] == o[0] and q[1] == o[1] and q[2] == o[2]
                and q[3] <= o[3] and q[4] >= o[4] and q[5] <= o[5]
            ):
                dominated = True
                break
        if not dominated:
            kept.append(o)
    _RESID_CACHE[key] = kept
    return kept


# --------------------------------------------------------------------------------
# the dynamic programme

# packed DP state (one int): per colour 14 bits of colour state, then okeys left,
# task runs to start, task küts to do, pairs to do, finish left count, room, and
# the residual naturals of the colours already handled at the current number.
_SH_J, _SH_TR, _SH_TK, _SH_P, _SH_FL, _SH_R, _SH_Y = 56, 58, 60, 62, 65, 66, 68
_CS_MASK = (1 << 14) - 1
_Y_MASK = ((1 << 8) - 1) << _SH_Y
_OPT_CACHE: dict = {}
_ROPT_CACHE: dict = {}


def _unpack(st: int) -> tuple:
    return (
        st & _CS_MASK, (st >> 14) & _CS_MASK, (st >> 28) & _CS_MASK,
        (st >> 42) & _CS_MASK, (st >> _SH_J) & 3, (st >> _SH_TR) & 3,
        (st >> _SH_TK) & 3, (st >> _SH_P) & 7, (st >> _SH_FL) & 1, (st >> _SH_R) & 3,
    )


def _packed_colour_opts(c, cs, x, j, trc, L, n, exact, free):
    key = (c, cs, x, j, trc, L, n, exact, free)
    res = _OPT_CACHE.get(key)
    if res is None:
        res = []
        sh = 14 * c
        for ncs, started, ok, tok, resid, room, det in _colour_opts(
            cs, x, j, trc, L, n, exact, free
        ):
            delta = (
                ((ncs - cs) << sh) - (ok << _SH_J) - (started << _SH_TR)
                + (resid << (_SH_Y + 2 * c))
            )
            res.append((delta, tok, room, det))
        _OPT_CACHE[key] = res
    return res


def _packed_resid_opts(yb, j, tk, Lk, p, oc, mode, n):
    key = (yb, j, tk, Lk, p, oc, mode, n)
    res = _ROPT_CACHE.get(key)
    if res is None:
        res = []
        y = (yb & 3, (yb >> 2) & 3, (yb >> 4) & 3, (yb >> 6) & 3)
        free = mode != "feas"
        finish = mode == "finish"
        for ok, tkd, pd, left, room, w, groups in _resid_opts(y, j, tk, Lk, p, oc, free):
            if mode == "feas":
                dcost = w
                dfl = 0
            elif finish:
                if left > 1:
                    continue
                dcost = left
                dfl = left
            else:
                dcost = left * n * _SCALE + w
                dfl = 0
            delta = (
                -(yb << _SH_Y) - (ok << _SH_J) - (tkd << _SH_TK) - (pd << _SH_P)
                + (dfl << _SH_FL)
            )
            res.append((delta, dcost, room, j - ok, dfl, groups))
        _ROPT_CACHE[key] = res
    return res


def _dp(nat, J, okey, mode, Lr=0, nr=0, Lk=0, nk=0, npairs=0, exact=False,
        ub=None, beam=None):
    """``mode``: "open" (points left), "task" (points of the arranged rest, then task
    okey weight), "feas" (the task groups only, cost = task okey weight) or "finish"
    (exactly one tile left, prefer a real okey).

    ``ub``: prune partial states whose cost already exceeds it (costs only grow, so
    this is exact when ``ub`` is at least the optimum).  ``beam``: keep only that many
    cheapest states per layer (a heuristic).
    Returns ``(cost, final_state, path)`` or ``None`` when infeasible; the final state
    is unpacked: ``(cs0, cs1, cs2, cs3, okeys, tr, tk, p, fl, room)``."""
    okc, okn = divmod(okey, 13)
    okn += 1
    finish = mode == "finish"
    free = mode != "feas"
    if ub is None:
        ub = 1 << 60
    start = (J << _SH_J) | (nr << _SH_TR) | (nk << _SH_TK) | (npairs << _SH_P)
    layer = {start: (0, None, None)}
    history = []
    r_mask = 3 << _SH_R

    def rank(kv):
        # cost so far plus the okeys that could not be placed yet (charged at the end)
        st = kv[0]
        over = ((st >> _SH_J) & 3) - ((st >> _SH_R) & 3)
        return kv[1][0] + (over * OKEY_POINTS * _SCALE if over > 0 else 0)

    def trim(new):
        if beam is not None and len(new) > beam:
            return dict(sorted(new.items(), key=rank)[:beam])
        return new

    for n in range(1, 14):
        row = nat[n]
        for c in range(4):
            x = row[c]
            sh = 14 * c
            new = {}
            get = new.get
            for st, val in layer.items():
                cost = val[0]
                tr = (st >> _SH_TR) & 3
                for delta, tok, room, det in _packed_colour_opts(
                    c, (st >> sh) & _CS_MASK, x, (st >> _SH_J) & 3,
                    tr if tr < 2 else 2, Lr, n, exact, free,
                ):
                    ncost = cost + tok
                    if ncost > ub:
                        continue
                    nst = st + delta
                    if room:
                        r = ((nst >> _SH_R) & 3) + room
                        nst = (nst & ~r_mask) | ((r if r < 2 else 2) << _SH_R)
                    old = get(nst)
                    if old is None or ncost < old[0]:
                        new[nst] = (ncost, st, det)
            new = trim(new)
            history.append(new)
            layer = new
            if _STATS is not None:
                _STATS.append(new)
            if not layer:
                return None
        # split of the residual naturals
        new = {}
        get = new.get
        oc = okc if okn == n else -1
        for st, val in layer.items():
            cost = val[0]
            fl = (st >> _SH_FL) & 1
            for delta, dcost, room, j2, dfl, groups in _packed_resid_opts(
                (st >> _SH_Y) & 255, (st >> _SH_J) & 3, (st >> _SH_TK) & 3, Lk,
                (st >> _SH_P) & 7, oc, mode, n,
            ):
                if dfl and fl:
                    continue
                ncost = cost + dcost
                if ncost > ub:
                    continue
                nst = st + delta
                # room is capped at the okeys still unused (more never matters)
                r = ((nst >> _SH_R) & 3) + room
                if r > j2:
                    r = j2
                nst = (nst & ~r_mask) | (r << _SH_R)
                old = get(nst)
                if old is None or ncost < old[0]:
                    new[nst] = (ncost, st, groups)
        new = trim(new)
        history.append(new)
        layer = new
        if not layer:
            return None
    # close the open runs at 13
    best = None
    for pst, val in layer.items():
        st = _unpack(pst)
        if st[5] or st[6] or st[7]:
            continue
        jj, room = st[4], st[9]
        valid = True
        for c in range(4):
            a, b, ta = _cs_decode(st[c])
            if ta:
                valid = False
                break
            for v in (a, b):
                if v:
                    if _unslot(v)[1]:
                        valid = False
                        break
                    r, pad = _end_room(v, 13)
                    jj -= pad
                    room += r
            if not valid:
                break
        if not valid or jj < 0:
            continue
        room = min(room, 2)
        cost = val[0]
        if finish:
            if st[8] == 1:
                if jj > room:
                    continue
            else:
                if jj < 1 or jj - 1 > room:
                    continue
        elif free:
            cost += max(0, jj - room) * OKEY_POINTS * _SCALE
        if best is None or cost < best[0]:
            best = (cost, pst, st)
    if best is None:
        return None
    path = []
    pst = best[1]
    for layer_d in reversed(history):
        _cost, prev, det = layer_d[pst]
        path.append(det)
        pst = prev
    path.reverse()
    return best[0], best[2], path


# Task openings (K-O2): can_open is always exact.  The choice among openings (least
# points after arranging the rest) is exact up to this many tiles, and made by a beam
# search of this width above it (to meet the speed targets).
EXACT_PREFERENCE_TILES = 10
PREF_BEAM = 64


def _search(nat, J, okey, mode, Lr=0, nr=0, Lk=0, nk=0, npairs=0, exact=False):
    """Exact search: a narrow beam pass finds a good solution, whose cost then prunes
    the exact DP (branch and bound; all costs are non-negative and only grow)."""
    args = (nat, J, okey, mode, Lr, nr, Lk, nk, npairs, exact)
    return _dp(*args)


def _reconstruct(path, okey, Lr):
    """Turn a DP path into groups.

    Returns ``(free, task_groups, task_runs)``: ``free`` is a list of
    ``[kind, faces, sort_key]`` for the free runs/küts (before extra okeys),
    ``task_groups`` a list of ``(kind, faces)`` for task küts/pairs and ``task_runs``
    the task runs."""
    okc, okn = divmod(okey, 13)
    okn += 1

    def nat_face(c, n):
        return FAKE if (c == okc and n == okn) else c * 13 + n - 1

    free: list[list] = []
    task_groups: list[tuple[str, list[int]]] = []
    task_runs: list[list[int]] = []
    # per colour two slots: [code, faces, start]
    slots = [[[0, None, 0], [0, None, 0]] for _ in range(4)]
    tasks_open: list[list[list[int]]] = [[] for _ in range(4)]

    def close(c, s, e):
        code, faces, start = s
        k = _unslot(code)[0]
        pad = max(0, 3 - k)
        # padding okeys after the core if it fits, else before
        after = min(pad, 13 - e)
        faces = faces + [okey] * after
        before = pad - after
        faces = [okey] * before + faces
        free.append([RUN, faces, (0, c, start - before), (c, start - before)])

    i = 0
    for n in range(1, 14):
        for c in range(4):
            act_a, new_a, act_b, new_b, rt, starts = path[i]
            i += 1
            cs = slots[c]
            order = sorted(range(2), key=lambda k: cs[k][0])
            for k, act, newv in ((order[0], act_a, new_a), (order[1], act_b, new_b)):
                s = cs[k]
                if act == "none":
                    pass
                elif act == "start":
                    s[1] = [nat_face(c, n)]
                    s[2] = n
                elif act == "cont":
                    s[1].append(nat_face(c, n))
                elif act == "gap":
                    s[1].append(okey)
                elif act in ("end", "restart"):
                    close(c, s, n - 1)
                    s[1] = None
                    if act == "restart":
                        s[1] = [nat_face(c, n)]
                        s[2] = n
                s[0] = newv
            nat_t = rt
            for run in tasks_open[c]:
                if len(run) >= Lr:
                    continue
                if nat_t > 0:
                    run.append(nat_face(c, n))
                    nat_t -= 1
                else:
                    run.append(okey)
            for _ in range(starts):
                if nat_t > 0:
                    face = nat_face(c, n)
                    nat_t -= 1
                else:
                    face = okey
                run = [face]
                tasks_open[c].append(run)
                task_runs.append(run)
        groups = path[i]
        i += 1
        for kind, natc, nok, is_task in groups:
            faces = [nat_face(cc, n) for cc in natc] + [okey] * nok
            if is_task:
                task_groups.append((kind, faces))
            else:
                free.append([KUT, faces, (1, n, 0), None])
    for c in range(4):
        for s in slots[c]:
            if s[0]:
                close(c, s, 13)
    return free, task_groups, task_runs


def _place_extras(free, extras):
    """Put ``extras`` okeys into the free groups' room; return how many did not fit."""
    okey_face = None
    for g in free:
        for _ in range(2):
            if extras == 0:
                return 0
            kind, faces = g[0], g[1]
            if kind == KUT:
                if len(faces) < 4:
                    faces.append(okey_face)
                    extras -= 1
                continue
            if len(faces) >= 13:
                break
            c, start = g[3]
            end = start + len(faces) - 1
            if end < 13:
                faces.append(okey_face)
            else:
                faces.insert(0, okey_face)
                g[3] = (c, start - 1)
            extras -= 1
    return extras


def _count(faces, okey):
    nat = [[0, 0, 0, 0] for _ in range(14)]
    J = 0
    okc, okn = divmod(okey, 13)
    okn += 1
    if len(faces) > MAX_TILES:
        raise SolverError("more than 32 tiles")
    for f in faces:
        if f == okey:
            J += 1
        elif f == FAKE:
            nat[okn][okc] += 1
        elif isinstance(f, int) and 0 <= f < 52:
            nat[f % 13 + 1][f // 13] += 1
        else:
            raise SolverError(f"bad face {f!r}")
    for n in range(1, 14):
        for c in range(4):
            if nat[n][c] > 2:
                raise SolverError("more than two copies of a face")
    if J > 2:
        raise SolverError("more than two real okeys")
    return nat, J


def _minus(faces, used):
    rest = list(faces)
    for f in used:
        rest.remove(f)
    return rest


def _free_solution(faces, okey, free, extras, can_open, leave_okey=False):
    """Finish a runs-and-küts solution: place the extra okeys and list what is left.
    Returns ``(solution, unplaced extra okeys)``."""
    unplaced = _place_extras(free, extras - (1 if leave_okey else 0))
    free.sort(key=lambda g: g[2])
    groups, kinds = [], []
    for g in free:
        groups.append([okey if f is None else f for f in g[1]])
        kinds.append(g[0])
    used = [f for g in groups for f in g]
    left = sorted(_minus(faces, used))
    sol = Solution(
        can_open=can_open,
        groups=groups,
        kinds=kinds,
        left=left,
        points_left=sum(tile_points(f, okey) for f in left),
    )
    return sol, unplaced


def _final_extras(st):
    """Okeys left at the end of the DP, after paying the padding of open runs."""
    jj = st[4]
    for c in range(4):
        a, b, _ta = _cs_decode(st[c])
        for v in (a, b):
            if v:
                jj -= _end_room(v, 13)[1]
    return jj


def _final_room(st):
    room = st[9]
    for c in range(4):
        a, b, _ta = _cs_decode(st[c])
        for v in (a, b):
            if v:
                room += _end_room(v, 13)[0]
    return min(room, 2)


def _solve_open(faces, okey, nat, J, can_open=None) -> Solution:
    for exact in (False, True):
        res = _search(nat, J, okey, "open", exact=exact)
        assert res is not None  # leaving everything is always possible
        _cost, st, path = res
        free, _t, _r = _reconstruct(path, okey, 0)
        extras = _final_extras(st)
        sol, unplaced = _free_solution(faces, okey, free, extras, can_open)
        if unplaced <= max(0, extras - _final_room(st)):
            return sol
    raise AssertionError("exact room model inconsistent")  # pragma: no cover


def _parse_task(task):
    Lr = nr = Lk = nk = npairs = 0
    for item in task:
        try:
            kind, length = item
        except (TypeError, ValueError):
            raise SolverError(f"bad task item {item!r}") from None
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
    if npairs and (nr or nk):
        raise SolverError(f"unsupported task {task!r}")
    return Lr, nr, Lk, nk, npairs


def solve(faces, okey: int, task) -> Solution:
    """Solve a rack exactly.  See the module docstring."""
    faces = list(faces)
    if not isinstance(okey, int) or isinstance(okey, bool) or not 0 <= okey < 52:
        raise SolverError(f"bad okey face {okey!r}")
    nat, J = _count(faces, okey)
    if task is None:
        return _solve_open(faces, okey, nat, J)
    task = tuple(task)
    if task == ():
        if faces:
            for exact in (False, True):
                res = _search(nat, J, okey, "finish", exact=exact)
                if res is None:
                    break
                _cost, st, path = res
                free, _t, _r = _reconstruct(path, okey, 0)
                sol, unplaced = _free_solution(
                    faces, okey, free, _final_extras(st), True, leave_okey=(st[8] == 0)
                )
                if unplaced == 0:
                    return sol
        return _solve_open(faces, okey, nat, J, can_open=False)
    Lr, nr, Lk, nk, npairs = _parse_task(task)
    targs = (Lr, nr, Lk, nk, npairs)
    # 1. exact: can the task be opened at all?  (task groups only; small state space)
    feas = _dp(nat, J, okey, "feas", *targs)
    if feas is None:
        return _solve_open(faces, okey, nat, J, can_open=False)
    # 2. choose the opening that leaves the best arrangement of the rest: exact DP
    #    for small racks, else a beam search over the same DP (falls back to the
    #    feasibility answer if the beam loses every opening).
    path = feas[2]
    exact_pref = len(faces) <= EXACT_PREFERENCE_TILES
    res = _dp(nat, J, okey, "task", *targs, beam=None if exact_pref else PREF_BEAM)
    if res is not None:
        path = res[2]
    _free, task_groups, task_runs = _reconstruct(path, okey, Lr)
    kuts = [g for k, g in task_groups if k == KUT]
    pairs = [g for k, g in task_groups if k == PAIR]
    runs = list(task_runs)
    groups, kinds = [], []
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
    left = sorted(_minus(faces, used))
    return Solution(
        can_open=True,
        groups=groups,
        kinds=kinds,
        left=left,
        points_left=sum(tile_points(f, okey) for f in left),
    )
