"""Every legal play for a rack on a position, with its points and tax (the AI's move
generator; kelimeki.md W-M3…W-M6, W-S1…W-S4, W-Z5…W-Z7).

Works on a :class:`Position` built from a seat's view (P-1: the board, zones, scores
and the seat's own rack — never the bag or another rack).  The classic anchor method:
for each row and column, for each start cell, walk right (down) through the lexicon's
trie, laying rack tiles on empty cells that pass the cross-check (the word formed
across must be in the list) and following the tiles already there.  A play is kept
when it ends on a word, lays at least one tile on an *anchor* (an empty cell next to a
tile, W-M6; the home square for a first play, W-M5) and is at least 2 letters long
along its line (a single tile making only a cross word is found by the other
direction's scan).  Points are counted as the walk goes, exactly as ``rules`` counts
them (a test checks every generated play against ``rules.evaluate_play``).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.kelimeki.engine import board
from games.kelimeki.engine.alphabet import JOKER, LETTER_SET, LETTERS, POINTS, RACK_SIZE, fold
from games.kelimeki.engine.alphabet import TILES as TILES_ALL
from games.kelimeki.engine.lexicon import END, Lexicon
from games.kelimeki.engine.rules import BINGO, Placement, tax_shares

SIZE = board.SIZE
MULT = board.MULT


@dataclass(frozen=True)
class Move:
    cells: tuple[tuple[int, str, bool], ...]  # (index, letter, joker) in line order
    points: int  # W-S3, the play's points
    kept: int  # what the mover keeps after the tax (W-Z6)
    touched: int  # how many opponents' zones it touches

    @property
    def tiles(self) -> int:
        return len(self.cells)

    @property
    def jokers(self) -> int:
        return sum(1 for _, _, j in self.cells if j)

    def placements(self) -> list[Placement]:
        return [Placement(i // SIZE, i % SIZE, ch, j) for i, ch, j in self.cells]

    def to_action(self) -> dict:
        return {"type": "play", "placements": [
            {"row": i // SIZE, "col": i % SIZE, "letter": ch, "joker": j}
            for i, ch, j in self.cells]}  # fmt: skip


@dataclass
class Position:
    cells: list[str | None]
    jokers: set[int]
    zone: list[int]
    forfeited: list[bool]
    seat: int
    first_done: bool
    home: int
    rack: list[str]

    @classmethod
    def from_view(cls, view: dict) -> Position:
        cells: list[str | None] = []
        jokers: set[int] = set()
        for row in view["board"]:
            for ch in row:
                if ch == ".":
                    cells.append(None)
                else:
                    if ch not in LETTER_SET:
                        jokers.add(len(cells))
                    cells.append(fold(ch))
        zone = [-1 if ch == "." else int(ch) for row in view["zones"] for ch in row]
        seat = view["seat"]
        hr, hc = view["homes"][seat]
        return cls(cells, jokers, zone, list(view["forfeited"]), seat,
                   view["first_done"][seat], hr * SIZE + hc, list(view["rack"]))  # fmt: skip


def _touch_sets(pos: Position) -> list[frozenset[int]]:
    """Per cell: the opponents (not forfeited) whose zone a tile there touches (W-Z5)."""
    out = []
    for i in range(board.CELLS):
        s = set()
        for j in (i, *board.NEIGHBOURS[i]):
            z = pos.zone[j]
            if z >= 0 and z != pos.seat and not pos.forfeited[z]:
                s.add(z)
        out.append(frozenset(s))
    return out


class _OutOfSteps(Exception):
    pass


def generate(pos: Position, lex: Lexicon, budget: int | None = None) -> list[Move]:
    """All legal plays (distinct tile sets), unordered.

    ``budget`` bounds the work (the engine never reads a clock): at most that many
    search steps (a step is one call of the walk along a line or of the left-part
    builder).  With a budget the plays are searched in passes, the cheap ones first:
    without the rack's jokers, then with one and with two jokers laid from the anchor
    on, then with jokers anywhere (a joker scores nothing, W-S1, and a joker in the
    part left of an anchor, free of any cross-check, multiplies the search by the
    alphabet); the plays found when the steps run out are returned.  ``None`` (the
    default) finds every play.
    """
    if budget is None:
        return list(_generate(pos, lex, [(None, True)]).values())
    jokers = pos.rack.count(JOKER)
    passes = [(k, False) for k in range(jokers + 1)] + ([(jokers, True)] if jokers else [])
    found: dict[frozenset, Move] = {}
    try:
        _generate(pos, lex, passes, [budget], found, one_joker_letter=True)
    except _OutOfSteps:
        pass
    return list(found.values())


def generate_bounded(pos: Position, lex: Lexicon,
                     limit: int | None = None) -> tuple[list[Move], int, bool]:  # fmt: skip
    """Every legal play as ``generate`` without a budget finds them (every letter a joker
    may stand for), stopped after ``limit`` steps: (the plays found, the steps taken — at
    most ``limit`` —, whether the search finished).  Deterministic: the same position and
    limit give the same plays (the analysis budgets its search with it, issue 31)."""
    cap = (1 << 62) if limit is None else limit
    steps = [cap]
    found: dict[frozenset, Move] = {}
    try:
        _generate(pos, lex, [(None, True)], steps, found)
        done = True
    except _OutOfSteps:
        done = False
    return list(found.values()), min(cap, cap - steps[0]), done


def _generate(pos: Position, lex: Lexicon, passes: list[tuple[int | None, bool]],
              steps: list | None = None, found: dict | None = None,
              one_joker_letter: bool = False) -> dict[frozenset, Move]:  # fmt: skip
    """The plays of each pass ``(jokers, joker_left)`` — using at most ``jokers`` of the
    rack's jokers (None: all), in the part left of an anchor too if ``joker_left`` —
    added to ``found``; ``steps[0]`` counts down the steps left (None: no limit).
    ``one_joker_letter``: of the letters a joker may stand for that lead to the same
    DAWG node (the same words follow), only the first in W-T1 order is tried: the
    plays differ only in that joker's letter, and a joker scores nothing (W-S1)."""
    cells = pos.cells
    rack = dict.fromkeys(TILES_ALL, 0)
    for t in pos.rack:
        rack[t] += 1
    rack_jokers = rack[JOKER]
    found = {} if found is None else found
    if not pos.rack:
        return found
    trie = lex.trie
    words = lex.words
    touch = _touch_sets(pos)
    jokers = pos.jokers
    plain = [0 if (ch is None or i in jokers) else POINTS[ch] for i, ch in enumerate(cells)]
    occupied = [ch is not None for ch in cells]
    home_open = not pos.first_done and not occupied[pos.home]
    check_home = not pos.first_done and occupied[pos.home]
    if home_open:
        anchor = [False] * board.CELLS
        anchor[pos.home] = True
    else:
        anchor = [
            not occupied[i] and any(occupied[n] for n in board.NEIGHBOURS[i])
            for i in range(board.CELLS)
        ]
        if not any(anchor):
            return found
    every_neighbour_is_anchor = not home_open
    rack_letters = [t for t in LETTERS if rack[t]]
    crosses: dict[tuple, tuple] = {}  # each line's cross-checks, computed once

    def scan_line(line: list[int], along_row: bool) -> None:
        key = (along_row, line[0])
        if key not in crosses:
            crosses[key] = cross_checks(line, along_row)
        allowed, cross_base, order = crosses[key]
        scan(line, allowed, cross_base, order)

    def cross_checks(line: list[int], along_row: bool) -> tuple[list, list, list]:
        pstep = SIZE if along_row else 1
        # cross-checks for this line's empty cells: allowed letters and base points
        allowed: list[frozenset | None] = [None] * SIZE
        order: list[tuple | None] = [None] * SIZE  # the allowed letters in W-T1 order
        cross_base: list[int | None] = [None] * SIZE
        for j, i in enumerate(line):
            if occupied[i]:
                continue
            r, c = divmod(i, SIZE)
            pre, post, base = [], [], 0
            a = i - pstep
            while (a >= 0 if along_row else a // SIZE == r and a >= 0) and occupied[a]:
                pre.append(cells[a])
                base += plain[a]
                a -= pstep
            b = i + pstep
            while (b < board.CELLS if along_row else b // SIZE == r) and occupied[b]:
                post.append(cells[b])
                base += plain[b]
                b += pstep
            if pre or post:
                p, s = "".join(reversed(pre)), "".join(post)
                order[j] = tuple(L for L in LETTERS if p + L + s in words)
                allowed[j] = frozenset(order[j])
                cross_base[j] = base
        return allowed, cross_base, order

    def scan(line: list[int], allowed: list, cross_base: list, order: list) -> None:
        is_anchor = [anchor[i] for i in line]
        # empties[j]: empty cells in line[0..j-1]; used to prune unreachable starts
        empties = [0]
        for i in line:
            empties.append(empties[-1] + (0 if occupied[i] else 1))
        next_anchor = [None] * (SIZE + 1)
        nxt = None
        for j in range(SIZE - 1, -1, -1):
            if is_anchor[j]:
                nxt = j
            next_anchor[j] = nxt

        def walk(j, node, placed, main, cross, has_anchor, start):
            """The word so far covers line[start..j-1] (``node`` its trie node)."""
            if steps is not None:
                steps[0] -= 1
                if steps[0] < 0:
                    raise _OutOfSteps
            if j == SIZE or not occupied[line[j]]:
                if has_anchor and placed and j - start >= 2 and END in node:
                    _record(placed, main, cross)
                if j == SIZE:
                    return
            else:  # a tile already there: follow it
                child = node.get(cells[line[j]])
                if child is not None:
                    walk(j + 1, child, placed, main + plain[line[j]], cross, has_anchor, start)
                return
            n_placed = len(placed)
            if n_placed >= n_rack:
                return
            if not has_anchor:  # prune: the next anchor must stay within reach
                na = next_anchor[j]
                if na is None or empties[na + 1] - empties[j] > n_rack - n_placed:
                    return
            i = line[j]
            ok = allowed[j]
            m = MULT[i]
            anch = has_anchor or is_anchor[j]
            cb = cross_base[j]
            nj = j + 1
            for L in rack_letters:
                if rack[L] <= 0 or (ok is not None and L not in ok):
                    continue
                child = node.get(L)
                if child is None:
                    continue
                v = POINTS[L] * m
                rack[L] -= 1
                placed.append((i, L, False))
                walk(nj, child, placed, main + v, cross + (cb + v if cb is not None else 0),
                     anch, start)  # fmt: skip
                placed.pop()
                rack[L] += 1
            if rack[JOKER] > 0:
                rack[JOKER] -= 1
                pairs = node.items() if ok is None else ((L, node.get(L)) for L in order[j])
                cj = cross + (cb if cb is not None else 0)
                seen = set() if one_joker_letter else None
                for L, child in pairs:
                    if L == END or child is None:
                        continue
                    if seen is not None:  # the same subtree: the same plays, worth the same
                        if id(child) in seen:
                            continue
                        seen.add(id(child))
                    placed.append((i, L, True))
                    walk(nj, child, placed, main, cj, anch, start)
                    placed.pop()
                rack[JOKER] += 1

        def _record(placed, main, cross):
            key = frozenset(placed)
            if key in found:
                return
            if check_home and not _covers_home(pos, placed):
                return
            pts = main + cross + (BINGO if len(placed) == RACK_SIZE else 0)
            t = set()
            for i, _, _ in placed:
                t |= touch[i]
            k2 = len(t)
            kept = pts - tax_shares(pts, k2) * k2
            found[key] = Move(tuple(placed), pts, kept, k2)
            if kept > line_best.get(line[0], -1):
                line_best[line[0]] = kept

        if not every_neighbour_is_anchor:
            # first play (only the home square is an anchor): walk from every start
            for s in range(SIZE):
                if s > 0 and occupied[line[s - 1]]:
                    continue
                na = next_anchor[s]
                if na is None or empties[na + 1] - empties[s] > n_rack:
                    continue
                walk(s, trie, [], 0, 0, False, s)
            return

        # Appel–Jacobson: from each anchor, a left part over the empty non-anchor cells
        # just before it (no tile touches them, so no cross-checks), then extend right.
        # A play is found once per line, from its leftmost anchor.
        def left_part(a, node, letters, limit):
            if steps is not None:
                steps[0] -= 1
                if steps[0] < 0:
                    raise _OutOfSteps
            n_left = len(letters)
            if n_left:
                start = a - n_left
                placed, main = [], 0
                for k, (ch, joker) in enumerate(letters):
                    i = line[start + k]
                    placed.append((i, ch, joker))
                    if not joker:
                        main += POINTS[ch] * MULT[i]
                walk(a, node, placed, main, 0, False, start)
            else:
                walk(a, node, [], 0, 0, False, a)
            if limit == 0:
                return
            for L in rack_letters:
                if rack[L] <= 0:
                    continue
                child = node.get(L)
                if child is None:
                    continue
                rack[L] -= 1
                letters.append((L, False))
                left_part(a, child, letters, limit - 1)
                letters.pop()
                rack[L] += 1
            if joker_left and rack[JOKER] > 0:
                rack[JOKER] -= 1
                seen = set()
                for L, child in node.items():
                    if one_joker_letter:
                        if id(child) in seen:
                            continue
                        seen.add(id(child))
                    if L != END:
                        letters.append((L, True))
                        left_part(a, child, letters, limit - 1)
                        letters.pop()
                rack[JOKER] += 1

        for a in range(SIZE):
            if not is_anchor[a]:
                continue
            if a > 0 and occupied[line[a - 1]]:
                st = a - 1
                while st > 0 and occupied[line[st - 1]]:
                    st -= 1
                node, main = trie, 0
                for j in range(st, a):
                    node = node.get(cells[line[j]])
                    if node is None:
                        break
                    main += plain[line[j]]
                if node is not None:
                    walk(a, node, [], main, 0, False, st)
                continue
            limit = 0
            j = a - 1
            while j >= 0 and not occupied[line[j]] and not is_anchor[j]:
                limit += 1
                j -= 1
            if j >= 0 and occupied[line[j]]:
                limit -= 1  # the left part may not start right after a tile
            left_part(a, trie, [], max(0, min(limit, n_rack - 1)))

    lines = [([k * SIZE + j for j in range(SIZE)], True) for k in range(SIZE)]
    lines += [([j * SIZE + k for j in range(SIZE)], False) for k in range(SIZE)]
    line_best: dict[int, int] = {}  # per line (its first cell): the best play kept so far
    # ``n_rack`` and ``joker_left`` are read by the walks above (closures)
    for jokers_allowed, joker_left in passes:  # noqa: B007
        rack[JOKER] = rack_jokers if jokers_allowed is None else min(rack_jokers, jokers_allowed)
        n_rack = len(pos.rack) - rack_jokers + rack[JOKER]
        if n_rack == 0:
            continue
        if steps is not None:  # a budget: the lines that gave the best plays first
            lines.sort(key=lambda la: -line_best.get(la[0][0], -1))
        for line, along_row in lines:
            scan_line(line, along_row)
    return found


def _covers_home(pos: Position, placed) -> bool:
    """W-M5 when the home square already holds a tile: a word of the play runs
    through it (checked by the rules' own evaluation)."""
    from game.engine.errors import RuleError
    from games.kelimeki.engine.rules import evaluate_play

    try:
        evaluate_play(pos.cells, pos.jokers, pos.zone, pos.forfeited, pos.seat, False,
                      pos.home, pos.rack,
                      [Placement(i // SIZE, i % SIZE, ch, j) for i, ch, j in placed],
                      _AnyWord())  # fmt: skip
    except RuleError:
        return False
    return True


class _AnyWord:
    def contains(self, word: str) -> bool:
        return True
