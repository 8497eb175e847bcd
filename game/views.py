"""Game pages: the table (the live game itself runs over the match socket), the
practice entry against bots, leaving a match, the install help and the service worker.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from game import portal, seat_gate, services
from game.engine import registry
from game.engine.tasks import KUT, PAIR, RUN, TASK_LISTS, is_finish, is_pairs
from game.kelimeki_table import kelimeki_strings
from game.king_table import king_strings
from game.messages import MESSAGES
from game.models import Match
from game.tile_table_strings import tile_table_strings

# --- the table ----------------------------------------------------------------------------


def task_text(task: tuple) -> str:
    """A task in the player's language, e.g. "4'lü küt + 5'li seri" (K-M3)."""
    if is_finish(task):
        return _("Finish from hand")
    if is_pairs(task):
        return _("%(count)d pairs") % {"count": len(task)}
    kut = {3: _("küt of 3"), 4: _("küt of 4")}
    run = {3: _("run of 3"), 4: _("run of 4"), 5: _("run of 5")}
    if len(task) == 2 and task[0] == task[1]:
        kind, length = task[0]
        if (kind, length) == (KUT, 4):
            return _("two küts of 4")
        if (kind, length) == (RUN, 4):
            return _("two runs of 4")
    parts = []
    for kind, length in task:
        table = kut if kind == KUT else run if kind == RUN else {}
        if kind == PAIR or length not in table:  # not in any task list: say it plainly
            parts.append(f"{kind} {length}")
        else:
            parts.append(table[length])
    return " + ".join(parts)


def table_strings() -> dict:
    """Every text the table script shows, in the request's language (no mixed-language
    screens: the script never holds a word of its own)."""
    return {
        **tile_table_strings(),  # the words the tile tables share
        "islek": _("layable"),
        "separator": _("separator between cells {a} and {b}"),
        "selected": _("Selected: {tile}. Choose a cell, a group or your discard area."),
        "opened": _("opened"),
        "your_turn_take": _("Your turn: take a tile from the deck or the one thrown to you."),
        "your_turn_first": _("Your turn: open your task if it is ready, then discard."),
        "your_turn_play": _("Play your tiles, then discard one."),
        "claim_possible": _("You can claim the thrown tile"),
        "forced": _("This turn everyone draws from the centre."),
        "hand_no": _("Hand {n}"),
        "task_no": _("Task {n}/{total}:"),
        "task_texts": {},  # filled per match by the view
        "deck_empty": _("The deck is empty"),
        "pile_of": _("Discards of {name}"),
        "pile_empty": _("No discards yet"),
        "take_thrown": _("Take the tile thrown to you: {tile}"),
        "your_pile": _("Your discard area"),
        "discard_here": _("Discard the selected tile here"),
        "no_groups_yet": _("No open groups yet"),
        "kinds": {"run": _("run"), "kut": _("küt"), "pair": _("pair")},
        "group_label": _("{owner}: {kind} {tiles}"),
        "new_this_turn": _("laid down this turn"),
        "finished_by": _("{name} finished."),
        "deck_ran_out": _("The deck ran out; nobody finished."),
        "col_finish": _("Finish"),
        "col_not_opened": _("Not opened"),
        "col_tiles": _("Tiles"),
        "col_okeys": _("Okeys"),
        "col_penalties": _("İşlek discards"),
        "next_task_in": _("The next task starts in {n} s."),
        "next_task_soon": _("The next task is starting…"),
        "verify_shuffle": _("Verify this hand's shuffle"),
        "verify_url": reverse_lazy("game:verify"),
        "timed_out_drew": _(
            "Your time ran out: a tile was drawn from the centre for you and {tile} was discarded."
        ),
        "timed_out": _("Your time ran out: {tile} was discarded for you."),
        "replaced_note": _("This table is open in another tab."),
        "sound_on": _("Sound on"),
        "sound_off": _("Sound off"),
        "errors": {code: str(text) for code, text in MESSAGES.items()},
        **feel_strings(),
    }


def feel_strings() -> dict:
    """The table's words for issue 15's feedback (Görevi Aç, Diz, group owners)."""
    return {
        "open_no_tiles": _(
            "Your tiles cannot form this task yet: keep taking tiles until they can."
        ),
        "open_layout": _(
            "Your tiles can form the task, but they are not set apart as it asks. Arrange them?"
        ),
        "arrange_now": _("Arrange"),
        "arrange_no_task": _(
            "The task cannot be formed with these tiles yet; your best groups are set apart."
        ),
        "you_short": _("You"),
        "bot_short": _("B{n}"),
        "guide": _("How to play"),
    }


@login_required
def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=match_id)
    seat = services.seat_of(match, request.user)
    if seat is None and not services.may_view(match, request.user):
        raise Http404
    if match.game == "kelimeki":  # issue 21
        strings = kelimeki_strings()
        if seat is not None:  # the end card's k-lig line (W-L1…W-L7)
            from game.kelimeki_table import klig_after

            strings["klig_after"] = klig_after(match, request.user)
    else:
        strings = king_strings() if match.game == "king" else table_strings()  # issue 19
    if match.tasks:  # KÜT's task list (K-M3)
        strings["task_texts"] = {
            str(n): task_text(task) for n, task in enumerate(TASK_LISTS[match.tasks], start=1)
        }
    context = {
        "match": match,
        "seat": seat,
        "strings": strings,
        "is_host": match.host_id == request.user.pk,
        "against_bots": match.seats.filter(bot_level__gt="").exists(),
    }
    return render(request, registry.get(match.game).table_template, context)


# --- practice against bots ------------------------------------------------------------------


class PracticeForm(forms.Form):
    tasks = forms.TypedChoiceField(
        label=gettext_lazy("Tasks"),
        choices=[(5, "5"), (8, "8"), (12, "12")],
        coerce=int,
        initial=5,
    )
    level = forms.ChoiceField(
        label=gettext_lazy("Bots"),
        choices=[
            ("easy", gettext_lazy("easy")),
            ("normal", gettext_lazy("normal")),
            ("hard", gettext_lazy("hard")),
        ],
        initial="normal",
    )
    # Tests only (settings.DEBUG and KUT_TEST_SEEDS): a fixed deal for the browser tests.
    seed = forms.CharField(required=False, max_length=64)


def seeds_allowed() -> bool:
    return bool(settings.DEBUG and getattr(settings, "KUT_TEST_SEEDS", False))


@login_required
@require_POST
def practice(request: HttpRequest) -> HttpResponse:
    """A test match (P-3: unrated, no move timer) against three bots."""
    form = PracticeForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose 5, 8 or 12 tasks and a bot level."))
        return redirect("home")
    seed = form.cleaned_data["seed"] or None
    if seed and not seeds_allowed():
        seed = None  # a fixed deal is for the browser tests only
    level = form.cleaned_data["level"]
    try:  # match_create applies the seat gate (game.seat_gate: a ban)
        match = services.match_create(
            tasks=form.cleaned_data["tasks"],
            users=[request.user, None, None, None],
            bot_levels=["", level, level, level],
            rated=False,
            host=request.user,
            seed=seed,
            leave_others=True,  # P-5
        )
    except seat_gate.SeatRefused as exc:
        messages.error(request, exc.message)
        return redirect("home")
    return redirect("game:match", match_id=match.pk)


# --- leaving --------------------------------------------------------------------------------


@login_required
@require_POST
def leave(request: HttpRequest, match_id: int) -> HttpResponse:
    """K-X3: leave the match (confirmed on the table); a bot takes the seat."""
    try:
        services.match_leave(match_id, request.user)
    except services.ServiceError as exc:
        if exc.code in ("not_seated", "no_such_match"):
            raise Http404 from None
        raise
    match = Match.objects.filter(pk=match_id).only("game").first()
    if match is not None and not portal.leaving_rules(registry.get(match.game)):
        messages.info(request, _("You forfeited the game."))  # W-X5: the game's forfeit
    else:
        messages.info(request, _("You left the match; a bot plays your seat."))
    return redirect("lobby:index")


# --- installable web app --------------------------------------------------------------------


def install_help(request: HttpRequest) -> HttpResponse:
    """How to add KÜT to the home screen (K-X4)."""
    return render(request, "game/install.html")


# Static files the service worker keeps for a fast start (never pages or game data).
SW_ASSETS = (
    "css/site.css",
    "css/table.css",
    "js/table.js",
    "js/okey/tiles.js",
    "vendor/htmx/htmx.min.js",
    "vendor/htmx-ext-ws/ws.min.js",
    "img/favicon.svg",
    "img/favicon-turn.svg",
    "img/icon-192.png",
    "img/icon-512.png",
    "manifest.webmanifest",
)


def _assets_version() -> str:
    digest = hashlib.sha256()
    for path in SW_ASSETS:
        found = finders.find(path)
        digest.update(path.encode())
        if found:
            with open(found, "rb") as fh:
                digest.update(fh.read())
    return digest.hexdigest()[:16]


@lru_cache(maxsize=1)
def _assets_version_cached() -> str:
    return _assets_version()


@never_cache
@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: served from the site root so that its scope is the whole site."""
    version = _assets_version() if settings.DEBUG else _assets_version_cached()
    config = {
        "cache": f"kut-static-{version}",
        "assets": [static(p) for p in SW_ASSETS],
        "staticPrefix": settings.STATIC_URL
        if settings.STATIC_URL.startswith("/")
        else "/" + settings.STATIC_URL,
        "networkFirst": bool(settings.DEBUG),
    }
    response = render(
        request,
        "game/sw.js",
        {"config": json.dumps(config)},
        content_type="application/javascript; charset=utf-8",
    )
    response["Service-Worker-Allowed"] = "/"
    return response
