"""Run a piece of the site's browser JavaScript under node on many cases at once, to
compare it with the server's Python (the tables' local checks and moves)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders


def served_scripts(into: Path) -> Path:
    """Every script the site serves, laid out as under ``STATIC_URL`` (the platform's
    ``static/`` and each app's ``static/`` together, as the finders find them), so that a
    module's relative imports resolve as in the browser: a game's ``../js/frames.js``
    is the platform's file, ``../okey/tiles.js`` the okey family's."""
    for finder in finders.get_finders():
        for path, storage in finder.list([]):
            target = into / path
            if path.endswith(".js") and not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(storage.path(path), target)
    (into / "package.json").write_text('{"type": "module"}')
    return into


def map_in_node(tmp_path: Path, module: str, name: str, mapper: str, cases: list) -> list:
    """``cases.map(mapper)`` in node, with ``name`` imported from ``module`` (its static
    name, as in ``{% static %}``, e.g. ``okey/tiles.js`` or ``js/toast.js``); ``mapper``
    is a JS function of one case.  Fails the test when node is missing (CI installs it)."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed to run the site's JavaScript (apt-get install nodejs)")
    static = served_scripts(tmp_path / "static")
    assert (static / module).is_file(), f"no static file {module}"
    runner = tmp_path / "map.mjs"
    runner.write_text(
        f'import {{ {name} }} from "{(static / module).as_uri()}";\n'
        'import { readFileSync } from "node:fs";\n'
        "const cases = JSON.parse(readFileSync(0, 'utf8'));\n"
        f"process.stdout.write(JSON.stringify(cases.map({mapper})));\n"
    )
    done = subprocess.run([node, str(runner)], input=json.dumps(cases), capture_output=True,
                          text=True, timeout=120, check=True)  # fmt: skip
    return json.loads(done.stdout)
