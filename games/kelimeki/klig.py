"""Kelimeki's k-lig on the platform (kelimeki.md W-L1…W-L9).

The place and forfeit points of each finished game (W-L2…W-L4) are written by the
platform's P-9 path (``lobby.ranking`` with ``GAME.rating``, the engine's ``klig.KLIG``)
to the ranking row kept for every level (``ranked_by_level = False``).  This module then,
once the ranking is written (``lobby.signals.ranking_written``, connected in the app's
``ready``), keeps each player's :class:`~games.kelimeki.models.KligRecord`: the one-time
rank rewards (W-L6, added to the ranking row too, so that the k-lig board's points are
the k-lig totals), Kozmik kept (W-L7) and the celebrations of every new multiple of 100
(W-L8), shown once on the player's next page (``take_celebrations``, through the web
side's ``page_notices``).  One :class:`~games.kelimeki.models.KligEntry` per player and
game makes it idempotent.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from game.models import Match
from games.kelimeki.engine import klig
from games.kelimeki.models import KligEntry, KligRecord
from lobby.models import Ranking, RankingResult

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


def on_ranking_written(sender, match_id: int, **kwargs) -> None:
    """After the ranking of a match (its end, or a player's leaving cost) is written."""
    try:
        settle(match_id)
    except Exception:
        log.exception("k-lig of match %s failed", match_id)


def record_of(user) -> klig.Record:
    row = KligRecord.objects.filter(user=user).first()
    return _record(row) if row else klig.Record()


def seals(user_ids: list[int]) -> dict[int, str]:
    """W-L7: each player's seal (Çaylak for one with no record)."""
    rows = {r.user_id: r for r in KligRecord.objects.filter(user_id__in=user_ids)}
    return {uid: klig.rank_of(_record(rows[uid]) if uid in rows else klig.Record())
            for uid in user_ids}  # fmt: skip


def celebration_notices(user) -> list[str]:
    """W-L8: a player who reached a new multiple of 100 k-lig points sees it once, on the
    next page they open (one indexed query per page of a logged-in player)."""
    return [_("Congratulations! You have reached %(points)s k-lig points.") % {"points": points}
            for points in take_celebrations(user)]  # fmt: skip


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
