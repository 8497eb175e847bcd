"""Log a banned player out on their next request (their sessions may predate the ban)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.shortcuts import redirect, resolve_url
from django_htmx.http import HttpResponseClientRedirect

from .bans import ban_message, user_is_banned


class BannedUserMiddleware:
    """After ``AuthenticationMiddleware`` and ``MessageMiddleware``: a banned user is
    logged out and sent to the login page with the reason, before any view runs."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user_is_banned(user):
            message = ban_message(user)
            logout(request)
            messages.error(request, message)
            url = resolve_url(settings.LOGIN_URL)
            if request.headers.get("HX-Request") == "true":
                return HttpResponseClientRedirect(url)
            return redirect(url)
        return self.get_response(request)
