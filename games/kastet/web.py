"""Kastet's web side (issue 28): its table and its words, in the request's language (the
table's script, games/kastet/static/kastet/table.js, never holds a word of its own)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from game.web import GameWeb
from games.okey.strings import (
    okey_errors,
    okey_replay_strings,
    tile_table_errors,
    tile_table_strings,
)


def _own_errors() -> dict:
    """The okey family's shared rule codes, with Kastet's own codes (games/kastet/engine/rules.py)."""
    own = {
        "already_laid": _("You have laid this turn: press Pass."),
        "rack_full": _("A rack holds at most 22 tiles: lay or press Pass."),
        "deck_empty": _("The deck is empty: lay or press Pass."),
        "must_lay_or_draw": _(
            "Lay or draw a tile: you may pass without laying only when you cannot draw."
        ),
        "too_many_groups": _("The run area has 26 slots."),
        "invalid_group": _("Every group on the table must be a valid run or set."),
        "table_tile_missing": _("Every tile of the table must stay on the table."),
        "tiles_not_in_rack": _("Those tiles are not in your rack."),
        "nothing_laid": _("Lay at least one tile from your rack."),
        "pairs_need_26_groups": _("Pairs can be laid only when all 26 slots are full."),
        "invalid_pair": _("That is not a valid pair."),
        "nothing_to_undo": _("There is nothing to undo this turn."),
        "unknown_tile": _("There is no such tile."),
    }
    return {**okey_errors(), **own}


def _errors() -> dict:
    return tile_table_errors(_own_errors())


def kastet_strings() -> dict:
    return {
        **tile_table_strings(),
        "your_turn_lay": _("Your turn: lay tiles (then Open and Pass) or draw a tile."),
        "your_turn_laid": _("Your lay stands: lay more, undo it, or press Pass."),
        "your_turn_full": _("Your rack is full or the deck is empty: lay or press Pass."),
        "draft_dirty": _("Your draft is not sent yet: press Open to lay it."),
        "draft_invalid": _("Fix the groups marked in red before you open."),
        "selected": _("Selected: {tile}. Choose a group, an empty slot or your rack."),
        "deck_empty_label": _("The deck is empty"),
        "run_area": _("Run area"),
        "slots_used": _("{n}/{total} slots"),
        "pair_area": _("Pair area"),
        "pairs_closed": _("Pairs open when all 26 slots are full."),
        "new_group": _("New group"),
        "new_pair": _("New pair"),
        "group_label": _("Group {n}: {tiles}"),
        "group_invalid": _("not valid"),
        "insert_before": _("Put the selected tile before {tile}"),
        "append_to": _("Put the selected tile at the end of group {n}"),
        "table_tile_stays": _("A tile on the table cannot go back to a rack."),
        "pairs_frozen": _("Pairs never move again."),
        "pairs_need_26": _("Pairs can be laid only when all 26 slots are full."),
        "pair_rack_only": _("A new pair is made of tiles from your rack."),
        "finished_by": _("{name} finished (−50)."),
        "blocked": _("Nobody could move: the hand is blocked."),
        "left_in_rack": _("Tiles left"),
        "rating_change": _("Rating {n}"),
        "errors": _errors(),
    }


class KastetWeb(GameWeb):
    table_template = "kastet/table.html"
    replay_template = "okey/replay.html"  # the okey family's replay page
    from games.kastet.analysis_words import analysis_move_text  # issue 31: the analysis's words

    def table_strings(self, match, user) -> dict:
        return kastet_strings()

    def replay_strings(self) -> dict:
        return okey_replay_strings()

    def error_messages(self) -> dict:
        return _own_errors()

    def replay_context(self, match) -> dict:
        return {"groups": True}

    def ranking_text(self) -> str:
        return _(
            "Kastet rating: everyone starts at 1500; rated matches only. With H hands: 1st "
            "+2H, 2nd +2×(H/2), 3rd −H/2, 4th −H, the lowest total first; no gain with a "
            "total over 50 per hand. "
            "Leaving costs 2H at once."
        )

    def options_text(self, options: dict) -> str:
        hands = (options or {}).get("hands")
        return ngettext("%(n)d hand", "%(n)d hands", hands) % {"n": hands} if hands else ""


WEB = KastetWeb("kastet")
