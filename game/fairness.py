"""Provably fair shuffles, checked by the player: the "verify" page.

When a hand starts every seat's view carries ``fair.commitment`` =
SHA-256("kut-deal-v1|" + salt + "|" + the dealt order, faces joined by commas)
(``game.engine.fair.commitment``); when the hand is over the view adds ``fair.salt`` and
``fair.order``.  Which game's deal an order is, and how to describe it, each game's web
side says (``deal_description``).  ``/verify/?commitment=…&salt=…&order=R7,K3,…`` recomputes the hash
**in the browser** (``static/js/verify.js``, ``crypto.subtle.digest``), so nobody has
to take the server's word for it: if it equals the commitment, the deal was fixed
before the first move and not changed afterwards.  The server only checks the shape of
the values; it never says whether they match.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from game.engine import registry
from game.web import web

_HEX64 = re.compile(r"[0-9a-fA-F]{64}")
_SALT = re.compile(r"[0-9a-fA-F]{1,128}")
MAX_ORDER = 2000  # characters: the longest dealt order of any game, with room for spaces


def describe(order: list[str]) -> tuple[str, str] | None:
    """What ``order`` is the dealt order of, as the verify page says it (a label and a
    line), asking each registered game's web side (``deal_description``); None when it is
    no game's."""
    for key in registry.GAMES:
        try:
            found = web(key).deal_description(order)
        except ImportError:
            continue
        if found is not None:
            return found
    return None


def verify_url(fair: dict) -> str:
    """The verify page for a hand view's ``fair`` (after the hand: with salt and order)."""
    query = {"commitment": fair.get("commitment", "")}
    if fair.get("salt") is not None:
        query["salt"] = fair["salt"]
        query["order"] = ",".join(fair.get("order") or [])
    return reverse("game:verify") + "?" + urlencode(query)


class VerifyForm(forms.Form):
    commitment = forms.CharField(
        label=_("Commitment (published when the hand started)"),
        max_length=64,
        error_messages={"required": _("Enter the commitment.")},
        widget=forms.TextInput(attrs={"spellcheck": "false", "autocomplete": "off"}),
    )
    salt = forms.CharField(
        label=_("Salt (revealed after the hand)"),
        max_length=128,
        error_messages={"required": _("Enter the salt.")},
        widget=forms.TextInput(attrs={"spellcheck": "false", "autocomplete": "off"}),
    )
    order = forms.CharField(
        label=_("Dealt order (revealed after the hand)"),
        max_length=MAX_ORDER,
        help_text=_(
            "The tiles, cards or letters separated by commas, exactly as the finished "
            "hand's link gives them."
        ),  # fmt: skip
        error_messages={"required": _("Enter the dealt order.")},
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}),
    )

    def clean_commitment(self) -> str:
        value = self.cleaned_data["commitment"].strip()
        if not _HEX64.fullmatch(value):
            raise forms.ValidationError(_("A commitment is 64 hexadecimal characters."))
        return value.lower()

    def clean_salt(self) -> str:
        value = self.cleaned_data["salt"].strip()
        if not _SALT.fullmatch(value):
            raise forms.ValidationError(_("A salt is made of hexadecimal characters."))
        return value.lower()

    def clean_order(self) -> list[str]:
        order = [t.strip() for t in self.cleaned_data["order"].split(",")]
        if describe(order) is None:
            raise forms.ValidationError(
                _("This is not the dealt order of a hand of any game here: copy it from "
                  "the finished hand's link.")
            )  # fmt: skip
        return order


@require_GET
def verify(request: HttpRequest) -> HttpResponse:
    """The check page; filled in from the query string (a link from a finished hand)."""
    asked = any(k in request.GET for k in ("commitment", "salt", "order"))
    form = VerifyForm(request.GET if asked else None)
    check = None
    if asked and form.is_valid():
        check = {
            "commitment": form.cleaned_data["commitment"],
            "salt": form.cleaned_data["salt"],
            "order": form.cleaned_data["order"],
            "about": describe(form.cleaned_data["order"]),
        }
    return render(request, "game/verify.html", {"form": form, "check": check},
                  status=400 if asked and check is None else 200)  # fmt: skip
