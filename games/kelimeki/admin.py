"""Kelimeki's k-lig rows in the admin, read-only: only ``games.kelimeki.klig`` writes them."""

from __future__ import annotations

from django.contrib import admin

from games.kelimeki.models import KligEntry, KligRecord
from kut_site.admin_safety import ReadOnlyAdmin


@admin.register(KligRecord)
class KligRecordAdmin(ReadOnlyAdmin):
    """Each player's k-lig record (W-L5…W-L8)."""

    list_display = ("user", "total", "kozmik", "celebrated", "updated_at")
    search_fields = ("user__username",)


@admin.register(KligEntry)
class KligEntryAdmin(ReadOnlyAdmin):
    list_display = ("match", "user", "points", "rewards", "total_after", "created_at")
    search_fields = ("user__username",)
