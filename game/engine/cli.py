"""The commands' shared main: read one JSON input (a file or ``-`` for standard input),
dispatch on its ``"game"`` through the registry, print one JSON result and exit 0; a
malformed input exits 2 with a one-line message on standard error."""

from __future__ import annotations

import json
import sys

from game.engine.protocol import InputError
from game.engine.registry import Unavailable, command

PREFIX = {"replay": "malformed scenario: ", "analyse": "malformed scenario: "}


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
    except RecursionError:  # nested deeper than the parser goes: still bad input
        print("bad JSON: nested too deeply", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"bad JSON: {exc}".replace("\n", " "), file=sys.stderr)
        return 2
    try:
        out = command(name, data)(data)
    except Unavailable as exc:  # the input may be fine: the game or command is not there
        print(str(exc).replace("\n", " "), file=sys.stderr)
        return 2
    except InputError as exc:
        message = f"{PREFIX.get(name, '')}{exc}".replace("\n", " ")
        print(message, file=sys.stderr)
        return 2
    except RecursionError:  # a value nested deeper than any valid input (and Python) go
        print(f"{PREFIX.get(name, '')}a value is nested too deeply", file=sys.stderr)
        return 2
    # The parser takes whole numbers of up to 4,300 digits; an answer may hold a few more
    # (Kastet's rating: 2 × H). Printing them is cheap, so no limit on the way out.
    sys.set_int_max_str_digits(0)
    print(json.dumps(out, ensure_ascii=False))
    return 0
