"""The bare baseline: a trivial echo consumer on the same daphne + channel layer stack.

``daphne tools.load.echo_app:application`` serves ``/ws/echo/<room>/``: every socket of a
room joins the group ``loadecho.<room>``; a text message is group-sent unchanged to the
room (its four sockets, the sender included), the way an action's new state fans out to
a table's four seats.  No session, no database, no rules: what the stack itself costs.
``/ws/echo-fanout/<room>/`` does the same over the site's own fan-out
(``kut_site.fanout``, the path a match's frames take): the stricter yardstick
(``tools.load.run --echo-fanout``).
``GET /healthz`` answers 200 so the harness can wait for it as for the site.

Settings come from ``kut_site.settings`` (the same ``REDIS_URL`` channel layer).
"""

from __future__ import annotations

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kut_site.settings")
django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

from kut_site import fanout  # noqa: E402


class EchoConsumer(AsyncWebsocketConsumer):
    """The echo as a channel-layer group (Channels' own way to fan out)."""

    async def connect(self):
        self.group = f"loadecho.{self.scope['url_route']['kwargs']['room']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        if text_data is not None:
            await self.channel_layer.group_send(self.group, {"type": "echo.msg", "text": text_data})

    async def echo_msg(self, event):
        await self.send(text_data=event["text"])


class FanoutEchoConsumer(AsyncWebsocketConsumer):
    """The echo over the site's own fan-out (``kut_site.fanout``, Redis pub/sub), the
    path a match's frames take: one publish, one delivery per process."""

    async def connect(self):
        self.topic = f"loadecho.{self.scope['url_route']['kwargs']['room']}"
        await self.accept()
        await fanout.join(self.topic, self)

    async def disconnect(self, code):
        await fanout.leave(self.topic, self)

    async def receive(self, text_data=None, bytes_data=None):
        if text_data is not None:
            await fanout.apublish(self.topic, [text_data])

    async def fanout_deliver(self, parts):
        await self.send(text_data=parts[0])

    async def fanout_resync(self):
        pass


async def health(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    ok = scope["path"] == "/healthz"
    await send({
        "type": "http.response.start",
        "status": 200 if ok else 404,
        "headers": [(b"content-type", b"text/plain")],
    })  # fmt: skip
    await send({"type": "http.response.body", "body": b"ok" if ok else b"not found"})


application = ProtocolTypeRouter(
    {
        "http": health,
        "websocket": URLRouter(
            [
                path("ws/echo/<int:room>/", EchoConsumer.as_asgi()),
                path("ws/echo-fanout/<int:room>/", FanoutEchoConsumer.as_asgi()),
            ]
        ),  # fmt: skip
    }
)
