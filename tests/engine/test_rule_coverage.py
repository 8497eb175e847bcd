"""Every rule id of kut.md sections 1–11 is cited by at least one test.

The specification lives in ``docs/rules/kut.md`` (a copy of the shared
``rules/kut.md``; a test keeps the two identical when the shared folder is present).
Golden scenario files cite rules in their ``rules`` field; Python tests in docstrings,
names and comments.
"""

from __future__ import annotations

from tests.engine.rule_coverage import (
    ROOT,
    assert_spec_copies_match_shared,
    citations,
    rule_ids,
    uncited,
)

ENGINE_SECTIONS = ("T", "G", "M", "D", "N", "O", "L", "C", "F", "S", "U", "R")


def cited(text: str) -> set[str]:
    # test names spell them k_t1 / k_l7
    return citations(text, r"K-[A-Z]\d+", r"k_([a-z])(\d+)", "K")


def test_spec_copy_matches_shared():
    assert_spec_copies_match_shared("kut.md", "kut-scenario.md")


def test_every_engine_rule_is_cited_by_a_test():
    ids = [i for i in rule_ids("kut.md", r"K-[A-Z]\d+") if i[2] in ENGINE_SECTIONS]
    assert len(ids) >= 60, ids
    missing = uncited(ids, ROOT / "tests", cited)
    assert not missing, f"rules with no test citing them: {missing}"
