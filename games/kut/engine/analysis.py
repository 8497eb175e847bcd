"""KÜT's analysis (issue 31, "Analiz"): per turn of each seat, the points its rack
would count after the turn against the least possible, in points.

    analyse(data, budget=None) -> dict      # data: a kut-scenario.md scenario

A ``turn`` decision is everything a seat does after taking its tile (or on the
starter's first turn, K-D3) up to its discard (or the server's, K-N7), at the index of
that discard; ``played`` and ``best`` are ``{"actions": [...]}``, the turn's actions in
the scenario's form (``open``, ``new_groups``, ``lay_off`` with ``group`` and ``end``,
``auto_lay_off``, ``undo``, ``discard``, ``timeout``).  Its ``value`` is what the seat's hand would count if the hand ended right
after the turn (section 9 of ``kut.md``): −100 for a finish (K-F1, K-S1; −200 on a real
okey); +200 while not opened (K-S2); else the points of the tiles left (K-S3), a real
okey counting 100 as the solver counts it (K-S4: what an okey kept costs once one more
turn is done; the opening turn's grace and K-C7 are ignored); plus the K-S5 penalty of
the turn's discard (+100 for an işlek tile).

``best_value`` is the least value any play of the turn reaches from the rack and the
table the seat saw when its turn began (``views.view_for``, P-1: its own rack, the
public table, the task; never another rack or the deck), found with the exact solver
(``solver.solve``, the ``SPEC`` objective of the ``solve`` command):

* before opening (K-O1…K-O5): either no opening (200, and a discard that is not işlek
  when there is one) or an opening of the task — ``solve(rack − d, task)`` for each
  discard ``d`` gives the fewest points left;
* the last task (K-O7): a finish from hand when ``solve(rack, FINISH, PLAY)`` finds one
  (leaving a real okey for −200 when it can), else 200;
* after opening (K-L1…K-L6): every way to lay tiles off onto the table's groups this turn
  — okey exchanges first (K-L4), then küts of three made four (K-L5, and the okey won
  back when the last colour follows), then up to two tiles at each end of each run
  (K-L3), okeys included — and for what is left the new runs and küts
  (``solve(rest, None)``) and the discard, a finish when all but one tile go.

Lower bounds keep the solver calls few and the answer exact: leaving out a tile ``d``
can save at most its points, so ``solve(x − d) >= solve(x) − points(d)``; a discard is
solved only when that bound can beat the best found.  What is bounded: the player who
opened with pairs may open new pairs in the pairs hand (K-O6), which is not searched
(``"exact": false``, bound ``new pairs (K-O6) not searched``); and a decision that
reaches ``PER_DECISION`` solver calls, or the hand's budget, or tries ``MAX_PLANS``
ways to lay off, keeps the best found so far (``"exact": false``, bound ``solver calls
N`` or ``lay-off plans N``; the ways that leave the fewest tiles are solved first).  A played turn worth less than the
search found (new pairs) is never charged: cost 0, ``"exact": false``.

Notes: ``missed_open`` (the task could be opened this turn, ``task_ready``, and was
not), ``missed_layoff`` (after opening, the seat discarded while a tile of its rack
could still be laid off, K-L2 with K-L3's count), ``okey_thrown`` (a real okey
discarded, not as the finishing tile), ``missed_finish`` (a finish was possible).
Taking a tile (K-N1) and claims (K-C1) are not judged: what the deck holds is hidden.

The budget counts ``solve`` calls.  When the hand's budget is spent, the remaining
turns are not analysed: ``"complete": false``.
"""

from __future__ import annotations

from collections import Counter

from game.engine.analysis import Budget, decision, report
from game.engine.errors import EngineError
from games.kut.engine.replay import load_scenario
from games.kut.engine.scoring import ISLEK_POINTS, group_accepts
from games.kut.engine.solver import PLAY, solve, tile_points
from games.kut.engine.tasks import is_pairs
from games.kut.engine.transitions import apply
from games.kut.engine.views import view_for
from games.okey.engine.groups import KUT, RUN, group_values, natural
from games.okey.engine.tiles import (
    FAKE,
    colour_of,
    copies_of,
    face_name,
    make_face,
    number_of,
    parse_face,
)

UNIT = "points"
THRESHOLDS = {"loss": 10, "big_loss": 50}
PER_DECISION = 60  # solver calls for one turn
MAX_PLANS = 5000  # ways to lay tiles off tried in one turn
DEFAULT_BUDGET = 600  # solver calls per hand (analysis_bench: p99 well under a second)
NOT_OPENED = 200  # K-S2
FINISH, FINISH_OKEY = -100, -200  # K-S1
ENDS = ("discard", "timeout")


class _Solver:
    """``solver.solve`` charged to the budget, with a per-analysis cache."""

    def __init__(self, okey: int, budget: Budget):
        self.okey = okey
        self.budget = budget
        self.cache: dict = {}
        self.cut = False  # a call was refused for want of budget
        self.cap = 0  # the calls this decision may still make

    def __call__(self, faces, task=None, objective=None):
        key = (tuple(sorted(faces)), task, objective)
        # every call counts against the decision's cap, a cached one too: where a
        # decision stops must not depend on what other seats' decisions solved (P-1)
        if self.cap <= 0 or self.budget.left <= 0:
            self.cut = True
            return None
        self.cap -= 1
        sol = self.cache.get(key)
        if sol is None:
            self.budget.spend()
            args = (list(key[0]), self.okey, task) + ((objective,) if objective else ())
            sol = self.cache[key] = solve(*args)
        return sol


class _Group:
    """A table group as ``scoring.group_accepts`` reads it (faces as physical tiles)."""

    __slots__ = ("kind", "faces", "values", "tiles")

    def __init__(self, kind, faces, values):
        self.kind, self.faces, self.values = kind, list(faces), list(values)
        self.tiles = [copies_of(f)[0] for f in faces]


def _names(faces) -> list[str]:
    return [face_name(f) for f in faces]


def _rack(view: dict) -> list[int]:
    return [parse_face(c["face"]) for c in view["rack"]["cells"] if c is not None]


def _table(view: dict) -> list[_Group]:
    out = []
    for g in view["table"]:
        values = [None if v is None else parse_face(v) for v in g["values"]]
        out.append(_Group(g["kind"], [parse_face(t["face"]) for t in g["tiles"]], values))
    return out


def _natural_tile(value: int, okey: int) -> int:
    """The face of the natural tile standing for ``value`` (K-T6: F for the okey's)."""
    return FAKE if value == okey else value


# --- lay-offs (K-L1…K-L6) --------------------------------------------------------------


def _exchanges(g: _Group, rack: Counter, okey: int):
    """K-L4: ways to put held naturals in place of the group's okeys: (tiles given,
    okeys won, new faces)."""
    spots = [i for i, (f, v) in enumerate(zip(g.faces, g.values))
             if f == okey and v is not None]  # fmt: skip
    out = [((), 0, g.faces)]
    for i in spots:
        nat = _natural_tile(g.values[i], okey)
        for give, won, faces in list(out):
            if rack[nat] - give.count(nat) > 0:
                new = list(faces)
                new[i] = nat
                out.append((give + (nat,), won + 1, new))
    return out


def _kut_adds(g: _Group, rack: Counter, okey: int):
    """A küt of three made four (K-L3, K-L5), then the okeys it decided exchanged:
    (tiles given, okeys won, new faces)."""
    if g.kind != KUT or len(g.faces) != 3:
        return []
    out = []
    for x in sorted(f for f in rack if rack[f] > 0):
        faces = g.faces + [x]
        values = group_values(KUT, faces, okey)
        if values is None:
            continue
        base = _Group(KUT, faces, values)
        left = rack.copy()
        left[x] -= 1
        for give, won, new in _exchanges(base, left, okey):
            out.append(((x,) + give, won, new))
    return out


def _end_options(n_from: int, step: int, count: int, colour: int, rack: Counter, okey: int):
    """Tile choices for ``count`` positions from number ``n_from`` outwards (``step``
    −1 left, +1 right): each the natural if held, or a real okey."""
    out = [()]
    for k in range(count):
        n = n_from + step * k
        nat = _natural_tile(make_face(colour, n), okey)
        nxt = []
        for tiles in out:
            used = Counter(tiles)
            if nat != okey and rack[nat] - used[nat] > 0:
                nxt.append(tiles + (nat,))
            if rack[okey] - used[okey] > 0:
                nxt.append(tiles + (okey,))
        out = nxt
    return out


def _run_adds(g: _Group, rack: Counter, okey: int, added=(0, 0)):
    """K-L3: up to two tiles at each end of a run (less what was added this turn):
    (tiles given, left tiles, right tiles)."""
    if g.kind != RUN:
        return []
    lo, hi = number_of(g.values[0]), number_of(g.values[-1])
    colour = colour_of(g.values[0])
    room = 13 - len(g.faces)
    lefts = [()]
    for k in range(1, min(2 - added[0], lo - 1) + 1):
        lefts += _end_options(lo - 1, -1, k, colour, rack, okey)
    rights = [()]
    for k in range(1, min(2 - added[1], 13 - hi) + 1):
        rights += _end_options(hi + 1, 1, k, colour, rack, okey)
    out = []
    for left in lefts:
        for right in rights:
            if not left and not right or len(left) + len(right) > room:
                continue
            used = Counter(left) + Counter(right)
            if all(rack[f] >= n for f, n in used.items()):
                out.append((left + right, left, right))
    return out


class _TooMany(Exception):
    pass


def _layoff_plans(table: list[_Group], rack: Counter, okey: int):
    """Every lay-off of one turn: ``(plans, complete)``, a plan being ``(rest rack, table
    after, actions)``, one per distinct (rest, işlek set) reached, the fewest tiles left
    first.  Order of the moves: exchanges, küts of three made four, run ends (a won okey
    can go anywhere after).  At most ``MAX_PLANS`` ways are tried (``complete`` false)."""
    plans: dict = {}
    tried = [0]

    def finish(rk: Counter, groups: list[_Group], acts: list):
        tried[0] += 1
        if tried[0] > MAX_PLANS:
            raise _TooMany
        key = (tuple(sorted(rk.elements())), _islek_key(groups, okey))
        if key not in plans:
            plans[key] = (rk, groups, acts)

    def runs(i, rk, groups, acts):
        if i == len(groups):
            finish(rk, groups, acts)
            return
        g = groups[i]
        runs(i + 1, rk, groups, acts)
        for _give, left, right in _run_adds(g, rk, okey):
            faces = list(reversed(left)) + g.faces + list(right)
            values = group_values(RUN, faces, okey)
            if values is None:
                continue
            new = rk - Counter(left) - Counter(right)
            more = [
                {"type": "lay_off", "tile": face_name(f), "group": i, "end": "left"} for f in left
            ]
            more += [{"type": "lay_off", "tile": face_name(f), "group": i, "end": "right"}
                     for f in right]  # fmt: skip
            ng = groups[:i] + [_Group(RUN, faces, values)] + groups[i + 1 :]
            runs(i + 1, new, ng, acts + more)

    def kuts(i, rk, groups, acts):
        if i == len(groups):
            runs(0, rk, groups, acts)
            return
        kuts(i + 1, rk, groups, acts)
        for give, won, faces in _kut_adds(groups[i], rk, okey):
            new = rk - Counter(give)
            new[okey] += won
            more = [{"type": "lay_off", "tile": face_name(f), "group": i} for f in give]
            ng = groups[:i] + [_Group(KUT, faces, group_values(KUT, faces, okey))] \
                + groups[i + 1 :]  # fmt: skip
            kuts(i + 1, new, ng, acts + more)

    def exchanges(i, rk, groups, acts):
        if i == len(groups):
            kuts(0, rk, groups, acts)
            return
        g = groups[i]
        for give, won, faces in _exchanges(g, rk, okey):
            new = rk - Counter(give)
            new[okey] += won
            more = [{"type": "lay_off", "tile": face_name(f), "group": i} for f in give]
            ng = groups
            if give:
                ng = groups[:i] + [_Group(g.kind, faces, group_values(g.kind, faces, okey))] \
                    + groups[i + 1 :]  # fmt: skip
            exchanges(i + 1, new, ng, acts + more)

    try:
        exchanges(0, +rack, list(table), [])
        complete = True
    except _TooMany:
        complete = False
    ordered = sorted(plans.items(), key=lambda kv: (len(kv[0][0]), kv[0][0]))
    return [plan for _key, plan in ordered], complete


def _islek_key(groups: list[_Group], okey: int):
    wants, okey_ok = set(), False
    for g in groups:
        w, o = group_accepts(g, okey)
        wants |= w
        okey_ok = okey_ok or o
    return (frozenset(wants), okey_ok)


def _penalty(face: int, islek, okey: int) -> int:
    """K-S5 for discarding ``face`` against ``_islek_key`` (not for a finish)."""
    wants, okey_ok = islek
    hit = okey_ok if face == okey else natural(face, okey) in wants
    return ISLEK_POINTS if hit else 0


def any_layoff(view: dict) -> bool:
    """Whether some tile of the rack can be laid off now (K-L1…K-L6, K-L3's count of
    this turn, K-N4: a lay-off that is no exchange keeps a tile in hand)."""
    okey = parse_face(view["okey"])
    rack = Counter(_rack(view))
    for g, raw in zip(_table(view), view["table"]):
        for give, _won, _f in _exchanges(g, rack, okey):
            if give:
                return True
        if sum(rack.values()) <= 1:
            continue
        if _kut_adds(g, rack, okey) or _run_adds(g, rack, okey, tuple(raw["added"])):
            return True
    return False


# --- the best turn ------------------------------------------------------------------------


def _discard_values(rest: list[int], islek, okey: int, solver, best: list, bar: int = 10**9):
    """Update ``best`` = [value, actions] with the discards of ``rest`` (new runs and
    küts for the others); exact within the solver's budget."""
    if not rest:
        return
    if len(rest) == 1:
        d = rest[0]
        _better(best, FINISH_OKEY if d == okey else FINISH, [_discard(d)])
        return
    sol = solver(rest)
    if sol is None:
        return
    left = Counter(sol.left)
    for d in sorted(set(rest), key=lambda f: (-tile_points(f, okey), f)):
        low = sol.points_left - tile_points(d, okey)
        if d in left:  # the same arrangement, d thrown: exact
            if low == 0:
                _better(best, FINISH_OKEY if d == okey else FINISH, _plan(sol.groups, d))
            else:
                _better(best, low + _penalty(d, islek, okey), _plan(sol.groups, d))
            continue
        if low > 0 and low + _penalty(d, islek, okey) >= min(best[0], bar):
            continue  # the bound cannot beat the best found (here or in another plan)
        rest_d = list(rest)
        rest_d.remove(d)
        sd = solver(rest_d)
        if sd is None:
            return
        if sd.points_left == 0:
            _better(best, FINISH_OKEY if d == okey else FINISH, _plan(sd.groups, d))
        else:
            _better(best, sd.points_left + _penalty(d, islek, okey), _plan(sd.groups, d))


def _plan(groups, d: int) -> list[dict]:
    acts = [{"type": "new_groups", "groups": [_names(g) for g in groups]}] if groups else []
    return acts + [_discard(d)]


def _discard(d: int) -> dict:
    return {"type": "discard", "tile": face_name(d)}


def _better(best: list, value: int, actions: list) -> None:
    if value < best[0]:
        best[0], best[1] = value, actions


def _min_penalty_discard(rack: list[int], islek, okey: int) -> tuple[int, int]:
    """(K-S5 penalty, face) of the best discard that opens nothing: no penalty if some
    tile is not işlek (the lowest such face), else the first tile."""
    faces = sorted(set(rack))
    free = [f for f in faces if not _penalty(f, islek, okey)]
    return (0, free[0]) if free else (ISLEK_POINTS, faces[0])


def best_turn(view: dict, solver) -> tuple[int, list[dict], list[str]]:
    """(best value, its actions, bounds) for the seat of ``view``, at the start of its
    play (after taking, K-N1).  ``bounds`` is empty when the answer is exact."""
    okey = parse_face(view["okey"])
    me = view["me"]
    task = tuple(tuple(x) for x in view["task"])
    rack = _rack(view)
    table = _table(view)
    islek = _islek_key(table, okey)
    bounds: list[str] = []
    best: list = [10**9, []]
    if not view["seats"][me]["opened"]:
        pen, d = _min_penalty_discard(rack, islek, okey)
        _better(best, NOT_OPENED + pen, [_discard(d)])
        if view["task_ready"] and task == ():  # K-O7: finish from hand
            sol = solver(rack, (), PLAY)
            if sol is not None and sol.can_open:
                d = sol.left[0]
                acts = [{"type": "open", "groups": [_names(g) for g in sol.groups]}, _discard(d)]
                _better(best, FINISH_OKEY if d == okey else FINISH, acts)
        elif view["task_ready"]:
            _best_opening(rack, task, islek, okey, solver, best)
    else:
        if is_pairs(task):
            bounds.append("new pairs (K-O6) not searched")
        plans, whole = _layoff_plans(table, Counter(rack), okey)
        if not whole:
            bounds.append(f"lay-off plans {MAX_PLANS}")
        for rest, groups, acts in plans:
            sub: list = [10**9, []]
            _discard_values(
                sorted(rest.elements()), _islek_key(groups, okey), okey, solver, sub, best[0]
            )
            _better(best, sub[0], acts + sub[1])
    if solver.cut:
        bounds.append(f"solver calls {PER_DECISION - solver.cap}")
    return best[0], best[1], bounds


def _best_opening(rack, task, islek, okey, solver, best) -> None:
    """K-O1…K-O5 then a discard: for each discard ``d``, ``solve(rack − d, task)``."""
    whole = solver(rack, task)
    if whole is None or not whole.can_open:
        return
    left = Counter(whole.left)
    opening = [{"type": "open", "groups": [_names(g) for g in whole.groups]}]
    for d in sorted(set(rack), key=lambda f: (-tile_points(f, okey), f)):
        low = whole.points_left - tile_points(d, okey)
        if d in left:
            _better(best, low + _penalty(d, islek, okey), opening + [_discard(d)])
            continue
        if low + _penalty(d, islek, okey) >= best[0]:
            continue
        rest = list(rack)
        rest.remove(d)
        sol = solver(rest, task)
        if sol is None:
            return
        if sol.can_open:
            acts = [{"type": "open", "groups": [_names(g) for g in sol.groups]}, _discard(d)]
            _better(best, sol.points_left + _penalty(d, islek, okey), acts)


# --- the played turn ---------------------------------------------------------------------


def played_value(start: dict, after: dict) -> int:
    """The turn's value as played (see the module docstring), from the seat's views."""
    me = start["me"]
    okey = parse_face(start["okey"])
    if after["finisher"] == me:
        last = after["seats"][me]["discards"][-1]["face"]
        return FINISH_OKEY if parse_face(last) == okey else FINISH
    pen = after["seats"][me]["penalty"] - start["seats"][me]["penalty"]
    if not after["seats"][me]["opened"]:
        return NOT_OPENED + pen
    return sum(tile_points(f, okey) for f in _rack(after)) + pen


# --- the analysis -------------------------------------------------------------------------


def _play_start(hand, seat: int, action: dict):
    """The seat's view once it has taken its tile: now, or (a timeout in the take phase,
    K-N7) after the take the server makes for it, on a copy."""
    if hand.phase == "play":
        return view_for(hand, seat)
    if action["type"] != "timeout":
        return None
    copy = hand.copy()
    try:
        apply(copy, seat, {"type": "draw"} if copy.deck else {"type": "take_discard"})
    except EngineError:
        pass  # nothing to take (K-N7 then discards from the rack as it is)
    return view_for(copy, seat)


def analyse(data, budget: int | None = None) -> dict:
    hand, actions = load_scenario(data)
    budget_ = Budget(DEFAULT_BUDGET if budget is None else budget, "solver calls")
    solver = _Solver(hand.okey, budget_)
    decisions: list[dict] = []
    start: tuple[int, dict] | None = None  # (table turn, the seat's view at play start)
    moves: list[dict] = []  # the turn's accepted actions, in scenario form
    complete = True
    for step, a in enumerate(actions):
        seat = a["seat"]
        action = {k: v for k, v in a.items() if k != "seat"}
        mine = not hand.over and seat == hand.turn
        if mine and (start is None or start[0] != hand.table_turn):
            view = _play_start(hand, seat, action)
            if view is not None:
                start, moves = (hand.table_turn, view), []
        in_play = mine and start is not None and start[0] == hand.table_turn
        ending = in_play and action["type"] in ENDS
        last = view_for(hand, seat) if ending else None
        turn, logged = hand.table_turn, len(hand.log)
        try:
            apply(hand, seat, action)
        except EngineError:
            continue
        if in_play and len(hand.log) > logged:
            moves.append({k: v for k, v in hand.log[-1].items() if k != "seat"})
        if mine and action["type"] == "undo" and hand.phase == "take":
            start = None  # K-U2: the thrown tile went back; the turn starts again
        if not ending or hand.table_turn == turn:
            continue
        if budget_.left <= 0:
            complete = False
            break
        if action["type"] == "timeout" and last["phase"] == "take":
            last = start[1]
        decisions.append(_turn_decision(start[1], last, view_for(hand, seat), step,
                                        list(moves), solver))  # fmt: skip
    return report("kut", UNIT, THRESHOLDS, budget_, decisions, complete)


def _turn_decision(start: dict, last: dict, after: dict, step: int, moves: list[dict],
                   solver) -> dict:  # fmt: skip
    me = start["me"]
    okey = parse_face(start["okey"])
    solver.cut, solver.cap = False, PER_DECISION
    best_value, best_actions, bounds = best_turn(start, solver)
    value = played_value(start, after)
    exact = not bounds
    if value < best_value:  # the search missed what the seat did: never charged
        best_value, best_actions, exact = value, [], False
    thrown = after["seats"][me]["discards"][-1]["face"] if after["seats"][me]["discards"] \
        else None  # fmt: skip
    finished = after["finisher"] == me
    notes = []
    if start["task_ready"] and start["task"] and not after["seats"][me]["opened"]:
        notes.append("missed_open")
    opened_before = start["seats"][me]["opened"]
    if opened_before and not finished and any_layoff(last):
        notes.append("missed_layoff")
    if thrown is not None and parse_face(thrown) == okey and not finished:
        notes.append("okey_thrown")
    if best_value <= FINISH and not finished:
        notes.append("missed_finish")
    return decision(THRESHOLDS, step=step, seat=me, kind="turn", played={"actions": moves},
                    best={"actions": best_actions}, value=value, best_value=best_value,
                    cost=value - best_value, exact=exact,
                    bound="; ".join(bounds) or None, notes=notes)  # fmt: skip


def run_scenario(data) -> dict:
    """The ``analyse`` command's entry (registry): ``analyse(data)``."""
    return analyse(data)
