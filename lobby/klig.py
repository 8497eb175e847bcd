"""Kelimeki's k-lig on the platform (kelimeki.md W-L1…W-L9).

The place and forfeit points of each finished game (W-L2…W-L4) are written by the
platform's P-9 path (``lobby.ranking._rank_own_scheme`` with ``GAME.rating``, the engine's
``klig.KLIG``) to the ``kelimeki`` ranking row kept for every level (``ranked_by_level =
False``).  This module then, in the same hooks (``KUT_MATCH_FINISHED_HOOKS`` and
``KUT_MATCH_LEFT_HOOKS``, after ``lobby.ranking``'s), keeps each player's
:class:`~lobby.models.KligRecord`: the one-time rank rewards (W-L6, added to the ranking
row too, so that the k-lig board's points are the k-lig totals), Kozmik kept (W-L7) and
the celebrations of every new multiple of 100 (W-L8), shown once on the player's next
page (:class:`CelebrationMiddleware`).  One :class:`~lobby.models.KligEntry` per player
and game makes it idempotent.
"""

from __future__ import annotations

import logging

from django.contrib import messages
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from game.models import Match
from games.kelimeki.engine import klig
from lobby.models import KligEntry, KligRecord, Ranking, RankingResult

log = logging.getLogger(__name__)

GAME = "kelimeki"


def _record(row: KligRecord) -> klig.Record:
    return klig.Record(total=row.total, rewarded=frozenset(row.rewarded or ()),
                       kozmik=row.kozmik, celebrated=row.celebrated)  # fmt: skip


def settle(match_id: int) -> list[KligEntry]:
    """Apply every k-lig change the ranking wrote for this match and that is not applied
    yet (W-L6 rewards, W-L7, W-L8).  Idempotent."""
    out = []
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id, game=GAME).first()
        if match is None:
            return out
        done = set(KligEntry.objects.filter(match=match).values_list("user_id", flat=True))
        for result in RankingResult.objects.filter(match=match).order_by("seat"):
            if result.user_id in done:
                continue
            row, _created = KligRecord.objects.select_for_update().get_or_create(
                user_id=result.user_id)  # fmt: skip
            change = klig.apply_change(_record(row), result.points)
            new = change.record
            row.total, row.kozmik, row.celebrated = new.total, new.kozmik, new.celebrated
            row.rewarded = sorted(new.rewarded)
            if change.celebrations:
                row.unseen = [*(row.unseen or []), *change.celebrations]
                row.has_unseen = True
            row.save()
            bonus = sum(reward for _rank, reward in change.rewards)
            if bonus:  # the board's points stay the k-lig total (W-L6)
                Ranking.objects.filter(user_id=result.user_id, game=GAME,
                                       level=result.level).update(points=F("points") + bonus)  # fmt: skip
            out.append(KligEntry.objects.create(
                match=match, user_id=result.user_id, points=result.points,
                rewards=[list(r) for r in change.rewards], total_after=new.total,
            ))  # fmt: skip
    return out


def match_finished(match_id: int) -> None:
    """``KUT_MATCH_FINISHED_HOOKS`` entry (after ``lobby.ranking.match_finished``)."""
    try:
        settle(match_id)
    except Exception:
        log.exception("k-lig of match %s failed", match_id)


def match_left(match_id: int, user_id: int) -> None:
    """``KUT_MATCH_LEFT_HOOKS`` entry (after ``lobby.ranking.match_left``)."""
    match_finished(match_id)


def record_of(user) -> klig.Record:
    row = KligRecord.objects.filter(user=user).first()
    return _record(row) if row else klig.Record()


def seals(user_ids: list[int]) -> dict[int, str]:
    """W-L7: each player's seal (Çaylak for one with no record)."""
    rows = {r.user_id: r for r in KligRecord.objects.filter(user_id__in=user_ids)}
    return {uid: klig.rank_of(_record(rows[uid]) if uid in rows else klig.Record())
            for uid in user_ids}  # fmt: skip


def take_celebrations(user) -> list[int]:
    """W-L8: the player's celebrations not shown yet, marked shown (each shown once).
    One plain indexed query when there is nothing to show (every page of a logged-in
    player); the row is locked only when there is."""
    if not KligRecord.objects.filter(user=user, has_unseen=True).exists():
        return []
    with transaction.atomic():
        row = KligRecord.objects.select_for_update().filter(user=user, has_unseen=True).first()
        if row is None:
            return []
        unseen = list(row.unseen or [])
        row.unseen, row.has_unseen = [], False
        row.save(update_fields=["unseen", "has_unseen"])
    return unseen


class CelebrationMiddleware:
    """W-L8: a player who reached a new multiple of 100 k-lig points sees it once, on the
    next page they open (a Django message; one indexed query per page of a logged-in
    player, none for sockets, static files or other requests)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if (request.method == "GET" and user is not None and user.is_authenticated
                and not request.headers.get("HX-Request")
                and "text/html" in request.headers.get("Accept", "text/html")):  # fmt: skip
            try:
                for points in take_celebrations(user):
                    messages.success(request, _(
                        "Congratulations! You have reached %(points)s k-lig points.")
                        % {"points": points}, extra_tags="klig-celebration")  # fmt: skip
            except Exception:  # never break a page for a celebration
                log.exception("k-lig celebration for user %s failed", user.pk)
        return self.get_response(request)
