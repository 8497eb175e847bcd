#!/usr/bin/env python
"""Translation catalogues: update, compile and check them.

    python scripts/messages.py update   # makemessages (tr, en) + compilemessages
    python scripts/messages.py check    # what tests/kut_site/test_i18n.py runs

Source strings (msgids) are English; Turkish is the default language, so the Turkish
catalogue must translate every msgid. ``update`` needs GNU gettext (apt-get install
gettext). ``check`` verifies, without gettext if need be:

* every Turkish entry is translated and not fuzzy;
* every committed ``.mo`` holds exactly the translations of its ``.po``;
* (when xgettext is installed) a fresh ``makemessages`` of the source finds no msgid
  that the committed catalogues lack, i.e. nothing marked was left out.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ("tr", "en")
# Scanned by makemessages; the engines (game/engine, games/*/engine) are pure Python and
# have no UI strings.  The games' web sides (games/<key>/web.py, templates) share the one
# catalogue of the site.
SOURCE_DIRS = ("kut_site", "accounts", "game", "games", "lobby", "templates")
IGNORE = (
    ".venv",
    "var",
    "tests",
    "static",
    "scripts",
    "game/engine",
    "games/*/engine",
    "node_modules",
)
MAKEMESSAGES_ARGS = [
    "makemessages",
    *(f"--locale={locale}" for locale in LOCALES),
    *(f"--ignore={pattern}" for pattern in IGNORE),
    "--no-obsolete",
    "--no-wrap",
]


def _manage(args: list[str], cwd: Path) -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "kut_site.settings"}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    env.setdefault("DEBUG", "1")
    subprocess.run([sys.executable, "manage.py", *args], cwd=cwd, env=env, check=True)


def po_path(root: Path, locale: str) -> Path:
    return root / "locale" / locale / "LC_MESSAGES" / "django.po"


def _tidy(path: Path, locale: str) -> None:
    po = polib.pofile(str(path), wrapwidth=0)
    po.header = "Translations of the KÜT site. Source strings are English."
    po.metadata_is_fuzzy = False
    po.metadata.update({"Project-Id-Version": "kut-site", "Language": locale})
    po.save()


def update() -> None:
    _manage(MAKEMESSAGES_ARGS, ROOT)
    for locale in LOCALES:
        _tidy(po_path(ROOT, locale), locale)
    _manage(["compilemessages", "--ignore=.venv"], ROOT)


def _translations(entries) -> dict[tuple[str | None, str], object]:
    out: dict[tuple[str | None, str], object] = {}
    for entry in entries:
        if not entry.msgid or entry.obsolete or "fuzzy" in entry.flags:
            continue
        if entry.msgid_plural:
            forms = tuple(entry.msgstr_plural[k] for k in sorted(entry.msgstr_plural))
            if any(forms):
                out[(entry.msgctxt, entry.msgid)] = forms
        elif entry.msgstr:
            out[(entry.msgctxt, entry.msgid)] = entry.msgstr
    return out


def problems_untranslated(locale: str = "tr") -> list[str]:
    po = polib.pofile(str(po_path(ROOT, locale)))
    out = []
    for entry in po:
        if entry.obsolete:
            continue
        if "fuzzy" in entry.flags:
            out.append(f"{locale}: fuzzy: {entry.msgid!r}")
        elif not entry.translated():
            out.append(f"{locale}: untranslated: {entry.msgid!r}")
    return out


def problems_stale_mo() -> list[str]:
    out = []
    for locale in LOCALES:
        po_file = po_path(ROOT, locale)
        mo_file = po_file.with_suffix(".mo")
        if not mo_file.exists():
            out.append(f"{locale}: {mo_file.relative_to(ROOT)} is missing")
            continue
        expected = _translations(polib.pofile(str(po_file)))
        compiled = _translations(polib.mofile(str(mo_file)))
        if expected != compiled:
            changed = sorted(str(key[1]) for key in expected.keys() ^ compiled.keys()) or sorted(
                str(k[1]) for k in expected if expected[k] != compiled.get(k)
            )
            out.append(
                f"{locale}: django.mo is not compiled from django.po "
                f"(run: python scripts/messages.py update); differs at {changed[:5]}"
            )
    return out


def problems_unextracted() -> list[str] | None:
    """Msgids in the source that the committed catalogues lack (None: no gettext)."""
    if shutil.which("xgettext") is None or shutil.which("msguniq") is None:
        return None
    out = []
    with tempfile.TemporaryDirectory(prefix="kut-i18n-") as tmp:
        copy = Path(tmp)
        shutil.copy2(ROOT / "manage.py", copy / "manage.py")
        for name in SOURCE_DIRS:
            shutil.copytree(
                ROOT / name,
                copy / name,
                ignore=shutil.ignore_patterns("__pycache__", "engine")
                if name == "game"
                else shutil.ignore_patterns("__pycache__"),
            )
        for locale in LOCALES:
            (copy / "locale" / locale / "LC_MESSAGES").mkdir(parents=True)
        _manage(MAKEMESSAGES_ARGS, copy)
        for locale in LOCALES:
            fresh = {(e.msgctxt, e.msgid) for e in polib.pofile(str(po_path(copy, locale)))}
            committed = {(e.msgctxt, e.msgid) for e in polib.pofile(str(po_path(ROOT, locale)))}
            for ctxt, msgid in sorted(fresh - committed, key=str):
                out.append(f"{locale}: not in the catalogue: {msgid!r} (context {ctxt!r})")
    return out


def check() -> int:
    problems = problems_untranslated("tr") + problems_stale_mo()
    unextracted = problems_unextracted()
    if unextracted is None:
        print("xgettext not installed: skipped the fresh-extraction comparison")
    else:
        problems += unextracted
    for problem in problems:
        print(problem)
    print("i18n: ok" if not problems else f"i18n: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "check"
    if command == "update":
        update()
    elif command == "check":
        sys.exit(check())
    else:
        sys.exit(f"usage: {sys.argv[0]} update|check")
