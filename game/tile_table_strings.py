"""The words the two okey-tile tables share (KDVli: ``kdvli_table``, Kastet:
``kastet_table``): tiles, seats, the clock, the deck, the final table and the socket's
states.  Each table's tag adds its own words to these."""

from __future__ import annotations

from django.utils.translation import gettext as _

from game.messages import MESSAGES


def tile_table_errors(own: dict) -> dict:
    """The platform's messages, the tile tables' shared codes and the game's ``own``."""
    return {
        **{code: str(text) for code, text in MESSAGES.items()},
        "bad_layout": _("That rack layout does not hold exactly your tiles."),
        "match_over": _("The match is over."),
        **own,
    }


def tile_table_strings() -> dict:
    """The shared words, in the request's language."""
    return {
        "match_over": _("The match is over"),
        "colours": {"R": _("red"), "Y": _("yellow"), "B": _("blue"), "K": _("black")},
        "tile": _("{colour} {number}"),
        "okey": _("okey"),
        "okey_as": _("okey, standing for {tile}"),
        "fake_okey": _("fake okey"),
        "fake_okey_as": _("fake okey, counts as {tile}"),
        "empty_cell": _("empty cell {n}"),
        "rack": _("Your rack"),
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
        "seat_card": _("{name}: {tiles}, {status}"),
        "turn_of": _("{name}'s turn"),
        "your_turn": _("Your turn"),
        "seconds_left": _("{n} s"),
        "hand_of": _("Hand {n}/{total}"),
        "deck": _("Deck: {n} tiles"),
        "draw": _("Draw a tile from the deck"),
        "indicator": _("Indicator"),
        "okey_is": _("Okey: {tile}"),
        "hand_over": _("Hand {n} is over"),
        "col_player": _("Player"),
        "col_hand": _("Hand"),
        "col_total": _("Total"),
        "next_hand_in": _("The next hand starts in {n} s."),
        "next_hand_soon": _("The next hand is starting…"),
        "winner": _("Winner: {names}"),
        "winners": _("Winners (shared): {names}"),
        "team": _("Team {a} + {b}: {n}"),
        "lowest_wins": _("The lowest total wins."),
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
    }
