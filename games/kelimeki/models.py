"""Kelimeki's own rows: each player's k-lig record and one entry per player and game
(kelimeki.md W-L1…W-L9), kept by ``games.kelimeki.klig``.  The tables keep the names they
were made with in the lobby (``lobby_kligrecord``, ``lobby_kligentry``): moving the models
into the game's home changed no row."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class KligRecord(models.Model):
    """Kelimeki's k-lig record of one player (kelimeki.md W-L1…W-L8): the total (which
    ``Ranking.points`` of the ``kelimeki`` board mirrors), the rank thresholds already
    rewarded (W-L6: once in a lifetime), whether Kozmik was ever reached (W-L7), the
    highest multiple of 100 celebrated and the celebrations not yet shown (W-L8).
    Written only by ``games.kelimeki.klig``."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
        related_name="klig",
    )  # fmt: skip
    total = models.IntegerField(_("k-lig total"), default=0)
    rewarded = models.JSONField(default=list, blank=True)  # thresholds paid (W-L6)
    kozmik = models.BooleanField(default=False)
    celebrated = models.IntegerField(default=0)
    unseen = models.JSONField(default=list, blank=True)  # multiples of 100 not shown yet
    has_unseen = models.BooleanField(default=False, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "lobby_kligrecord"  # made by lobby's migration 0005, before the home
        verbose_name = _("k-lig record")
        verbose_name_plural = _("k-lig records")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.total}"


class KligEntry(models.Model):
    """One player's k-lig change from one Kelimeki game (written once: idempotence):
    the game's points (W-L2…W-L4) and the one-time rewards they brought (W-L6)."""

    match = models.ForeignKey("game.Match", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="klig_entries"
    )
    points = models.SmallIntegerField()
    rewards = models.JSONField(default=list, blank=True)  # [[rank, reward], …]
    total_after = models.IntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "lobby_kligentry"
        verbose_name = _("k-lig entry")
        verbose_name_plural = _("k-lig entries")
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="kligentry_unique"),
        ]
        indexes = [models.Index(fields=["user", "-created_at"], name="kligentry_user")]

    def __str__(self) -> str:
        return f"{self.match_id} {self.user_id}: {self.points:+d}"
