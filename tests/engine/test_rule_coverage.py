"""Every rule id of kut.md sections 1–11 is cited by at least one test.

The specification lives in ``docs/rules/kut.md`` (a copy of the shared
``rules/kut.md``; a test keeps the two identical when the shared folder is present).
Golden scenario files cite rules in their ``rules`` field; Python tests in docstrings,
names and comments.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "docs" / "rules" / "kut.md"
SHARED = ROOT.parent / "shared" / "rules"
ENGINE_SECTIONS = ("T", "G", "M", "D", "N", "O", "L", "C", "F", "S", "U", "R")


def rule_ids(text: str) -> list[str]:
    return sorted(set(re.findall(r"\*\*(?:Decision )?(K-[A-Z]\d+)", text)))


def cited(text: str) -> set[str]:
    ids = set(re.findall(r"K-[A-Z]\d+", text))
    # test names spell them k_t1 / k_l7
    ids |= {f"K-{m[0].upper()}{m[1]}" for m in re.findall(r"k_([a-z])(\d+)", text)}
    return ids


def test_spec_copy_matches_shared():
    for name in ("kut.md", "kut-scenario.md"):
        shared = SHARED / name
        if not shared.exists():
            pytest.skip("the shared rules folder is not beside this checkout")
        assert (ROOT / "docs" / "rules" / name).read_text() == shared.read_text()


def test_every_engine_rule_is_cited_by_a_test():
    ids = [i for i in rule_ids(SPEC.read_text()) if i[2] in ENGINE_SECTIONS]
    assert len(ids) >= 60, ids
    found: set[str] = set()
    for path in (ROOT / "tests").rglob("*"):
        if path.suffix in (".py", ".json") and path.name != Path(__file__).name:
            found |= cited(path.read_text(encoding="utf-8"))
    missing = [i for i in ids if i not in found]
    assert not missing, f"rules with no test citing them: {missing}"
