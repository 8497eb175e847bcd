"""Requests no view should have to think about (issue 11, tests/security).

* A NUL character anywhere in the path, the query string or a form field: PostgreSQL
  refuses it in every text column, so a lookup with it fails deep in the database
  (``/u/%00/``, ``?q=%00`` in the admin).  No valid request of this site holds one:
  it is refused here with 400 before any view runs.
* Staff can craft admin URLs and POSTs the admin does not check (a ``__year`` filter
  of 99999, ``_selected_action=abc``): Django's admin lets the lookup's ``ValueError``
  through as a 500.  Under the admin, such errors of bad input are answered with 400
  and logged; everything else is left alone.
"""

from __future__ import annotations

import logging

from django.core.exceptions import ValidationError
from django.db import DataError
from django.http import HttpResponseBadRequest
from django.urls import reverse
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)

_BAD_ADMIN_INPUT = (ValueError, OverflowError, ValidationError, DataError)


def _has_nul(request) -> bool:
    if "\x00" in request.path_info or "%00" in request.META.get("QUERY_STRING", ""):
        return True
    if request.method == "POST" and request.content_type in (
        "application/x-www-form-urlencoded",
        "multipart/form-data",
    ):
        for key, values in request.POST.lists():
            if "\x00" in key or any("\x00" in v for v in values):
                return True
    return False


def _bad_request(message: str) -> HttpResponseBadRequest:
    return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")


class BadInputMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if _has_nul(request):
            return _bad_request(_("The request contains a character that is not allowed."))
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, _BAD_ADMIN_INPUT):
            return None
        if not request.path_info.startswith(reverse("admin:index")):
            return None
        log.warning("admin: bad input at %s", request.get_full_path()[:200], exc_info=True)
        return _bad_request(_("That filter, search or selection is not valid."))


# --- security headers (issue 16) --------------------------------------------------------------

# Scripts only from this site's own files (no inline script, no eval: every template's
# scripts are static files); styles may be inline (style attributes, the pages' own
# <style> blocks), which cannot run code.  Sockets to this same host only ('self' covers
# ws:/wss: of the page's origin).  No plugins, no framing, forms post here only.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])  # fmt: skip
# No page of the site uses any of these browser features.
PERMISSIONS_POLICY = ", ".join(f"{feature}=()" for feature in (
    "accelerometer", "camera", "geolocation", "gyroscope", "magnetometer", "microphone",
    "payment", "usb", "interest-cohort", "browsing-topics",
))  # fmt: skip


class SecurityHeadersMiddleware:
    """Content-Security-Policy and Permissions-Policy on every response that has none."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response


class PageNoticesMiddleware:
    """Each game's notices for a logged-in player, shown once on the next page they open
    (``GameWeb.page_notices``, e.g. Kelimeki's k-lig celebrations, W-L8): Django messages,
    only for a plain GET of an HTML page (never a socket, a static file or htmx)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if (request.method == "GET" and user is not None and user.is_authenticated
                and not request.headers.get("HX-Request")
                and "text/html" in request.headers.get("Accept", "text/html")):  # fmt: skip
            from django.contrib import messages

            from game.engine import registry
            from game.web import web

            for key in registry.GAMES:
                try:
                    for text, tags in web(key).page_notices(user):
                        messages.success(request, text, extra_tags=tags)
                except Exception:  # never break a page for a notice
                    log.exception("page notices of %s for user %s failed", key, user.pk)
        return self.get_response(request)
