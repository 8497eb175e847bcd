from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from lobby.models import LEVEL_CHOICES, TASK_CHOICES


class TableForm(forms.Form):
    """Creating a table: every option of the issue (K-M2, P-3)."""

    tasks = forms.TypedChoiceField(
        label=_("Tasks"),
        choices=TASK_CHOICES,
        coerce=int,
        initial=8,
        help_text=_("How many hands (one task each) the match lasts."),
    )
    rated = forms.TypedChoiceField(
        label=_("Type"),
        choices=[("1", _("Rated (counts for the ranking)")), ("0", _("Test (recorded nowhere)"))],
        coerce=lambda v: v == "1",
        initial="1",
        widget=forms.RadioSelect,
    )
    private = forms.TypedChoiceField(
        label=_("Visibility"),
        choices=[("0", _("Public (listed in the lobby)")), ("1", _("Private (invite link only)"))],
        coerce=lambda v: v == "1",
        initial="0",
        widget=forms.RadioSelect,
    )
    bots_allowed = forms.BooleanField(
        label=_("Bots may fill empty seats"), required=False, initial=True
    )
    level = forms.ChoiceField(
        label=_("Level"),
        choices=LEVEL_CHOICES,
        initial="orta",
        help_text=_("Shown in the lobby; bots play at this level and rankings are kept per level."),
    )
    watchers_allowed = forms.BooleanField(label=_("Watchers allowed"), required=False)
