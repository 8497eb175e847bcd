"""Every rule id of kdvli.md is cited by at least one KDVli test, and the spec copies in
docs/rules/ are the shared ones.

Golden scenario files cite rules in their ``rules`` field; Python tests in docstrings,
names (``test_v_n6_…``) and comments.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
SPEC = ROOT / "docs" / "rules" / "kdvli.md"
SHARED = [ROOT.parent / "shared" / "rules", ROOT.parent.parent / "shared" / "rules"]


def rule_ids(text: str) -> list[str]:
    return sorted(set(re.findall(r"\*\*(?:Decision )?(V-[A-Z]\d+)", text)))


def cited(text: str) -> set[str]:
    ids = set(re.findall(r"V-[A-Z]\d+", text))
    ids |= {f"V-{m[0].upper()}{m[1]}" for m in re.findall(r"v_([a-z])(\d+)", text)}
    return ids


def test_spec_copy_matches_shared():
    shared = next((d for d in SHARED if (d / "kdvli.md").exists()), None)
    if shared is None:
        pytest.skip("the shared rules folder is not beside this checkout")
    for name in ("kdvli.md", "kdvli-scenario.md"):
        assert (ROOT / "docs" / "rules" / name).read_text() == (shared / name).read_text()


def test_every_rule_is_cited_by_a_test():
    ids = rule_ids(SPEC.read_text(encoding="utf-8"))
    assert len(ids) >= 59, ids
    found: set[str] = set()
    for path in HERE.rglob("*"):
        if path.suffix in (".py", ".json") and path.name != Path(__file__).name:
            found |= cited(path.read_text(encoding="utf-8"))
    missing = [i for i in ids if i not in found]
    assert not missing, f"rules with no test citing them: {missing}"


def test_the_engine_imports_no_django():
    import subprocess
    import sys

    code = ("import sys, game.engine.kdvli, game.engine.kdvli.bots, game.engine.kdvli.rating;"
            "sys.exit(any(m == 'django' or m.startswith('django.') for m in sys.modules))")  # fmt: skip
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0


def test_every_error_code_is_documented():
    from game.engine.kdvli.hand import CODES

    raised = set()
    for path in (ROOT / "game" / "engine" / "kdvli").glob("*.py"):
        raised |= set(re.findall(r'(?:RuleError|ActionFormatError)\("([a-z_]+)"', path.read_text()))
    assert raised and raised <= set(CODES), raised - set(CODES)
