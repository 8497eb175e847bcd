"""The task lists of a match (K-M2, K-M3).

A task is a tuple of requirements ``(kind, length)`` with ``kind`` one of
``"kut"``, ``"run"``, ``"pair"``; the last task of every list is ``FINISH``
(*elden bitiş*, K-O7), which has no opening of its own.
"""

from __future__ import annotations

from games.okey.engine.groups import KUT, PAIR, RUN  # noqa: F401 - the kinds a task asks for

FINISH: tuple = ()  # finish from hand (K-O7)

Task = tuple  # tuple[tuple[str, int], ...]

FIVE_PAIRS = ((PAIR, 2),) * 5

TASK_LISTS: dict[int, tuple[Task, ...]] = {
    5: (
        ((KUT, 4),),
        ((RUN, 4),),
        ((KUT, 4), (RUN, 5)),
        FIVE_PAIRS,
        FINISH,
    ),
    8: (
        ((KUT, 4),),
        ((RUN, 4),),
        ((KUT, 4), (RUN, 4)),
        ((RUN, 5),),
        ((KUT, 4), (KUT, 4)),
        ((RUN, 4), (RUN, 4)),
        FIVE_PAIRS,
        FINISH,
    ),
    12: (
        ((KUT, 3),),
        ((RUN, 3),),
        ((KUT, 4),),
        ((RUN, 4),),
        ((KUT, 4), (RUN, 3)),
        ((KUT, 3), (RUN, 4)),
        ((RUN, 5),),
        ((KUT, 4), (KUT, 4)),
        ((RUN, 4), (RUN, 4)),
        ((KUT, 4), (RUN, 4)),
        FIVE_PAIRS,
        FINISH,
    ),
}

MATCH_LENGTHS = tuple(TASK_LISTS)


class TaskError(ValueError):
    pass


def task_for(tasks: int, task_no: int) -> Task:
    """The task played in hand ``task_no`` (1-based) of a ``tasks``-task match."""
    if tasks not in TASK_LISTS:
        raise TaskError(f"a match has 5, 8 or 12 tasks, not {tasks!r}")
    if not isinstance(task_no, int) or not 1 <= task_no <= tasks:
        raise TaskError(f"task must be 1..{tasks}, not {task_no!r}")
    return TASK_LISTS[tasks][task_no - 1]


def is_finish(task: Task) -> bool:
    return task == FINISH


def is_pairs(task: Task) -> bool:
    return bool(task) and all(kind == PAIR for kind, _ in task)


def describe(task: Task) -> str:
    """A short English description, e.g. ``küt of 4 + run of 5``."""
    if is_finish(task):
        return "finish from hand"
    if is_pairs(task):
        return f"{len(task)} pairs"
    names = {KUT: "küt", RUN: "run"}
    return " + ".join(f"{names[k]} of {n}" for k, n in task)
