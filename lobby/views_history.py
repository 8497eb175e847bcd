"""Pages around the matches: history ("Maçlarım"), a match's record, replays and
scenario downloads, public player pages, the trial hand (K-X1) and the rematch (K-X2).

Reading is in ``lobby.history``; the writes go through ``game.trial`` and
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

from game import portal, rematch, trial
from game.engine import registry
from game.engine.errors import EngineError
from game.models import Match
from game.services import ServiceError
from lobby import games, history
from lobby.history_king import king_record

HISTORY_PAGE_SIZE = 20

REMATCH_MESSAGES = {
    "bad_tasks": gettext_lazy("A match has 5, 8 or 12 tasks."),
    "not_host": gettext_lazy("Only the host can start a rematch."),
    "match_not_over": gettext_lazy("A rematch can start only when the match is over."),
    "no_rematch": gettext_lazy("There is no rematch for a trial hand."),
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
        # W-X5: in a game without leaving rules (Kelimeki) leaving is the forfeit (W-E6)
        row.forfeit = row.match.game in forfeit_games
    filters = [{"key": c.key, "name": c.name} for c in games.playable_cards()]
    context = {"page": page, "rows": rows, "game": game, "filters": filters}
    return render(request, "history/list.html", context)


@login_required
@require_GET
def history_match(request: HttpRequest, match_id: int) -> HttpResponse:
    """One match: every hand's task and scores with their reasons, totals, the chart."""
    match = _visible_match(request, match_id)
    context = {
        "match": match,
        "record": history.match_record(match),
        "dealt": history.hands_played(match),
        "king": king_record(match) if match.game == "king" else None,  # issue 19
    }
    return render(request, "history/match.html", context)


def player_profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's public page: their record, nothing private."""
    user = get_object_or_404(get_user_model(), username=username, is_active=True)
    context = {"player": user, "record": history.player_record(user)}
    return render(request, "history/player.html", context)


# --- replays -------------------------------------------------------------------------------


def replay_strings() -> dict:
    """Every text the replay script shows, in the request's language."""
    return {
        "deal": _("The tiles are dealt. {name} starts."),
        "take_discard": _("{name} takes the thrown {tile}."),
        "draw": _("{name} draws {tile} from the deck."),
        "claim": _("{name} claims the thrown {tile} and gets {penalty} as the penalty tile."),
        "open": _("{name} opens the task: {groups}."),
        "new_groups": _("{name} opens side by side: {groups}."),
        "lay_off": _("{name} lays off {tile}."),
        "auto_lay_off": _("{name} lays off tiles."),
        "undo": _("{name} undoes the last move."),
        "discard": _("{name} discards {tile}."),
        "timeout": _("{name}'s time ran out: the server discards {tile}."),
        "timeout_plain": _("{name}'s time ran out: the server plays for them."),
        "leave": _("{name} leaves the match; a bot takes the seat."),
        "abandon": _("No human is left: the table is closed."),
        "bot": _("(bot)"),
        "step": _("Step {n} of {total}"),
        "deck": _("Deck: {n}"),
        "indicator": _("Indicator"),
        "okey": _("Okey"),
        "thrown": _("Thrown tile"),
        "claimable": _("can be claimed"),
        "discards": _("Discards"),
        "opened": _("opened"),
        "penalty": _("İşlek penalties: {n}"),
        "turn": _("to play"),
        "tiles": _("{n} tiles"),
        "no_groups": _("No open groups yet"),
        "kinds": {"run": _("run"), "kut": _("küt"), "pair": _("pair")},
        "hand_over": _("The hand is over."),
        "finished_by": _("{name} finished."),
        "deck_ran_out": _("The deck ran out; nobody finished."),
        "score": _("Score"),
        "colours": {"R": _("red"), "Y": _("yellow"), "B": _("blue"), "K": _("black")},
        "fake_okey": _("fake okey"),
        "show_indicator": _("{name} shows the indicator."),
        "finish": _("{name} finishes with {tile}."),
        "lay": _("{name} lays on the table: {groups}."),  # Kastet (S-L1)
        "pass": _("{name} passes."),  # Kastet (S-N3, S-N4)
        "loading": _("Loading the hand…"),
        "load_failed": _("The hand could not be loaded."),
    }


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
    spec = registry.get(match.game)
    if getattr(spec, "replay_template", "history/replay.html") is None:
        raise Http404  # a game without a replay page
    kut = getattr(spec, "replay_snapshot", None) is None  # KÜT's own replay (its tasks)
    results = {r.hand_no: r.task_no for r in match.hand_results.all()}
    hands = [
        {
            "no": n,
            "task": history._task_text(match.tasks, results.get(n, n))
            if kut
            else _("Hand {n}").format(n=n),
            "url": reverse("lobby:replay_hand", args=[match.pk, n]),
            "scenario": reverse("lobby:scenario", args=[match.pk, n]),
        }
        for n in range(1, dealt + 1)
    ]
    context = {
        "match": match,
        "hands": hands,
        "first": first,
        # KDVli has no table groups (V-F1); Kastet's run and pair areas are (replay_groups)
        "groups": kut or getattr(spec, "replay_groups", False),
        "config": {
            "hands": hands,
            "first": first,
            "strings": REPLAY_STRINGS.get(match.game, replay_strings)(),
        },
    }
    return render(request, getattr(spec, "replay_template", "history/replay.html"), context)


def kelimeki_replay_strings() -> dict:
    """Every text Kelimeki's replay script shows (static/js/kelimeki/replay.js)."""
    from game.kelimeki_table import kelimeki_strings

    return {
        **kelimeki_strings(),
        "rp": {
            "deal": _("The racks are dealt; {name} starts."),
            "play": _("{name} plays {words} for {n} points."),
            "exchange": _("{name} exchanges {n} tiles."),
            "pass": _("{name} passes."),
            "timeout": _("{name}'s move time ran out: the seat forfeits."),
            "leave": _("{name} forfeits the game."),
            "abandon": _("No human is left: the table is closed."),
            "bot": _("(AI)"),
            "step": _("Step {n} of {total}"),
            "turn": _("to move"),
            "over": _("The game is over."),
            "bag": _("{n} tiles in the bag"),
            "loading": _("Loading the game…"),
            "load_failed": _("The game could not be loaded."),
        },
    }


def king_replay_strings() -> dict:
    """Every text King's replay script shows (issue 19), in the request's language: the
    table's card and contract words (game.king_table) and the replay's own (``rp``)."""
    from game.king_table import king_strings

    return {
        **king_strings(),
        "rp": {
            "deal": _("The cards are dealt. {name} chooses the contract."),
            "choose": _("{name} chooses {contract}."),
            "play": _("{name} plays {card}."),
            "timeout": _("{name}'s time ran out: the server plays for them."),
            "leave": _("{name} leaves the match; a bot takes the seat."),
            "abandon": _("No human is left: the table is closed."),
            "bot": _("(bot)"),
            "step": _("Step {n} of {total}"),
            "trick": _("Trick"),
            "last_trick": _("Last trick, taken by {name}"),
            "tricks": _("Tricks: {n}"),
            "turn": _("to play"),
            "hand_over": _("The hand is over."),
            "score": _("Score"),
            "total": _("Total"),
            "loading": _("Loading the hand…"),
            "load_failed": _("The hand could not be loaded."),
        },
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
def scenario(request: HttpRequest, match_id: int, hand_no: int) -> HttpResponse:
    """Download one hand as its game's scenario file (e.g. kut-scenario.md) for
    ``python -m game.engine.replay``."""
    match = _visible_match(request, match_id)
    try:
        state = history.hand_final_state(match, _hand_no(match, hand_no))
    except EngineError:  # a log the engine no longer replays
        raise Http404 from None
    if state is None:
        raise Http404
    spec = registry.get(match.game)
    if getattr(spec, "export_log", None) is not None:  # the whole game with its moves
        rows = match.actions.order_by("version", "layout_version", "seat")
        scenario_data = spec.export_log(state, list(rows.values_list("seat", "kind", "payload")))
    else:
        scenario_data = spec.export_hand(state)
    text = json.dumps(scenario_data, ensure_ascii=False, indent=1)
    response = HttpResponse(text + "\n", content_type="application/json; charset=utf-8")
    name = f"{match.game}-match-{match.pk}-hand-{hand_no}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


# --- the trial hand (K-X1) -------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def trial_hand(request: HttpRequest) -> HttpResponse:
    """GET: the offer (play or skip); POST: start the trial hand (or go back to it)."""
    if request.method == "GET":
        return render(request, "history/trial.html", {"next": _safe_next(request, "")})
    match = trial.trial_create(request.user)
    return redirect("game:match", match_id=match.pk)


@login_required
@require_POST
def trial_skip(request: HttpRequest) -> HttpResponse:
    """Skip the trial hand (or stop it): it is not offered again."""
    trial.trial_skip(request.user)
    if _wants_json(request):
        return JsonResponse({"ok": True, "url": reverse("lobby:index")})
    messages.info(request, _("You can play the trial hand any time from the home page."))
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
    """The host invites everyone to a rematch of 5, 8 or 12 tasks."""
    try:
        tasks = int(request.POST.get("tasks", ""))
    except ValueError:
        tasks = 0
    try:
        new = rematch.rematch_offer(match_id, request.user, tasks)
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
REPLAY_STRINGS = {"king": king_replay_strings, "kelimeki": kelimeki_replay_strings}
