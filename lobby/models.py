"""Tables (rooms before a match starts), their seats and invite links; the per-game
ranking and the per-match ranking results.

The lobby is game-agnostic: ``game`` names the game a table is for (a registry key);
sibling games share tables, invites and rankings.  Only ``lobby.services`` and
``lobby.ranking`` write these rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

BOT_LEVEL_CHOICES = [("easy", _("Easy")), ("normal", _("Normal")), ("hard", _("Hard"))]
# P-7: the table's level; bot seats play at it (acemi: easy, orta: normal, usta: hard)
LEVEL_CHOICES = [("acemi", _("Beginner")), ("orta", _("Intermediate")), ("usta", _("Expert"))]
LEVEL_BOTS = {"acemi": "easy", "orta": "normal", "usta": "hard"}  # = game.portal.BOT_LEVEL_OF
SEATS = 4


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        STARTED = "started", _("Started")
        CLOSED = "closed", _("Closed")

    game = models.CharField(_("game"), max_length=20)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("host"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="hosted_tables",
    )
    # the game's own options (GAME.clean_options)
    options = models.JSONField(_("options"), default=dict, blank=True)
    seat_count = models.PositiveSmallIntegerField(_("seats"), default=SEATS)
    level = models.CharField(_("level"), max_length=8, choices=LEVEL_CHOICES, default="orta")
    move_seconds = models.PositiveSmallIntegerField(_("move time"), null=True, blank=True)
    partners = models.BooleanField(_("partners"), default=False)
    rated = models.BooleanField(_("rated"), default=True)
    private = models.BooleanField(_("private"), default=False)
    bots_allowed = models.BooleanField(_("bots allowed"), default=True)
    watchers_allowed = models.BooleanField(_("watchers allowed"), default=False)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    match = models.OneToOneField(
        "game.Match",
        verbose_name=_("match"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="table",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        indexes = [models.Index(fields=["status", "private", "game"], name="table_listing")]

    def __str__(self) -> str:
        return f"{self.game} #{self.pk}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def bot_level(self) -> str:
        """P-7: bot seats play at the table's level."""
        return LEVEL_BOTS[self.level]


class TableSeat(models.Model):
    """Four rows per table, created with it.  A seat holds a user, a bot (``bot_level``)
    or nothing.  ``active`` is true while the table is open: a user can hold only one
    active seat (a partial unique index), so nobody sits at two open tables."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="table_seats",
    )
    bot_level = models.CharField(
        _("bot level"), max_length=10, choices=BOT_LEVEL_CHOICES, blank=True
    )
    active = models.BooleanField(default=True)
    joined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="tableseat_unique_seat"),
            models.CheckConstraint(condition=Q(seat__lt=SEATS), name="tableseat_four_seats"),
            models.CheckConstraint(
                condition=Q(user__isnull=True) | Q(bot_level=""),
                name="tableseat_user_or_bot",
            ),
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(active=True, user__isnull=False),
                name="tableseat_one_open_table_per_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}/{self.seat}"

    @property
    def empty(self) -> bool:
        return self.user_id is None and not self.bot_level


class TableInvite(models.Model):
    """An invite link: a random, unguessable token (192 bits).  It expires after
    ``KUT_INVITE_MAX_AGE_SECONDS`` and the host can withdraw it (``revoked_at``)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("invite link")
        verbose_name_plural = _("invite links")

    def __str__(self) -> str:
        return f"invite to {self.table}"


class Ranking(models.Model):
    """A player's standing in one game (P-4, P-5).  Updated only by ``lobby.ranking``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="rankings",
    )
    game = models.CharField(_("game"), max_length=20)
    level = models.CharField(_("level"), max_length=8, choices=LEVEL_CHOICES, default="orta")
    points = models.IntegerField(_("points"), default=0)
    matches = models.PositiveIntegerField(_("matches"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)  # sole first
    shared_wins = models.PositiveIntegerField(_("shared wins"), default=0)
    losses = models.PositiveIntegerField(_("losses"), default=0)  # every −1
    leaves = models.PositiveIntegerField(_("leaves"), default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("ranking")
        verbose_name_plural = _("rankings")
        constraints = [
            # P-7: rankings are kept per game and per level
            models.UniqueConstraint(
                fields=["user", "game", "level"], name="ranking_unique_user_game_level"
            ),
        ]
        indexes = [models.Index(fields=["game", "level", "-points"], name="ranking_board_level")]

    def __str__(self) -> str:
        return f"{self.user} {self.game}/{self.level}: {self.points}"


class RankedMatch(models.Model):
    """Marks a match as ranked, so that the finish hook ranks it once (idempotence)."""

    match = models.OneToOneField("game.Match", on_delete=models.CASCADE, primary_key=True)
    ranked_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("ranked match")
        verbose_name_plural = _("ranked matches")

    def __str__(self) -> str:
        return f"ranked {self.match_id}"


class RankingResult(models.Model):
    """One player's outcome of one rated match and the points it wrote."""

    class Outcome(models.TextChoices):
        FIRST = "first", _("Sole first")
        SHARED_FIRST = "shared_first", _("Shared first")
        MIDDLE = "middle", _("Middle")
        LAST = "last", _("Sole last")
        SHARED_LAST = "shared_last", _("Shared last")
        LEFT_LOSS = "left_loss", _("Left: loss")
        LEFT_LEADING = "left_leading", _("Left while sole leader")
        PARTNER_BONUS = "partner_bonus", _("Partner left while ahead")  # P-10
        RATED = "rated", _("Rated by the game's own scheme")  # P-9
        LEAVE_COST = "leave_cost", _("Left: the game's leaving cost")  # P-9

    match = models.ForeignKey("game.Match", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ranking_results"
    )
    game = models.CharField(max_length=20)
    level = models.CharField(max_length=8, default="orta")
    seat = models.PositiveSmallIntegerField()
    outcome = models.CharField(max_length=20, choices=Outcome.choices)
    points = models.SmallIntegerField()
    left = models.BooleanField(default=False)  # P-5 leaver (exit button or away > 3 min)
    left_at = models.DateTimeField(null=True, blank=True)
    completed_hands = models.PositiveSmallIntegerField(default=0)  # at the leave
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("ranking result")
        verbose_name_plural = _("ranking results")
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="rankingresult_unique"),
        ]
        indexes = [
            models.Index(fields=["user", "game", "left", "left_at"], name="rankingresult_leaves")
        ]

    def __str__(self) -> str:
        return f"{self.match_id} {self.user_id}: {self.outcome} {self.points:+d}"
