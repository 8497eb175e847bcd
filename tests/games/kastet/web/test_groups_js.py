"""The table's local check of the draft (kastet/groups.js, S-L8) is the
engine's (games/kastet/engine/groups.py ``check_draft``): run under node on thousands of
random groups and pairs — okeys, fake okeys, 1 after 13, sets with repeated colours — the
two must agree on every one, so that the table never marks a valid group red or a
refused one green (the server's answer on *Aç* stays the truth)."""

from __future__ import annotations

import random

from games.kastet.engine.groups import check_draft
from tests.nodejs import map_in_node


def random_cases(n: int, seed: int = 20) -> list[dict]:
    rng = random.Random(seed)
    faces = [f"{c}{n}" for c in "RYBK" for n in range(1, 14)] + ["F"]
    out = []
    for _ in range(n):
        okey = rng.choice(faces[:-1])
        table = []
        for _ in range(rng.randint(1, 6)):
            kind = rng.random()
            if kind < 0.4:  # near-runs
                c, start, size = rng.choice("RYBK"), rng.randint(1, 13), rng.randint(1, 14)
                g = [f"{c}{min(13, start + i)}" if rng.random() > 0.1 else rng.choice(faces)
                     for i in range(size)]  # fmt: skip
            elif kind < 0.7:  # near-sets
                num, size = rng.randint(1, 13), rng.randint(2, 5)
                g = [f"{rng.choice('RYBK')}{num}" for _ in range(size)]
            else:
                g = [rng.choice(faces) for _ in range(rng.randint(1, 5))]
            g = [okey if rng.random() < 0.15 else t for t in g]
            table.append(g)
        pairs = [[rng.choice(faces + [okey]), rng.choice(faces + [okey])] for _ in range(3)]
        pairs.append([pairs[0][0], pairs[0][0]])
        out.append({"okey": okey, "table": table, "pairs": pairs})
    return out


def test_the_tables_check_agrees_with_the_engine(tmp_path):
    cases = random_cases(4000)
    mapper = "(c) => checkDraft(c.okey, c.table, c.pairs)"
    got = map_in_node(tmp_path, "kastet/groups.js", "checkDraft", mapper, cases)
    valid = 0
    for case, js in zip(cases, got, strict=True):
        want = check_draft(case["okey"], case["table"], case["pairs"])
        assert js == want, case
        valid += sum(want["groups"]) + sum(want["pairs"])
    assert valid > 1000  # the random cases hold many valid groups and pairs, not only bad ones
