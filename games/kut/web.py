"""KÜT's web side (issue 28): what the platform shows of it — its table, its words, its
tasks' wording on the record and the replay (K-M3), the rematch and the invite."""

from __future__ import annotations

from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from game.web import GameWeb
from games.kut.engine.tasks import TASK_LISTS, is_finish, is_pairs
from games.okey.engine.groups import KUT, PAIR, RUN
from games.okey.strings import (
    okey_errors,
    okey_replay_strings,
    tile_deal_description,
    tile_table_errors,
    tile_table_strings,
)


def task_text(task: tuple) -> str:
    """A task in the player's language, e.g. "4'lü küt + 5'li seri" (K-M3)."""
    if is_finish(task):
        return _("Finish from hand")
    if is_pairs(task):
        return _("%(count)d pairs") % {"count": len(task)}
    kut = {3: _("küt of 3"), 4: _("küt of 4")}
    run = {3: _("run of 3"), 4: _("run of 4"), 5: _("run of 5")}
    if len(task) == 2 and task[0] == task[1]:
        kind, length = task[0]
        if (kind, length) == (KUT, 4):
            return _("two küts of 4")
        if (kind, length) == (RUN, 4):
            return _("two runs of 4")
    parts = []
    for kind, length in task:
        table = kut if kind == KUT else run if kind == RUN else {}
        if kind == PAIR or length not in table:  # not in any task list: say it plainly
            parts.append(f"{kind} {length}")
        else:
            parts.append(table[length])
    return " + ".join(parts)


def table_strings() -> dict:
    """Every text the table script shows, in the request's language (no mixed-language
    screens: the script never holds a word of its own)."""
    return {
        **tile_table_strings(),  # the words the tile tables share
        "islek": _("layable"),
        "separator": _("separator between cells {a} and {b}"),
        "selected": _("Selected: {tile}. Choose a cell, a group or your discard area."),
        "opened": _("opened"),
        "your_turn_take": _("Your turn: take a tile from the deck or the one thrown to you."),
        "your_turn_first": _("Your turn: open your task if it is ready, then discard."),
        "your_turn_play": _("Play your tiles, then discard one."),
        "claim_possible": _("You can claim the thrown tile"),
        "forced": _("This turn everyone draws from the centre."),
        "hand_no": _("Hand {n}"),
        "task_no": _("Task {n}/{total}:"),
        "task_texts": {},  # filled per match by the view
        "deck_empty": _("The deck is empty"),
        "pile_of": _("Discards of {name}"),
        "pile_empty": _("No discards yet"),
        "take_thrown": _("Take the tile thrown to you: {tile}"),
        "your_pile": _("Your discard area"),
        "discard_here": _("Discard the selected tile here"),
        "no_groups_yet": _("No open groups yet"),
        "kinds": {"run": _("run"), "kut": _("küt"), "pair": _("pair")},
        "group_label": _("{owner}: {kind} {tiles}"),
        "new_this_turn": _("laid down this turn"),
        "finished_by": _("{name} finished."),
        "deck_ran_out": _("The deck ran out; nobody finished."),
        "col_finish": _("Finish"),
        "col_not_opened": _("Not opened"),
        "col_tiles": _("Tiles"),
        "col_okeys": _("Okeys"),
        "col_penalties": _("İşlek discards"),
        "next_task_in": _("The next task starts in {n} s."),
        "next_task_soon": _("The next task is starting…"),
        "verify_shuffle": _("Verify this hand's shuffle"),
        "verify_url": reverse_lazy("game:verify"),
        "timed_out_drew": _(
            "Your time ran out: a tile was drawn from the centre for you and {tile} was discarded."
        ),
        "timed_out": _("Your time ran out: {tile} was discarded for you."),
        "sound_on": _("Sound on"),
        "sound_off": _("Sound off"),
        "errors": {**tile_table_errors({}), **{code: str(text) for code, text in ERRORS.items()}},
        **feel_strings(),
    }


def feel_strings() -> dict:
    """The table's words for issue 15's feedback (Görevi Aç, Diz, group owners)."""
    return {
        "open_no_tiles": _(
            "Your tiles cannot form this task yet: keep taking tiles until they can."
        ),
        "open_layout": _(
            "Your tiles can form the task, but they are not set apart as it asks. Arrange them?"
        ),
        "arrange_now": _("Arrange"),
        "arrange_no_task": _(
            "The task cannot be formed with these tiles yet; your best groups are set apart."
        ),
        "you_short": _("You"),
        "bot_short": _("B{n}"),
        "guide": _("How to play"),
    }


REASONS = ("finish", "not_opened", "tiles", "okeys", "penalties")  # kut.md section 9

# KÜT's rule codes (games/kut/engine/transitions.py and the trial hand's script)
ERRORS = {
    "first_turn_no_take": gettext_lazy(
        "No tile is taken on the first turn: open your task if it is ready, then discard."
    ),
    "must_draw": gettext_lazy("This turn you must draw from the centre."),
    "claim_not_open": gettext_lazy("There is no tile to claim right now."),
    "claim_own_turn": gettext_lazy("You cannot claim the thrown tile on your own turn."),
    "own_discard": gettext_lazy("You cannot claim your own discard."),
    "too_many_tiles": gettext_lazy("To claim, your rack may hold at most 29 tiles."),
    "already_opened": gettext_lazy("You have already opened this hand."),
    "not_opened": gettext_lazy("Open your task first."),
    "opened_this_turn": gettext_lazy("In the turn you open you cannot lay off or open new groups."),
    "task_mismatch": gettext_lazy(
        "Your arrangement does not match the task. Set your groups apart with separators."
    ),
    "invalid_group": gettext_lazy("That is not a valid run, küt or pair."),
    "finish_incomplete": gettext_lazy(
        "To finish from hand, every tile but the one you discard must be in runs or küts."
    ),
    "no_opening_in_finish": gettext_lazy("Nobody opens in this hand; you must finish from hand."),
    "rack_would_be_empty": gettext_lazy("Always keep one tile to discard."),
    "no_such_group": gettext_lazy("There is no such group on the table."),
    "cannot_lay_off": gettext_lazy("That tile cannot be laid off on that group."),
    "end_required": gettext_lazy("Choose which end of the run gets the okey."),
    "lay_off_limit": gettext_lazy("At most two tiles can be added to each end of a run per turn."),
    "pair_cannot_grow": gettext_lazy("A pair cannot grow; only the okey exchange is allowed."),
    "pairs_not_allowed": gettext_lazy(
        "New pairs can be opened only in the pairs hand, by a player who opened with pairs."
    ),
    "nothing_to_lay_off": gettext_lazy("There is no tile to lay off."),
    "no_groups": gettext_lazy("There are no ready groups on your rack."),
    "bad_layout": gettext_lazy("That rack layout is not valid."),
    "trial_lay_off_first": gettext_lazy(
        "First lay off the black 7 on your küt, then discard a tile."
    ),
}


class KutWeb(GameWeb):
    table_template = "kut/table.html"
    replay_template = "okey/replay.html"
    guide_templates = {"tr": "kut/guide_tr.html", "en": "kut/guide_en.html"}
    urls = "games.kut.urls"
    # the table's own styles and scripts, kept by the service worker for a fast start
    assets = (
        "okey/tiles.css",
        "okey/board.css",
        "okey/seats.css",
        "okey/rack.css",
        "okey/overlay.css",
        "okey/phone.css",
        "kut/table.css",
        "kut/moves.css",
        "kut/table.js",
        "kut/view.js",
        "kut/input.js",
        "kut/clock.js",
        "kut/moves.js",
        "kut/sound.js",
        "kut/notes.js",
        "okey/tiles.js",
        "okey/table-kit.js",
    )
    from games.kut.analysis_words import analysis_move_text  # issue 31: the analysis's words

    def table_strings(self, match, user) -> dict:
        strings = table_strings()
        tasks = (match.options or {}).get("tasks")
        if tasks:  # the match's task list (K-M3)
            strings["task_texts"] = {
                str(n): task_text(task) for n, task in enumerate(TASK_LISTS[tasks], start=1)
            }
        return strings

    def replay_strings(self) -> dict:
        return okey_replay_strings()

    def deal_description(self, order: list[str]) -> tuple[str, str] | None:
        return tile_deal_description(order)  # P-2 (K-D1, V-D1)

    def replay_context(self, match) -> dict:
        return {"groups": True}  # the open groups on the table (K-O…)

    def hand_label(self, match, detail: dict) -> str:
        tasks, task_no = (match.options or {}).get("tasks"), detail.get("task_no")
        if not tasks or not task_no:
            return ""
        return _("task {t}: {task}").format(
            t=task_no, task=task_text(TASK_LISTS[tasks][task_no - 1])
        )

    def error_messages(self) -> dict:
        return {**okey_errors(), **ERRORS}

    def record_context(self, match, record: dict) -> dict:
        """Each hand's rows with the reasons of each seat's score (K-S1…K-S6) as the
        platform record's own columns, and who finished, from the hand's stored detail."""
        names = record["names"]
        hands = []
        for hand in record["hands"]:
            lines = hand["detail"].get("lines") or []
            finisher = hand["detail"].get("finisher")
            rows = []
            for row in hand["rows"]:
                line = lines[row["seat"]] if row["seat"] < len(lines) else {}
                reasons = [line.get(k, 0) for k in REASONS]
                cells = [{"text": v or "·", "cls": "reason"} for v in reasons]
                rows.append({**row, "finisher": finisher == row["seat"], "reasons": reasons,
                             "cells": cells})  # fmt: skip
            if finisher is None:
                note = _("The deck ran out; nobody finished.")
            else:  # the record's words ("… eli bitirdi."), not the table's
                note = _("%(name)s finished.") % {"name": names[finisher]}
            hands.append({**hand, "rows": rows, "note": note})
        heads = [_("Finish"), _("Not opened"), _("Tiles"), _("Okeys"), _("İşlek discards")]
        return {"record_heads": heads, "record_hands": hands}

    def tutorial_about(self) -> str:
        return _(
            "A short practice against three bots before your first match, in three steps: "
            "open a task, lay off a tile, and claim a tile thrown to someone else with its "
            "penalty tile. A hint shows the way at each step. Nothing of it is recorded in "
            "your history or the ranking."
        )

    def tutorial_strings(self) -> dict:
        """The trial hand's hint for each step (K-X1, ``games.kut.tutorial``)."""
        return {
            "open": _(
                "Your task in this hand is a küt of 3: your red, yellow and blue 7. A "
                "group opens only when a separator sets it apart from the tiles beside "
                "it: tap the gap right after the blue 7 to put one there (or press "
                "Arrange, which does it for you), then press Open task."
            ),
            "discard_open": _(
                "Well done, your task is open! Now end your turn: discard a tile you do not need."
            ),
            "wait": _("The bots are playing. Wait for your turn."),
            "draw": _("Your turn. Draw a tile from the centre deck."),
            "lay_off": _(
                "You drew the black 7: it fits your küt. Drop it on the küt, or press "
                "Lay off. Then discard a tile."
            ),
            "discard_lay_off": _("Your küt has four 7s now. Discard a tile to end your turn."),
            "wait_claim": _(
                "Watch the bots' discards: when a player draws from the centre instead of "
                "taking the tile thrown to them, others may claim it."
            ),
            "claim": _(
                "The blue 12 was thrown and the next player drew from the centre. Press "
                "Take the thrown tile: you get it together with a penalty tile from the "
                "deck."
            ),
            "done": _(
                "Trial complete: you opened a task, laid off a tile and claimed a thrown "
                "tile. Play the hand to its end, or go to the lobby."
            ),
            "over": _("The trial hand is over. You are ready for a real table!"),
        }

    def options_text(self, options: dict) -> str:
        tasks = (options or {}).get("tasks")
        if not tasks:
            return ""
        return ngettext("%(n)d task", "%(n)d tasks", tasks) % {"n": tasks}


WEB = KutWeb("kut")
