from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A KÜT player. ``display_name`` is what other players see at the table.

    A ban (``is_banned``) lasts until ``banned_until``, or for good when that is empty;
    an expired ban needs no clean-up (``ban_active`` reads the clock).  Bans are set and
    lifted only through ``accounts.services.user_ban``/``user_unban`` (logged, sockets
    closed), never by editing the fields.
    """

    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        help_text=_("Shown to other players. Leave empty to use your username."),
    )
    is_banned = models.BooleanField(_("banned"), default=False)
    banned_until = models.DateTimeField(
        _("banned until"),
        null=True,
        blank=True,
        help_text=_("Empty while banned: the ban is permanent."),
    )
    ban_reason = models.CharField(_("ban reason"), max_length=500, blank=True)
    # the games whose guided first hand (KÜT's trial hand, K-X1) was completed or skipped:
    # it is no longer offered for them (``game.tutorial``)
    tutorials_done = models.JSONField(_("guided first hands done"), default=list, blank=True)
    # the bots' level the player chose last (a table, a practice game, a game against the
    # AI): *Hemen Oyna*'s match against bots is played at it (issue 29); empty: normal
    bot_level = models.CharField(_("bots' level chosen last"), max_length=8, blank=True)

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def __str__(self) -> str:
        return self.display_name or self.username

    def ban_active(self, now=None) -> bool:
        """True while a ban is in force (permanent, or not yet over)."""
        if not self.is_banned:
            return False
        if self.banned_until is None:
            return True
        return self.banned_until > (now or timezone.now())


class ModerationLog(models.Model):
    """Append-only record of every moderation action: who did what to whom, and when."""

    class Action(models.TextChoices):
        BAN = "ban", _("Ban")
        UNBAN = "unban", _("Unban")
        TABLE_CLOSE = "table_close", _("Close table")
        MATCH_ABORT = "match_abort", _("Abort match")

    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="moderation_actions",
    )
    actor_name = models.CharField(_("by (name)"), max_length=150, blank=True)
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user concerned"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="moderation_records",
    )
    target_type = models.CharField(_("target type"), max_length=20)
    target_id = models.CharField(_("target id"), max_length=40)
    target_repr = models.CharField(_("target"), max_length=200)
    reason = models.TextField(_("reason"), blank=True)
    details = models.JSONField(_("details"), default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("moderation log entry")
        verbose_name_plural = _("moderation log")

    def __str__(self) -> str:
        return (
            f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_name}: {self.action} {self.target_repr}"
        )
