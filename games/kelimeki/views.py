"""Kelimeki's own pages (issue 21, item 2; issue 27): the game against the AI at
``/kelimeki/`` and the live table's preview (W-M7).

A guest's game against the AI (no account needed, W-X1) and a logged-in player's
practice game are unrecorded platform matches (``game.guests``): the same board and
socket as every live match (games/kelimeki/templates/kelimeki/table.html,
static/js/kelimeki/board.js), the AI played in the background at the site's bot pace,
its word arriving as a frame of its own.  A logged-in player's game that counts (W-L1,
the default) is a recorded lobby table with the AI in the other seats
(``_start_recorded``).  New games, previews and recorded games against the AI are
limited (``game.limits``): over a limit, HTTP 429 with a clear message and nothing
changes.
"""

from __future__ import annotations

import orjson
from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from accounts.services import client_ip, user_bot_level_remember
from game import guests, limits, services
from game.models import Match
from games.kelimeki.engine import GAME
from games.kelimeki.web import kelimeki_strings

KEY = GAME.key
MAX_BODY = 16 * 1024
# Where the previous version kept a guest's game (in the session, no Match row): such a
# game is dropped with a notice on the next visit (issue 27: it cannot become a match
# without the action log a match replays from).
OLD_SESSION_GAME = "kelimeki_solo"


class NewGameForm(forms.Form):
    level = forms.ChoiceField(
        label=gettext_lazy("AI level"),
        choices=[
            ("easy", gettext_lazy("easy")),
            ("normal", gettext_lazy("normal")),
            ("hard", gettext_lazy("hard")),
        ],  # fmt: skip
        initial="normal",
    )
    players = forms.TypedChoiceField(
        label=gettext_lazy("Players"), choices=[(2, "2"), (4, "4")], coerce=int, initial=2
    )
    # W-L1: a logged-in player's game against the AI is a recorded platform game that
    # counts for k-lig ("klig", the default); "unrecorded" is a practice game recorded
    # nowhere (W-X1), like a guest's.  Guests always get the unrecorded game.
    record = forms.ChoiceField(required=False, initial="klig",
                               choices=[("klig", "klig"), ("unrecorded", "unrecorded")])  # fmt: skip
    # Browser tests only (DEBUG and KUT_TEST_SEEDS): a fixed deal and a short bag.
    seed = forms.CharField(required=False, max_length=64)
    bag = forms.IntegerField(required=False, min_value=0, max_value=86)


def _page(request: HttpRequest, status: int = 200) -> HttpResponse:
    """/kelimeki/: the visitor's unrecorded game on the board (a reload resumes it), or
    the start form when there is none."""
    if request.session.pop(OLD_SESSION_GAME, None) is not None:
        messages.info(request, _("Your game against the AI was kept by an older version of "
                                 "the site and could not be carried over. Start a new one."))  # fmt: skip
    match = guests.current(KEY, request.user, request.session)
    context = {
        "practice": True,
        "match": match,
        "seat": guests.seat_for(match, request.user, request.session) if match else None,
        "strings": kelimeki_strings(),
        "form": NewGameForm(),
        "seeds_allowed": services.test_mode(),
    }
    return render(request, "kelimeki/table.html", context, status=status)


@require_GET
def solo_page(request: HttpRequest) -> HttpResponse:
    return _page(request)


def _refused(request: HttpRequest, text: str) -> HttpResponse:
    """Over a limit (issue 27): the page again with the reason, HTTP 429."""
    messages.error(request, text)
    return _page(request, status=429)


@require_POST
def solo_new(request: HttpRequest) -> HttpResponse:
    """Starts a new game (replacing the visitor's current unrecorded one, which is
    deleted)."""
    form = NewGameForm(request.POST)
    if not form.is_valid():
        return redirect("kelimeki:solo")
    level, players = form.cleaned_data["level"], form.cleaned_data["players"]
    user_bot_level_remember(request.user, level)  # Hemen Oyna plays at it (issue 29)
    if request.user.is_authenticated and form.cleaned_data["record"] != "unrecorded":
        return _start_recorded(request, level, players)
    # a guest without a token yet has started nothing in this session: only their
    # address counts (a refused one gets no token: no session row either)
    who = guests.identity(request.user, request.session)
    if not limits.new_guest_game_allowed(who, client_ip(request)):
        return _refused(request, limits.message("guest_games_limited"))
    seed, bag = form.cleaned_data["seed"] or None, form.cleaned_data["bag"]
    if not services.test_mode():
        seed, bag = None, None  # a fixed deal is for the browser tests only
    guests.start(game=KEY, players=players, level=level, user=request.user,
                 session=request.session, seed=seed,
                 test_options={"test_bag": bag} if bag is not None else None)  # fmt: skip
    if who is None:  # the session's first game: its own count starts with it
        limits.new_guest_game_allowed(guests.identity(request.user, request.session), None)
    return redirect("kelimeki:solo")


def _start_recorded(request: HttpRequest, level: str, players: int) -> HttpResponse:
    """W-L1: a logged-in player's game against the AI on the platform: a private lobby
    table of ``players`` seats, the AI of ``level`` in every other seat, started at once —
    a rated match with the 7-day clock (``GAME.options_for_seats``: one human), in the
    history, the Skor Kartı and k-lig.  Refused (say, seated at another table, or over
    the limits of issue 27 item 9): the message, back to this page."""
    from lobby import services as lobby_services
    from lobby.messages import message_for

    refusal = limits.bot_game_refusal(request.user, KEY)
    if refusal is not None:
        return _refused(request, limits.message(refusal))
    try:
        table = lobby_services.table_create(host=request.user, game=KEY,
                                            seat_count=players, bot_level=level,
                                            private=True)  # fmt: skip
        match = lobby_services.table_start(table.pk, request.user, fill_with_bots=True)
    except lobby_services.LobbyError as exc:
        messages.error(request, message_for(exc.code, **exc.params))
        return redirect("kelimeki:solo")
    return redirect("game:match", match.pk)


def _error(code: str, status: int = 400, message: str = "") -> JsonResponse:
    texts = kelimeki_strings()["errors"]
    text = message or str(texts.get(code, texts["bad_action"]))
    return JsonResponse({"type": "error", "code": code, "message": text}, status=status)


def _body(request: HttpRequest) -> dict | None:
    if len(request.body) > MAX_BODY:
        return None
    try:
        data = orjson.loads(request.body)
    except orjson.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None


@require_POST
def match_preview(request: HttpRequest, match_id: int) -> JsonResponse:
    """W-M7: what the tentative tiles would bring, for the requesting player's own seat
    (a user's, or a guest's by their session); changes nothing.  Limited per visitor and
    per client address (issue 27)."""
    match = get_object_or_404(Match, pk=match_id, game=KEY)
    seat = guests.seat_for(match, request.user, request.session)
    if seat is None or not match.state:
        raise Http404
    if not limits.preview_allowed(guests.identity(request.user, request.session),
                                  client_ip(request)):  # fmt: skip
        return _error("rate_limited", 429, limits.message("previews_limited"))
    data = _body(request)
    if data is None:
        return _error("bad_action")
    st = GAME.from_dict(match.state)
    return JsonResponse(GAME.preview(st, seat, data.get("placements")))
