"""The site side of issue 31 ("Analiz"): every hand of a match that is over is analysed
in the background by its game's ``analyse`` command (``python -m game.engine.analyse``,
the report's shape in ``game.engine.analysis``) and stored (``HandAnalysis``).

* **When**: after the commit that ended the match (``game.events.match_finished``,
  ``game.receivers``), never inside a move's transaction: ``game.tasks.schedule_analysis``
  only puts a task on the queue ``KUT_ANALYSIS_QUEUE`` (``game.tasks.match_analyse``),
  which a worker of its own consumes in production (``scripts/run``'s embedded worker
  consumes it too).
* **Which**: recorded matches (``Match.Kind.NORMAL``) once finished or abandoned, every
  hand that was played to its end.  Trial hands and unrecorded (guest, practice) games
  are never analysed: they have no record or replay to show it on.  A game without the
  ``analyse`` command (the tests' toy game) has none.
* **Cost**: one task analyses one hand (each game's own budget per hand, its p99 well
  under a second) and queues the next, so a long match never holds the worker for long;
  hands after ``KUT_ANALYSIS_MAX_HANDS`` are stored as ``skipped`` and the record says
  the match was analysed partly.  Re-running finds every hand's row and does nothing.
* **Input**: each hand's scenario exactly as the history's download gives it
  (``scenario_of``), so the stored report equals the command's output for that file.
"""

from __future__ import annotations

import logging
import time
from collections import Counter

import orjson
from django.conf import settings
from django.db import IntegrityError, transaction

from game import services
from game.engine import registry
from game.engine.analysis import MARKS
from game.engine.errors import EngineError
from game.engine.protocol import InputError
from game.models import HandAnalysis, Match

log = logging.getLogger(__name__)

OVER = (Match.Status.FINISHED, Match.Status.ABANDONED)


# --- a hand's scenario (the history's download and the analysis read the same) ------------


def hand_final_state(match: Match, hand_no: int):
    """The match's state (through its game's protocol) when hand ``hand_no`` ended (or
    as the match left it), rebuilt from the log; None if it was never dealt."""
    spec = registry.get(match.game)
    last = None
    for _act, st in services.match_replay_iter(match):
        if st is None:
            continue
        now = services.hand_no_of(spec, st)
        if now < hand_no:
            continue
        if now > hand_no:
            break
        last = st
        if spec.hand_over(st):  # the next entry deals the next hand into this object
            last = spec.from_dict(orjson.loads(orjson.dumps(spec.to_dict(st))))
    return last


def scenario_of(match: Match, hand_no: int) -> dict | None:
    """Hand ``hand_no`` as its game's scenario (``export_hand``; a game that exports its
    whole log, Kelimeki, ``export_log``); None if the hand was never dealt.  Raises
    ``EngineError`` for a log the engine no longer replays."""
    state = hand_final_state(match, hand_no)
    if state is None:
        return None
    spec = registry.get(match.game)
    if spec.export_log is not None:  # the whole game with its moves
        rows = match.actions.order_by("version", "layout_version", "seat")
        return spec.export_log(state, list(rows.values_list("seat", "kind", "payload")))
    return spec.export_hand(state)


# --- which matches, which hands ------------------------------------------------------------


def has_analysis(game: str) -> bool:
    """The game answers ``python -m game.engine.analyse``."""
    entry = registry.GAMES.get(game)
    return entry is not None and "analyse" in entry.commands


def eligible(match: Match) -> bool:
    """A recorded match that is over, of a game with an analysis."""
    return match.kind == Match.Kind.NORMAL and match.status in OVER and has_analysis(match.game)


def hands_to_analyse(match: Match) -> int:
    """How many hands were played to their end (an abandoned match's last hand, cut
    short, is not analysed)."""
    if not match.state:
        return 0
    spec = registry.get(match.game)
    return len(spec.hand_results(spec.from_dict(match.state)))


def analyse_next(match_id: int) -> bool:
    """Analyse the match's first hand without a stored analysis and store it; True when
    hands remain.  Does nothing (False) for a match that is not over, not recorded, or
    of a game without an analysis: no row is ever written before the end."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not eligible(match):
        return False
    total = hands_to_analyse(match)
    done = set(match.analyses.values_list("hand_no", flat=True))
    todo = [n for n in range(1, total + 1) if n not in done]
    if not todo:
        return False
    _store(match, todo[0], *_analyse(match, todo[0]))
    return len(todo) > 1


def _analyse(match: Match, hand_no: int) -> tuple[str, dict | None, int]:
    if hand_no > settings.KUT_ANALYSIS_MAX_HANDS:
        return HandAnalysis.Status.SKIPPED, None, 0
    start = time.thread_time()
    try:
        scenario = scenario_of(match, hand_no)
        if scenario is None:
            return HandAnalysis.Status.FAILED, None, 0
        scenario = orjson.loads(orjson.dumps(scenario))  # what the downloaded file holds
        report = registry.command("analyse", scenario)(scenario)
    except (EngineError, InputError):
        log.exception("analysis of match %s hand %s failed", match.pk, hand_no)
        return HandAnalysis.Status.FAILED, None, 0
    cpu_ms = round((time.thread_time() - start) * 1000)
    return HandAnalysis.Status.DONE, report, cpu_ms


def _store(match: Match, hand_no: int, status: str, report: dict | None, cpu_ms: int) -> None:
    try:
        with transaction.atomic():
            HandAnalysis.objects.get_or_create(
                match=match, hand_no=hand_no,
                defaults={"status": status, "report": report, "cpu_ms": cpu_ms},
            )  # fmt: skip
    except IntegrityError:  # a doubled task stored the same hand meanwhile
        pass


def analyse_match(match_id: int) -> int:
    """Every hand at once, in this thread (``KUT_ANALYSIS = "inline"``, tests, the
    ``analyse_matches`` command); returns how many hands were stored."""
    count = 0
    more = True
    while more:
        before = HandAnalysis.objects.filter(match_id=match_id).count()
        more = analyse_next(match_id)
        count += HandAnalysis.objects.filter(match_id=match_id).count() - before
    return count


# --- reading it (the record page, the replay) ----------------------------------------------


def stored(match: Match) -> dict[int, HandAnalysis]:
    """The match's stored analyses by hand number; empty unless the match may show one
    (over and recorded: the same check as every page that shows it)."""
    if not eligible(match):
        return {}
    return {a.hand_no: a for a in match.analyses.all()}


def hand_report(match: Match, hand_no: int) -> dict | None:
    """The stored report of one hand, or None (not analysed, skipped, failed, or the
    match may not show one)."""
    if not eligible(match):
        return None
    row = match.analyses.filter(hand_no=hand_no, status=HandAnalysis.Status.DONE).first()
    return row.report if row else None


def match_summary(match: Match, seats: int) -> dict | None:
    """The whole match at a glance: per seat its decisions, marks and costs over every
    analysed hand, the notes counted (``missed_finish``…); per hand its mark counts;
    how many hands were analysed (of ``hands_to_analyse``, which the caller has).  None
    when nothing is stored."""
    rows = stored(match)
    if not rows:
        return None
    players = [
        {"seat": s, "decisions": 0, **dict.fromkeys(MARKS, 0), "total_cost": 0, "counts": Counter()}
        for s in range(seats)
    ]
    hands, unit, complete = [], "", True
    for no in sorted(rows):
        row = rows[no]
        report = row.report if row.status == HandAnalysis.Status.DONE else None
        if report is None:
            complete = False
            hands.append({"no": no, "status": row.status, "marks": None})
            continue
        unit = report.get("unit", unit)
        complete = complete and bool(report.get("complete", True))
        for line in report.get("summary", ()):
            if 0 <= line["seat"] < seats:
                p = players[line["seat"]]
                for key in ("decisions", *MARKS, "total_cost"):
                    p[key] += line.get(key, 0)
                p["counts"].update(line.get("counts", {}))
        marks = Counter(d["mark"] for d in report.get("decisions", ()))
        hands.append({"no": no, "status": row.status, "complete": report.get("complete", True),
                      "marks": {m: marks[m] for m in MARKS}})  # fmt: skip
    for p in players:
        p["average_cost"] = round(p["total_cost"] / p["decisions"], 1) if p["decisions"] else 0
        p["counts"] = dict(sorted(p["counts"].items()))
    analysed = sum(1 for h in hands if h["marks"] is not None)
    return {"unit": unit, "players": players, "hands": hands, "analysed": analysed,
            "complete": complete}  # fmt: skip
