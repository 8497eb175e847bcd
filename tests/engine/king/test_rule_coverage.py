"""Every rule id of king.md is cited by at least one King test; the spec copies in
docs/rules/ are the shared ones.

Golden scenario files cite rules in their ``rules`` field; Python tests in docstrings,
names and comments (test names spell them ``g_p8``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SPEC = ROOT / "docs" / "rules" / "king.md"
# the shared folder beside the checkout (or beside its worktrees' folder)
SHARED = next((p / "shared" / "rules" for p in (ROOT.parent, ROOT.parent.parent)
               if (p / "shared" / "rules").is_dir()), ROOT.parent / "shared" / "rules")  # fmt: skip
HERE = Path(__file__).parent


def rule_ids(text: str) -> list[str]:
    return sorted(set(re.findall(r"\*\*(?:Decision )?((?:G-[A-Z]|P-)\d+)", text)))


def cited(text: str) -> set[str]:
    ids = set(re.findall(r"\b(?:G-[A-Z]|P-)\d+", text))
    ids |= {f"G-{m[0].upper()}{m[1]}" for m in re.findall(r"\bg_([a-z])(\d+)", text)}
    ids |= {f"P-{m}" for m in re.findall(r"\bp(\d)_", text)}
    return ids


def test_spec_copy_matches_shared():
    for name in ("king.md", "king-scenario.md"):
        shared = SHARED / name
        if not shared.exists():
            pytest.skip("the shared rules folder is not beside this checkout")
        assert (ROOT / "docs" / "rules" / name).read_text() == shared.read_text()


def test_every_rule_is_cited_by_a_test():
    ids = rule_ids(SPEC.read_text())
    assert len(ids) >= 60, ids
    found: set[str] = set()
    for path in HERE.rglob("*"):
        if path.suffix in (".py", ".json") and path.name != Path(__file__).name:
            found |= cited(path.read_text(encoding="utf-8"))
    missing = [i for i in ids if i not in found]
    assert not missing, f"rules with no test citing them: {missing}"
