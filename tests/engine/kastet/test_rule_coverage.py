"""Every rule id of kastet.md is cited by at least one test, and the repository's copy of
the spec is the shared one.

Golden scenario files cite rules in their ``rules`` field; Python tests in docstrings,
names and comments (``test_s_l5_…`` counts as S-L5).
"""

from __future__ import annotations

from pathlib import Path

from tests.engine.rule_coverage import (
    assert_spec_copies_match_shared,
    citations,
    rule_ids,
    uncited,
)

HERE = Path(__file__).resolve().parent
# Rules whose whole substance is the platform's (lobby, seats, accounts): the engine has
# no part in them, and the platform's tests cite them.
PLATFORM_ONLY = {"S-P9": "habitual leavers are kept from rated tables by the lobby"}


def cited(text: str) -> set[str]:
    return citations(text, r"S-[A-Z]\d+", r"(?<![a-z])s_([a-z])(\d+)", "S")


def test_spec_copy_matches_shared():
    assert_spec_copies_match_shared("kastet.md", "kastet-scenario.md")


def test_every_rule_is_cited_by_a_test():
    ids = rule_ids("kastet.md", r"S-[A-Z]\d+")
    assert len(ids) >= 60, ids
    missing = [i for i in uncited(ids, HERE, cited) if i not in PLATFORM_ONLY]
    assert not missing, f"rules with no test citing them: {missing}"
