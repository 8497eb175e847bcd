"""Websocket routes of the game app, collected by ``kut_site.asgi``."""

from django.urls import path

from game.consumers import MatchConsumer

websocket_urlpatterns: list = [
    path("ws/match/<int:match_id>/", MatchConsumer.as_asgi()),
]
