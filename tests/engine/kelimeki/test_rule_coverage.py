"""Every rule id of kelimeki.md is cited by at least one test, and the spec copies in
docs/rules/ match the shared ones."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SPEC = ROOT / "docs" / "rules" / "kelimeki.md"
SHARED = ROOT.parent / "shared" / "rules"
HERE = Path(__file__).resolve().parent


def rule_ids(text: str) -> list[str]:
    return sorted(set(re.findall(r"\*\*(?:Decision )?(W-[A-Z]\d+)", text)))


def cited(text: str) -> set[str]:
    ids = set(re.findall(r"W-[A-Z]\d+", text))
    ids |= {f"W-{m[0].upper()}{m[1]}" for m in re.findall(r"w_([a-z])(\d+)", text)}
    return ids


def test_spec_copy_matches_shared():
    for name in ("kelimeki.md", "kelimeki-scenario.md"):
        shared = SHARED / name
        if not shared.exists():
            pytest.skip("the shared rules folder is not beside this checkout")
        assert (ROOT / "docs" / "rules" / name).read_text() == shared.read_text()


def test_every_rule_is_cited_by_a_test():
    ids = rule_ids(SPEC.read_text())
    assert len(ids) == 60, ids
    found: set[str] = set()
    for path in HERE.rglob("*"):
        if path.suffix in (".py", ".json") and path.name != Path(__file__).name:
            found |= cited(path.read_text(encoding="utf-8"))
    missing = [i for i in ids if i not in found]
    assert not missing, f"rules with no test citing them: {missing}"
