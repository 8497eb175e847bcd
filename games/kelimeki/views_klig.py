"""Kelimeki's *Skor Kartı* (kelimeki.md W-X2, W-L7, W-L9): a logged-in player's
finished games — date, opponents (or the AI), final scores, place, k-lig change — with
the statistics of games played, places, average and best game score, and the k-lig seal
with its card (total, next rank, points still needed)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from game.engine import registry
from game.models import Match
from games.kelimeki import klig
from games.kelimeki.engine import klig as klig_rules
from games.kelimeki.models import KligEntry

GAME = "kelimeki"
SHOWN = 50  # the newest games listed (the statistics count them all)


@dataclass
class CardGame:
    match_id: int
    date: datetime | None
    players: int
    opponents: list[str]
    vs_ai: bool
    scores: list[int]  # final scores, the player's first
    score: int
    place: int | None  # None: forfeited (W-E6)
    forfeited: bool
    change: int | None  # the k-lig change (with rewards), None when not rated
    rewards: list = field(default_factory=list)


def _with_my_seat(matches, user):
    """(match, its seats in seat order, the user's seat) for each match the user sits at
    (the matches' seats prefetched with their users)."""
    for match in matches:
        seats = sorted(match.seats.all(), key=lambda s: s.seat)
        mine = next((s.seat for s in seats if s.user_id == user.pk), None)
        if mine is not None:
            yield match, seats, mine


def _opponents(seats, mine: int) -> list[str]:
    """The other seats' player names, in seat order ("" for the AI)."""
    return [str(s.user) if s.user_id and not s.bot_level else "" for s in seats if s.seat != mine]


def _games(user) -> list[CardGame]:
    spec = registry.get(GAME)
    matches = (Match.objects.filter(game=GAME, kind=Match.Kind.NORMAL,  # never a practice
                                    status=Match.Status.FINISHED, seats__user=user)
               .distinct().prefetch_related("seats__user").order_by("-finished_at", "-pk"))  # fmt: skip
    entries = {e.match_id: e for e in KligEntry.objects.filter(user=user)}
    out = []
    for match, seats, mine in _with_my_seat(matches, user):
        st = spec.from_dict(match.state)
        result = spec.match_result(st)
        ranks = (result.detail or {}).get("ranks") or result.places
        forfeited = bool((result.detail or {}).get("forfeited", [False] * len(seats))[mine])
        others = [s for s in seats if s.seat != mine]
        entry = entries.get(match.pk)
        out.append(CardGame(
            match_id=match.pk, date=match.finished_at, players=len(seats),
            opponents=_opponents(seats, mine),
            vs_ai=any(s.bot_level for s in others),
            scores=[result.totals[mine]] + [result.totals[s.seat] for s in others],
            score=result.totals[mine], place=None if forfeited else ranks[mine],
            forfeited=forfeited,
            change=(entry.points + sum(r[1] for r in entry.rewards)) if entry else None,
            rewards=entry.rewards if entry else [],
        ))  # fmt: skip
    return out


@dataclass
class RunningGame:
    match_id: int
    opponents: list[str]
    my_turn: bool
    deadline: datetime | None  # W-X3: the move deadline of the seat to move


def _running(user) -> list[RunningGame]:
    """W-X4: the player's games still being played, each with its own turn and deadline
    (W-X3: the time left is shown in the game list)."""
    spec = registry.get(GAME)
    matches = (Match.objects.filter(game=GAME, kind=Match.Kind.NORMAL,
                                    status=Match.Status.PLAYING, seats__user=user,
                                    seats__left=False)
               .distinct().prefetch_related("seats__user").order_by("deadline", "pk"))  # fmt: skip
    out = []
    for match, seats, mine in _with_my_seat(matches, user):
        st = spec.from_dict(match.state)
        out.append(RunningGame(
            match_id=match.pk, opponents=_opponents(seats, mine),
            my_turn=mine in spec.to_act(st), deadline=match.deadline,
        ))  # fmt: skip
    return out


def _stats(games: list[CardGame]) -> dict:
    played = len(games)
    scores = [g.score for g in games]
    places = {n: sum(1 for g in games if g.place == n) for n in (1, 2, 3, 4)}
    return {
        "played": played,
        "wins": places[1],
        "places": places,
        "forfeits": sum(1 for g in games if g.forfeited),
        "average": round(sum(scores) / played) if played else None,
        "best": max(scores) if scores else None,
    }


@login_required
@require_GET
def score_card(request: HttpRequest) -> HttpResponse:
    record = klig.record_of(request.user)
    games = _games(request.user)
    context = {
        "seal": klig_rules.seal_card(record),  # W-L7, W-L9
        "stats": _stats(games),
        "games": games[:SHOWN],
        "more": max(0, len(games) - SHOWN),
        "running": _running(request.user),
    }
    return render(request, "kelimeki/score_card.html", context)
