"""Kelimeki's own pages (issue 21, issue 27): the game against the AI and the table's
preview (game/kelimeki_solo.py)."""

from django.urls import path

from . import kelimeki_solo

app_name = "kelimeki"

urlpatterns = [
    path("", kelimeki_solo.solo_page, name="solo"),
    path("new/", kelimeki_solo.solo_new, name="solo_new"),
    path("match/<int:match_id>/preview/", kelimeki_solo.match_preview, name="match_preview"),
]
