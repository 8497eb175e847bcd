"""KDVli's engine is pure Python, and every error code it raises is documented (its rule
ids' coverage is the contract suite's, tests/contract)."""

from __future__ import annotations

import re

from tests.conftest import ROOT
from tests.engine.no_django import assert_imports_no_django


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
