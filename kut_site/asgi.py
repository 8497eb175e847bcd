"""ASGI entry point: ``daphne kut_site.asgi:application``.

HTTP goes to Django; websockets go through origin and session/auth checks to the routes
collected from ``game.routing`` and ``lobby.routing``.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kut_site.settings")

# Initialise Django (apps, settings) before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from game.routing import websocket_urlpatterns as game_websocket_urlpatterns  # noqa: E402
from lobby.routing import websocket_urlpatterns as lobby_websocket_urlpatterns  # noqa: E402

websocket_urlpatterns = [*game_websocket_urlpatterns, *lobby_websocket_urlpatterns]

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
