"""Site-wide views: the home page and the health check."""

from __future__ import annotations

import asyncio
import logging
import secrets

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    JsonResponse,
)
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache

from game.engine import registry
from game.web import web
from kut_site.middleware import CONTENT_SECURITY_POLICY
from lobby.games import playable_cards

logger = logging.getLogger(__name__)

HEALTH_TIMEOUT_SECONDS = 3.0


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def _language() -> str:
    return "tr" if (get_language() or "tr").startswith("tr") else "en"


def guides(request: HttpRequest) -> HttpResponse:
    """*Nasıl Oynanır*: the games that have a rules guide, each linked to it."""
    cards = [c for c in playable_cards() if web(c.key).guide_template(_language())]
    return render(request, "guide/index.html", {"cards": cards})


def guide(request: HttpRequest, game: str) -> HttpResponse:
    """A game's rules guide (its spec in the site's own words; ``game.web``), one template
    per language: long prose reads better whole than cut into catalogue entries."""
    if game not in registry.GAMES:
        raise Http404
    language = _language()
    template = web(game).guide_template(language)
    if template is None:
        raise Http404
    # ``?embed=1``: the guide alone, for the "?" dialog on the game's table (issue 29), which
    # frames it from this site only; every other page of the site may not be framed
    embed = request.GET.get("embed") == "1"
    context = {"guide_language": language, "game": game, "game_name": registry.get(game).name,
               "guide_base": "guide/_embed.html" if embed else "base.html"}  # fmt: skip
    response = render(request, template, context)
    if embed:
        response["X-Frame-Options"] = "SAMEORIGIN"
        response["Content-Security-Policy"] = CONTENT_SECURITY_POLICY.replace(
            "frame-ancestors 'none'", "frame-ancestors 'self'"
        )
    return response


def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``: browsers and crawlers ask for it whatever the pages say."""
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))


def _database_check() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        row = cursor.fetchone()
    if row is None or row[0] != 1:
        raise RuntimeError("unexpected answer to SELECT 1")


async def _channel_layer_check() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    token = secrets.token_hex(8)
    channel = f"kut.healthz.{token}"
    await layer.send(channel, {"type": "healthz.ping", "token": token})
    message = await layer.receive(channel)
    if message.get("token") != token:
        raise RuntimeError("channel layer returned a different message")


@never_cache
async def healthz(request: HttpRequest) -> JsonResponse:
    """200 with ``{"status": "ok"}`` when the database and the channel layer answer."""
    checks: dict[str, str] = {}
    try:
        await asyncio.wait_for(sync_to_async(_database_check)(), HEALTH_TIMEOUT_SECONDS)
        checks["database"] = "ok"
    except Exception as exc:
        logger.warning("healthz: database check failed: %r", exc)
        checks["database"] = f"error: {type(exc).__name__}"
    try:
        await asyncio.wait_for(_channel_layer_check(), HEALTH_TIMEOUT_SECONDS)
        checks["channel_layer"] = "ok"
    except Exception as exc:
        logger.warning("healthz: channel layer check failed: %r", exc)
        checks["channel_layer"] = f"error: {type(exc).__name__}"
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "error", "checks": checks},
        status=200 if healthy else 503,
    )
