"""Staff-only, read-only views of matches, their action log and hand results, and the
"abort" action (``game.services.match_abort``: no ranking change), which is logged.

The engine state and the seed hold every rack and the deck order: they are never shown
here (staff may play too).
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.bans import moderation_log_record
from accounts.models import ModerationLog
from game import analysis, services
from game.engine import registry
from game.models import HandAnalysis, HandResult, Match, MatchAction, MatchSeat
from kut_site.admin_safety import ReadOnlyAdmin


class MatchSeatInline(admin.TabularInline):
    model = MatchSeat
    fields = (
        "seat", "user", "bot_level", "connected", "away", "away_since", "dropped", "left",
        "left_at", "left_in_hand", "replacement", "left_user",
    )  # fmt: skip
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class HandResultInline(admin.TabularInline):
    model = HandResult
    fields = ("hand_no", "scores", "detail")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ("id", "game", "kind", "level", "options", "rated", "status", "hand", "host",
                    "created_at")  # fmt: skip
    # kind: an unrecorded game (a guest's, issue 27) shows as such, never as a match
    list_filter = ("status", "kind", "rated", "game", "level")
    search_fields = ("id", "host__username", "seats__user__username")
    date_hierarchy = "created_at"
    # never "state" or "seed": they hold every rack and the deck order
    fields = (
        "game", "kind", "options", "level", "move_seconds", "partners", "rated", "watchers_allowed",
        "status", "hand", "totals", "version", "host", "rematch_of", "turn_started",
        "deadline", "created_at", "finished_at",
    )  # fmt: skip
    readonly_fields = fields
    inlines = (MatchSeatInline, HandResultInline)
    actions = ("abort_matches",)

    def get_queryset(self, request):
        return super().get_queryset(request).defer("seed").select_related("host").distinct()

    @staticmethod
    def _game_state(obj: Match):
        """The match's state read through its game (never shown as such)."""
        if not obj.state:
            return None, None
        spec = registry.get(obj.game)
        return spec, spec.from_dict(obj.state)

    @admin.display(description=_("hand"))
    def hand(self, obj: Match) -> int:
        spec, st = self._game_state(obj)
        return services.hand_no_of(spec, st) if st is not None else 0

    @admin.display(description=_("totals"))
    def totals(self, obj: Match) -> str:
        spec, st = self._game_state(obj)
        return " / ".join(str(t) for t in spec.match_result(st).totals) if st is not None else ""

    def has_abort_permission(self, request):
        return (
            request.user.is_active
            and request.user.is_staff
            and (request.user.has_perm("game.change_match"))
        )

    @admin.action(
        description=_("Abort selected running matches (no ranking change)"),
        permissions=["abort"],
    )
    def abort_matches(self, request, queryset):
        aborted = 0
        for match in queryset.filter(status__in=(Match.Status.PLAYING, Match.Status.BETWEEN)):
            try:
                with transaction.atomic():
                    services.match_abort(match.pk)
                    moderation_log_record(
                        actor=request.user, action=ModerationLog.Action.MATCH_ABORT, target=match
                    )
            except services.ServiceError:
                continue  # it ended meanwhile
            aborted += 1
        self.message_user(
            request,
            ngettext("%(n)d match aborted.", "%(n)d matches aborted.", aborted) % {"n": aborted},
            messages.SUCCESS,
        )


@admin.register(MatchAction)
class MatchActionAdmin(ReadOnlyAdmin):
    list_display = ("match", "version", "hand_no", "seat", "kind", "actor", "created_at")
    list_filter = ("kind", "actor")
    search_fields = ("match__id",)
    readonly_fields = ("match", "version", "hand_no", "seat", "kind", "actor", "created_at")
    fields = readonly_fields


@admin.register(HandResult)
class HandResultAdmin(ReadOnlyAdmin):
    list_display = ("match", "hand_no", "scores", "created_at")
    search_fields = ("match__id",)
    readonly_fields = ("match", "hand_no", "scores", "detail", "created_at")
    fields = readonly_fields


@admin.register(HandAnalysis)
class HandAnalysisAdmin(ReadOnlyAdmin):
    """Issue 31: the stored analyses, read-only, of matches that are over only (the rows
    exist for no other; the list checks again: a report names every rack)."""

    list_display = ("match", "hand_no", "status", "cpu_ms", "created_at")
    list_filter = ("status",)
    search_fields = ("match__id",)
    readonly_fields = ("match", "hand_no", "status", "cpu_ms", "created_at", "report")
    fields = readonly_fields

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .filter(match__status__in=analysis.OVER, match__kind=Match.Kind.NORMAL)
            .select_related("match")
        )
