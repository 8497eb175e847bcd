"""Lobby pages. For now a placeholder; tables and invites arrive in a later issue."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def index(request: HttpRequest) -> HttpResponse:
    return render(request, "lobby/index.html")
