"""Shared checks of the games' rule-coverage tests (``test_rule_coverage.py``).

Each spec ``docs/rules/<game>.md`` marks its rules ``**X-Y9**`` (or ``**Decision
X-Y9**``); every rule id must be cited by a test: golden scenario files cite rules in
their ``rules`` field, Python tests in docstrings, names and comments.  The repository's
spec copies must equal the shared ones (``shared/rules/``) where that folder is present.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"
# the shared folder sits beside the main checkout (/work/shared) or above a worktree's
SHARED = next((p / "shared" / "rules" for p in (ROOT.parent, ROOT.parent.parent)
               if (p / "shared" / "rules").is_dir()), ROOT.parent / "shared" / "rules")  # fmt: skip


def rule_ids(spec: str, id_pattern: str) -> list[str]:
    """The rule ids (matching ``id_pattern``) that ``docs/rules/<spec>`` defines."""
    text = (RULES / spec).read_text(encoding="utf-8")
    return sorted(set(re.findall(rf"\*\*(?:Decision )?({id_pattern})", text)))


def citations(text: str, id_pattern: str, name_pattern: str, letter: str) -> set[str]:
    """Rule ids cited in ``text``: written out (``id_pattern``) or in a test name
    (``name_pattern`` captures the section letter and number, e.g. ``s_l5``)."""
    ids = set(re.findall(id_pattern, text))
    ids |= {f"{letter}-{m[0].upper()}{m[1]}" for m in re.findall(name_pattern, text)}
    return ids


def uncited(ids: list[str], folder: Path, cited: Callable[[str], set[str]]) -> list[str]:
    """The ids no test file (``.py``, ``.json``) under ``folder`` cites; the coverage
    tests themselves do not count."""
    found: set[str] = set()
    for path in folder.rglob("*"):
        if path.suffix in (".py", ".json") and path.name != "test_rule_coverage.py":
            found |= cited(path.read_text(encoding="utf-8"))
    return [i for i in ids if i not in found]


def assert_spec_copies_match_shared(*names: str) -> None:
    for name in names:
        shared = SHARED / name
        if not shared.exists():
            pytest.skip("the shared rules folder is not beside this checkout")
        assert (RULES / name).read_text() == shared.read_text()


def assert_imports_no_django(import_code: str) -> None:
    """Running ``import_code`` in a fresh interpreter loads no Django module."""
    code = (
        f"{import_code}\n"
        "import sys\n"
        "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]\n"
        "print(len(bad)); sys.exit(1 if bad else 0)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
