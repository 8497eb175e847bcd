"""The words the okey family's pages share: the tile tables' (KDVli Okey's and Kastet's:
tiles, seats, the clock, the deck, the final table and the socket's states; each game's
``web.py`` adds its own) and the shared replay page's (KÜT, KDVli Okey, Kastet)."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from game.messages import MESSAGES
from games.okey.engine.tiles import NUM_TILES


def okey_errors() -> dict:
    """The rule codes the okey family's engines share (taking, the rack, the deck)."""
    return {
        "already_taken": _("You have already taken a tile this turn."),
        "must_take_first": _("Take a tile first."),
        "no_thrown_tile": _("No tile has been thrown to you."),
        "deck_empty": _("The deck is empty."),
        "tile_not_in_rack": _("That tile is not in your rack."),
        "nothing_to_undo": _("There is no move to undo."),
        "bad_layout": _("That rack layout does not hold exactly your tiles."),
        "match_over": _("The match is over."),
    }


def tile_table_errors(own: dict) -> dict:
    """The platform's messages, the okey family's shared codes and the game's ``own``
    (what the table's script shows for an error code)."""
    return {**{code: str(text) for code, text in MESSAGES.items()}, **okey_errors(), **own}


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
        "replaced_note": _("This table is open in another tab."),
        "away_note": _("Your time ran out twice in a row, so a bot is playing your seat."),
        "back": _("I'm back"),
        "dismiss": _("Close"),
    }


def okey_replay_strings() -> dict:
    """Every text the okey family's replay page shows (games/okey/templates/okey/replay.html,
    games/okey/static/okey/replay.js: KÜT, KDVli Okey, Kastet), in the request's language."""
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


_FACE = re.compile(r"(?:[RYBK](?:1[0-3]|[1-9])|F)")


def tile_deal_description(order: list[str]) -> tuple[str, str] | None:
    """P-2: an okey deal's committed order — all 106 tiles in K-T2 notation, the
    indicator first, each seat's rack in seat order, then the deck from the top."""
    if len(order) != NUM_TILES or not all(_FACE.fullmatch(t) for t in order):
        return None
    count = ngettext("%(n)d tile", "%(n)d tiles", len(order)) % {"n": len(order)}
    return _("Tiles"), f"{count} · {_('indicator')} {order[0]}"
