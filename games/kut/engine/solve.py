"""KÜT's solver command (kut-scenario.md, "The solver command"), answered through the
platform's ``python -m game.engine.solve QUERY.json`` (``run_query``).

Input ``{"indicator": "R7", "tiles": [...], "tasks": 8, "task": 3}`` (``task`` null or
missing = already opened; ``tasks`` defaults to 8; other fields are ignored, so that
external checkers may add their own).  Prints one JSON object
``{"can_open", "groups", "left", "points_left"}``.  Malformed input exits 2 with a
one-line message on standard error.
"""

from __future__ import annotations

from game.engine.scenario_input import QueryError, is_int_in
from games.kut.engine.solver import MAX_TILES, solve
from games.kut.engine.tasks import TASK_LISTS, task_for
from games.okey.engine.scenario import query_faces, query_indicator
from games.okey.engine.tiles import face_name, okey_face


def parse_query(data) -> tuple[list[int], int, tuple | None]:
    """Validate a query; return ``(faces, okey, task)``."""
    if not isinstance(data, dict):
        raise QueryError("the query must be a JSON object")
    # fields other than these are ignored (external checkers may add their own)
    if data.get("game", "kut") != "kut":
        raise QueryError(f"unknown game {data.get('game')!r}")
    indicator = query_indicator(data, "K-D1")
    tiles = data.get("tiles")
    if not isinstance(tiles, list):
        raise QueryError("'tiles' must be a list of tile names")
    if len(tiles) > MAX_TILES:
        raise QueryError(f"a rack holds at most {MAX_TILES} tiles (K-R1), got {len(tiles)}")
    faces = query_faces(tiles, indicator, "K-T1")  # the indicator is one copy (K-T3)
    tasks = data.get("tasks", 8)
    if isinstance(tasks, bool) or not isinstance(tasks, int) or tasks not in TASK_LISTS:
        raise QueryError(f"'tasks' must be 5, 8 or 12, not {tasks!r}")
    task_no = data.get("task")  # missing = null: already opened
    if task_no is None:
        task = None
    else:
        if not is_int_in(task_no, 1, tasks):
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
