"""Provably fair shuffles, checked by the player: the "verify" page.

When a hand starts every seat's view carries ``fair.commitment`` =
SHA-256("kut-deal-v1|" + salt + "|" + the dealt order, faces joined by commas)
(``game.engine.fair.commitment``); when the hand is over the view adds ``fair.salt`` and
``fair.order``.  ``/verify/?commitment=…&salt=…&order=R7,K3,…`` recomputes the hash
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

from games.okey.engine.tiles import NUM_TILES

_HEX64 = re.compile(r"[0-9a-fA-F]{64}")
_SALT = re.compile(r"[0-9a-fA-F]{1,128}")
_FACE = re.compile(r"(?:[RYBK](?:1[0-3]|[1-9])|F)")
_SECRET = re.compile(r"#[0-9a-f]{1,32}")


def _letter_order(tiles: list[str]) -> bool:
    """Kelimeki's committed order (``games.kelimeki.engine.fair_order``): its 100 letter
    tiles (``*`` a joker), then ``#`` + the exchanges' secret in hex."""
    from games.kelimeki.engine.alphabet import COUNTS

    return (len(tiles) == sum(COUNTS.values()) + 1 and _SECRET.fullmatch(tiles[-1]) is not None
            and all(t in COUNTS for t in tiles[:-1]))  # fmt: skip


def _card_order(cards: list[str]) -> bool:
    """King's committed deal (``games.king.engine.match.deal_order``): the 52 cards, each
    seat's 13 in seat order (G-C2 notation, each card once)."""
    from games.king.engine.cards import NAMES

    return len(cards) == len(NAMES) and set(cards) == set(NAMES)


def order_kind(order: list[str]) -> str:
    """What a valid order is the deal of: ``letters`` (Kelimeki's bag), ``cards``
    (King) or ``tiles`` (the okey games)."""
    return "letters" if _letter_order(order) else "cards" if _card_order(order) else "tiles"


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
        max_length=NUM_TILES * 6,  # room for spaces after the commas (Kelimeki's fits too)
        help_text=_(
            "The tiles separated by commas, e.g. R7,K13,F,…: the indicator, each "
            "seat's rack in seat order, then the deck from the top."
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
        tiles = [t.strip() for t in self.cleaned_data["order"].split(",")]
        if _letter_order(tiles) or _card_order(tiles):  # Kelimeki's bag, King's deal (P-2)
            return tiles
        if len(tiles) != NUM_TILES or not all(_FACE.fullmatch(t) for t in tiles):
            raise forms.ValidationError(
                _(
                    "The order lists all %(n)d tiles, each like R7, K13 or F (or a King "
                    "deal's 52 cards, each like AS, TH or 2D), separated by commas."
                )
                % {"n": NUM_TILES}  # fmt: skip
            )
        return tiles


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
            "kind": order_kind(form.cleaned_data["order"]),
        }
    return render(request, "game/verify.html", {"form": form, "check": check},
                  status=400 if asked and check is None else 200)  # fmt: skip
