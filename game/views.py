"""Game pages: the table (the live game itself runs over the match socket)."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from game import services
from game.models import Match


@login_required
def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=match_id)
    seat = services.seat_of(match, request.user)
    if seat is None and not match.watchers_allowed:
        raise Http404
    return render(request, "game/match.html", {"match": match, "seat": seat})
