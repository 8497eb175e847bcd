"""Match history, match records, public player records and replays (read-only).

Selectors (``<entity>_<verb>``):

* ``match_history_for_user(user)`` — the player's own finished rated matches, newest
  first ("Maçlarım").  Never test tables (P-3) or trial hands (K-X1): only
  ``rated=True``, ``kind="normal"``, and only matches that are over (``finished``, or
  ``abandoned`` — every human left; those are ranked too, P-5).
* ``match_record(match)`` — a match's hands: each hand's task and every seat's score
  with its reasons (kut.md section 9), the totals, the winners, a chart.
* ``player_record(user)`` — the public record of a player, per game: ranked matches,
  wins, average placing, ranking points per level (nothing private).
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

from django.utils.translation import gettext as _

from game import analysis, services
from game.engine import registry
from game.engine.errors import EngineError
from game.engine.protocol import places_of
from game.models import HandResult, Match, MatchSeat
from game.web import web
from lobby.models import RankingResult

OVER = (Match.Status.FINISHED, Match.Status.ABANDONED)


def seat_name(seat: MatchSeat) -> str:
    if seat.user_id is not None and seat.user is not None:
        return seat.user.display_name or seat.user.get_username()
    levels = {"easy": _("easy"), "normal": _("normal"), "hard": _("hard")}
    level = levels.get(seat.bot_level or "normal", seat.bot_level)
    return _("Bot {n} ({level})").format(n=seat.seat + 1, level=level)  # as at the table


def seat_names(match: Match) -> list[str]:
    """Each seat's name, in seat order (``seat_name``)."""
    return [seat_name(s) for s in match.seats.select_related("user").order_by("seat")]


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
    """Every hand of a match with each seat's score, the running and final totals, the
    winners and the chart; each hand keeps its game's own ``detail`` (which the game's
    record template shows, ``game.web``) and its ``label`` (what the hand was about)."""
    seats = list(match.seats.select_related("user").order_by("seat"))
    names = [seat_name(s) for s in seats]
    results = list(HandResult.objects.filter(match=match).order_by("hand_no"))
    game_web = web(match.game)
    running = [0] * len(seats)
    hands = []
    for r in results:
        rows = []
        for s in range(len(seats)):
            running[s] += r.scores[s]
            rows.append({"seat": s, "name": names[s], "score": r.scores[s],
                         "running": running[s]})  # fmt: skip
        hands.append({"hand_no": r.hand_no, "label": game_web.hand_label(match, r.detail),
                      "detail": r.detail, "rows": rows})  # fmt: skip
    totals = list(running)
    lower_is_better = _lower_is_better(match)
    place = placings(totals, lower_is_better)
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
        "names": names,
        "players": players,
        "hands": hands,
        "totals": totals,
        "winners": winners,
        "lower_is_better": lower_is_better,
        "chart": running_chart(names, [r.scores for r in results]),
        "complete": match.status == Match.Status.FINISHED,
    }


# --- public player records ------------------------------------------------------------------


def player_record(user) -> list[dict]:
    """A player's public record, one entry per game they have rated matches in (registry
    order): its name, whether the lowest or the highest total wins, ranked matches, wins,
    losses, the average placing, and per level (P-7) the points and the leaderboard
    position (``lobby.games.records_by_game``).  Nothing private (no e-mail, no unranked
    play)."""
    from lobby.games import records_by_game

    out = []
    for rec in records_by_game(user):
        placed = list(
            RankingResult.objects.filter(user=user, game=rec.key, left=False).values_list(
                "match_id", "seat"
            )
        )
        totals, _hands = _totals_by_match([m for m, _s in placed])
        try:
            low = registry.get(rec.key).lower_is_better
        except (KeyError, ImportError):  # a game no longer on the site: its rows stay
            low = True
        places = [placings(totals[m], low)[seat] for m, seat in placed if m in totals]
        out.append({
            "key": rec.key,
            "name": rec.name,
            "lower_is_better": low,
            "matches": sum(r.matches for r in rec.levels),
            "wins": sum(r.wins for r in rec.levels),
            "shared_wins": sum(r.shared_wins for r in rec.levels),
            "losses": sum(r.losses for r in rec.levels),
            "average_placing": (sum(places) / len(places)) if places else None,
            "placed": len(places),
            "levels": rec.levels,
        })  # fmt: skip
    return out


# --- replays -----------------------------------------------------------------------------


def replay_hand(match: Match, hand_no: int) -> dict | None:
    """Every step of hand ``hand_no`` through the game's ``replay_snapshot`` (protocol.py):
    the deal, then one step per logged action of that hand (private arrangements,
    ``spec.private_kinds``, are applied but not shown), each ``{"a": action, "s":
    snapshot}``.  The action is its type, seat and actor, plus what the snapshot's
    ``move`` names (a tile's face, a card's name: never an id) and, where the snapshot has
    okey ``racks``, the faces the seat ``got``.  A void hand dealt again under the same
    number (KDVli, V-M5) starts the steps again from its new deal.  None: no such hand,
    a game without replay steps, or a log the engine no longer replays."""
    spec = registry.get(match.game)
    if spec.replay_snapshot is None:
        return None
    try:
        return _protocol_steps(match, spec, hand_no)
    except EngineError:  # a log the engine no longer replays: no replay rather than a crash
        return None


def hand_rows(match: Match, spec, hand_no: int):
    """The replay's walk through hand ``hand_no``: ``(k, act, state, deal)`` for each
    public row of the log from the hand's deal on (``k``: the row's place in
    ``match_replay_iter``; ``deal``: the row deals the hand — a deal again with the same
    number, KDVli's V-M5, starts the hand again)."""
    dealt = False
    for k, (act, st) in enumerate(services.match_replay_iter(match)):
        if st is None or act.kind in spec.private_kinds:
            continue
        deal = act.kind in ("start", "next_hand")
        if deal:
            dealt_no = len(spec.hand_results(st)) + 1
            if dealt_no > hand_no:
                return
            dealt = dealt_no == hand_no
        if dealt:
            yield k, act, st, deal


def _protocol_steps(match: Match, spec, hand_no: int) -> dict | None:
    steps: list[dict] = []
    for _k, act, st, deal in hand_rows(match, spec, hand_no):
        if deal:
            snap = spec.replay_snapshot(st)
            snap.pop("move", None)
            steps = [{"a": {"type": "deal"}, "s": snap}]
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
    return {
        "match": match.pk,
        "game": match.game,
        "hand_no": hand_no,
        "task": web(match.game).hand_label(match, first),
        **{k: first[k] for k in ("starter", "indicator", "okey") if k in first},
        "seats": seat_names(match),
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
    """The match's state when hand ``hand_no`` ended (``game.analysis``, which reads the
    same scenario)."""
    return analysis.hand_final_state(match, hand_no)


def hands_played(match: Match) -> int:
    """How many hands were dealt (the last may be unfinished in an abandoned match).  For
    game with replay steps the numbers come from its state, so that a void hand dealt
    again under the same number (KDVli, V-M5) counts once."""
    spec = registry.get(match.game)
    if spec.replay_snapshot is not None and match.state:
        st = spec.from_dict(match.state)
        return len(spec.hand_results(st)) + (0 if spec.hand_over(st) else 1)
    return match.actions.filter(kind__in=("start", "next_hand")).count()
