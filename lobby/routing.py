"""Websocket routes of the lobby app, collected by ``kut_site.asgi``."""

websocket_urlpatterns: list = []
