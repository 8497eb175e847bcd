from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from game import portal
from game.engine import registry
from game.engine.protocol import InputError
from lobby.messages import message_for
from lobby.models import LEVEL_CHOICES

OPTION_PREFIX = "opt_"
MAX_OPTIONS = 12  # more opt_ fields than any game has: refused, not stored
MAX_OPTION_LENGTH = 40


def _option_value(value: str):
    """Digit strings become numbers (KÜT's tasks is an int); anything else stays text."""
    value = value.strip()
    if value.isascii() and value.isdigit() and len(value) <= 6:
        return int(value)
    return value


class TableForm(forms.Form):
    """The compact create-table dialog of one game (issue 17, item 6): the game's own
    options (its ``options.html``, posted as ``opt_<name>``, checked by the game's
    ``clean_options``) and the portal's: rated or test (P-3), public or private, the
    level (P-7), the move time (P-6: only when the game's is not fixed), partners (P-8:
    only when the game allows them), seats (only when the game has more than one seat
    count), bots and watchers."""

    game = forms.ChoiceField(label=_("Game"), choices=(), widget=forms.HiddenInput)
    rated = forms.TypedChoiceField(
        label=_("Type"),
        choices=[("1", _("Rated")), ("0", _("Test"))],
        coerce=lambda v: v == "1",
        initial="1",
        widget=forms.RadioSelect,
        help_text=_("Test tables count for nothing and have no move timer."),
    )
    private = forms.TypedChoiceField(
        label=_("Visibility"),
        choices=[("0", _("Public")), ("1", _("Private"))],
        coerce=lambda v: v == "1",
        initial="0",
        widget=forms.RadioSelect,
        help_text=_("A private table is reached by its invite link only."),
    )
    level = forms.ChoiceField(
        label=_("Level"), choices=LEVEL_CHOICES, initial=portal.DEFAULT_LEVEL,
        widget=forms.RadioSelect,
    )  # fmt: skip
    bots_allowed = forms.BooleanField(
        label=_("Bots may fill empty seats"), required=False, initial=True
    )
    watchers_allowed = forms.BooleanField(label=_("Watchers allowed"), required=False)

    def __init__(self, card=None, *args, **kwargs):
        """``card``: the game's ``lobby.games.GameCard`` (None: the posted game is not
        one that can be chosen, and the form says so)."""
        super().__init__(*args, **kwargs)
        self.card = card
        self.fields["game"].choices = [(card.key, card.name)] if card and card.playable else []
        if card is not None:
            self.fields["game"].initial = card.key
        if card is not None and card.playable and not card.practice_tables:
            del self.fields["rated"]  # P-3 narrowed (Kelimeki, W-X5): every table is rated
        if card is not None and card.move_time_choice:
            self.fields["move_seconds"] = forms.TypedChoiceField(
                label=_("Move time"),
                choices=[(s, _("%(n)s s") % {"n": s}) for s in portal.MOVE_SECONDS_CHOICES],
                coerce=int,
                required=False,
                empty_value=None,
                initial=card.default_move_seconds,
                help_text=_("Rated tables only."),
            )
        if card is not None and card.partners:
            self.fields["partners"] = forms.BooleanField(
                label=_("Partners (seats 1 and 3 against 2 and 4)"), required=False
            )
        if card is not None and card.seats_choice:
            self.fields["seat_count"] = forms.TypedChoiceField(
                label=_("Players"),
                choices=[(n, str(n)) for n in card.seat_counts],
                coerce=int,
                initial=max(card.seat_counts),
                widget=forms.RadioSelect,
            )

    def clean(self):
        cleaned = super().clean()
        if self.card is None or not self.card.playable:
            return cleaned
        raw = {k[len(OPTION_PREFIX):]: v for k, v in self.data.items()
               if k.startswith(OPTION_PREFIX)}  # fmt: skip
        if len(raw) > MAX_OPTIONS or any(
            len(k) > MAX_OPTION_LENGTH or len(v) > MAX_OPTION_LENGTH for k, v in raw.items()
        ):
            raise forms.ValidationError(message_for("bad_options"), code="bad_options")
        options = {k: _option_value(v) for k, v in raw.items()}
        try:
            cleaned["options"] = registry.get(self.card.key).clean_options(options)
        except InputError:
            raise forms.ValidationError(message_for("bad_options"), code="bad_options") from None
        if "rated" not in self.fields:
            cleaned["rated"] = True
        if not cleaned.get("rated"):
            cleaned["move_seconds"] = None  # P-3: a test table has no move timer
        seats = cleaned.get("seat_count") or max(self.card.seat_counts)
        if cleaned.get("partners") and seats != 4:  # P-8: 0+2 against 1+3
            raise forms.ValidationError(message_for("no_partners"), code="no_partners")
        return cleaned

    def table_kwargs(self) -> dict:
        """The keyword arguments of ``lobby.services.table_create`` (host and game aside)."""
        data = self.cleaned_data
        return {
            "options": data["options"],
            "level": data["level"],
            "move_seconds": data.get("move_seconds"),
            "partners": bool(data.get("partners")),
            "seat_count": data.get("seat_count"),
            "rated": data["rated"],
            "private": data["private"],
            "bots_allowed": data["bots_allowed"],
            "watchers_allowed": data["watchers_allowed"],
        }
