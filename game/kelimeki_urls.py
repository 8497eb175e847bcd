"""Kelimeki's own pages (issue 21): the game against the AI without an account and the
live table's preview (game/kelimeki_solo.py)."""

from django.urls import path

from . import kelimeki_solo

app_name = "kelimeki"

urlpatterns = [
    path("", kelimeki_solo.solo_page, name="solo"),
    path("new/", kelimeki_solo.solo_new, name="solo_new"),
    path("state/", kelimeki_solo.solo_state, name="solo_state"),
    path("action/", kelimeki_solo.solo_action, name="solo_action"),
    path("preview/", kelimeki_solo.solo_preview, name="solo_preview"),
    path("match/<int:match_id>/preview/", kelimeki_solo.match_preview, name="match_preview"),
]
