"""Staff-only administration of tables (close an open one, logged) and a read-only view
of rankings and per-match ranking results."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from kut_site.admin_safety import ReadOnlyAdmin
from lobby.models import (
    Ranking,
    RankingResult,
    Table,
    TableInvite,
    TableSeat,
)
from lobby.services import LobbyError, table_close


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    fields = ("seat", "user", "bot_level", "active", "joined_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class TableInviteInline(admin.TabularInline):
    model = TableInvite
    fields = ("created_at", "created_by", "revoked_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ("id", "game", "host", "options", "rated", "private", "status", "created_at")
    list_filter = ("status", "rated", "private", "game")
    search_fields = ("host__username", "host__display_name", "id")
    readonly_fields = (
        "game", "host", "options", "rated", "private", "bots_allowed", "bot_level",
        "watchers_allowed", "status", "match", "created_at", "started_at", "closed_at",
    )  # fmt: skip
    inlines = (TableSeatInline, TableInviteInline)
    actions = ("close_tables",)

    def has_close_permission(self, request):
        return (
            request.user.is_active
            and request.user.is_staff
            and (request.user.has_perm("lobby.change_table"))
        )

    @admin.action(description=_("Close selected open tables"), permissions=["close"])
    def close_tables(self, request, queryset):
        closed = 0
        for table in queryset.filter(status=Table.Status.OPEN):
            try:
                table_close(table.pk, request.user, by_admin=True)
                closed += 1
            except LobbyError:
                continue  # started or closed meanwhile
        self.message_user(
            request,
            ngettext("%(n)d table closed.", "%(n)d tables closed.", closed) % {"n": closed},
            messages.SUCCESS,
        )


@admin.register(Ranking)
class RankingAdmin(ReadOnlyAdmin):
    list_display = ("user", "game", "points", "matches", "wins", "losses", "leaves")
    list_filter = ("game",)
    search_fields = ("user__username", "user__display_name")
    ordering = ("game", "-points")


@admin.register(RankingResult)
class RankingResultAdmin(ReadOnlyAdmin):
    list_display = ("match", "user", "seat", "outcome", "points", "left", "created_at")
    list_filter = ("outcome", "left", "game")
    search_fields = ("user__username", "match__id")
