"""Pages around the matches: history ("Maçlarım"), a match's record, replays and
scenario downloads, public player pages, a game's guided first hand (KÜT's trial hand,
K-X1) and the rematch (K-X2).

Reading is in ``lobby.history``; the writes go through ``game.tutorial`` and
``game.rematch`` (which call ``game.services``).  A refusal is a short Turkish message,
never a 500: JSON for the table's script (``Accept: application/json``), else a
message and a redirect.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from game import analysis, portal, rematch, tutorial
from game.engine import registry
from game.engine.errors import EngineError
from game.models import Match
from game.services import ServiceError
from game.web import web
from lobby import analysis_pages, games, history

HISTORY_PAGE_SIZE = 20

REMATCH_MESSAGES = {
    "bad_choice": gettext_lazy("Choose one of the offered options."),
    "not_host": gettext_lazy("Only the host can start a rematch."),
    "match_not_over": gettext_lazy("A rematch can start only when the match is over."),
    "no_rematch": gettext_lazy("There is no rematch for a guided hand."),
    "rematch_started": gettext_lazy("The rematch has already started."),
    "no_offer": gettext_lazy("There is no rematch invitation."),
    "not_seated": gettext_lazy("You are not seated at this table."),
    "no_such_match": gettext_lazy("There is no such match."),
}


def _safe_next(request: HttpRequest, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _visible_match(request: HttpRequest, match_id: int) -> Match:
    match = Match.objects.filter(pk=match_id).defer("state").first()
    if match is None or not history.match_visible_to(match, request.user):
        raise Http404
    return match


# --- history -------------------------------------------------------------------------------


@login_required
@require_GET
def history_list(request: HttpRequest) -> HttpResponse:
    """Maçlarım: the player's finished rated matches of every game, newest first;
    ``?game=<key>`` shows one game's (issue 17: a game filter)."""
    names = games.game_names()
    game = request.GET.get("game")
    game = game if game in names else None
    matches = history.match_history_for_user(request.user, game)
    paginator = Paginator(matches, HISTORY_PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    rows = history.history_rows(page.object_list, request.user)
    forfeit_games = set(portal.games_without_leaving_rules())
    for row in rows:
        row.game_name = names.get(row.match.game, row.match.game)
        row.options_text = web(row.match.game).options_text(row.match.options)
        # W-X5: in a game without leaving rules (Kelimeki) leaving is the forfeit (W-E6)
        row.forfeit = row.match.game in forfeit_games
    filters = [{"key": c.key, "name": c.name} for c in games.playable_cards()]
    context = {"page": page, "rows": rows, "game": game, "filters": filters}
    return render(request, "history/list.html", context)


@login_required
@require_GET
def history_match(request: HttpRequest, match_id: int) -> HttpResponse:
    """One match: every hand's scores (with the game's own detail), totals, the chart."""
    match = _visible_match(request, match_id)
    game_web = web(match.game)
    record = history.match_record(match)
    context = {
        "match": match,
        "record": record,
        "dealt": history.hands_played(match),
        "game_name": registry.get(match.game).name,
        "options_text": game_web.options_text(match.options),
        "record_template": game_web.record_template,
        # issue 31: the stored analysis at a glance (none for a game without one)
        "analysis": analysis_pages.record_analysis(match, game_web, record["names"]),
        **game_web.record_context(match, record),
    }
    return render(request, "history/match.html", context)


def player_profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's public page: their record, nothing private."""
    user = get_object_or_404(get_user_model(), username=username, is_active=True)
    context = {"player": user, "record": history.player_record(user)}
    return render(request, "history/player.html", context)


# --- replays -------------------------------------------------------------------------------


@login_required
@require_GET
def replay(request: HttpRequest, match_id: int) -> HttpResponse:
    """Step through every hand of a finished match, all racks revealed."""
    match = _visible_match(request, match_id)
    dealt = history.hands_played(match)
    if dealt == 0:
        raise Http404
    try:
        first = min(max(int(request.GET.get("hand", 1)), 1), dealt)
    except ValueError:
        first = 1
    game_web = web(match.game)
    if game_web.replay_template is None:
        raise Http404  # a game without a replay page
    results = {r.hand_no: r.detail for r in match.hand_results.all()}
    hands = [
        {
            "no": n,
            "task": game_web.hand_label(match, results.get(n, {})) or _("Hand {n}").format(n=n),
            "url": reverse("lobby:replay_hand", args=[match.pk, n]),
            "scenario": reverse("lobby:scenario", args=[match.pk, n]),
        }
        for n in range(1, dealt + 1)
    ]
    names = history.seat_names(match)
    context = {
        "match": match,
        "hands": hands,
        "first": first,
        "groups": False,
        **game_web.replay_context(match),
        "config": {"hands": hands, "first": first, "strings": game_web.replay_strings()},
        # issue 31: the first hand's stored analysis and the panel's words (base.html)
        **_analysis_context(match, game_web, first, names),
    }
    return render(request, game_web.replay_template, context)


def _analysis_context(match: Match, game_web, hand: int, names: list[str]) -> dict:
    """The replay's analysis panel (``templates/history/_replay_analysis.html``): the
    hand's stored report as ``analysis-data``, the rest of its payload beside it."""
    if not analysis.eligible(match):
        return {}
    payload = analysis_pages.replay_payload(match, game_web, hand, names) or {}
    url = reverse("lobby:analysis_hand", args=[match.pk, 0]).replace("/0/", "/{hand}/")
    return {
        "analysis": payload.pop("report", None),
        "analysis_extra": payload,
        "analysis_config": {"hand": hand, "url": url, "strings": analysis_pages.replay_strings()},
    }


def _hand_no(match: Match, hand_no: int) -> int:
    if not 1 <= hand_no <= history.hands_played(match):
        raise Http404
    return hand_no


@login_required
@require_GET
def replay_hand(request: HttpRequest, match_id: int, hand_no: int) -> JsonResponse:
    """One hand's steps as JSON (faces only: no seed, no tile ids)."""
    match = _visible_match(request, match_id)
    data = history.replay_hand(match, _hand_no(match, hand_no))
    if data is None:
        raise Http404
    return JsonResponse(data, json_dumps_params={"ensure_ascii": False})


@login_required
@require_GET
def analysis_hand(request: HttpRequest, match_id: int, hand_no: int) -> JsonResponse:
    """Issue 31: one hand's stored analysis for the replay's panel (the report as
    stored, the moves in the game's words); 404 when there is none (yet)."""
    match = _visible_match(request, match_id)
    names = history.seat_names(match)
    data = analysis_pages.replay_payload(match, web(match.game), _hand_no(match, hand_no), names)
    if data is None:
        raise Http404
    return JsonResponse(data, json_dumps_params={"ensure_ascii": False})


@login_required
@require_GET
def scenario(request: HttpRequest, match_id: int, hand_no: int) -> HttpResponse:
    """Download one hand as its game's scenario file (e.g. kut-scenario.md) for
    ``python -m game.engine.replay``."""
    match = _visible_match(request, match_id)
    try:
        scenario_data = analysis.scenario_of(match, _hand_no(match, hand_no))
    except EngineError:  # a log the engine no longer replays
        raise Http404 from None
    if scenario_data is None:
        raise Http404
    text = json.dumps(scenario_data, ensure_ascii=False, indent=1)
    response = HttpResponse(text + "\n", content_type="application/json; charset=utf-8")
    name = f"{match.game}-match-{match.pk}-hand-{hand_no}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


# --- a game's guided first hand (KÜT's trial hand, K-X1) --------------------------------------


def _tutorial_game(game: str) -> str:
    if game not in tutorial.tutorial_games():
        raise Http404
    return game


@login_required
@require_http_methods(["GET", "POST"])
def tutorial_hand(request: HttpRequest, game: str) -> HttpResponse:
    """GET: the offer (play or skip); POST: start the game's guided hand (or go back to
    the one running)."""
    game = _tutorial_game(game)
    if request.method == "GET":
        context = {"game": game, "game_name": registry.get(game).name,
                   "about": web(game).tutorial_about(), "next": _safe_next(request, "")}  # fmt: skip
        return render(request, "history/trial.html", context)
    match = tutorial.tutorial_create(request.user, game)
    return redirect("game:match", match_id=match.pk)


@login_required
@require_POST
def tutorial_skip(request: HttpRequest, game: str) -> HttpResponse:
    """Skip the guided hand (or stop it): it is not offered again."""
    game = _tutorial_game(game)
    tutorial.tutorial_skip(request.user, game)
    if _wants_json(request):
        return JsonResponse({"ok": True, "url": reverse("lobby:index")})
    messages.info(request, _("You can play the guided hand any time from the game's card."))
    return redirect(_safe_next(request, reverse("lobby:index")))


# --- rematch (K-X2) -------------------------------------------------------------------------


def _rematch_reply(request: HttpRequest, match_id: int, new: Match | None, exc=None):
    if exc is not None:
        text = getattr(exc, "message", None) or str(  # the seat gate's own (issue 27)
            REMATCH_MESSAGES.get(exc.code, REMATCH_MESSAGES["no_offer"]))  # fmt: skip
        if _wants_json(request):
            status = 404 if exc.code in ("no_such_match", "not_seated") else 409
            return JsonResponse({"ok": False, "code": exc.code, "message": text}, status=status)
        messages.error(request, text)
        if exc.code == "no_such_match":
            return redirect("lobby:index")
        return redirect("game:match", match_id=match_id)
    url = reverse("game:match", args=[new.pk]) if new is not None else None
    if _wants_json(request):
        return JsonResponse({"ok": True, "match_id": new.pk if new else None, "url": url})
    return redirect(url or reverse("game:match", args=[match_id]))


@login_required
@require_POST
def rematch_offer(request: HttpRequest, match_id: int) -> HttpResponse:
    """The host invites everyone to a rematch, choosing the game's rematch option
    (``choice``: KÜT's 5, 8 or 12 tasks, King's length…; none for a plain rematch)."""
    try:
        choice = int(request.POST.get("choice", ""))
    except ValueError:
        choice = 0
    try:
        new = rematch.rematch_offer(match_id, request.user, choice)
    except ServiceError as exc:
        return _rematch_reply(request, match_id, None, exc)
    return _rematch_reply(request, match_id, new)


@login_required
@require_POST
def rematch_answer(request: HttpRequest, match_id: int) -> HttpResponse:
    """A player accepts (``accept=1``) or declines (``accept=0``) the invitation."""
    accept = request.POST.get("accept") in ("1", "true", "yes")
    try:
        new = rematch.rematch_answer(match_id, request.user, accept)
    except ServiceError as exc:
        return _rematch_reply(request, match_id, None, exc)
    if new is not None and not new.seats.filter(user=request.user).exists():
        new = None  # the match started without this player (declined): they stay here
    return _rematch_reply(request, match_id, new)


@login_required
@require_POST
def rematch_start(request: HttpRequest, match_id: int) -> HttpResponse:
    """The host starts the rematch without waiting for the remaining answers."""
    try:
        new = rematch.rematch_start(match_id, request.user)
    except ServiceError as exc:
        return _rematch_reply(request, match_id, None, exc)
    return _rematch_reply(request, match_id, new)


# each game's replay words (its replay_template's script); the okey replay's otherwise
