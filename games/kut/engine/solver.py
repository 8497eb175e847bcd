"""The exact hand solver behind *Diz* (K-R4), the bots and the "points left" display.

Pure Python, no Django.  Entry point::

    solve(faces, okey, task) -> Solution

``faces`` are tile faces as in :mod:`games.okey.engine.tiles` (a face equal to ``okey`` is a
real okey, ``FAKE`` is a fake okey), ``okey`` is the real okey's face and ``task`` is
``None`` (already opened), a task tuple from :mod:`games.kut.engine.tasks`, or ``FINISH``.

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

Speed
-----
* The DP state is one packed int; a DP value is ``cost << _SHC | predecessor``, so a
  transition is two additions and one dict probe.  Transitions come from tables keyed
  by the bits of the state they read (one colour's slots, okeys, room, ...), shared by
  all calls of the process; the room is capped at the okeys still unused inside the
  tables.  The path is recovered by finding each step again in those tables.
* Layers where nothing can happen (no tile of the colour and no run of it open; no
  natural left over at a number) are skipped, and states whose only option is the
  identity keep their value.
* Exchange argument (open / finish): a gap okey at (c, n) while a natural (c, n) is
  left or in a küt can swap places with it (the küt keeps a natural: with at most two
  okeys it held at most one), so those options are not generated.
* ``FINISH`` is first checked with ``_strays`` (naturals that fit no group of naturals
  beyond what the okey groups could take: two or more means no finish), tasks with
  ``_task_feasible`` (a direct, exact check of their few groups); the DP then only
  runs for racks that can open.  ``_task_live`` drops DP states that can no longer
  complete the task (a necessary condition, so exact), which also keeps the beam
  of the opening choice from losing every opening.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

from games.okey.engine.tiles import FAKE

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
    cs: int,
    x: int,
    j: int,
    tr_can: int,
    L: int,
    n: int,
    exact: bool,
    free: bool = True,
    swap: bool = False,
    nat_first: bool = False,
) -> list:
    """Options for one colour at number ``n``.

    ``cs`` colour state, ``x`` naturals of (colour, n), ``j`` real okeys available,
    ``tr_can`` task runs that may still start, ``L`` task run length.  Returns tuples
    ``(new_cs, started, okeys, task_okeys, resid, room, detail)``.
    """
    key = (cs, x, j, tr_can, L, n, exact, free, swap, nat_first)
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
                if nat_first:  # feasibility: naturals first is never worse (not so for
                    # the points left: an okey at the run's first place may leave a
                    # cheaper natural than one at its last)
                    rts = (min(kt, x - nf),)
                for rt in rts:
                    tok = kt - rt
                    ok = of + tok
                    if ok > j:
                        continue
                    resid = x - nf - rt
                    if swap and resid and "gap" in (act_a[4], act_b[4]):
                        continue  # the okey could swap with the natural (c, n)
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


def _resid_opts(y: tuple, j: int, tk: int, Lk: int, p: int, okcol: int, free: bool = True) -> list:
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
                q[0] == o[0]
                and q[1] == o[1]
                and q[2] == o[2]
                and q[3] <= o[3]
                and q[4] >= o[4]
                and q[5] <= o[5]
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
_SHC = 80  # DP values: cost << _SHC | predecessor state
_LOW = (1 << _SHC) - 1
_KMASK = 0xFFF << 14  # okeys, task runs, task küts, pairs, finish flag, room
_RKMASK = ~(3 << 2)  # resid key: everything above _SH_J but the task runs
_CTAB: dict = {}
_RTAB: dict = {}
_IDENT = [(0, 0)]  # the identity transition only (carried over without a new value)
_IDENT_COLOUR = ("none", 0, "none", 0, 0, 0)


def _unpack(st: int) -> tuple:
    return (
        st & _CS_MASK,
        (st >> 14) & _CS_MASK,
        (st >> 28) & _CS_MASK,
        (st >> 42) & _CS_MASK,
        (st >> _SH_J) & 3,
        (st >> _SH_TR) & 3,
        (st >> _SH_TK) & 3,
        (st >> _SH_P) & 7,
        (st >> _SH_FL) & 1,
        (st >> _SH_R) & 3,
    )


def _colour_table(c, x, L, n, exact, free, swap, nat_first):
    """Transition table of colour ``c`` at number ``n`` (``x`` naturals): maps the
    key of a packed state to ``[(delta, cost << _SHC)]`` (and, in a parallel dict,
    the matching details for the reconstruction).  Shared by all calls."""
    tk = (c, x, L, n, exact, free, swap, nat_first)
    tab = _CTAB.get(tk)
    if tab is None:
        tab = _CTAB[tk] = ({}, {})
    return tab


def _colour_fill(tab, key, c, x, L, n, exact, free, swap, nat_first):
    cs = key & _CS_MASK
    hi = key >> 14
    j, tr, room = hi & 3, (hi >> 2) & 3, (hi >> 10) & 3
    sh = 14 * c
    pairs, dets = [], []
    for ncs, started, ok, tok, resid, oroom, det in _colour_opts(
        cs, x, j, tr if tr < 2 else 2, L, n, exact, free, swap, nat_first
    ):
        jn = j - ok
        r = room + oroom
        if r > jn:  # room beyond the okeys still unused never matters
            r = jn
        pairs.append(
            (
                ((ncs - cs) << sh)
                - (ok << _SH_J)
                - (started << _SH_TR)
                + (resid << (_SH_Y + 2 * c))
                + ((r - room) << _SH_R),
                tok << _SHC,
            )
        )
        dets.append(det)
    if pairs == _IDENT:
        pairs = _IDENT
    tab[0][key] = pairs
    tab[1][key] = dets
    return pairs


def _resid_table(n, Lk, oc, mode):
    tk = (n, Lk, oc, mode)
    tab = _RTAB.get(tk)
    if tab is None:
        tab = _RTAB[tk] = ({}, {})
    return tab


def _resid_fill(tab, key, n, Lk, oc, mode):
    j, tk, p = key & 3, (key >> 4) & 3, (key >> 6) & 7
    fl, room, yb = (key >> 9) & 1, (key >> 10) & 3, (key >> 12) & 255
    y = (yb & 3, (yb >> 2) & 3, (yb >> 4) & 3, (yb >> 6) & 3)
    free = mode not in ("feas", "raw")
    finish = mode == "finish"
    pairs, dets = [], []
    for ok, tkd, pd, left, oroom, w, groups in _resid_opts(y, j, tk, Lk, p, oc, free):
        if mode == "feas":
            dcost = w
            dfl = 0
        elif finish:
            if left > 1 or (left and fl):
                continue
            dcost = left
            dfl = left
        else:
            dcost = left * n * _SCALE + w
            dfl = 0
        j2 = j - ok
        r = room + oroom
        if r > j2:
            r = j2
        pairs.append(
            (
                -(yb << _SH_Y)
                - (ok << _SH_J)
                - (tkd << _SH_TK)
                - (pd << _SH_P)
                + (dfl << _SH_FL)
                + ((r - room) << _SH_R),
                dcost << _SHC,
            )
        )
        dets.append(groups)
    if pairs == _IDENT:
        pairs = _IDENT
    tab[0][key] = pairs
    tab[1][key] = dets
    return pairs


def _dp(
    nat, J, okey, mode, Lr=0, nr=0, Lk=0, nk=0, npairs=0, exact=False, ub=None, beam=None, live=None
):
    """``mode``: "open" (points left), "task" (points of the arranged rest, then task
    okey weight), "feas" (the task groups only, cost = task okey weight) or "finish"
    (exactly one tile left, prefer a real okey).

    ``ub``: prune partial states whose cost already exceeds it (costs only grow, so
    this is exact when ``ub`` is at least the optimum).  ``beam``: keep only that many
    cheapest states per layer (a heuristic).  ``live``: see ``_task_live``; states
    that can no longer complete the task are dropped (exact).
    Returns ``(cost, final_state, path)`` or ``None`` when infeasible; the final state
    is unpacked: ``(cs0, cs1, cs2, cs3, okeys, tr, tk, p, fl, room)``."""
    okc, okn = divmod(okey, 13)
    okn += 1
    finish = mode == "finish"
    free = mode not in ("feas", "raw")
    # exchange argument (open / finish only): a gap okey at (c, n) while a natural
    # (c, n) is left or in a küt can swap places with it, so it is never needed
    swap = mode in ("open", "finish")
    nat_first = mode == "feas"
    inf = 1 << 200
    ubv = inf if ub is None else ((ub + 1) << _SHC) - 1
    start = (J << _SH_J) | (nr << _SH_TR) | (nk << _SH_TK) | (npairs << _SH_P)
    layer = {start: 0}
    history = []  # (layer, table that produced it, colour shift or -1)

    def trim(new, n):
        """Drop the states that can no longer open the task (``live``); with a beam,
        keep the ``beam`` cheapest (cost so far plus the okeys still without
        room, which are charged at the end)."""
        if live is not None:
            ok = live[n + 1]
            new = {st: v for st, v in new.items() if ok[(st >> _SH_J) & 511]}
        if beam is None or len(new) <= beam:
            return new

        def rank(kv):
            st = kv[0]
            over = ((st >> _SH_J) & 3) - ((st >> _SH_R) & 3)
            return (kv[1] >> _SHC) + (over * OKEY_POINTS * _SCALE if over > 0 else 0)

        return dict(sorted(new.items(), key=rank)[:beam])

    for n in range(1, 14):
        row = nat[n]
        for c in range(4):
            sh = 14 * c
            x = row[c]
            if not x and (not Lr or n + Lr > 14) and not any((st >> sh) & _CS_MASK for st in layer):
                # nothing of this colour here and no run of it open: identity
                history.append((layer, None, sh))
                if _STATS is not None:
                    _STATS.append(layer)
                continue
            tab = _colour_table(c, x, Lr, n, exact, free, swap, nat_first)
            tget = tab[0].get
            new = {}
            get = new.get
            for st, v in layer.items():
                if v > ubv:
                    continue
                key = ((st >> sh) & _CS_MASK) | ((st >> 42) & _KMASK)
                opts = tget(key)
                if opts is None:
                    opts = _colour_fill(tab, key, c, x, Lr, n, exact, free, swap, nat_first)
                if opts is _IDENT:  # keep the value (and its older predecessor)
                    if v < get(st, inf):
                        new[st] = v
                    continue
                base = ((v >> _SHC) << _SHC) | st
                for d, t in opts:
                    nst = st + d
                    nv = base + t
                    if nv < get(nst, inf):
                        new[nst] = nv
            history.append((new, tab, sh))
            layer = new
            if _STATS is not None:
                _STATS.append(new)
            if not layer:
                return None
        # split of the residual naturals
        if not any(st >> _SH_Y for st in layer):
            history.append((layer, None, -1))  # no natural left over: identity
            continue
        oc = okc if okn == n else -1
        tab = _resid_table(n, Lk, oc, mode)
        tget = tab[0].get
        new = {}
        get = new.get
        for st, v in layer.items():
            if v > ubv:
                continue
            key = (st >> _SH_J) & _RKMASK
            opts = tget(key)
            if opts is None:
                opts = _resid_fill(tab, key, n, Lk, oc, mode)
            if opts is _IDENT:
                if v < get(st, inf):
                    new[st] = v
                continue
            base = ((v >> _SHC) << _SHC) | st
            for d, t in opts:
                nst = st + d
                nv = base + t
                if nv < get(nst, inf):
                    new[nst] = nv
        if beam is not None or live is not None:
            new = trim(new, n)
        history.append((new, tab, -1))
        layer = new
        if not layer:
            return None
    # close the open runs at 13
    best = None
    for pst, v in layer.items():
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
            for w in (a, b):
                if w:
                    if _unslot(w)[1]:
                        valid = False
                        break
                    r, pad = _end_room(w, 13)
                    jj -= pad
                    room += r
            if not valid:
                break
        if not valid or jj < 0:
            continue
        room = min(room, 2)
        cost = v >> _SHC
        if finish:
            if st[8] == 1:
                if jj > room:
                    continue
            else:
                if jj < 1 or jj - 1 > room:
                    continue
        elif free or mode == "raw":  # raw: every real okey not in a task group is left
            cost += max(0, jj - room) * OKEY_POINTS * _SCALE
        if best is None or cost < best[0]:
            best = (cost, pst, st)
    if best is None:
        return None
    # walk back: the predecessor is stored with each state, the detail is found
    # again in the transition table that produced the state; a state whose value
    # equals its value one layer earlier may have been carried over unchanged
    path = []
    pst = best[1]
    layers = [{start: 0}] + [h[0] for h in history]
    for i in range(len(history) - 1, -1, -1):
        layer_d, tab, sh = history[i]
        v = layer_d[pst]
        before = layers[i]
        if tab is None:  # skipped layer
            path.append(_IDENT_COLOUR if sh >= 0 else ())
            continue
        if sh >= 0:
            key_of = lambda q: ((q >> sh) & _CS_MASK) | ((q >> 42) & _KMASK)  # noqa
        else:
            key_of = lambda q: (q >> _SH_J) & _RKMASK  # noqa
        if before.get(pst) == v:
            key = key_of(pst)
            if tab[0][key] is _IDENT:
                path.append(tab[1][key][0])
                continue
            det = None
            for (d, t), dd in zip(tab[0][key], tab[1][key]):
                if d == 0 and t == 0:
                    det = dd
                    break
            if det is not None:
                path.append(det)
                continue
        prev = v & _LOW
        dc = ((v >> _SHC) - (before[prev] >> _SHC)) << _SHC
        key = key_of(prev)
        for (d, t), det in zip(tab[0][key], tab[1][key]):
            if prev + d == pst and t == dc:
                path.append(det)
                break
        else:  # pragma: no cover
            raise AssertionError("DP path lost")
        pst = prev
    path.reverse()
    return best[0], best[2], path


# Task openings (K-O2): can_open is always exact.  The choice among openings (least
# points after arranging the rest) is exact up to this many tiles, and made by a beam
# search of this width above it (to meet the speed targets).
EXACT_PREFERENCE_TILES = 10
PREF_BEAM = 64


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


def _stray_copies(nat):
    """``stray[n][c]``: copies of (c, n) that no arrangement can place into groups of
    naturals only.  A copy needs a group of its own: a küt at n or a run through n
    (which holds a window of three around n); the copies beyond what such groups could
    hold (over-estimated) are strays: placing one needs a group with a real okey."""
    stray = [[0] * 4 for _ in range(14)]
    for n in range(1, 14):
        row = nat[n]
        for c in range(4):
            x = row[c]
            if not x:
                continue
            others = [row[d] for d in range(4) if d != c and row[d]]
            if len(others) >= 2:
                kut = min(2, sum(min(o, 2) for o in others) // 2)
            else:
                kut = 0
            if kut >= x:
                continue
            wins = []
            for s in range(max(1, n - 2), min(n, 11) + 1):
                if all(nat[m][c] for m in range(s, s + 3) if m != n):
                    wins.append(s)
            run = 0
            if wins:
                run = 1
                for s1 in wins:
                    for s2 in wins:
                        if all(
                            nat[m][c] >= 2 for m in range(max(s1, s2), min(s1, s2) + 3) if m != n
                        ):
                            run = 2
            if kut + run < x:
                stray[n][c] = x - kut - run
    return stray


def _okey_ranges(nat, J):
    """Runs with real okeys at given positions: ``(c, lo, hi, holes)`` for each
    colour and one hole, or two holes at most two apart (a run whose two okeys are
    further apart holds no more strays than two runs with one okey each)."""
    out = []
    for c in range(4):
        col = [0] + [nat[m][c] for m in range(1, 14)] + [0]
        for h1 in range(1, 14):
            for h2 in (h1,) if J < 2 else (h1, h1 + 1, h1 + 2):
                if h2 > 13 or (h2 == h1 + 2 and not col[h1 + 1]):
                    continue
                lo = h1
                while col[lo - 1]:
                    lo -= 1
                hi = h2
                while col[hi + 1]:
                    hi += 1
                out.append((c, lo, hi, h1, h2))
    return out


def _strays(nat, J, stray):
    """A lower bound on the naturals that stay in hand in any arrangement into runs
    and küts: the strays beyond what the okey groups (at most ``J``, each holding one
    copy of a face) could take.  ``FINISH`` needs at most one tile left."""
    total = sum(map(sum, stray))
    if not total or not J:
        return total
    best1 = best2 = 0
    for n in range(1, 14):
        k = sum(1 for c in range(4) if stray[n][c])
        best1 = max(best1, min(k, 3))
    for c, lo, hi, h1, h2 in _okey_ranges(nat, J):
        cnt = sum(1 for m in range(lo, hi + 1) if stray[m][c] and m != h1 and m != h2)
        if h1 == h2:
            best1 = max(best1, cnt)
        else:
            best2 = max(best2, cnt)
    rescue = best1 if J == 1 else max(2 * best1, best2)
    return max(0, total - rescue)


def _task_feasible(nat, J, okey, Lr, nr, Lk, nk, npairs):
    """Exactly whether the task's groups can be formed (K-O2, K-O6): ``npairs``
    pairs, or at most two runs / küts, with at most ``J`` real okeys."""
    if npairs:
        # natural pairs; a real okey pairs with a natural other than F (K-G3), best
        # with one that has no twin; two okeys on the two copies of a face (not F)
        # give one pair more than the natural pair
        okc, okn = divmod(okey, 13)
        okn += 1
        pairs = singles = 0
        twins = False
        for n in range(1, 14):
            row = nat[n]
            for c in range(4):
                x = row[c]
                if not x:
                    continue
                pairs += x // 2
                if c == okc and n == okn:
                    continue  # F pairs only with F
                if x == 1:
                    singles += 1
                else:
                    twins = True
        best = pairs + min(J, singles)
        if J - singles >= 2 and twins:
            best += 1
        return best >= npairs
    kinds = [Lr] * nr + [-Lk] * nk  # run lengths > 0, küt sizes < 0
    table = {}
    for L in set(kinds):
        lst = []  # (okeys the group needs alone, faces it uses)
        if L > 0:
            for c in range(4):
                for s in range(1, 15 - L):
                    need = 0
                    for m in range(s, s + L):
                        if not nat[m][c]:
                            need += 1
                    if need <= J:
                        lst.append((need, [(m, c) for m in range(s, s + L)]))
        else:
            for n in range(1, 14):
                row = nat[n]
                for cols in combinations(range(4), -L):
                    need = sum(1 for c in cols if not row[c])
                    if need <= J:
                        lst.append((need, [(n, c) for c in cols]))
        table[L] = lst
    if len(kinds) == 1:
        return bool(table[kinds[0]])
    k1, k2 = kinds
    l1, l2 = table[k1], table[k2]
    for i, (n1, u1) in enumerate(l1):
        for n2, u2 in l2[i:] if k1 == k2 else l2:
            need = n1 + n2
            if need > J:
                continue
            # a face both groups use needs a second copy: one okey more if the rack
            # holds a single copy (none: both okeys are already counted)
            for m, c in set(u1).intersection(u2):
                if nat[m][c] == 1:
                    need += 1
            if need <= J:
                return True
    return False


def _task_live(nat, J, Lr, nr, Lk, nk, npairs):
    """``live[lo][key]``: whether a DP state whose okeys left / task runs to start /
    task küts to do / pairs to do are ``key`` (bits as in the packed state above
    ``_SH_J``) may still complete the task with the numbers ``>= lo``.  A necessary
    condition (the okeys must cover the missing naturals of the cheapest remaining
    groups, counted independently), so dropping the other states is exact."""
    inf = 99
    live = []
    if npairs:
        pp = [0] * 15
        for n in range(13, 0, -1):
            pp[n] = pp[n + 1] + sum(x // 2 for x in nat[n])
        for lo in range(15):
            ok = bytearray(512)
            for j in range(J + 1):
                for p in range(npairs + 1):
                    ok[j | p << 6] = p <= pp[lo] + j
            live.append(ok)
        return live
    # per kind: need[k][lo] = okeys k groups need at least, from numbers >= lo
    needs = []
    for L, cnt, is_run in ((Lr, nr, True), (Lk, nk, False)):
        one = [[] for _ in range(15)]
        two = [[] for _ in range(15)]
        if cnt and is_run:
            for c in range(4):
                for s in range(1, 15 - L):
                    xs = [nat[m][c] for m in range(s, s + L)]
                    one[s].append(sum(1 for x in xs if x == 0))
                    two[s].append(sum(2 - x for x in xs))
        elif cnt:
            for n in range(1, 14):
                row = nat[n]
                present = sum(1 for x in row if x)
                one[n].append(max(0, L - present))
                two[n].append(max(2 * L - sum(row), 2 * (L - present)))
        need = [[0] * 15, [inf] * 15, [inf] * 15]
        acc1: list = []
        best_two = inf
        for lo in range(14, 0, -1):
            acc1 = sorted(acc1 + one[lo])[:2]
            if two[lo]:
                best_two = min(best_two, min(two[lo]))
            if acc1:
                need[1][lo] = acc1[0]
            if len(acc1) > 1:
                need[2][lo] = acc1[0] + acc1[1]
            need[2][lo] = min(need[2][lo], best_two)
        needs.append(need)
    rn, kn = needs
    for lo in range(15):
        ok = bytearray(512)
        for tr in range(nr + 1):
            for tk in range(nk + 1):
                need = rn[tr][lo] + kn[tk][lo]
                for j in range(need, J + 1):
                    ok[j | tr << 2 | tk << 4] = 1
        live.append(ok)
    return live


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
        res = _dp(nat, J, okey, "open", exact=exact)
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


SPEC = "spec"  # the solver command's contract (kut-scenario.md): the fewest points left
PLAY = "play"  # the bots and Diz: the best rest after opening; finish on the okey


def solve(faces, okey: int, task, objective: str = SPEC) -> Solution:
    """Solve a rack exactly.  See the module docstring.  ``objective`` matters only for a
    task that can be opened and for a finish from hand: ``SPEC`` (the default, the solver
    command's contract) gives the opening — or the finish — that leaves the fewest
    points as they are (a real okey 100); ``PLAY`` the opening that leaves the best
    arrangement of the rest, and a finish that keeps a real okey to discard (K-S1: -200)."""
    faces = list(faces)
    if not isinstance(okey, int) or isinstance(okey, bool) or not 0 <= okey < 52:
        raise SolverError(f"bad okey face {okey!r}")
    nat, J = _count(faces, okey)
    if task is None:
        return _solve_open(faces, okey, nat, J)
    task = tuple(task)
    if task == () and objective == SPEC:
        return _finish_cheapest(faces, okey, nat, J)
    if task == ():
        if faces and _strays(nat, J, _stray_copies(nat)) <= 1:
            for exact in (False, True):
                res = _dp(nat, J, okey, "finish", exact=exact)
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
    # 1. exact: can the task be opened at all?  (a direct check of its few groups)
    if not _task_feasible(nat, J, okey, *targs):
        return _solve_open(faces, okey, nat, J, can_open=False)
    # 2. choose the opening that leaves the best arrangement of the rest: exact DP
    #    for small racks, else a beam search over the same DP; if the beam loses
    #    every opening, the DP over the task groups alone gives one.
    live = _task_live(nat, J, *targs)
    if objective == SPEC:  # the fewest points left as they are: exact, no beam
        res = _dp(nat, J, okey, "raw", *targs, live=live)
    else:
        exact_pref = len(faces) <= EXACT_PREFERENCE_TILES
        beam = None if exact_pref else PREF_BEAM
        res = _dp(nat, J, okey, "task", *targs, beam=beam, live=live)
    if res is None:
        res = _dp(nat, J, okey, "feas", *targs, live=live)
        assert res is not None, "task feasibility check inconsistent"
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


def _finish_cheapest(faces, okey, nat, J) -> Solution:
    """K-O7 under the solver command's contract: of the tiles that can be the one left
    (all the others in runs and küts), the one worth the fewest points — a natural
    before a real okey (100), the smallest number first."""
    if len(faces) < 2 or not solve(faces, okey, (), PLAY).can_open:  # the fast exact check
        return _solve_open(faces, okey, nat, J, can_open=False)
    candidates = sorted(set(faces), key=lambda f: (tile_points(f, okey), f))
    for face in candidates:
        rest = list(faces)
        rest.remove(face)
        if not rest:
            continue
        sol = _solve_open(rest, okey, *_count(rest, okey))
        if sol.points_left == 0:
            return Solution(can_open=True, groups=sol.groups, kinds=sol.kinds, left=[face],
                            points_left=tile_points(face, okey))  # fmt: skip
    return _solve_open(faces, okey, nat, J, can_open=False)


# --------------------------------------------------------------------------------
# "Görevi Aç tells the truth" (issue 15): can this rack open the task now?


@lru_cache(maxsize=4096)
def _ready(faces: tuple, okey: int, task: tuple) -> bool:
    if task == ():
        return bool(solve(list(faces), okey, (), PLAY).can_open)  # K-O7: finish from hand
    nat, J = _count(faces, okey)
    return _task_feasible(nat, J, okey, *_parse_task(task))


def task_ready(faces, okey: int, task) -> bool:
    """Whether the tiles ``faces`` can form ``task`` (K-O2, K-O6; K-O7 for ``FINISH``),
    however they are laid out on the rack.  The exact feasibility check (about 25 µs;
    a finish about 0.3 ms), cached per multiset of faces: a view asks for it on every
    frame.  K-N4 needs no check here: a rack holds at least 14 tiles, a task at most 10."""
    return _ready(tuple(sorted(faces)), okey, tuple(tuple(item) for item in task))
