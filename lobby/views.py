"""Lobby pages: the live table list, a table's page, invite links, the leaderboard.

Actions are POSTs (htmx or plain forms) that call ``lobby.services`` and redirect; a
refusal becomes a Turkish message and changes nothing.  htmx requests get an
``HX-Redirect`` so the whole page follows.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from game import portal
from game.models import MatchSeat
from game.web import web
from lobby import games, selectors, services
from lobby.forms import TableForm
from lobby.models import LEVEL_CHOICES, Table
from lobby.services import LobbyError

LEADERBOARD_PAGE_SIZE = 25


def _go(request: HttpRequest, url: str) -> HttpResponse:
    if getattr(request, "htmx", False):
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _table_url(table_id) -> str:
    return reverse("lobby:table", args=[table_id])


def _back(request: HttpRequest, table_id) -> str:
    """Where a refused table action returns: the table's page if the player may see it,
    else the lobby (a private table's page does not exist for outsiders)."""
    table = selectors.table_get(table_id)
    if table is not None and selectors.table_may_view(table, request.user):
        return _table_url(table_id)
    return reverse("lobby:index")


def _refused(request: HttpRequest, exc: LobbyError, url: str) -> HttpResponse:
    messages.error(request, exc.message)
    return _go(request, url)


# --- the lobby: the portal of the games, and each game's own lobby --------------------------


def _my_seat(request: HttpRequest):
    return selectors.table_seat_of(request.user)


def index(request: HttpRequest) -> HttpResponse:
    """The portal: every game as a card (players online, open tables, *Hemen Oyna*; a
    game still being built shows as *yakında*).  Visitors are invited to log in."""
    context = {"cards": games.game_cards(), "next": request.get_full_path()}
    if request.user.is_authenticated:
        context["my_seat"] = _my_seat(request)
    return render(request, "lobby/index.html", context)


def _game_context(request: HttpRequest, card, form: TableForm | None = None) -> dict:
    context = {"card": card, "next": request.get_full_path()}
    if card.playable and request.user.is_authenticated:
        context.update(
            tables=selectors.tables_open_public(card.key),
            my_seat=_my_seat(request),
            form=form or TableForm(card),
        )
    return context


def game_lobby(request: HttpRequest, game: str) -> HttpResponse:
    """One game's lobby: its open tables (live), *Hemen Oyna* and the compact
    create-table dialog with the game's options."""
    card = games.game_card(game)
    if card is None:
        raise Http404
    return render(request, "lobby/game.html", _game_context(request, card))


@login_required
@require_POST
def table_create(request: HttpRequest) -> HttpResponse:
    card = games.game_card(str(request.POST.get("game", "")))
    form = TableForm(card if card and card.playable else None, request.POST)
    if not form.is_valid():
        if card is None or not card.playable:
            context = {"cards": games.game_cards(), "my_seat": _my_seat(request), "form": form}
            return render(request, "lobby/index.html", context, status=400)
        return render(request, "lobby/game.html", _game_context(request, card, form), status=400)
    try:
        table = services.table_create(host=request.user, game=card.key, **form.table_kwargs())
    except LobbyError as exc:
        return _refused(request, exc, reverse("lobby:game", args=[card.key]))
    return _go(request, _table_url(table.pk))


@login_required
@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """*Hemen Oyna* for one game (issue 29): a table where players wait, or a short match
    against bots that starts at once (``services.play_now``)."""
    game = str(request.POST.get("game") or "")
    card = games.game_card(game)
    back = reverse("lobby:game", args=[game]) if card else reverse("lobby:index")
    try:
        table = services.play_now(request.user, game=game)
    except LobbyError as exc:
        return _refused(request, exc, back)
    if table.match_id and table.status != Table.Status.OPEN:
        return _go(request, reverse("game:match", args=[table.match_id]))  # started: play
    return _go(request, _table_url(table.pk))


# --- a table -------------------------------------------------------------------------------


def table_live_context(table: Table, user) -> dict:
    """What ``lobby/_table_live.html`` needs (the page and the table socket share it)."""
    seats = list(table.seats.all())
    my_seat = next((s.seat for s in seats if user and s.user_id == user.pk), None)
    is_host = bool(user) and table.host_id == user.pk
    invite = services.invite_current(table) if is_host and table.is_open else None
    return {
        "table": table,
        "seats": seats,
        "my_seat": my_seat,
        "is_host": is_host,
        "full": all(not s.empty for s in seats),
        "empty_count": sum(1 for s in seats if s.empty),
        "invite": invite,
        "invite_expires": services.invite_expires_at(invite) if invite else None,
        "match_url": reverse("game:match", args=[table.match_id]) if table.match_id else "",
    }


@login_required
@require_GET
def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table = selectors.table_get(table_id)
    if table is None or not selectors.table_may_view(table, request.user):
        raise Http404
    if table.match_id:
        playing = MatchSeat.objects.filter(match_id=table.match_id, user=request.user).exists()
        if playing or table.match.watchers_allowed:
            return redirect("game:match", table.match_id)
    context = table_live_context(table, request.user)
    context["card"] = games.game_card(table.game)
    if table.is_open and table.host_id == request.user.pk:
        context["invite_url"] = (
            request.build_absolute_uri(reverse("lobby:invite", args=[context["invite"].token]))
            if context["invite"]
            else ""
        )
    return render(request, "lobby/table.html", context)


def _table_action(request: HttpRequest, table_id: int, action) -> HttpResponse:
    try:
        result = action()
    except LobbyError as exc:
        return _refused(request, exc, _back(request, table_id))
    return result if isinstance(result, HttpResponse) else _go(request, _table_url(table_id))


@login_required
@require_POST
def table_join(request: HttpRequest, table_id: int) -> HttpResponse:
    seat = request.POST.get("seat")
    try:
        services.table_join(table_id, request.user, seat)
    except LobbyError as exc:
        back = request.POST.get("from") == "lobby" and reverse("lobby:index")
        return _refused(request, exc, back or _back(request, table_id))
    return _go(request, _table_url(table_id))


@login_required
@require_POST
def table_leave(request: HttpRequest, table_id: int) -> HttpResponse:
    try:
        services.table_leave(table_id, request.user)
    except LobbyError as exc:
        return _refused(request, exc, reverse("lobby:index"))
    messages.info(request, _("You left the table."))
    return _go(request, reverse("lobby:index"))


@login_required
@require_POST
def table_add_bot(request: HttpRequest, table_id: int) -> HttpResponse:
    return _table_action(
        request,
        table_id,
        lambda: services.table_add_bot(
            table_id, request.user, request.POST.get("seat"), request.POST.get("level") or None
        ),
    )


@login_required
@require_POST
def table_remove_bot(request: HttpRequest, table_id: int) -> HttpResponse:
    return _table_action(
        request,
        table_id,
        lambda: services.table_remove_bot(table_id, request.user, request.POST.get("seat")),
    )


@login_required
@require_POST
def table_start(request: HttpRequest, table_id: int) -> HttpResponse:
    fill = request.POST.get("fill_with_bots") in ("1", "on", "true")

    def start():
        match = services.table_start(table_id, request.user, fill_with_bots=fill)
        return _go(request, reverse("game:match", args=[match.pk]))

    return _table_action(request, table_id, start)


@login_required
@require_POST
def table_close(request: HttpRequest, table_id: int) -> HttpResponse:
    try:
        services.table_close(table_id, request.user)
    except LobbyError as exc:
        return _refused(request, exc, _back(request, table_id))
    messages.info(request, _("The table is closed."))
    return _go(request, reverse("lobby:index"))


@login_required
@require_POST
def invite_renew(request: HttpRequest, table_id: int) -> HttpResponse:
    def renew():
        services.invite_renew(table_id, request.user)
        messages.success(request, _("A new invite link is ready; the old one no longer works."))

    return _table_action(request, table_id, renew)


@login_required
@require_POST
def invite_revoke(request: HttpRequest, table_id: int) -> HttpResponse:
    def revoke():
        services.invite_revoke(table_id, request.user)
        messages.success(request, _("The invite link has been withdrawn."))

    return _table_action(request, table_id, revoke)


# --- invite links --------------------------------------------------------------------------

INVITE_STATUS = {"invite_invalid": 404, "invite_expired": 410, "invite_revoked": 410}


@never_cache
@require_http_methods(["GET", "POST"])
def invite(request: HttpRequest, token: str) -> HttpResponse:
    """An invite link.  GET only shows the table and asks to sit down (issue 16: a
    cross-site GET must never seat anyone at a rated table); logged out, the page leads
    through log-in or sign-up and back here.  Sitting down is a POST of this page's own
    form (CSRF-protected).  A bad link or a table one cannot join: a clear message,
    nothing changes."""
    try:
        found = services.invite_check(token)
    except LobbyError as exc:
        return _invite_error(request, exc)
    table = found.table
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect(request.path)
        context = {"table": table, "card": games.game_card(table.game), "next": request.path}
        return render(request, "lobby/invite.html", context)
    if table.seats.filter(user=request.user).exists():
        return redirect("lobby:table", found.table_id)  # seated already: nothing to ask
    if request.method == "GET":
        context = {"table": table, "card": games.game_card(table.game), "ask": True}
        return render(request, "lobby/invite.html", context)
    try:
        services.invite_accept(token, request.user)
    except LobbyError as exc:
        return _invite_error(request, exc, table)
    messages.success(request, _("You are seated. Welcome to the table!"))
    return redirect("lobby:table", found.table_id)


def _invite_error(request: HttpRequest, exc: LobbyError, table: Table | None = None):
    status = INVITE_STATUS.get(exc.code, 409)
    context = {"error": exc.message, "table": table, "next": request.path}
    return render(request, "lobby/invite.html", context, status=status)


# --- ranking -------------------------------------------------------------------------------


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    """P-7: one board per game and level (tabs); ``?game=`` and ``?level=`` choose it."""
    cards = games.playable_cards()
    keys = [c.key for c in cards]
    game = request.GET.get("game")
    game = game if game in keys else (keys[0] if keys else "")  # the first game listed
    level = request.GET.get("level")
    level = level if level in portal.LEVELS else portal.DEFAULT_LEVEL
    card = next((c for c in cards if c.key == game), None)
    by_level = card is None or card.ranked_by_level
    board_level = level if by_level else ""  # one board for every level (Kelimeki's k-lig)
    paginator = Paginator(selectors.rankings_board(game, board_level), LEADERBOARD_PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    offset = page.start_index() - 1 if page.object_list else 0
    context = {
        "page": page,
        "offset": offset,
        "cards": cards,
        "game": game,
        "level": level,
        "levels": LEVEL_CHOICES if by_level else [],
        "ranking_text": web(game).ranking_text() if card else "",  # issue 29 item 7
    }
    badges = web(game).badges([r.user_id for r in page.object_list]) if card else {}
    for row in page.object_list:
        row.seal = badges.get(row.user_id, "")  # the game's mark beside a name (k-lig, W-L7)
    return render(request, "lobby/leaderboard.html", context)
