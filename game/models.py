"""Matches, seats, the append-only action log and hand results.

The engine state lives in ``Match.state`` as JSON with a ``version`` that every
accepted action increments.  Only ``game.services`` writes these rows (under a row
lock); nothing here holds rules.  The seed and the state hold secrets (deck order,
every rack): they never leave the server except through per-seat views.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Match(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        BETWEEN = "between", _("Between hands")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Abandoned")
        ABORTED = "aborted", _("Aborted")

    class Kind(models.TextChoices):
        NORMAL = "normal", _("Match")
        # a game's guided first hand (its ``tutorial``; KÜT's trial hand, K-X1): recorded nowhere
        TRIAL = "trial", _("Trial hand")
        # issue 27: a game against the bots without a record (W-X1: a guest's, or a
        # logged-in player's practice game): unrated, no move timer, never in history,
        # rankings, k-lig, the lobby or a player's record; deleted after 7 days without
        # a move (W-X3, ``game.guests``)
        GUEST = "guest", _("Unrecorded game")

    game = models.CharField(_("game"), max_length=20)  # a key of game.engine.registry
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.NORMAL)
    # the game's own options, as its GAME.clean_options returned them
    options = models.JSONField(_("options"), default=dict, blank=True)
    level = models.CharField(_("level"), max_length=8, default="orta")  # P-7: acemi / orta / usta
    move_seconds = models.PositiveSmallIntegerField(
        _("move time"), null=True, blank=True
    )  # P-6 (rated)
    partners = models.BooleanField(_("partners"), default=False)  # P-8: seats 0+2 against 1+3
    rated = models.BooleanField(_("rated"), default=True)
    watchers_allowed = models.BooleanField(_("watchers allowed"), default=False)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.PLAYING
    )
    state = models.JSONField(_("state"), default=dict)
    version = models.PositiveIntegerField(_("version"), default=0)
    seed = models.CharField(_("seed"), max_length=64)  # secret: never sent to a client
    turn_started = models.DateTimeField(_("turn started"), null=True, blank=True)
    deadline = models.DateTimeField(
        _("deadline"), null=True, blank=True
    )  # turn timeout or next hand
    bot_due = models.DateTimeField(_("bot due"), null=True, blank=True)  # when a bot should move
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("host"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="hosted_matches",
    )  # fmt: skip
    rematch_of = models.ForeignKey(
        "self", verbose_name=_("rematch of"), null=True, blank=True, on_delete=models.SET_NULL
    )
    # K-X2: the host's rematch invitation on a finished match (``game.rematch``):
    # {"choice", "by", "at", "answers": {seat: "yes"|"no"}, "match_id": new match or None}
    # ("choice": the game's rematch choice, ``rematch_choice``; offers before issue 28
    # kept KÜT's under "tasks")
    rematch_offer = models.JSONField(_("rematch offer"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = pgettext_lazy("model", "match")
        verbose_name_plural = pgettext_lazy("model", "matches")
        indexes = [
            models.Index(fields=["status", "deadline"], name="match_status_deadline"),
            models.Index(fields=["status", "bot_due"], name="match_status_botdue"),
            models.Index(fields=["status", "-finished_at"], name="match_status_finished"),
            # the beat's clean-up of guests' games (issue 27, ``game.guests``)
            models.Index(fields=["created_at"], name="match_guest_created",
                         condition=models.Q(kind="guest")),
        ]  # fmt: skip

    def __str__(self) -> str:
        return f"{self.game} #{self.pk} ({self.get_status_display()})"

    @property
    def running(self) -> bool:
        return self.status in (self.Status.PLAYING, self.Status.BETWEEN)


class MatchSeat(models.Model):
    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="seats"
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="match_seats",
    )  # fmt: skip
    bot_level = models.CharField(
        _("bot level"), max_length=10, blank=True
    )  # set: a bot plays this seat
    away = models.BooleanField(_("away"), default=False)  # K-N7: a bot plays for the human
    away_since = models.DateTimeField(_("away since"), null=True, blank=True)  # P-5: 3 minutes
    connected = models.BooleanField(_("connected"), default=False)
    left = models.BooleanField(_("left"), default=False)  # K-X3: left the match; a bot took over
    left_at = models.DateTimeField(_("left at"), null=True, blank=True)
    left_in_hand = models.PositiveSmallIntegerField(_("left in hand"), null=True, blank=True)
    # The seat's private rack-layout changes so far (``services.match_apply_action``):
    # they never change the match version the other seats act on (issue 16).
    layout_version = models.PositiveIntegerField(_("layout version"), default=0)
    # P-13: when the seat's last socket went (None while connected or never connected);
    # ``dropped``: a bot plays the seat because its player dropped (not K-N7's timeouts)
    disconnected_at = models.DateTimeField(_("disconnected at"), null=True, blank=True)
    # P-13: the channel name of the seat's newest socket.  Only that socket's close
    # marks the seat disconnected: an older socket whose close the server learns late
    # (a dropped network, a tab replaced before it heard so) leaves the new one's seat.
    socket = models.CharField(_("socket"), max_length=100, blank=True, default="")
    dropped = models.BooleanField(_("dropped"), default=False)
    # P-12: a human asks to take this left seat; the host accepts with *Devam*
    request_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("requested by"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    request_at = models.DateTimeField(_("requested at"), null=True, blank=True)
    replacement = models.BooleanField(_("replacement"), default=False)  # P-12: took a left seat
    # issue 27: a guest's seat (no user): the SHA-256 of a random token kept in the
    # visitor's session (``game.guests``; never the session key).  Blank for every other
    # seat.  A secret of that visitor: never shown, never a filter (admin_safety).
    guest_key = models.CharField(_("guest key"), max_length=64, blank=True, default="")
    # the player who left this seat before the replacement took it, and when (P-5)
    left_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("player who left"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    left_user_at = models.DateTimeField(_("left by the player at"), null=True, blank=True)

    class Meta:
        verbose_name = _("match seat")
        verbose_name_plural = _("match seats")
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="matchseat_unique_seat"),
        ]
        indexes = [
            models.Index(fields=["user", "match"], name="matchseat_user_match"),
            # a guest's seats by their key (issue 27); only guests' rows are indexed
            models.Index(fields=["guest_key"], name="matchseat_guest_key",
                         condition=~models.Q(guest_key="")),
        ]  # fmt: skip

    def __str__(self) -> str:
        who = self.user or ("guest" if self.guest_key else f"bot:{self.bot_level}")
        return f"{self.match_id}/{self.seat} {who}"

    @property
    def human(self) -> bool:
        """A person's seat: a user's, or a guest's (issue 27), never a bot's."""
        return not self.bot_level and (self.user_id is not None or bool(self.guest_key))

    @property
    def bot_controlled(self) -> bool:
        return bool(self.bot_level) or self.away or self.left or not self.human


class MatchAction(models.Model):
    """Append-only: one row per accepted action, in the order it was applied.

    A shared change produces the match version ``version`` (``layout_version`` 0).  A
    seat's private rack-layout change (K-R2..K-R4) changes no shared version: it is
    logged at the version it was applied to, with that seat's own ``layout_version``.
    Layout rows of different seats touch different racks and commute, so the order
    (version, layout_version, seat) replays every rack exactly."""

    class Actor(models.TextChoices):
        HUMAN = "human", _("Player")
        BOT = "bot", _("Bot")
        TIMER = "timer", _("Timer")
        SYSTEM = "system", _("System")

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="actions"
    )
    version = models.PositiveIntegerField(_("version"))  # the match version this action produced
    layout_version = models.PositiveIntegerField(
        _("layout version"), default=0
    )  # >0: a seat's layout change
    hand_no = models.PositiveSmallIntegerField(_("hand"))
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    kind = models.CharField(_("kind"), max_length=20)
    payload = models.JSONField(_("payload"), default=dict)
    actor = models.CharField(_("actor"), max_length=8, choices=Actor.choices, default=Actor.HUMAN)
    # the moment the service applied it (its ``now``: the time the timers reckon with)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("match action")
        verbose_name_plural = _("match actions")
        constraints = [
            models.UniqueConstraint(
                fields=["match", "version"], condition=models.Q(layout_version=0),
                name="matchaction_unique_version",
            ),
            models.UniqueConstraint(
                fields=["match", "seat", "layout_version"],
                condition=models.Q(layout_version__gt=0), name="matchaction_unique_layout",
            ),
        ]  # fmt: skip
        ordering = ["match", "version", "layout_version", "seat"]

    def __str__(self) -> str:
        return f"{self.match_id} v{self.version} {self.kind}"


class HandResult(models.Model):
    """One finished hand: every seat's score and the game's own detail of it (its
    ``protocol.HandResult.detail``: KÜT's task, finisher and reasons, K-S…; KDVli's
    multiplier…), which only the game's web side reads (``game.web``)."""

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="hand_results"
    )
    hand_no = models.PositiveSmallIntegerField(_("hand"))
    scores = models.JSONField(_("scores"))  # one hand score per seat
    detail = models.JSONField(_("detail"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("hand result")
        verbose_name_plural = _("hand results")
        constraints = [
            models.UniqueConstraint(fields=["match", "hand_no"], name="handresult_unique_hand"),
        ]
        ordering = ["match", "hand_no"]

    def __str__(self) -> str:
        return f"{self.match_id} hand {self.hand_no}"


class MoveNotice(models.Model):
    """An e-mail sent about a long move clock (Kelimeki, W-X3, W-L4), recorded so that
    each is sent at most once: ``reminder`` once per turn (``turn`` is the engine's
    turn key as JSON text), ``forfeit`` once per seat.  Written only by
    ``game.move_mail``."""

    class Kind(models.TextChoices):
        REMINDER = "reminder", _("Reminder")
        FORFEIT = "forfeit", _("Forfeit")

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="move_notices"
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    turn = models.CharField(_("turn"), max_length=64, blank=True)
    sent_at = models.DateTimeField(_("sent"), default=timezone.now)

    class Meta:
        verbose_name = _("move notice")
        verbose_name_plural = _("move notices")
        constraints = [
            models.UniqueConstraint(
                fields=["match", "seat", "kind", "turn"], name="movenotice_once"
            ),  # fmt: skip
        ]

    def __str__(self) -> str:
        return f"{self.match_id}/{self.seat} {self.kind} {self.turn}"


class HandAnalysis(models.Model):
    """Issue 31 ("Analiz"): the engine's review of one hand of a finished match (its
    scenario, ``lobby`` history's download, through ``python -m game.engine.analyse``):
    the report exactly as the command prints it.  Written only by ``game.analysis`` for
    a match that is over (never before: the report names every rack); one row per hand,
    so a re-run changes nothing.  ``skipped``: beyond the match's budget of hands
    (``KUT_ANALYSIS_MAX_HANDS``); ``failed``: the engine could not analyse the hand."""

    class Status(models.TextChoices):
        DONE = "done", _("Analysed")
        SKIPPED = "skipped", _("Over the budget")
        FAILED = "failed", _("Failed")

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="analyses"
    )
    hand_no = models.PositiveSmallIntegerField(_("hand"))
    status = models.CharField(_("status"), max_length=8, choices=Status.choices)
    report = models.JSONField(_("report"), null=True, blank=True)
    cpu_ms = models.PositiveIntegerField(_("CPU time (ms)"), default=0)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("hand analysis")
        verbose_name_plural = _("hand analyses")
        constraints = [
            models.UniqueConstraint(fields=["match", "hand_no"], name="handanalysis_unique_hand"),
        ]
        ordering = ["match", "hand_no"]

    def __str__(self) -> str:
        return f"{self.match_id} hand {self.hand_no} analysis"
