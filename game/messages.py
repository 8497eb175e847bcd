"""Short player-facing messages for engine and service error codes.

English msgids; the Turkish catalogue (the default language) translates each one."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

MESSAGES = {
    "bad_action": _("That move could not be understood."),
    "unknown_action": _("There is no such move."),
    "left": _("You left this match; a bot plays your seat."),
    "too_many_sockets": _("You have too many tables open. Close one and try again."),
    "bad_seat": _("There is no such seat."),
    "hand_over": _("The hand is over."),
    "not_your_turn": _("It is not your turn."),
    "already_taken": _("You have already taken a tile this turn."),
    "must_take_first": _("Take a tile first."),
    "first_turn_no_take": _(
        "No tile is taken on the first turn: open your task if it is ready, then discard."
    ),
    "must_draw": _("This turn you must draw from the centre."),
    "no_thrown_tile": _("No tile has been thrown to you."),
    "deck_empty": _("The deck is empty."),
    "claim_not_open": _("There is no tile to claim right now."),
    "claim_own_turn": _("You cannot claim the thrown tile on your own turn."),
    "own_discard": _("You cannot claim your own discard."),
    "too_many_tiles": _("To claim, your rack may hold at most 29 tiles."),
    "tile_not_in_rack": _("That tile is not in your rack."),
    "already_opened": _("You have already opened this hand."),
    "not_opened": _("Open your task first."),
    "opened_this_turn": _("In the turn you open you cannot lay off or open new groups."),
    "task_mismatch": _(
        "Your arrangement does not match the task. Set your groups apart with separators."
    ),
    "invalid_group": _("That is not a valid run, küt or pair."),
    "finish_incomplete": _(
        "To finish from hand, every tile but the one you discard must be in runs or küts."
    ),
    "no_opening_in_finish": _("Nobody opens in this hand; you must finish from hand."),
    "rack_would_be_empty": _("Always keep one tile to discard."),
    "no_such_group": _("There is no such group on the table."),
    "cannot_lay_off": _("That tile cannot be laid off on that group."),
    "end_required": _("Choose which end of the run gets the okey."),
    "lay_off_limit": _("At most two tiles can be added to each end of a run per turn."),
    "pair_cannot_grow": _("A pair cannot grow; only the okey exchange is allowed."),
    "pairs_not_allowed": _(
        "New pairs can be opened only in the pairs hand, by a player who opened with pairs."
    ),
    "nothing_to_lay_off": _("There is no tile to lay off."),
    "no_groups": _("There are no ready groups on your rack."),
    "nothing_to_undo": _("There is no move to undo."),
    "bad_layout": _("That rack layout is not valid."),
    "not_seated": _("You are not seated at this table."),
    "stale_version": _("The table changed; here is the current state."),
    "match_not_running": _("The match is not being played right now."),
    "no_such_match": _("There is no such match."),
    "bad_json": _("The message could not be read."),
    "too_large": _("The message is too large."),
    "rate_limited": _("You are sending too fast; slow down a little."),
    "unknown_message": _("Unknown message type."),
    "watcher": _("Watchers cannot make moves."),
    "server_error": _("Something went wrong; your move was not applied."),
    "replaced": _("You opened this table in another tab; this one is closed."),
    "banned": _("Your account is suspended."),
    "not_away": _("You are already playing your seat."),
    # P-12: taking a seat that was left
    "already_in_match": _("You already played in this match; you cannot take another seat."),
    "seat_not_vacant": _("That seat is not free."),
    "seat_requested": _("Someone else has already asked for that seat."),
    "not_host": _("Only the host can do that."),
    "no_request": _("Nobody is asking for that seat any more."),
    # issue 27: the seat gate (game.seat_gate) at the host's Devam
    "newcomer_refused": _(
        "That player cannot take a seat now: their account is suspended or they are "
        "barred from rated tables. Decline the request."
    ),
}


def message_for(code: str) -> str:
    return str(MESSAGES.get(code, MESSAGES["bad_action"]))
