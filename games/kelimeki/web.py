"""Kelimeki's web side (issue 28): its board's words (the script,
games/kelimeki/static/kelimeki/board.js, never holds a word of its own), its replay's
words, and the k-lig line on its end card.

:func:`final_result` is the final result in words and numbers (W-E3, W-E4, W-E5), for
the table's end card and for any page that shows a finished game (Skor Kartı, e-mails).
"""

from __future__ import annotations

import re

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from game.web import GameWeb
from games.kelimeki.engine.alphabet import COUNTS

_SECRET = re.compile(r"#[0-9a-f]{1,32}")

# W-T1: the 29 letters in their order (the joker picker, the Torba panel)
LETTERS = "ABCÇDEFGĞHIİJKLMNOÖPRSŞTUÜVYZ"


def kelimeki_strings() -> dict:
    return {
        "letters": LETTERS,
        "you": _("You"),
        "ai_name": _("AI ({level})"),
        "ai_name_n": _("AI {n} ({level})"),
        "levels": {"easy": _("easy"), "normal": _("normal"), "hard": _("hard")},
        "your_turn": _("Your turn: lay down a word."),
        "their_turn": _("{name} is thinking…"),
        "thinking": _("thinking…"),  # the AI's row while its move is due (issue 29)
        "your_first": _("Your first word must cover your home square (⌂)."),
        "seat_marks": ["●", "▲", "■", "◆"],
        "colour_names": [_("blue"), _("orange"), _("green"), _("pink")],
        "zone_of": _("{name}'s zone"),
        "score_of": _("{name}: {n} points"),
        "tiles_in_rack": _("{n} tiles"),
        "to_move": _("to move"),
        # W-X3: the move deadline above the board
        "clock_mine": _("Your move: {left} left"),
        "clock_theirs": _("{name} to move: {left} left"),
        "unit_d": _("{n} d"),
        "unit_h": _("{n} h"),
        "unit_m": _("{n} min"),
        "points": _("{n} points"),
        "point_short": _("{n} p."),
        # W-M7: the preview
        "preview_none": _("Put letters on the board to see your word and its points."),
        "preview_valid": _("Valid"),
        "preview_invalid": _("Not a valid word"),
        "preview_invalid_words": _("Not in the word list: {words}"),
        "preview_total": _("This play: {n} points"),
        "preview_bingo": _("All seven tiles: +25"),
        "preview_tax": _("Zone tax to {name}: {n}"),
        "preview_keep": _("You keep {n}"),
        # the last moves
        "log_play": _("{name} played {words} for {n} points"),
        "log_tax": _("{name} received {n} in zone tax"),
        "log_exchange": _("{name} exchanged {n} tiles"),
        "log_pass": _("{name} passed"),
        "log_forfeit": _("{name} forfeited"),
        "log_finish_bonus": _("Joker finish: +{n}"),
        # the board, for screen readers
        "cell": _("Row {row}, column {col}"),
        "cell_x2": _("letter ×2"),
        "cell_x3": _("letter ×3"),
        "cell_home": _("home square of {name}"),
        "cell_empty": _("empty"),
        "cell_tentative": _("your tile {letter}, not played yet"),
        "joker_as": _("joker as {letter}"),
        "tile": _("{letter}, {n} points"),
        "joker": _("joker"),
        "selected": _("Selected: {letter}. Now choose a square."),
        "exchange_pick": _("Choose the tiles to exchange (at most {n})."),
        "exchange_count": _("Exchange {n}"),
        "bag_count": _("{n} tiles in the bag"),
        "unseen_title": _("Tiles you cannot see: the bag and the other racks ({n})"),
        "shuffled": _("Rack shuffled."),
        "taken_back": _("Tiles taken back."),
        # the end (W-E1…W-E5)
        "game_over": _("The game is over"),
        "end_out": _("First to use all the tiles: {name}."),
        "end_passes": _("Everyone passed twice in a row."),
        "end_forfeit": _("The game ended by forfeit."),
        "you_won": _("You won!"),
        "you_lost": _("You lost."),
        "draw": _("A draw: shared first place."),
        "winner": _("Winner: {names}"),
        "col_player": _("Player"),
        "col_left": _("Tiles left"),
        "col_score": _("Final score"),
        "col_place": _("Place"),
        "forfeited": _("forfeited"),
        # the end card's k-lig line (W-L1…W-L4; W-L6 rewards, W-L7 seal once recorded)
        "klig_change": _("k-lig: {n}"),
        "klig_total": _("k-lig total {n} · {seal}"),
        "klig_reward": _("{rank} reached: +{n}"),
        "klig_card": _("Skor Kartı"),
        "klig_card_url": reverse("kelimeki:score_card"),
        # P-2 (W-X5): the bag's order was committed at the start; check it at the end
        "verify_bag": _("Check the bag's shuffle"),
        "verify_url": reverse("game:verify"),
        "connecting": _("Connecting…"),
        "reconnecting": _("Connection lost; reconnecting…"),
        "cannot_join": _("You cannot join this table."),
        "replaced": _("You opened this table in another tab; this one is closed."),
        "network": _("The server could not be reached. Try again."),
        "errors": {
            "no_tiles": _("Put at least one tile on the board."),
            "tiles_not_in_rack": _("Those tiles are not in your rack."),
            "off_board": _("That square is not on the board."),
            "duplicate_cell": _("Two tiles on one square."),
            "cell_occupied": _("That square is already taken."),
            "not_in_line": _("Put your tiles in one row or one column."),
            "gap": _("Your tiles must not leave gaps."),
            "must_cover_home": _("Your first word must cover your home square."),
            "not_connected": _("Your word must touch a tile already on the board."),
            "no_word": _("A word has at least two letters."),
            "invalid_word": _("Not a valid word."),
            "game_over": _("The game is over."),
            "not_your_turn": _("It is not your turn."),
            "bag_empty": _("The bag is empty: you cannot exchange."),
            "bag_too_small": _("The bag holds fewer tiles than you want to exchange."),
            "stale_version": _("The game moved on; look again."),
            "bad_action": _("That move could not be understood."),
            "unknown_action": _("There is no such move."),
        },
    }


def final_result(view: dict, names: list[str]) -> dict:
    """A finished game's result from any seat's (or the watchers') view: one row per
    seat with its final score, the tiles' value taken off (W-E3), its place (W-E5,
    None for a forfeited seat, W-E6), and the winners' seats."""
    scores = view["scores"]
    deducted = view.get("deducted") or [0] * len(scores)
    ranks = view.get("ranks") or [None] * len(scores)
    rows = [
        {
            "seat": s,
            "name": names[s],
            "score": scores[s],
            "deducted": deducted[s],
            "place": ranks[s],
            "forfeited": view["forfeited"][s],
        }  # fmt: skip
        for s in range(len(scores))
    ]
    rows.sort(key=lambda r: (r["place"] is None, r["place"] or 0, r["seat"]))
    return {"end": view.get("end"), "rows": rows,
            "winners": [r["seat"] for r in rows if r["place"] == 1]}  # fmt: skip


def klig_after(match, user) -> dict | None:
    """What a finished game did to ``user``'s k-lig, once recorded (``games.kelimeki.klig``): the
    game's points (W-L2…W-L4), the rank rewards it gave (W-L6), the total after it and
    the seal now (W-L7).  None while the game runs or before the hooks have run."""
    from games.kelimeki.engine import klig
    from games.kelimeki.klig import record_of
    from games.kelimeki.models import KligEntry

    entry = KligEntry.objects.filter(match=match, user=user).first()
    if entry is None:
        return None
    return {"points": entry.points, "total": entry.total_after,
            "rewards": [list(r) for r in entry.rewards or []],
            "seal": klig.rank_of(record_of(user))}  # fmt: skip


def kelimeki_replay_strings() -> dict:
    """Every text Kelimeki's replay script shows (games/kelimeki/static/kelimeki/replay.js)."""
    return {
        **kelimeki_strings(),
        "rp": {
            "deal": _("The racks are dealt; {name} starts."),
            "play": _("{name} plays {words} for {n} points."),
            "exchange": _("{name} exchanges {n} tiles."),
            "pass": _("{name} passes."),
            "timeout": _("{name}'s move time ran out: the seat forfeits."),
            "leave": _("{name} forfeits the game."),
            "abandon": _("No human is left: the table is closed."),
            "bot": _("(AI)"),
            "step": _("Step {n} of {total}"),
            "turn": _("to move"),
            "over": _("The game is over."),
            "bag": _("{n} tiles in the bag"),
            "loading": _("Loading the game…"),
            "load_failed": _("The game could not be loaded."),
        },
    }


class KelimekiWeb(GameWeb):
    table_template = "kelimeki/table.html"
    replay_template = "kelimeki/replay.html"
    urls = "games.kelimeki.urls"  # /kelimeki/: the game against the AI, the Skor Kartı
    from games.kelimeki.analysis_words import analysis_move_text  # issue 31: the analysis's words

    def table_strings(self, match, user) -> dict:
        strings = kelimeki_strings()
        if user is not None and any(s.user_id == user.pk for s in match.seats.all()):
            strings["klig_after"] = klig_after(match, user)  # the end card (W-L1…W-L7)
        return strings

    def error_messages(self) -> dict:
        return kelimeki_strings()["errors"]

    def replay_strings(self) -> dict:
        return kelimeki_replay_strings()

    def deal_description(self, order: list[str]) -> tuple[str, str] | None:
        """W-X5, P-2: the bag's 100 letter tiles as dealt (``*`` a joker), then ``#`` and
        the exchanges' secret in hex."""
        if (len(order) != sum(COUNTS.values()) + 1 or _SECRET.fullmatch(order[-1]) is None
                or not all(t in COUNTS for t in order[:-1])):  # fmt: skip
            return None
        count = ngettext("%(n)d tile", "%(n)d tiles", len(order)) % {"n": len(order)}
        what = _("the racks in seat order, then the bag, then the exchanges' secret")
        return _("Tiles"), f"{count} · {what}"

    def links(self) -> list[tuple[str, str]]:
        return [(_("Score Card"), reverse("kelimeki:score_card"))]  # W-X2

    def ranking_text(self) -> str:
        return _(
            "k-lig: one table for every level. 1st +2 (with four players 2nd +1), a forfeit "
            "−2, and a one-time reward at each new rank."
        )

    def board_name(self) -> str:
        return "k-lig"  # W-L1: the k-lig table, one for every level

    def badges(self, user_ids: list[int]) -> dict[int, str]:
        from games.kelimeki import klig

        return klig.seals(user_ids) if user_ids else {}

    def page_notices(self, user) -> list[tuple[str, str]]:
        from games.kelimeki import klig

        return [(text, "klig-celebration") for text in klig.celebration_notices(user)]


WEB = KelimekiWeb("kelimeki")
