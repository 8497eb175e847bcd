"""The commands' shared main: read one JSON input (a file or ``-`` for standard input),
dispatch on its ``"game"`` through the registry, print one JSON result and exit 0; a
malformed input exits 2 with a one-line message on standard error."""

from __future__ import annotations

import json
import sys

from .protocol import InputError
from .registry import command

PREFIX = {"replay": "malformed scenario: "}


def main(name: str, argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print(f"usage: python -m game.engine.{name} INPUT.json  (or - for stdin)",
              file=sys.stderr)  # fmt: skip
        return 2
    try:
        if argv[0] == "-":
            text = sys.stdin.read()
        else:
            with open(argv[0], encoding="utf-8") as fh:
                text = fh.read()
    except OSError as exc:
        print(f"cannot read {argv[0]}: {exc.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:
        print(f"bad JSON: {exc}".replace("\n", " "), file=sys.stderr)
        return 2
    try:
        data = json.loads(text)
    except ValueError as exc:
        print(f"bad JSON: {exc}".replace("\n", " "), file=sys.stderr)
        return 2
    try:
        out = command(name, data)(data)
    except InputError as exc:
        message = f"{PREFIX.get(name, '')}{exc}".replace("\n", " ")
        print(message, file=sys.stderr)
        return 2
    print(json.dumps(out, ensure_ascii=False))
    return 0
