import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

FORMATTED = ["manage.py", "kut_site", "accounts", "lobby", "game", "games", "scripts", "tests"]


def ruff() -> str:
    candidate = Path(sys.executable).with_name("ruff")
    if candidate.exists():
        return str(candidate)
    found = shutil.which("ruff")
    if not found:
        pytest.fail("ruff is not installed (it is in the dev extra)")
    return found


def test_ruff_check_is_clean():
    result = subprocess.run(
        [ruff(), "check", "."], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean():
    # The site's code; the engines (games/*/engine), their tests (tests/engine, and
    # tests/games/*/engine through pyproject's [tool.ruff.format] exclude) and tools/ are
    # formatted by their owner, and the lint above covers them too.
    command = [ruff(), "format", "--check", *FORMATTED, "--extend-exclude", "games/*/engine"]
    command += ["--extend-exclude", "tests/engine"]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
