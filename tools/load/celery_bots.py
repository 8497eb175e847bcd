"""The load stack's Celery worker, with every game's bot decisions timed (issue 30).

    python -m tools.load.celery_bots -A kut_site worker …   (the arguments of ``celery``)

Before Celery starts, each registered game's ``bot_choose`` is wrapped so that the CPU
time of the decision (this thread's, ``time.thread_time``) is appended to the file
named by ``LOAD_BOT_LOG``, one line per decision: ``<unix time> <game> <level> <ms>``.
The site's code is not touched: only this process, started by ``tools.load.stack``,
measures.  ``tools.load.report.bot_cpu`` reads the lines of the measured window.
"""

from __future__ import annotations

import os
import sys
import time


def instrument(path: str) -> None:
    from game.engine import registry

    out = open(path, "a", buffering=1)  # noqa: SIM115 - lives as long as the worker

    for key in registry.GAMES:
        spec = registry.get(key)
        if getattr(spec, "_load_timed", False):
            continue
        inner = spec.bot_choose

        def timed(view, level, rng, _inner=inner, _key=key):
            t0 = time.thread_time()
            try:
                return _inner(view, level, rng)
            finally:
                ms = (time.thread_time() - t0) * 1000.0
                out.write(f"{time.time():.3f} {_key} {level} {ms:.3f}\n")

        spec.bot_choose = timed
        spec._load_timed = True


def main() -> None:
    path = os.environ.get("LOAD_BOT_LOG")
    if path:
        instrument(path)
    from celery.__main__ import main as celery_main

    sys.argv = ["celery", *sys.argv[1:]]
    celery_main()


if __name__ == "__main__":
    main()
