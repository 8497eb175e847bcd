"""Issue 31 ("Analiz") on the pages: the match record's summary of the stored analysis
(per player, per hand) and the replay's data for ``static/js/replay-analysis.js``.

Everything here reads ``game.analysis``, which shows nothing unless the match is over and
recorded; the views above check that too (``history.match_visible_to``)."""

from __future__ import annotations

from datetime import timedelta

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from game import analysis
from game.engine.analysis import MARKS
from game.models import HandAnalysis, Match

PENDING_FOR = timedelta(hours=1)  # "being reviewed" this long after the end, at most
SYMBOLS = {"good": "✓", "loss": "?", "big_loss": "??"}  # as lichess marks a move


def mark_words() -> dict[str, str]:
    return {"good": _("good"), "loss": _("a loss"), "big_loss": _("a big loss")}


def record_analysis(match: Match, game_web, names: list[str]) -> dict | None:
    """The record page's part: None for a game without an analysis (or a match that may
    not show one); else the per-player lines, the per-hand mark counts, and whether it is
    still being computed or was done partly."""
    if not analysis.eligible(match):
        return None
    total = analysis.hands_to_analyse(match)
    if total == 0:
        return None
    summary = analysis.match_summary(match, len(names))
    if summary is None:
        # a match that ended before the analysis existed (or long ago, its task lost:
        # ``manage.py analyse_matches``) is not said to be under review for ever
        recent = match.finished_at and timezone.now() - match.finished_at < PENDING_FOR
        return {"pending": True, "total": total} if recent else None
    unit = summary["unit"]
    players = []
    for p in summary["players"]:
        if not p["decisions"]:
            continue
        notes = [game_web.analysis_note_text(n, c) for n, c in p["counts"].items() if c]
        players.append({
            "seat": p["seat"],
            "name": names[p["seat"]],
            "decisions": p["decisions"],
            "marks": _marks(p),
            "average": _("average {cost} behind the best").format(
                cost=game_web.analysis_cost_text(unit, p["average_cost"])),
            "notes": notes,
        })  # fmt: skip
    replay = reverse("lobby:replay", args=[match.pk])
    hands = []
    for h in summary["hands"]:
        row = {"no": h["no"], "status": h["status"], "url": f"{replay}?hand={h['no']}"}
        if h["marks"] is not None:
            row["marks"] = _marks(h["marks"])
            row["partial"] = not h["complete"]
        hands.append(row)
    skipped = sum(1 for h in hands if h["status"] == HandAnalysis.Status.SKIPPED)
    return {
        "pending": len(hands) < total,
        "total": total,
        "analysed": summary["analysed"],
        "skipped": skipped,
        "complete": summary["complete"] and len(hands) == total,
        "players": players,
        "hands": hands,
        "columns": [{"mark": m, "symbol": SYMBOLS[m], "word": w} for m, w in mark_words().items()],
    }


def _marks(counts: dict) -> list[dict]:
    """The count of each mark (``counts[mark]``) with its symbol, in the marks' order."""
    return [{"mark": m, "symbol": SYMBOLS[m], "count": counts[m]} for m in MARKS]


def replay_payload(match: Match, game_web, hand_no: int, names: list[str]) -> dict | None:
    """One hand's stored report (exactly as stored: ``analysis-data``) and what the panel
    shows beside it: each decision's played and best move in the game's words, its cost
    in the game's unit, the seats' names.  None when the hand has no analysis."""
    report = analysis.hand_report(match, hand_no)
    if report is None:
        return None
    unit = report.get("unit", "")
    words = [
        {
            "played": game_web.analysis_move_text(d.get("played") or {}),
            "best": game_web.analysis_move_text(d["best"]) if d.get("best") else "",
            "cost": game_web.analysis_cost_text(unit, d.get("cost") or 0),
        }
        for d in report.get("decisions", ())
    ]
    summary = [
        {**line, "average": game_web.analysis_cost_text(unit, line.get("average_cost", 0)),
         "notes": [game_web.analysis_note_text(n, c) for n, c in line.get("counts", {}).items()]}
        for line in report.get("summary", ())
    ]  # fmt: skip
    return {"hand": hand_no, "report": report, "words": words, "summary": summary,
            "names": names}  # fmt: skip


def replay_strings() -> dict:
    """The panel's words (``replay-analysis.js``), in the request's language."""
    return {
        "title": _("Analysis"),
        "summary": _("Summary"),
        "decisions": _("Moves"),
        "here": _("The move from here"),
        "none_here": _("No analysed move from this position."),
        "played": _("Played"),
        "best": _("Better"),
        "cost": _("Cost"),
        "average": _("average {cost} behind the best"),
        "toggle": _("Better move"),
        "not_exact": _("estimate"),
        "partial": _("The analysis budget ran out: this hand is analysed partly."),
        "none": _("This hand has no analysis."),
        "loading": _("Loading the analysis…"),
        "marks": mark_words(),
        "symbols": SYMBOLS,
    }
