"""Kelimeki's own pages, at ``/kelimeki/`` (``WEB.urls``): the game against the AI and the
table's preview (``views``), and the *Skor Kartı* (``views_klig``, W-X2)."""

from django.urls import path

from . import views, views_klig

app_name = "kelimeki"

urlpatterns = [
    path("", views.solo_page, name="solo"),
    path("new/", views.solo_new, name="solo_new"),
    path("match/<int:match_id>/preview/", views.match_preview, name="match_preview"),
    path("score-card/", views_klig.score_card, name="score_card"),
]
