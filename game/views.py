"""Game pages: the table (the live game itself runs over the match socket; its template
and words are the game's, ``game.web``), leaving a match, the install help and the
service worker.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from game import services
from game.engine import registry
from game.models import Match
from game.web import web

# --- the table ----------------------------------------------------------------------------


@login_required
def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=match_id)
    seat = services.seat_of(match, request.user)
    if seat is None and not services.may_view(match, request.user):
        raise Http404
    game_web = web(match.game)
    context = {
        "match": match,
        "seat": seat,
        "strings": game_web.table_strings(match, request.user),
        "is_host": match.host_id == request.user.pk,
        "against_bots": match.seats.filter(bot_level__gt="").exists(),
    }
    return render(request, game_web.table_template, context)


def seeds_allowed() -> bool:
    """Browser tests only (``DEBUG`` and ``KUT_TEST_SEEDS``): forms may take a fixed deal."""
    return bool(settings.DEBUG and getattr(settings, "KUT_TEST_SEEDS", False))


# --- leaving --------------------------------------------------------------------------------


@login_required
@require_POST
def leave(request: HttpRequest, match_id: int) -> HttpResponse:
    """K-X3: leave the match (confirmed on the table); a bot takes the seat."""
    try:
        services.match_leave(match_id, request.user)
    except services.ServiceError as exc:
        if exc.code in ("not_seated", "no_such_match"):
            raise Http404 from None
        raise
    match = Match.objects.filter(pk=match_id).only("game").first()
    if match is not None and not registry.get(match.game).leaving_rules:
        messages.info(request, _("You forfeited the game."))  # W-X5: the game's forfeit
    else:
        messages.info(request, _("You left the match; a bot plays your seat."))
    return redirect("lobby:index")


# --- installable web app --------------------------------------------------------------------


def install_help(request: HttpRequest) -> HttpResponse:
    """How to add KÜT to the home screen (K-X4)."""
    return render(request, "game/install.html")


# Static files the service worker keeps for a fast start (never pages or game data): the
# platform's own, then each game's (its web side's ``assets``).
SW_ASSETS = (
    "css/site.css",
    "css/guide-dialog.css",
    "js/guide-dialog.js",
    "vendor/htmx/htmx.min.js",
    "vendor/htmx-ext-ws/ws.min.js",
    "img/favicon.svg",
    "img/favicon-turn.svg",
    "img/icon-192.png",
    "img/icon-512.png",
    "manifest.webmanifest",
)


def sw_assets() -> tuple[str, ...]:
    """The platform's assets and every registered game's, each once, in registry order."""
    games = (path for key in registry.GAMES for path in web(key).assets)
    return tuple(dict.fromkeys((*SW_ASSETS, *games)))


def _assets_version() -> str:
    digest = hashlib.sha256()
    for path in sw_assets():
        found = finders.find(path)
        digest.update(path.encode())
        if found:
            with open(found, "rb") as fh:
                digest.update(fh.read())
    return digest.hexdigest()[:16]


@lru_cache(maxsize=1)
def _assets_version_cached() -> str:
    return _assets_version()


@never_cache
@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: served from the site root so that its scope is the whole site."""
    version = _assets_version() if settings.DEBUG else _assets_version_cached()
    config = {
        "cache": f"kut-static-{version}",
        "assets": [static(p) for p in sw_assets()],
        "staticPrefix": settings.STATIC_URL
        if settings.STATIC_URL.startswith("/")
        else "/" + settings.STATIC_URL,
        "networkFirst": bool(settings.DEBUG),
    }
    response = render(
        request,
        "game/sw.js",
        {"config": json.dumps(config)},
        content_type="application/javascript; charset=utf-8",
    )
    response["Service-Worker-Allowed"] = "/"
    return response
