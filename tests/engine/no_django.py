"""The engines are pure Python: a check that importing them loads no Django module."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


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
