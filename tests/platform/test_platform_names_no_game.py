"""A platform that names no game (issue 28, "Done when").

The platform is ``game/``, ``lobby/``, ``accounts/`` and ``kut_site/``; it reads games
only through the registry (``game.engine.registry``) and the protocol.  Three checks:

* importing every platform module, with the registry emptied and no game's home among
  the installed apps, imports no game package (``games.*``, the toy's home) — run in a
  clean interpreter;
* no string in the platform's Python is a game's key (taken from the registry), or a
  key with a path after it (``"kut/…"``, ``"games.kut…"``, ``"kut:…"``); the settings
  and the registry are the two places that list games, and migrations are the schema's
  frozen history (their old ``default="kut"``, KÜT's trial-hand data migration);
* no import circle among the platform's modules: their module-level imports, read with
  ``ast`` (imports under ``if TYPE_CHECKING:`` do not run), and none either when the
  imports inside functions (the old way of dodging load order) are counted too.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

from game.engine import registry
from tests.conftest import ROOT

PLATFORM = ("game", "lobby", "accounts", "kut_site")
# the two modules that list the games by name (the "settings and the registry")
LISTS_GAMES = {"kut_site.settings", "game.engine.registry"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def platform_files() -> dict[str, Path]:
    """Every platform module's dotted name → its file."""
    return {
        module_name(p): p
        for top in PLATFORM
        for p in sorted((ROOT / top).rglob("*.py"))
        if "__pycache__" not in p.parts
    }


def is_migration(name: str) -> bool:
    return ".migrations." in f"{name}."


# --- (a) importing the platform imports no game --------------------------------------

IMPORT_ALL = """
import importlib, json, sys
from game.engine import registry
registry.GAMES.clear()  # no game registered: the platform must not reach one anyway
import kut_site.settings as base
from django.conf import settings
conf = {k: getattr(base, k) for k in dir(base) if k.isupper()}
conf["INSTALLED_APPS"] = [a for a in base.INSTALLED_APPS
                          if a.split(".")[0] not in ("games", "tests")]
settings.configure(**conf)
import django
django.setup()
failed = {}
for name in json.loads(sys.argv[1]):
    try:
        importlib.import_module(name)
    except Exception as exc:  # reported: a platform module that needs a game to import
        failed[name] = repr(exc)
games = sorted(m for m in sys.modules
               if m.split(".")[0] == "games" or m.startswith("tests.toygame"))
print(json.dumps({"games": games, "failed": failed}))
"""


def test_importing_the_platform_imports_no_game_package():
    names = [n for n in platform_files() if n not in LISTS_GAMES and n != "kut_site.asgi"]
    env = {"PATH": "/usr/bin:/bin", "HOME": str(ROOT), "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL, json.dumps(names)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert len(names) > 100  # the whole platform, not a few modules
    assert out["failed"] == {}
    assert out["games"] == []


def test_the_check_sees_a_game_imported():
    """The subprocess check would fail on a platform module importing a game."""
    code = IMPORT_ALL.replace("registry.GAMES.clear()", "import games.king.engine")
    result = subprocess.run(
        [sys.executable, "-c", code, json.dumps(["game.views"])],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "games.king.engine" in json.loads(result.stdout.strip().splitlines()[-1])["games"]


# --- (b) no quoted game key ------------------------------------------------------------


def game_key_pattern() -> re.Pattern:
    keys = "|".join(re.escape(k) for k in sorted(registry.GAMES, key=len, reverse=True))
    # a key alone, a template or static path, a URL name, a dotted path into its home;
    # not the site's own ``kut.`` / ``kut-`` cache keys and salts (the site is KÜT's)
    return re.compile(rf"^(?:games\.(?:{keys})(?:$|\.)|(?:{keys})(?:$|[/:]))")


def quoted_keys(tree: ast.AST, pattern: re.Pattern) -> list[tuple[int, str]]:
    """(line, string) of every string constant that names a game (docstrings aside)."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and pattern.match(node.value)
    ]


def test_the_registry_lists_all_five_games_and_the_toy():
    assert {"kut", "kdvli", "king", "kastet", "kelimeki", "toy"} <= set(registry.GAMES)


def test_no_quoted_game_key_in_the_platforms_python():
    pattern = game_key_pattern()
    found = []
    for name, path in platform_files().items():
        if name in LISTS_GAMES or is_migration(name):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{path.relative_to(ROOT)}:{line}: {value!r}" for line, value in quoted_keys(tree, pattern)]  # fmt: skip
    assert found == []


def test_no_quoted_game_key_by_grep():
    """The same as text: no ``"kut"`` / ``'king'`` … in a platform file, comments too."""
    keys = "|".join(sorted(registry.GAMES))
    quoted = re.compile(rf"""["'](?:{keys})["']""")
    found = []
    for name, path in platform_files().items():
        if name in LISTS_GAMES or is_migration(name):
            continue
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if quoted.search(line):
                found.append(f"{path.relative_to(ROOT)}:{no}: {line.strip()}")
    assert found == []


def test_the_key_check_sees_a_quoted_key():
    pattern = game_key_pattern()
    tree = ast.parse(
        '"""Docstring "kut"."""\nif game == "king": x = "kut/table.html"\ny = "kutu"\n'
        'z = ("games.kastet.web", "kut.healthz.", "kdvli:table")'
    )
    assert sorted(quoted_keys(tree, pattern)) == [
        (2, "king"), (2, "kut/table.html"), (4, "games.kastet.web"), (4, "kdvli:table")
    ]  # fmt: skip


# --- (c) no import circle --------------------------------------------------------------


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(body: list[ast.stmt], module: str, is_package: bool, functions: bool):
    """(dotted target, line) of every import run when the module loads (``functions``:
    also those inside functions and methods, run later)."""
    for node in body:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from _imports(node.orelse, module, is_package, functions)
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not functions:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module if is_package else module.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}".rstrip(".") if base else package
            for alias in node.names:
                yield f"{base}.{alias.name}", node.lineno  # a submodule, or a name in base
                yield base, node.lineno
        for field in ("body", "orelse", "finalbody", "handlers"):
            inner = getattr(node, field, None)
            if isinstance(inner, list) and not isinstance(node, (ast.Import, ast.ImportFrom)):
                yield from _imports(inner, module, is_package, functions)


def import_graph(functions: bool = False) -> dict[str, set[str]]:
    files = platform_files()
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        targets = set()
        for target, _line in _imports(tree.body, name, path.name == "__init__.py", functions):
            if target in files and target != name:
                targets.add(target)
        # ``from game.services import core`` names the submodule, not the package
        graph[name] = {t for t in targets if not any(u.startswith(t + ".") for u in targets)}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle_among_the_platforms_modules():
    graph = import_graph()
    assert sum(len(t) for t in graph.values()) > 200  # the graph was read
    assert cycles(graph) == []


def test_no_import_circle_hidden_inside_functions():
    assert cycles(import_graph(functions=True)) == []


def test_the_circle_check_sees_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_imports_read_from_the_module_level_only():
    tree = ast.parse(
        "from . import x\nfrom typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from game import y\n"
        "try:\n    import game.z\nexcept ImportError:\n    pass\n"
        "def f():\n    from game import w\n"
    )
    found = {t for t, _ in _imports(tree.body, "game.a", False, functions=False)}
    assert {"game.x", "game.z"} <= found and not {"game.y", "game.w"} & found
    inner = {t for t, _ in _imports(tree.body, "game.a", False, functions=True)}
    assert "game.w" in inner
