"""Short player-facing messages for the platform's error codes (the socket, the services,
seats) and the few rule codes every game shares (not your turn, the hand is over).

A game's own rule codes are its web side's (``GameWeb.error_messages``): ``message_for``
asks the match's game first.  English msgids; the Turkish catalogue (the default
language) translates each one."""

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


def message_for(code: str, game: str | None = None) -> str:
    """The player's message for ``code``: the game's own (when ``game`` is given and has
    one), else the platform's, else "that move could not be understood"."""
    if game is not None:
        from game.web import web

        try:
            own = web(game).error_messages().get(code)
        except KeyError:
            own = None
        if own is not None:
            return str(own)
    return str(MESSAGES.get(code, MESSAGES["bad_action"]))
