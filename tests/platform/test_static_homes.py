"""Static files follow the homes (issue 28): each game's scripts and styles are in its
home (``games/<key>/static/<key>/``, served as ``<key>/…``), the okey family's shared ones
in ``games/okey/static/okey/``, and the platform's own under ``static/``.  The platform's
scripts import no game's; a game's import only its own, the okey family's and the
platform's; every import and every ``{% static %}`` in a template names a served file."""

from __future__ import annotations

import posixpath
import re

from django.contrib.staticfiles import finders

from game.engine import registry
from tests.conftest import ROOT

# ``import {a, b as c} from "./x.js"``, ``export {a} from "../y.js"``, ``import "./z.js"``
IMPORT = re.compile(
    r"""^\s*(?:import|export)\s+[\w\s{},*$]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']""",
    re.M,
)
STATIC_TAG = re.compile(r"""\{%\s*static\s+["']([^"']+)["']\s*%\}""")


def served(suffix: str) -> dict[str, str]:
    """Every served file ending in ``suffix``: its static name → its path on disk (the
    first the finders find, as ``collectstatic`` and whitenoise take it)."""
    found: dict[str, str] = {}
    for finder in finders.get_finders():
        for name, storage in finder.list([]):
            if name.endswith(suffix):
                found.setdefault(name, storage.path(name))
    return found


def imports(name: str, path: str) -> list[str]:
    """The static names a module imports, resolved as the browser does from its URL."""
    text = open(path, encoding="utf-8").read()
    specs = [a or b for a, b in IMPORT.findall(text)]
    return [posixpath.normpath(posixpath.join(posixpath.dirname(name), s)) for s in specs]


def home_of(name: str) -> str:
    """``js`` (the platform), a game's key, ``okey`` or ``vendor`` — a static name's home."""
    return name.split("/", 1)[0]


def test_no_game_keeps_a_file_in_the_platforms_static():
    games = {*registry.GAMES, "okey"}
    for path in (ROOT / "static").rglob("*"):
        assert not games & set(path.relative_to(ROOT / "static").parts[:-1]), path
    for key in games:
        home = ROOT / "games" / key / "static"
        if home.exists():  # only its own folder, so that names never collide
            assert {p.name for p in home.iterdir()} == {key}, home


def test_every_script_imports_a_served_file_of_its_own_home_okey_or_the_platform():
    scripts = served(".js")
    assert "okey/tiles.js" in scripts and "kut/table.js" in scripts and "js/frames.js" in scripts
    wrong = []
    for name, path in scripts.items():
        home = home_of(name)
        if home in ("vendor", "admin", "django_htmx"):
            continue
        for target in imports(name, path):
            allowed = {"js"} if home == "js" else {home, "okey", "js"}
            if target not in scripts or home_of(target) not in allowed:
                wrong.append(f"{name} imports {target}")
    assert not wrong, "\n".join(wrong)


def test_every_static_file_a_template_names_is_served():
    templates = [
        *(ROOT / "templates").rglob("*.html"),
        *(ROOT / "games").glob("*/templates/**/*.html"),
    ]
    missing = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in templates
        for name in STATIC_TAG.findall(path.read_text(encoding="utf-8"))
        if not finders.find(name)
    ]
    assert not missing, "\n".join(missing)


def test_no_script_or_style_sheet_of_the_site_is_over_600_lines():
    """Issue 28: a long module is split by concern (KÜT's table script and the tile tables'
    style sheet were 1,208 and 1,699 lines); vendored files are not the site's."""
    long = {
        name: lines
        for suffix in (".js", ".css")
        for name, path in served(suffix).items()
        if home_of(name) not in ("vendor", "admin", "django_htmx")
        and (lines := sum(1 for _ in open(path, encoding="utf-8"))) > 600
    }
    assert not long, long
