"""The words of KDVli Okey's table (templates/game/kdvli/table.html), in the request's
language: ``{% kdvli_strings as strings %}{{ strings|json_script:"kv-strings" }}`` — the
script (static/js/kdvli/table.js) never holds a word of its own."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from game.messages import MESSAGES

register = template.Library()


def _errors() -> dict:
    """The platform's messages, with KDVli's own codes (game/engine/kdvli/hand.py)."""
    own = {
        "first_turn_no_take": _("The starter takes no tile on the first turn: discard or finish."),
        "no_indicator_tile": _("You do not hold the other copy of the indicator."),
        "not_first_turn": _("The indicator can be shown only on your first turn."),
        "indicator_after_take": _("Show the indicator before you take a tile."),
        "already_shown": _("You have already shown the indicator."),
        "finish_mismatch": _("Your groups and the finishing tile are not exactly your rack."),
        "invalid_finish": _(
            "To finish, set the other 14 tiles apart as runs and sets, or as exactly seven pairs."
        ),
        "bad_layout": _("That rack layout does not hold exactly your tiles."),
        "hand_not_over": _("The hand is still being played."),
        "match_over": _("The match is over."),
    }
    return {**{code: str(text) for code, text in MESSAGES.items()}, **own}


@register.simple_tag
def kdvli_strings() -> dict:
    return {
        "colours": {"R": _("red"), "Y": _("yellow"), "B": _("blue"), "K": _("black")},
        "tile": _("{colour} {number}"),
        "okey": _("okey"),
        "okey_as": _("okey, standing for {tile}"),
        "fake_okey": _("fake okey"),
        "fake_okey_as": _("fake okey, counts as {tile}"),
        "empty_cell": _("empty cell {n}"),
        "separator": _("separator between cells {a} and {b}"),
        "rack": _("Your rack"),
        "selected": _("Selected: {tile}. Choose a cell, your discard area or the indicator."),
        "levels": {"easy": _("easy"), "normal": _("normal"), "hard": _("hard")},
        "bot_name": _("Bot {n} ({level})"),
        "you": _("you"),
        "tiles_count": _("{n} tiles"),
        "total": _("Total {n}"),
        "online": _("online"),
        "offline": _("offline"),
        "away": _("away"),
        "left": _("left the match"),
        "bot": _("bot"),
        "shown": _("showed the indicator"),
        "seat_card": _("{name}: {tiles}, {status}"),
        "turn_of": _("{name}'s turn"),
        "your_turn": _("Your turn"),
        "your_turn_take": _("Your turn: take a tile from the deck or the one thrown to you."),
        "your_turn_first": _("Your turn: you start with 15 tiles — discard one, or finish."),
        "your_turn_play": _("Discard a tile, or finish by dropping it on the indicator."),
        "seconds_left": _("{n} s"),
        "move_time": _("Move time"),
        "hand_of": _("Hand {n}/{total}"),
        "deck": _("Deck: {n} tiles"),
        "draw": _("Draw a tile from the deck"),
        "deck_empty": _("The deck is empty"),
        "indicator": _("Indicator"),
        "okey_is": _("Okey: {tile}"),
        "finish_here": _("Drop your finishing tile on the indicator"),
        "pile_of": _("Discards of {name}"),
        "pile_empty": _("No discards yet"),
        "take_thrown": _("Take the tile thrown to you: {tile}"),
        "your_pile": _("Your discard area"),
        "discard_here": _("Discard the selected tile here"),
        "finish_pick": _("Pick your finishing tile first (tap it), then press Finish."),
        "hand_over": _("Hand {n} is over"),
        "finished_by": _("{name} finished."),
        "void_hand": _(
            "The deck ran out and nobody finished: the hand is void and is dealt again."
        ),
        "kind_runs": _("on runs and sets"),
        "kind_pairs": _("on pairs"),
        "multiplier": _("Multiplier ×{n}"),
        "finish_tile": _("finishing tile"),
        "left_out": _("left out"),
        "counted_runs": _("counted on runs"),
        "counted_pairs": _("counted on pairs (×2)"),
        "points": _("{n} points"),
        "col_player": _("Player"),
        "col_points": _("Points"),
        "col_bonus": _("Indicator"),
        "col_hand": _("Hand"),
        "col_total": _("Total"),
        "next_hand_in": _("The next hand starts in {n} s."),
        "next_hand_soon": _("The next hand is starting…"),
        "match_over": _("The match is over"),
        "winner": _("Winner: {names}"),
        "winners": _("Winners (shared): {names}"),
        "team": _("Team {a} + {b}: {n}"),
        "lowest_wins": _("The lowest total wins."),
        "my_points": _("Your points now: {n}"),
        "my_points_wait": _("Your points are shown after your discard."),
        "verify_shuffle": _("Verify this hand's shuffle"),
        "verify_url": reverse("game:verify"),
        "closed": _("This table was closed."),
        "connecting": _("Connecting to the table…"),
        "reconnecting": _("Connection lost; reconnecting…"),
        "cannot_join": _("You cannot join this table."),
        "kicked": _("This table was opened somewhere else."),
        "replaced_status": _("Open in another tab."),
        "play_here": _("Play here"),
        "away_note": _("Your time ran out twice in a row, so a bot is playing your seat."),
        "back": _("I'm back"),
        "dismiss": _("Close"),
        "errors": _errors(),
    }
