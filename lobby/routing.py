"""Websocket routes of the lobby app, collected by ``kut_site.asgi``."""

from django.urls import path

from lobby.consumers import GameLobbyConsumer, LobbyConsumer, TableConsumer

websocket_urlpatterns: list = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/lobby/table/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/lobby/<slug:game>/", GameLobbyConsumer.as_asgi()),
]
