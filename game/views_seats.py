"""P-12, *Devam*: taking a seat that was left.  A bot plays a left seat at once; a
signed-up player may ask for it (``seat_take``), and the host answers on the table
(``seat_answer``, from ``static/js/table-extras.js``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from game import seat_gate, services
from game.messages import message_for
from game.models import Match


def refusal_text(exc: services.ServiceError) -> str:
    """The player's message for a refused request: the seat gate's own (with the date
    a bar ends), else the code's."""
    return exc.message if isinstance(exc, seat_gate.SeatRefused) else message_for(exc.code)


def _vacant(match: Match) -> list:
    return [s for s in match.seats.select_related("user").order_by("seat") if s.left]


@login_required
@require_http_methods(["GET", "POST"])
def seat_take(request: HttpRequest, match_id: int) -> HttpResponse:
    """GET: the seats of a running match that were left, to ask for one; POST: ask."""
    match = get_object_or_404(Match, pk=match_id, kind=Match.Kind.NORMAL)
    if services.seat_of(match, request.user) is not None:
        return redirect("game:match", match_id=match.pk)  # taken: play
    error = None
    if request.method == "POST":
        try:  # the service applies the seat gate (bans, P-11: game.seat_gate)
            services.match_seat_request(match.pk, request.user, request.POST.get("seat"))
        except services.ServiceError as exc:
            error = refusal_text(exc)
        else:
            return redirect("game:seat_take", match_id=match.pk)
    seats = _vacant(match)
    waiting = next((s for s in seats if s.request_user_id == request.user.pk), None)
    if waiting is not None and error is None:
        try:  # banned or barred since asking: say so instead of waiting for ever
            seat_gate.check(request.user, match.game, rated=match.rated)
        except seat_gate.SeatRefused as exc:
            error = exc.message
    context = {
        "match": match,
        "seats": seats,
        "waiting": waiting,
        "error": error,
        "running": match.running,
        # P-5: taking a seat here counts as leaving the running rated match(es) of the game
        "leaves": seat_gate.running_rated(request.user, match.game, exclude=match.pk),
    }
    status = 400 if error and request.method == "POST" else 200
    return render(request, "game/seat_take.html", context, status=status)


@login_required
@require_POST
def seat_answer(request: HttpRequest, match_id: int) -> HttpResponse:
    """The host's *Devam* (``accept=1``) or no (``accept=0``) to a seat request."""
    accept = request.POST.get("accept") == "1"
    try:
        services.match_seat_answer(match_id, request.user, request.POST.get("seat"), accept)
    except services.ServiceError as exc:
        if exc.code == "no_such_match":
            raise Http404 from None
        return JsonResponse({"ok": False, "message": message_for(exc.code)}, status=400)
    return JsonResponse({"ok": True})
