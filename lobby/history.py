"""Match history, match records, public player records and replays (read-only).

Selectors (``<entity>_<verb>``):

* ``match_history_for_user(user)`` — the player's own finished rated matches, newest
  first ("Maçlarım").  Never test tables (P-3) or trial hands (K-X1): only
  ``rated=True``, ``kind="normal"``, and only matches that are over (``finished``, or
  ``abandoned`` — every human left; those are ranked too, P-5).
* ``match_record(match)`` — a match's hands: each hand's task and every seat's score
  with its reasons (kut.md section 9), the totals, the winners, a chart.
* ``player_record(user)`` — the public record of a player: ranked matches, wins,
  average placing, ranking points (nothing private).
* ``replay_hand(match, hand_no)`` — every step of one hand rebuilt from the seed and
  the action log (``game.services.match_replay_iter``) as compact JSON, all four racks
  revealed: faces only, never the seed, tile ids or deck order.
* ``hand_final_state(match, hand_no)`` — a hand as it ended, for the scenario download
  (``game.engine.replay.export_scenario``).

Totals come from the ``HandResult`` rows (their sum is the match total, K-S6), so a
history page never loads a match's state.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import orjson
from django.db.models import Q
from django.utils.translation import gettext as _

from game import services
from game.engine import registry
from game.engine.errors import EngineError
from game.engine.protocol import places_of
from game.models import HandResult, Match, MatchSeat
from games.kut.engine.actions import LAYOUT_TYPES
from games.kut.engine.tasks import TASK_LISTS
from games.okey.engine.tiles import face_name, face_of
from lobby.models import Ranking, RankingResult

OVER = (Match.Status.FINISHED, Match.Status.ABANDONED)
REASONS = ("finish", "not_opened", "tiles", "okeys", "penalties")


def _task_text(tasks: int, task_no: int) -> str:
    from game.views import task_text  # the table's wording of a task (K-M3)

    return task_text(TASK_LISTS[tasks][task_no - 1])


def seat_name(seat: MatchSeat) -> str:
    if seat.user_id is not None and seat.user is not None:
        return seat.user.display_name or seat.user.get_username()
    levels = {"easy": _("easy"), "normal": _("normal"), "hard": _("hard")}
    level = levels.get(seat.bot_level or "normal", seat.bot_level)
    return _("Bot {n} ({level})").format(n=seat.seat + 1, level=level)  # as at the table


def placings(totals: list[int], lower_is_better: bool = True) -> list[int]:
    """1 + the number of seats with a strictly better total (KÜT: lowest wins, K-M5)."""
    return places_of(totals, lower_is_better)


def _lower_is_better(match: Match) -> bool:
    return registry.get(match.game).lower_is_better


def match_visible_to(match: Match, user) -> bool:
    """A match's record and replay are for its players (those who left included) and
    staff; only once the match is over, and never for a trial hand."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if match.kind != Match.Kind.NORMAL or match.status not in OVER:
        return False
    return bool(user.is_staff) or match.seats.filter(user=user).exists()


# --- the history list --------------------------------------------------------------------


def match_history_for_user(user, game: str | None = None):
    """The player's own finished rated matches (of ``game``, or of every game), newest
    first (no test, trial, running or aborted matches)."""
    qs = Match.objects.filter(seats__user=user, rated=True, kind=Match.Kind.NORMAL, status__in=OVER)
    if game is not None:
        qs = qs.filter(game=game)
    return qs.distinct().defer("state", "seed", "rematch_offer").order_by("-finished_at", "-pk")


@dataclass
class PlayerCell:
    seat: int
    name: str
    username: str | None
    bot: bool
    left: bool
    total: int
    placing: int
    me: bool = False


@dataclass
class HistoryRow:
    match: Match
    players: list[PlayerCell]
    hands: int
    mine: PlayerCell | None = None
    result: RankingResult | None = None
    winners: list[str] = field(default_factory=list)


def _totals_by_match(match_ids) -> tuple[dict[int, list[int]], dict[int, int]]:
    totals: dict[int, list[int]] = {}
    hands: dict[int, int] = {}
    for match_id, scores in HandResult.objects.filter(match_id__in=match_ids).values_list(
        "match_id", "scores"
    ):
        t = totals.setdefault(match_id, [0] * len(scores))
        for s in range(len(scores)):
            t[s] += scores[s]
        hands[match_id] = hands.get(match_id, 0) + 1
    return totals, hands


def history_rows(matches, user) -> list[HistoryRow]:
    """The rows of one history page: players, totals, placings, the user's points."""
    matches = list(matches)
    ids = [m.pk for m in matches]
    seats: dict[int, list[MatchSeat]] = {}
    for s in MatchSeat.objects.filter(match_id__in=ids).select_related("user").order_by("seat"):
        seats.setdefault(s.match_id, []).append(s)
    totals, hands = _totals_by_match(ids)
    results = {
        r.match_id: r for r in RankingResult.objects.filter(match_id__in=ids, user=user)
    }  # fmt: skip
    rows = []
    for m in matches:
        t = totals.get(m.pk) or [0] * len(seats.get(m.pk, []))
        place = placings(t, _lower_is_better(m))
        cells = [
            PlayerCell(
                seat=s.seat,
                name=seat_name(s),
                username=s.user.get_username() if s.user_id else None,
                bot=s.user_id is None,
                left=s.left,
                total=t[s.seat],
                placing=place[s.seat],
                me=s.user_id == user.pk,
            )
            for s in seats.get(m.pk, [])
        ]
        cells.sort(key=lambda c: (c.placing, c.seat))  # as on the match's page (issue 15)
        row = HistoryRow(match=m, players=cells, hands=hands.get(m.pk, 0))
        row.mine = next((c for c in cells if c.me), None)
        row.result = results.get(m.pk)
        if m.status == Match.Status.FINISHED and cells:
            row.winners = [c.name for c in cells if c.placing == 1]
        rows.append(row)
    return rows


# --- one match ---------------------------------------------------------------------------


CHART_W, CHART_H = 640, 260
PAD_L, PAD_R, PAD_T, PAD_B = 48, 16, 14, 30


def _nice_step(span: float) -> int:
    raw = span / 5 or 1
    for base in (1, 2, 5):
        for exp in range(0, 6):
            step = base * 10**exp
            if step >= raw:
                return step
    return 100000


def running_chart(names: list[str], hand_scores: list[list[int]]) -> dict | None:
    """Running totals hand by hand as SVG coordinates (rendered server-side)."""
    if not hand_scores:
        return None
    series = []
    for seat in range(len(hand_scores[0])):
        run, values = 0, [0]
        for scores in hand_scores:
            run += scores[seat]
            values.append(run)
        series.append(values)
    lo = min(0, *[v for vals in series for v in vals])
    hi = max(0, *[v for vals in series for v in vals])
    if hi == lo:
        hi = lo + 100
    step = _nice_step(hi - lo)
    lo = (lo // step) * step
    hi = -((-hi) // step) * step
    n = len(hand_scores)
    inner_w = CHART_W - PAD_L - PAD_R
    inner_h = CHART_H - PAD_T - PAD_B

    # coordinates as text: a template would print floats with the locale's decimal comma
    def x(i) -> str:
        return f"{PAD_L + i * inner_w / n:.1f}"

    def y(v) -> str:
        return f"{PAD_T + (hi - v) * inner_h / (hi - lo):.1f}"

    lines = []
    for seat, values in enumerate(series):
        points = [(x(i), y(v)) for i, v in enumerate(values)]
        lines.append(
            {
                "seat": seat,
                "name": names[seat],
                "points": " ".join(f"{px},{py}" for px, py in points),
                "dots": [{"x": px, "y": py, "v": v} for (px, py), v in zip(points, values)],
                "total": values[-1],
            }
        )
    yticks = [{"y": y(v), "label": v} for v in range(int(lo), int(hi) + 1, step)]
    xticks = [{"x": x(i), "label": i} for i in range(n + 1)]
    return {
        "w": CHART_W,
        "h": CHART_H,
        "left": PAD_L,
        "right": CHART_W - PAD_R,
        "top": PAD_T,
        "bottom": CHART_H - PAD_B,
        "zero": y(0),
        "lines": lines,
        "yticks": yticks,
        "xticks": xticks,
    }


def match_record(match: Match) -> dict:
    """Every hand of a match with each seat's score and its reasons, the running and
    final totals, the winners and the chart."""
    seats = list(match.seats.select_related("user").order_by("seat"))
    names = [seat_name(s) for s in seats]
    results = list(HandResult.objects.filter(match=match).order_by("hand_no"))
    running = [0] * len(seats)
    hands = []
    for r in results:
        rows = []
        for s in range(len(seats)):
            running[s] += r.scores[s]
            line = r.lines[s] if s < len(r.lines) else {}
            rows.append(
                {
                    "seat": s,
                    "name": names[s],
                    "reasons": [line.get(k, 0) for k in REASONS],
                    "score": r.scores[s],
                    "running": running[s],
                    "finisher": r.finisher == s,
                }
            )
        hands.append(
            {
                "hand_no": r.hand_no,
                "task_no": r.task_no,
                "task": _task_text(match.tasks, r.task_no) if match.tasks and r.task_no else "",
                "finisher": names[r.finisher] if r.finisher is not None else None,
                "rows": rows,
            }
        )
    totals = list(running)
    place = placings(totals, _lower_is_better(match))
    winners = []
    if match.status == Match.Status.FINISHED and results:
        winners = [names[s] for s in range(len(seats)) if place[s] == 1]
    points = {
        r.seat: r for r in RankingResult.objects.filter(match=match).select_related("user")
    }  # fmt: skip
    players = [
        {
            "seat": s.seat,
            "name": names[s.seat],
            "username": s.user.get_username() if s.user_id else None,
            "bot": s.user_id is None,
            "left": s.left,
            "left_in_hand": s.left_in_hand,
            "total": totals[s.seat],
            "placing": place[s.seat],
            "result": points.get(s.seat),
        }
        for s in seats
    ]
    players.sort(key=lambda p: (p["placing"], p["seat"]))
    return {
        "players": players,
        "hands": hands,
        "totals": totals,
        "winners": winners,
        "chart": running_chart(names, [r.scores for r in results]),
        "complete": match.status == Match.Status.FINISHED,
    }


# --- public player records ------------------------------------------------------------------


def player_record(user, game: str = "kut") -> dict:
    """A player's public record: ranked matches, wins, average placing, points and the
    leaderboard position.  Nothing private (no e-mail, no unranked play)."""
    ranking = Ranking.objects.filter(user=user, game=game).first()
    placed = list(
        RankingResult.objects.filter(user=user, game=game, left=False).values_list(
            "match_id", "seat"
        )
    )
    totals, _hands = _totals_by_match([m for m, _s in placed])
    low = registry.get(game).lower_is_better
    places = [placings(totals[m], low)[seat] for m, seat in placed if m in totals]
    position = None
    if ranking is not None and ranking.matches > 0:
        ahead = (
            Ranking.objects.filter(game=game, matches__gt=0)
            .filter(
                Q(points__gt=ranking.points)
                | Q(points=ranking.points, wins__gt=ranking.wins)
                | Q(points=ranking.points, wins=ranking.wins, matches__lt=ranking.matches)
                | Q(
                    points=ranking.points,
                    wins=ranking.wins,
                    matches=ranking.matches,
                    user__username__lt=user.username,
                )
            )
            .count()
        )
        position = ahead + 1
    return {
        "points": ranking.points if ranking else 0,
        "matches": ranking.matches if ranking else 0,
        "wins": ranking.wins if ranking else 0,
        "shared_wins": ranking.shared_wins if ranking else 0,
        "losses": ranking.losses if ranking else 0,
        "average_placing": (sum(places) / len(places)) if places else None,
        "placed": len(places),
        "position": position,
    }


# --- replays -----------------------------------------------------------------------------


def _faces(tiles) -> list[str]:
    return [face_name(face_of(t)) for t in tiles]


def _snapshot(hand) -> dict:
    """One step of a replay: everything on the table and in every rack, as faces."""
    thrown = hand.thrown
    return {
        "turn": None if hand.over else hand.turn,
        "phase": hand.phase,
        "deck": len(hand.deck),
        "thrown": face_name(face_of(thrown)) if thrown is not None else None,
        "thrower": hand.thrower() if thrown is not None else None,
        "claimable": bool(hand.claimable and thrown is not None and not hand.over),
        "racks": [[_faces(seg) for seg in rack.segments()] for rack in hand.racks],
        "counts": [rack.count() for rack in hand.racks],
        "table": [{"owner": g.owner, "kind": g.kind, "tiles": _faces(g.tiles)} for g in hand.table],
        "discards": [_faces(d) for d in hand.discards],
        "opened": list(hand.opened),
        "penalties": list(hand.penalties),
        "over": hand.over,
        "finisher": hand.finisher,
        "scores": list(hand.scores) if hand.scores is not None else None,
        "lines": [dict(x) for x in hand.score_lines] if hand.score_lines else None,
    }


def replay_hand(match: Match, hand_no: int) -> dict | None:
    """Every step of hand ``hand_no``: the deal, then one step per move (rack layout
    moves are applied but not shown as steps), each with the whole table.  A game with
    its own ``replay_snapshot`` (protocol.py, optional) is replayed through it."""
    spec = registry.get(match.game)
    if getattr(spec, "replay_snapshot", None) is not None:
        return _replay_hand_by_protocol(match, spec, hand_no)
    steps: list[dict] = []
    before: list[set[int]] | None = None
    head = None
    for act, ms in services.match_replay_iter(match):
        if ms is None or ms.hand_no < hand_no:
            continue
        if ms.hand_no > hand_no:
            break
        hand = ms.hand
        kind = act.kind
        if kind in LAYOUT_TYPES:
            continue
        if kind in ("start", "next_hand"):
            a = {"type": "deal"}
            head = {
                "task_no": hand.task_no,
                "starter": hand.starter,
                "indicator": face_name(face_of(hand.indicator)),
                "okey": face_name(hand.okey),
            }
        elif kind in ("leave", "abandon"):
            a = {"type": kind, "seat": act.seat}
        else:
            a = {"type": kind, "seat": act.seat, "actor": act.actor}
            entry = hand.log[-1] if hand.log else {}
            for key in ("tile", "group", "groups"):
                if key in entry:
                    a[key] = entry[key]
            if before is not None and act.seat is not None:
                got = [t for t in hand.racks[act.seat].tiles() if t not in before[act.seat]]
                if got:
                    a["got"] = _faces(got)
        steps.append({"a": a, "s": _snapshot(hand)})
        before = [set(r.tiles()) for r in hand.racks]
    if head is None:
        return None
    seats = list(match.seats.select_related("user").order_by("seat"))
    return {
        "match": match.pk,
        "hand_no": hand_no,
        "tasks": match.tasks,
        "task": _task_text(match.tasks, head["task_no"]),
        **head,
        "seats": [seat_name(s) for s in seats],
        "steps": steps,
    }


def _replay_hand_by_protocol(match: Match, spec, hand_no: int) -> dict | None:
    """A hand's steps through the game's ``replay_snapshot``: the deal, then one step per
    logged action of that hand (private rack arrangements, ``spec.private_kinds``, are
    applied but not shown), each ``{"a": action, "s": snapshot}``.  The action is its
    type, seat and actor, plus what the snapshot's ``move`` names (a tile's face, a
    card's name: never an id) and, where the snapshot has okey ``racks``, the faces the
    seat ``got``.  A void hand dealt again under the same number (KDVli, V-M5) starts
    the steps again from its new deal."""
    try:
        return _protocol_steps(match, spec, hand_no)
    except EngineError:  # a log the engine no longer replays: no replay rather than a crash
        return None


def _protocol_steps(match: Match, spec, hand_no: int) -> dict | None:
    steps: list[dict] = []
    dealt = False
    for act, st in services.match_replay_iter(match):
        if st is None or act.kind in spec.private_kinds:
            continue
        if act.kind in ("start", "next_hand"):
            dealt_no = len(spec.hand_results(st)) + 1
            if dealt_no > hand_no:
                break
            dealt = dealt_no == hand_no
            if dealt:
                snap = spec.replay_snapshot(st)
                snap.pop("move", None)
                steps = [{"a": {"type": "deal"}, "s": snap}]
            continue
        if not dealt:
            continue
        snap = spec.replay_snapshot(st)
        move = snap.pop("move", None) or {}
        if act.kind in ("leave", "abandon", "replace"):
            a = {"type": act.kind, "seat": act.seat}
        else:
            a = {"type": act.kind, "seat": act.seat, "actor": act.actor, **move}
            got = _got(steps[-1]["s"], snap, act.seat)
            if got:
                a["got"] = got
        steps.append({"a": a, "s": snap})
    if not steps:
        return None
    first = steps[0]["s"]
    seats = list(match.seats.select_related("user").order_by("seat"))
    return {
        "match": match.pk,
        "game": match.game,
        "hand_no": hand_no,
        "task": "",
        **{k: first[k] for k in ("starter", "indicator", "okey") if k in first},
        "seats": [seat_name(s) for s in seats],
        "steps": steps,
    }


def _got(before: dict, after: dict, seat) -> list[str]:
    """The faces that came into ``seat``'s okey rack between two snapshots."""
    if seat is None or "racks" not in after or "racks" not in before:
        return []
    was = Counter(f for seg in before["racks"][seat] for f in seg)
    now = Counter(f for seg in after["racks"][seat] for f in seg)
    return sorted((now - was).elements())


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


def hands_played(match: Match) -> int:
    """How many hands were dealt (the last may be unfinished in an abandoned match).  For
    a game replayed through its ``replay_snapshot`` the numbers come from its state, so
    that a void hand dealt again under the same number (KDVli, V-M5) counts once."""
    spec = registry.get(match.game)
    if getattr(spec, "replay_snapshot", None) is not None and match.state:
        st = spec.from_dict(match.state)
        return len(spec.hand_results(st)) + (0 if spec.hand_over(st) else 1)
    dealt = match.actions.filter(kind__in=("start", "next_hand")).count()
    return dealt
