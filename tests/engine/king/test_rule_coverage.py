"""Every rule id of king.md is cited by at least one King test; the spec copies in
docs/rules/ are the shared ones.

Golden scenario files cite rules in their ``rules`` field; Python tests in docstrings,
names and comments (test names spell them ``g_p8``).
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.engine.rule_coverage import (
    assert_spec_copies_match_shared,
    citations,
    rule_ids,
    uncited,
)

HERE = Path(__file__).parent


def cited(text: str) -> set[str]:
    ids = citations(text, r"\b(?:G-[A-Z]|P-)\d+", r"\bg_([a-z])(\d+)", "G")
    ids |= {f"P-{m}" for m in re.findall(r"\bp(\d)_", text)}
    return ids


def test_spec_copy_matches_shared():
    assert_spec_copies_match_shared("king.md", "king-scenario.md")


def test_every_rule_is_cited_by_a_test():
    ids = rule_ids("king.md", r"(?:G-[A-Z]|P-)\d+")
    assert len(ids) >= 60, ids
    missing = uncited(ids, HERE, cited)
    assert not missing, f"rules with no test citing them: {missing}"
