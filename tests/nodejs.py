"""Run a piece of the site's browser JavaScript under node on many cases at once, to
compare it with the server's Python (the tables' local checks and moves)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT


def map_in_node(tmp_path: Path, module: str, name: str, mapper: str, cases: list) -> list:
    """``cases.map(mapper)`` in node, with ``name`` imported from ``module`` (a path under
    the repository, e.g. ``static/js/okey/tiles.js``); ``mapper`` is a JS function of one
    case.  Fails the test when node is missing (CI installs it)."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed to run the site's JavaScript (apt-get install nodejs)")
    runner = tmp_path / "map.mjs"
    runner.write_text(
        f'import {{ {name} }} from "{(ROOT / module).as_uri()}";\n'
        'import { readFileSync } from "node:fs";\n'
        "const cases = JSON.parse(readFileSync(0, 'utf8'));\n"
        f"process.stdout.write(JSON.stringify(cases.map({mapper})));\n"
    )
    done = subprocess.run([node, str(runner)], input=json.dumps(cases), capture_output=True,
                          text=True, timeout=120, check=True)  # fmt: skip
    return json.loads(done.stdout)
