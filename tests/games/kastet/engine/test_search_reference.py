"""The hard bot's layout search against an integer program (PuLP/CBC, a dev dependency):
on positions small enough for the search to finish within its budget, it places as many
rack tiles as the optimum over every partition of table + rack into valid groups (all
table tiles used, at most 26 groups, S-L2, S-L3, S-A1)."""

from __future__ import annotations

import itertools
import random

import pytest

pulp = pytest.importorskip("pulp")

from games.kastet.engine.groups import read_group  # noqa: E402
from games.kastet.engine.search import J, best_layout, face_names, to_values  # noqa: E402
from games.okey.engine.tiles import parse_face  # noqa: E402


def candidate_groups() -> list[tuple[int, ...]]:
    """Every run and set as a multiset of values (J for a real okey, at most two)."""
    out = set()
    for c in range(4):
        for start in range(1, 12):
            for end in range(start + 2, 14):
                vals = [c * 13 + n - 1 for n in range(start, end + 1)]
                for k in range(0, 3):
                    for pos in itertools.combinations(range(len(vals)), k):
                        g = [J if i in pos else v for i, v in enumerate(vals)]
                        if any(x != J for x in g):
                            out.add(tuple(sorted(g)))
    for n in range(1, 14):
        for size in (3, 4):
            for cols in itertools.combinations(range(4), size):
                vals = [c * 13 + n - 1 for c in cols]
                for k in range(0, 3):
                    for pos in itertools.combinations(range(size), k):
                        g = [J if i in pos else v for i, v in enumerate(vals)]
                        if any(x != J for x in g):
                            out.add(tuple(sorted(g)))
    return sorted(out)


GROUPS = candidate_groups()


def optimum(table: list[int], rack: list[int], okey: int) -> int:
    tn, tj = to_values(table, okey)
    rn, rj = to_values(rack, okey)
    have = {}
    for v in tn + rn:
        have[v] = have.get(v, 0) + 1
    need = {}
    for v in tn:
        need[v] = need.get(v, 0) + 1
    joker_have, joker_need = tj + rj, tj
    usable = [g for g in GROUPS
              if all(x == J or x in have for x in g)
              and sum(1 for x in g if x == J) <= joker_have]  # fmt: skip
    prob = pulp.LpProblem("layout", pulp.LpMaximize)
    x = [pulp.LpVariable(f"g{i}", 0, 2, cat="Integer") for i in range(len(usable))]
    size = pulp.lpSum(len(g) * x[i] for i, g in enumerate(usable))
    prob += size
    for v in have:
        used = pulp.lpSum(g.count(v) * x[i] for i, g in enumerate(usable) if v in g)
        prob += used <= have[v]
        prob += used >= need.get(v, 0)
    jused = pulp.lpSum(g.count(J) * x[i] for i, g in enumerate(usable) if J in g)
    prob += jused <= joker_have
    prob += jused >= joker_need
    prob += pulp.lpSum(x) <= 26
    status = prob.solve(pulp.PULP_CBC_CMD(msg=False))
    if pulp.LpStatus[status] != "Optimal":
        return -1
    return round(pulp.value(size) or 0) - len(table)


def random_position(rng: random.Random):
    """A table of valid groups and a small rack, drawn from one shuffled tile set."""
    okey = rng.randrange(52)
    tiles = [f for f in range(52) if f != okey] * 2 + [52, 52, okey, okey]
    rng.shuffle(tiles)
    table: list[int] = []
    for _ in range(rng.randrange(0, 4)):
        c, s = rng.randrange(4), rng.randrange(1, 10)
        run = [c * 13 + n - 1 for n in range(s, s + 3)]
        if all(f in tiles and f != okey for f in run):
            for f in run:
                tiles.remove(f)
            table += run
    rack = tiles[: rng.randrange(5, 10)]
    return table, rack, okey


@pytest.mark.parametrize("seed", range(12))
def test_search_matches_the_integer_program(seed):
    rng = random.Random(seed)
    table, rack, okey = random_position(rng)
    groups, search = best_layout(table, rack, okey, budget=200_000)
    assert search.complete
    placed = search.best_score[0] if groups is not None else 0
    want = optimum(table, rack, okey)
    assert want >= 0
    assert placed == want, (seed, table, rack, okey)
    for g in groups or []:
        assert read_group([parse_face(n) for n in face_names(g, okey)], okey) is not None


def mid_position(rng: random.Random):
    """A larger table of runs (3–5 long) and sets, and a rack of 8 to 15 tiles."""
    okey = rng.randrange(52)
    tiles = [f for f in range(52) if f != okey] * 2 + [52, 52, okey, okey]
    rng.shuffle(tiles)
    table: list[int] = []
    for _ in range(rng.randrange(2, 10)):
        if rng.random() < 0.6:
            c, s, n = rng.randrange(4), rng.randrange(1, 10), rng.randrange(3, 6)
            g = [c * 13 + k - 1 for k in range(s, min(14, s + n))]
        else:
            k = rng.randrange(13)
            g = [c * 13 + k for c in rng.sample(range(4), rng.choice((3, 4)))]
        if len(g) >= 3 and all(f in tiles and f != okey for f in g):
            for f in g:
                tiles.remove(f)
            table += g
    return table, tiles[: rng.randrange(8, 16)], okey


@pytest.mark.parametrize("seed", [1017, 1024, 1044, 1102])
def test_search_matches_the_integer_program_on_larger_positions(seed):
    """Positions that the hard bot's node budget cuts short (README, "Kastet bots"):
    with a larger budget the search completes and reaches the optimum."""
    from games.kastet.engine.bots import BUDGETS

    table, rack, okey = mid_position(random.Random(seed))
    _, cut = best_layout(table, rack, okey, budget=BUDGETS["hard"])
    groups, search = best_layout(table, rack, okey, budget=100_000)
    assert search.complete and not cut.complete
    assert search.best_score[0] == optimum(table, rack, okey) > cut.best_score[0]


def main(positions: int = 150) -> None:
    """``python -m tests.games.kastet.engine.test_search_reference``: how often the bots'
    budget reaches the optimum on random mid-size positions."""
    from games.kastet.engine.bots import BUDGETS

    budget = BUDGETS["hard"]
    optimal = cut = 0
    for seed in range(positions):
        table, rack, okey = mid_position(random.Random(1000 + seed))
        _, search = best_layout(table, rack, okey, budget=budget)
        optimal += search.best_score[0] == optimum(table, rack, okey)
        cut += not search.complete
    print(f"{positions} positions, budget {budget} nodes: optimum reached in {optimal}, "
          f"search cut short in {cut}")  # fmt: skip


if __name__ == "__main__":
    main()
