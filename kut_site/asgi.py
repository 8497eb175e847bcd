"""ASGI entry point: ``daphne kut_site.asgi:application``.

HTTP goes to Django; websockets go through origin and session/auth checks to the routes
collected from ``game.routing`` and ``lobby.routing``.
"""

import gc
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


def _tune_gc() -> None:
    """A daphne process allocates many short-lived objects per move and holds many
    long-lived ones (modules, settings, every socket's consumer).  Python's default
    (a young collection every 700 allocations, full ones scanning everything) cost
    about a fifth of the CPU per move and spikes of hundreds of ms in the move round
    trip (tools/load, issue 10: paced 100 tables, p99 250–450 ms → 50–80 ms).  What is
    loaded at start-up is moved out of the collector's sight (``gc.freeze``) and
    collections run less often.  KUT_GC_THRESHOLD="0" keeps Python's defaults."""
    value = os.environ.get("KUT_GC_THRESHOLD", "50000,20,100")
    if value.strip() in ("", "0"):
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(*(int(x) for x in value.split(",")))


_tune_gc()

# Inside daphne: slow HTTP clients are cut off (kut_site.slowclients, issue 16), and
# the client's address is the socket's peer whatever daphne's flags (kut_site.peer).
from kut_site import peer, slowclients  # noqa: E402

if slowclients.under_daphne():
    slowclients.install()
    peer.install()
