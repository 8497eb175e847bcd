"""The solver command (kut-scenario.md, "The solver command").

    python -m game.engine.solve QUERY.json      # or '-' for standard input

Input ``{"indicator": "R7", "tiles": [...], "tasks": 8, "task": 3}`` (``task`` null or
missing = already opened; ``tasks`` defaults to 8; other fields are ignored, so that
external checkers may add their own).  Prints one JSON object
``{"can_open", "groups", "left", "points_left"}``.  Malformed input exits 2 with a
one-line message on standard error.
"""

from __future__ import annotations

import sys
from collections import Counter

from game.engine.protocol import InputError
from game.engine.solver import MAX_TILES, solve
from game.engine.tasks import TASK_LISTS, task_for
from game.engine.tiles import FAKE, NotationError, face_name, okey_face, parse_face


class QueryError(InputError):
    pass


def parse_query(data) -> tuple[list[int], int, tuple | None]:
    """Validate a query; return ``(faces, okey, task)``."""
    if not isinstance(data, dict):
        raise QueryError("the query must be a JSON object")
    # fields other than these are ignored (external checkers may add their own)
    if data.get("game", "kut") != "kut":
        raise QueryError(f"unknown game {data.get('game')!r}")
    if "indicator" not in data:
        raise QueryError("missing field 'indicator'")
    try:
        indicator = parse_face(data["indicator"])
    except NotationError as exc:
        raise QueryError(f"indicator: {exc}") from None
    if indicator == FAKE:
        raise QueryError("the indicator cannot be a fake okey (K-D1)")
    tiles = data.get("tiles")
    if not isinstance(tiles, list):
        raise QueryError("'tiles' must be a list of tile names")
    if len(tiles) > MAX_TILES:
        raise QueryError(f"a rack holds at most {MAX_TILES} tiles (K-R1), got {len(tiles)}")
    faces = []
    for name in tiles:
        try:
            faces.append(parse_face(name))
        except NotationError as exc:
            raise QueryError(str(exc)) from None
    counts = Counter(faces)
    counts[indicator] += 1  # the indicator is one of the two copies (K-T3)
    for face, n in counts.items():
        limit = 2
        if n > limit:
            what = "F" if face == FAKE else face_name(face)
            extra = " counting the indicator" if face == indicator else ""
            raise QueryError(f"{what} appears {n} times{extra}; at most 2 exist (K-T1)")
    tasks = data.get("tasks", 8)
    if isinstance(tasks, bool) or not isinstance(tasks, int) or tasks not in TASK_LISTS:
        raise QueryError(f"'tasks' must be 5, 8 or 12, not {tasks!r}")
    task_no = data.get("task")  # missing = null: already opened
    if task_no is None:
        task = None
    else:
        if isinstance(task_no, bool) or not isinstance(task_no, int) or not (1 <= task_no <= tasks):
            raise QueryError(f"'task' must be null or 1..{tasks}, not {task_no!r}")
        task = task_for(tasks, task_no)
    return faces, okey_face(indicator), task


def answer(faces, okey, task) -> dict:
    sol = solve(faces, okey, task)
    return {
        "can_open": sol.can_open,
        "groups": [[face_name(f) for f in g] for g in sol.groups],
        "left": [face_name(f) for f in sorted(sol.left)],
        "points_left": sol.points_left,
    }


def run_query(data) -> dict:
    """KÜT's answer to one query (the registry's ``solve`` for ``"game": "kut"``)."""
    return answer(*parse_query(data))


def main(argv=None) -> int:
    """The command: dispatches on the query's ``"game"`` (default ``"kut"``)."""
    from game.engine.cli import main as cli_main

    return cli_main("solve", argv)


if __name__ == "__main__":
    sys.exit(main())
