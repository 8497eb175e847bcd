"""Every rule id of kastet.md is cited by at least one test, and the repository's copy of
the spec is the shared one.

Golden scenario files cite rules in their ``rules`` field; Python tests in docstrings,
names and comments (``test_s_l5_…`` counts as S-L5).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SPEC = ROOT / "docs" / "rules" / "kastet.md"
# the shared folder sits beside the main checkout (/work/shared) or above a worktree's
SHARED = next((p / "shared" / "rules" for p in (ROOT.parent, ROOT.parent.parent)
               if (p / "shared" / "rules").is_dir()), ROOT.parent / "shared" / "rules")  # fmt: skip
HERE = Path(__file__).resolve().parent
# Rules whose whole substance is the platform's (lobby, seats, accounts): the engine has
# no part in them, and the platform's tests cite them.
PLATFORM_ONLY = {"S-P9": "habitual leavers are kept from rated tables by the lobby"}


def rule_ids(text: str) -> list[str]:
    return sorted(set(re.findall(r"\*\*(?:Decision )?(S-[A-Z]\d+)", text)))


def cited(text: str) -> set[str]:
    ids = set(re.findall(r"S-[A-Z]\d+", text))
    ids |= {f"S-{m[0].upper()}{m[1]}" for m in re.findall(r"(?<![a-z])s_([a-z])(\d+)", text)}
    return ids


def test_spec_copy_matches_shared():
    for name in ("kastet.md", "kastet-scenario.md"):
        shared = SHARED / name
        if not shared.exists():
            pytest.skip("the shared rules folder is not beside this checkout")
        assert (ROOT / "docs" / "rules" / name).read_text() == shared.read_text()


def test_every_rule_is_cited_by_a_test():
    ids = rule_ids(SPEC.read_text(encoding="utf-8"))
    assert len(ids) >= 60, ids
    found: set[str] = set()
    for path in HERE.rglob("*"):
        if path.suffix in (".py", ".json") and path.name != Path(__file__).name:
            found |= cited(path.read_text(encoding="utf-8"))
    missing = [i for i in ids if i not in found and i not in PLATFORM_ONLY]
    assert not missing, f"rules with no test citing them: {missing}"
