"""Every rule id of kelimeki.md is cited by at least one test, and the spec copies in
docs/rules/ match the shared ones."""

from __future__ import annotations

from pathlib import Path

from tests.engine.rule_coverage import (
    assert_spec_copies_match_shared,
    citations,
    rule_ids,
    uncited,
)

HERE = Path(__file__).resolve().parent


def cited(text: str) -> set[str]:
    return citations(text, r"W-[A-Z]\d+", r"w_([a-z])(\d+)", "W")


def test_spec_copy_matches_shared():
    assert_spec_copies_match_shared("kelimeki.md", "kelimeki-scenario.md")


def test_every_rule_is_cited_by_a_test():
    ids = rule_ids("kelimeki.md", r"W-[A-Z]\d+")
    assert len(ids) == 60, ids
    missing = uncited(ids, HERE, cited)
    assert not missing, f"rules with no test citing them: {missing}"
