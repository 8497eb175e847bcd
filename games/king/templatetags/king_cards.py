"""``{% load king_cards %}{% cards "AS KH 2C" %}``: King's cards drawn as the table draws
them (games/king/static/king/table.js ``cardHtml``, styled by king/table.css), for the
rules guide's worked examples.  Each card is G-C2 notation; its name is read out (the
table's words), the rank and suit symbol are always shown (colour is never the only cue).
A card followed by ``*`` is marked as the trick's winner."""

from __future__ import annotations

from django import template
from django.utils.html import format_html, format_html_join

from games.king.engine.cards import card as parse_card
from games.king.web import SUIT_SYMBOL, king_strings

register = template.Library()


def _card(spec: str, strings: dict):
    winner = spec.endswith("*")
    code = spec.rstrip("*")
    parse_card(code)  # a typo in a guide fails loudly (NotationError)
    rank, suit = code[0], code[1]
    label = strings["card"].format(rank=strings["ranks"][rank], suit=strings["suits"][suit])
    extra = " kg-win" if winner else ""
    return format_html(
        '<span class="kg-card suit-{}{}" role="img" aria-label="{}"><span class="kg-rank" '
        'aria-hidden="true">{}</span><span class="kg-suit" aria-hidden="true">{}</span>'
        '<span class="kg-pip" aria-hidden="true">{}</span></span>',
        suit, extra, label, "10" if rank == "T" else rank, SUIT_SYMBOL[suit], SUIT_SYMBOL[suit],
    )  # fmt: skip


@register.simple_tag
def cards(specs: str, size: str = ""):
    strings = king_strings()
    inner = format_html_join("", "{}", ((_card(s, strings),) for s in specs.split()))
    return format_html('<span class="kg-cards{}" role="group">{}</span>',
                       " kg-cards-small" if size == "small" else "", inner)  # fmt: skip
