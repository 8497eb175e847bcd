"""KÜT's own pages: a practice match against bots from the home page (P-3: a test
table, unrated, no move timer)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.services import user_bot_level_remember
from game import seat_gate, services
from game.views import seeds_allowed


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
    user_bot_level_remember(request.user, level)  # Hemen Oyna plays at it (issue 29)
    try:  # match_create applies the seat gate (game.seat_gate: a ban)
        match = services.match_create(
            game="kut",
            options={"tasks": form.cleaned_data["tasks"]},
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
