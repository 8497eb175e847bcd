import subprocess
import sys

from tests.conftest import ROOT


def test_game_package_init_stays_empty():
    assert (ROOT / "game" / "__init__.py").read_text() == ""


def test_game_engine_imports_without_django():
    code = "import sys, game.engine; assert 'django' not in sys.modules, 'django was imported'"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
