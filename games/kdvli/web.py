"""KDVli Okey's web side (issue 28): its table and its words, in the request's language (the
table's script, games/kdvli/static/kdvli/table.js, never holds a word of its own)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from game.web import GameWeb
from games.okey.strings import (
    okey_errors,
    okey_replay_strings,
    tile_deal_description,
    tile_table_errors,
    tile_table_strings,
)


def _own_errors() -> dict:
    """The okey family's shared rule codes, with KDVli's own codes (games/kdvli/engine/hand.py)."""
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
        "hand_not_over": _("The hand is still being played."),
    }
    return {**okey_errors(), **own}


def _errors() -> dict:
    return tile_table_errors(_own_errors())


def kdvli_strings() -> dict:
    return {
        **tile_table_strings(),
        "separator": _("separator between cells {a} and {b}"),
        "selected": _("Selected: {tile}. Choose a cell, your discard area or the indicator."),
        "shown": _("showed the indicator"),
        "your_turn_take": _("Your turn: take a tile from the deck or the one thrown to you."),
        "your_turn_first": _("Your turn: you start with 15 tiles — discard one, or finish."),
        "your_turn_play": _("Discard a tile, or finish by dropping it on the indicator."),
        "move_time": _("Move time"),
        "deck_empty": _("The deck is empty"),
        "finish_here": _("Drop your finishing tile on the indicator"),
        "pile_of": _("Discards of {name}"),
        "pile_empty": _("No discards yet"),
        "take_thrown": _("Take the tile thrown to you: {tile}"),
        "your_pile": _("Your discard area"),
        "discard_here": _("Discard the selected tile here"),
        "finish_pick": _("Pick your finishing tile first (tap it), then press Finish."),
        "finished_by": _("{name} finished."),
        "void_hand": _(
            "The deck ran out and nobody finished: the hand is void and is dealt again."
        ),
        "kind_runs": _("on runs and sets"),
        "kind_pairs": _("on pairs"),
        "multiplier": _("Multiplier ×{n}"),
        "finish_tile": _("finishing tile"),
        # V-F1, issue 29: the rack marks the tiles that can finish now (not by colour alone)
        "can_finish_with": _("{tile} — you can finish with this tile"),
        "finish_mark": _("Finish"),
        # V-N6, issue 29: what the timer played for the player, once per timeout
        "timed_out_drew": _(
            "Your time ran out: a tile was drawn from the centre for you and {tile} was discarded."
        ),
        "timed_out_took": _(
            "Your time ran out: the tile thrown to you was taken for you and {tile} was discarded."
        ),
        "timed_out": _("Your time ran out: {tile} was discarded for you."),
        "left_out": _("left out"),
        "counted_runs": _("counted on runs"),
        "counted_pairs": _("counted on pairs (×2)"),
        "points": _("{n} points"),
        "col_points": _("Points"),
        "col_bonus": _("Indicator"),
        # V-M1, P-8: partners (seats 0 + 2 against 1 + 3) shown all through the match
        "partner": _("Partner: {name}"),
        "team_badge": _("Team {t}"),
        "team_total": _("Team total {n}"),
        "team_line": _("{a} + {b}: {n}"),
        "individual": _("Individual"),
        "mode": _("Match type"),
        "my_points": _("Your points now: {n}"),
        "my_points_wait": _("Your points are shown after your discard."),
        "verify_shuffle": _("Verify this hand's shuffle"),
        "verify_url": reverse("game:verify"),
        "errors": _errors(),
    }


def finish_text(detail: dict) -> str:
    """How a hand was finished, in KDVli's words (V-F2, V-S1): "pairs finish, ×4"."""
    kind, multiplier = detail.get("kind"), detail.get("multiplier")
    if kind not in ("runs", "pairs") or not multiplier:
        return ""
    text = _("pairs finish") if kind == "pairs" else _("runs finish")
    return _("{finish}, ×{m}").format(finish=text, m=multiplier)


class KdvliWeb(GameWeb):
    table_template = "kdvli/table.html"
    replay_template = "okey/replay.html"  # the okey family's replay page
    guide_templates = {"tr": "kdvli/guide_tr.html", "en": "kdvli/guide_en.html"}
    from games.kdvli.analysis_words import analysis_move_text  # issue 31: the analysis's words

    def table_strings(self, match, user) -> dict:
        return kdvli_strings()

    def replay_strings(self) -> dict:
        return okey_replay_strings()

    def error_messages(self) -> dict:
        return _own_errors()

    def deal_description(self, order: list[str]) -> tuple[str, str] | None:
        return tile_deal_description(order)  # P-2 (K-D1, V-D1)

    def replay_context(self, match) -> dict:
        return {"groups": False}

    def hand_label(self, match, detail: dict) -> str:
        return finish_text(detail or {})  # V-F2, V-S1

    def record_context(self, match, record: dict) -> dict:
        """Each hand's finisher and each seat's points and indicator bonus (V-S2…V-S3,
        V-I2) as the platform record's own columns, from the hand's stored detail
        (games/kdvli/engine/match.py record).  A void hand (V-E2) writes nothing and is
        not listed."""
        names = record["names"]
        hands = []
        for hand in record["hands"]:
            detail = hand["detail"]
            finisher = detail.get("finisher")
            points, bonuses = detail.get("points") or [], detail.get("bonuses") or []
            rows = []
            for row in hand["rows"]:
                seat = row["seat"]
                mine = {"finisher": finisher == seat,
                        "points": points[seat] if seat < len(points) else None,
                        "bonus": bonuses[seat] if seat < len(bonuses) else 0}  # fmt: skip
                shown = (_("finished") if mine["finisher"]
                         else "·" if mine["points"] is None else mine["points"])  # fmt: skip
                mine["cells"] = [{"text": shown, "cls": "points"},
                                 {"text": mine["bonus"] or "·", "cls": "bonus"}]  # fmt: skip
                rows.append({**row, **mine})
            note = ""  # the record's words ("… eli bitirdi."), not the table's
            if finisher is not None:
                note = _("%(name)s finished.") % {"name": names[finisher]}
            hands.append({**hand, "rows": rows, "note": note})
        return {"record_heads": [_("Points"), _("Indicator")], "record_hands": hands}

    def ranking_text(self) -> str:
        return _(
            "KDVli rating: everyone starts at 1500; rated matches only. With N hands: 1st +N, "
            "2nd +N/2, 3rd −N/2, 4th −N, the lowest total first (partners: the lower team +N "
            "each, the other −N). "
            "Leaving costs 2N at once."
        )

    def options_text(self, options: dict) -> str:
        hands = (options or {}).get("hands")
        return ngettext("%(n)d hand", "%(n)d hands", hands) % {"n": hands} if hands else ""


WEB = KdvliWeb("kdvli")
