"""Player-facing messages for lobby error codes (English msgids, Turkish by default)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

MESSAGES = {
    "banned": _("Your account is suspended; you cannot sit at a table."),
    "no_such_table": _("There is no such table."),
    "table_full": _("This table is full."),
    "seat_taken": _("That seat is already taken."),
    "bad_seat": _("There is no such seat."),
    "seated_elsewhere": _(
        "You are already sitting at another open table. Leave it first to join this one."
    ),
    "table_started": _("The match at this table has already started."),
    "table_closed": _("This table has been closed."),
    "private_table": _("This table is private: you can join it only with an invite link."),
    "not_host": _("Only the host of the table can do that."),
    "not_seated": _("You are not sitting at this table."),
    "bots_not_allowed": _("Bots are not allowed at this table."),
    "bad_bot_level": _("There is no such bot level."),
    "not_a_bot": _("There is no bot in that seat."),
    "seat_not_empty": _("That seat is not empty."),
    "not_full": _("All four seats must be filled before the match can start."),
    "bad_game": _("That game cannot be played here yet."),
    "bot_games": "%(text)s",  # the limits' own message (game.limits), translated there
    "bad_options": _("Choose one of the offered options for this game."),
    "bad_level": _("Choose a level: Beginner, Intermediate or Expert."),
    "bad_seat_count": _("This game cannot be played by that many players."),
    "no_partners": _("This game cannot be played in partners (or not by this many players)."),
    "bad_move_seconds": _("The move time is 30 to 300 seconds, in steps of 15 seconds."),
    "leaver_barred": _(
        "You left too many rated matches recently. You can join rated tables again after "
        "%(until)s; test tables are open to you."
    ),
    "invite_invalid": _("This invite link is not valid."),
    "invite_expired": _("This invite link has expired. Ask the host for a new one."),
    "invite_revoked": _("The host has withdrawn this invite link. Ask for a new one."),
    "start_failed": _("The match could not be started. Please try again."),
}


def message_for(code: str, **params) -> str:
    text = str(MESSAGES.get(code, MESSAGES["no_such_table"]))
    return text % params if params else text
