"""Every rule id of kdvli.md is cited by at least one KDVli test, and the spec copies in
docs/rules/ are the shared ones.

Golden scenario files cite rules in their ``rules`` field; Python tests in docstrings,
names (``test_v_n6_…``) and comments.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.engine.rule_coverage import (
    ROOT,
    assert_imports_no_django,
    assert_spec_copies_match_shared,
    citations,
    rule_ids,
    uncited,
)

HERE = Path(__file__).resolve().parent


def cited(text: str) -> set[str]:
    return citations(text, r"V-[A-Z]\d+", r"v_([a-z])(\d+)", "V")


def test_spec_copy_matches_shared():
    assert_spec_copies_match_shared("kdvli.md", "kdvli-scenario.md")


def test_every_rule_is_cited_by_a_test():
    ids = rule_ids("kdvli.md", r"V-[A-Z]\d+")
    assert len(ids) >= 59, ids
    missing = uncited(ids, HERE, cited)
    assert not missing, f"rules with no test citing them: {missing}"


def test_the_engine_imports_no_django():
    assert_imports_no_django(
        "import games.kdvli.engine, games.kdvli.engine.bots, games.kdvli.engine.rating"
    )


def test_every_error_code_is_documented():
    from games.kdvli.engine.hand import CODES

    raised = set()
    for path in (ROOT / "games" / "kdvli" / "engine").glob("*.py"):
        raised |= set(re.findall(r'(?:RuleError|ActionFormatError)\("([a-z_]+)"', path.read_text()))
    assert raised and raised <= set(CODES), raised - set(CODES)
