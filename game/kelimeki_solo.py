"""Kelimeki against the AI without an account (issue 21, item 2; kelimeki.md W-X1, W-M1).

A guest (or a logged-in player) plays one human seat (seat 0, W-M1) against 1 or 3 AI
seats.  The game lives in the visitor's Django session (server side: the bag order and
the AI's racks never reach the browser, W-T5, P-1) — no ``Match`` row, nothing in the
history, rankings or k-lig (W-X1).  The table is the same page and script as a live
match (games/kelimeki/templates/kelimeki/table.html, static/js/kelimeki/board.js) with an HTTP
transport: the browser POSTs ``{"action": {...}, "version": v}`` as JSON and gets back
a frame shaped like the match socket's (``{type: "state", version, match, me, hand}``,
game/frames.py), the AI's replies already applied.  Bad input answers
``{type: "error", code, message}`` with status 400 and changes nothing.

The live table's preview (W-M7) is here too (:func:`match_preview`): it answers from the
seat's own rack and the public board only.
"""

from __future__ import annotations

import logging
import time

import orjson
from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from game.engine.errors import ActionFormatError, RuleError
from game.engine.fair import SeededRNG, new_seed
from games.kelimeki.engine import GAME
from games.kelimeki.web import kelimeki_strings

logger = logging.getLogger(__name__)

SESSION_KEY = "kelimeki_solo"
LEVELS = ("easy", "normal", "hard")
# W-X3: a guest's game against the AI that is not resumed within 7 days is deleted.
KEEP_SECONDS = 7 * 24 * 3600
MAX_BODY = 16 * 1024
HUMAN = 0  # W-M1: the human is seat 0


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
    # counts for k-lig ("klig", the default); "unrecorded" keeps it in the session like a
    # guest's (W-X1).  Guests always get the session game.
    record = forms.ChoiceField(required=False, initial="klig",
                               choices=[("klig", "klig"), ("unrecorded", "unrecorded")])  # fmt: skip
    # Browser tests only (DEBUG and KUT_TEST_SEEDS): a fixed deal and a short bag.
    seed = forms.CharField(required=False, max_length=64)
    bag = forms.IntegerField(required=False, min_value=0, max_value=86)


def seeds_allowed() -> bool:
    return bool(settings.DEBUG and getattr(settings, "KUT_TEST_SEEDS", False))


# --- the game in the session -----------------------------------------------------------------


def _load(request: HttpRequest) -> dict | None:
    game = request.session.get(SESSION_KEY)
    if not isinstance(game, dict) or "state" not in game:
        return None
    if time.time() - game.get("touched", 0) > KEEP_SECONDS:  # W-X3
        del request.session[SESSION_KEY]
        return None
    try:  # a game saved by an older version that no longer loads: start afresh
        GAME.from_dict(game["state"])
    except (KeyError, TypeError, ValueError):
        del request.session[SESSION_KEY]
        return None
    return game


def _save(request: HttpRequest, game: dict) -> None:
    game["touched"] = time.time()
    request.session[SESSION_KEY] = game
    request.session.modified = True


def new_game(level: str, players: int, seed: str | None = None, bag: int | None = None) -> dict:
    """A fresh solo game (the AI moves at once if it starts)."""
    seed = seed or new_seed()
    st = GAME.new_match({"vs_ai": True}, players, SeededRNG(seed))
    if bag is not None:  # tests only: a short bag so that a whole game is quick
        st.bag = st.bag[:bag]
    game = {"state": GAME.to_dict(st), "level": level, "seed": seed, "version": 0,
            "log": []}  # fmt: skip
    _run_ai(game, st)
    return game


def _bot_rng(game: dict, st) -> SeededRNG:
    return SeededRNG(f"{game['seed']}:bot:{st.moves}:{st.turn}")


def _run_ai(game: dict, st) -> None:
    """The AI seats move until it is the human's turn or the game is over.  Each move is
    one call of the AI (bots.choose: bounded by its own move generation, well under a
    second a move on this machine, see README's benchmark)."""
    while not st.over and st.turn != HUMAN:
        seat = st.turn
        view = orjson.loads(orjson.dumps(GAME.view_for(st, seat)))  # P-1: a view only
        try:
            action = GAME.bot_choose(view, game["level"], _bot_rng(game, st))
            events = GAME.apply(st, seat, action, time.time())
        except Exception:  # never leave the guest stuck: the AI passes (W-M10)
            logger.exception("kelimeki solo: the AI could not move; it passes")
            events = GAME.apply(st, seat, {"type": "pass"}, time.time())
        _record(game, events)
    game["state"] = GAME.to_dict(st)


def _record(game: dict, events: list[dict]) -> None:
    game["version"] += 1
    log = game.setdefault("log", [])
    for ev in events:  # public facts only: what the board and the scores show
        if ev["type"] in ("play", "exchange", "pass", "forfeit"):
            game["moves"] = game.get("moves", 0) + 1
            log.append({"n": game["moves"], **{k: ev[k] for k in (
                "type", "seat", "words", "points", "shares", "count", "bingo", "finish_bonus")
                if k in ev}})  # fmt: skip
    del log[:-20]


def frame(game: dict, request: HttpRequest) -> dict:
    """The frame of the human seat, shaped like the match socket's (game/frames.py)."""
    st = GAME.from_dict(game["state"])
    n = st.players
    result = GAME.match_result(st)
    name = (getattr(request.user, "display_name", "") or request.user.get_username()
            if request.user.is_authenticated else _("You"))  # fmt: skip
    seats = [{"name": name, "user_id": request.user.pk, "bot": None, "connected": True}]
    seats += [{"name": "", "user_id": None, "bot": game["level"], "connected": True}] * (n - 1)
    return {
        "type": "state",
        "version": game["version"],
        "layout": 0,
        "me": HUMAN,
        "match": {
            "id": None,
            "game": "kelimeki",
            "kind": "solo",
            "status": "finished" if st.over else "running",
            "level": game["level"],
            "seats": seats,
            "totals": list(result.totals),
            "winners": [s for s, p in enumerate(result.places) if p == 1] if st.over else [],
            "server_time": int(time.time() * 1000),
            "log": list(game.get("log", [])),
        },
        "hand": GAME.view_for(st, HUMAN),
    }


def _error(code: str, status: int = 400) -> JsonResponse:
    texts = kelimeki_strings()["errors"]
    return JsonResponse({"type": "error", "code": code,
                         "message": str(texts.get(code, texts["bad_action"]))},
                        status=status)  # fmt: skip


def _body(request: HttpRequest) -> dict | None:
    if len(request.body) > MAX_BODY:
        return None
    try:
        data = orjson.loads(request.body)
    except orjson.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None


# --- views -----------------------------------------------------------------------------------


@require_GET
def solo_page(request: HttpRequest) -> HttpResponse:
    """/kelimeki/: the table with the visitor's game (reload resumes it), or the start
    form when there is none."""
    game = _load(request)
    context = {
        "solo": True,
        "strings": kelimeki_strings(),
        "frame": frame(game, request) if game else None,
        "form": NewGameForm(),
        "seeds_allowed": seeds_allowed(),
        "seat": HUMAN,
    }
    return render(request, "kelimeki/table.html", context)


@require_POST
def solo_new(request: HttpRequest) -> HttpResponse:
    """Starts a new game (replacing the visitor's current one, which is not kept)."""
    form = NewGameForm(request.POST)
    if not form.is_valid():
        return redirect("kelimeki:solo")
    if request.user.is_authenticated and form.cleaned_data["record"] != "unrecorded":
        return _start_recorded(request, form.cleaned_data["level"], form.cleaned_data["players"])
    seed = form.cleaned_data["seed"] or None
    bag = form.cleaned_data["bag"]
    if not seeds_allowed():
        seed, bag = None, None  # a fixed deal is for the browser tests only
    _save(request, new_game(form.cleaned_data["level"], form.cleaned_data["players"], seed, bag))
    return redirect("kelimeki:solo")


def _start_recorded(request: HttpRequest, level: str, players: int) -> HttpResponse:
    """W-L1: a logged-in player's game against the AI on the platform: a private lobby
    table of ``players`` seats, the AI of ``level`` in every other seat, started at once —
    a rated match with the 7-day clock (``GAME.options_for_seats``: one human), in the
    history, the Skor Kartı and k-lig.  Refused (say, seated at another table): the
    lobby's message, back to this page."""
    from django.contrib import messages

    from lobby import services as lobby_services
    from lobby.messages import message_for

    try:
        table = lobby_services.table_create(host=request.user, game="kelimeki",
                                            seat_count=players, bot_level=level,
                                            private=True)  # fmt: skip
        match = lobby_services.table_start(table.pk, request.user, fill_with_bots=True)
    except lobby_services.LobbyError as exc:
        messages.error(request, message_for(exc.code, **exc.params))
        return redirect("kelimeki:solo")
    return redirect("game:match", match.pk)


@require_GET
def solo_state(request: HttpRequest) -> JsonResponse:
    game = _load(request)
    if game is None:
        return _error("no_game", 404)
    return JsonResponse(frame(game, request))


@require_POST
def solo_action(request: HttpRequest) -> JsonResponse:
    """One human move; the AI's replies follow at once.  W-M2: a refused move changes
    nothing (the state is only saved after the engine accepted it)."""
    game = _load(request)
    if game is None:
        return _error("no_game", 404)
    data = _body(request)
    if data is None or not isinstance(data.get("action"), dict):
        return _error("bad_action")
    version = data.get("version")
    if version is not None and version != game["version"]:
        return _error("stale_version", 409)
    action = data["action"]
    if action.get("type") not in ("play", "exchange", "pass"):
        return _error("unknown_action")
    st = GAME.from_dict(game["state"])
    try:
        events = GAME.apply(st, HUMAN, action, time.time())
    except (RuleError, ActionFormatError) as exc:
        return _error(exc.code)
    _record(game, events)
    _run_ai(game, st)
    _save(request, game)
    return JsonResponse(frame(game, request))


@require_POST
def solo_preview(request: HttpRequest) -> JsonResponse:
    """W-M7: what the tentative tiles would bring; changes nothing."""
    game = _load(request)
    if game is None:
        return _error("no_game", 404)
    data = _body(request)
    if data is None:
        return _error("bad_action")
    st = GAME.from_dict(game["state"])
    return JsonResponse(GAME.preview(st, HUMAN, data.get("placements")))


@login_required
@require_POST
def match_preview(request: HttpRequest, match_id: int) -> JsonResponse:
    """W-M7 for a live match: the requesting player's own seat only."""
    from game import services
    from game.models import Match

    match = get_object_or_404(Match, pk=match_id, game="kelimeki")
    seat = services.seat_of(match, request.user)
    if seat is None or not match.state:
        raise Http404
    data = _body(request)
    if data is None:
        return _error("bad_action")
    st = GAME.from_dict(match.state)
    return JsonResponse(GAME.preview(st, seat, data.get("placements")))
