"""What the platform asks of a game's web side (issue 28; house style, "Many games, one
platform").

A game's home (``games/<key>/``, a Django app) has a ``web.py`` exporting ``WEB``, an
instance of a :class:`GameWeb` subclass.  Every member below has its default here, so a
game states only what it has, and the platform reads every member plainly, only through
:func:`web` — never a game's module, never ``if game == …``.

Templates follow the app-directories convention: a game's templates live in its home's
``templates/<key>/`` and are named ``<key>/<part>.html``; a default template name is the
game's own one when it exists (``<key>/card.html``), else the platform's generic one.
Static files likewise: ``games/<key>/static/<key>/…``, served as ``{% static '<key>/…' %}``
(the okey family's shared pieces as ``okey/…``; the platform's own under ``static/``).
"""

from __future__ import annotations

import importlib
from functools import lru_cache

from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from game.engine import registry


class GameWeb:
    """The web side of one game, with the platform's defaults."""

    key: str = ""
    # the table page (None: the game is not playable yet and shows as coming soon)
    table_template: str | None = None
    # the game's card on the portal, its options in the create-table dialog, a table's
    # options as badges (``None``: the game's own ``<key>/<part>.html`` if there, else the
    # platform's generic part)
    card_template: str | None = None
    options_template: str | None = None
    summary_template: str | None = None
    # the replay page (None: no replay page; its scenario downloads still work)
    replay_template: str | None = None
    # the part of a match record that lists its hands (with ``record_context``)
    record_template: str = "history/_hands.html"
    # the rules guide (*Nasıl Oynanır*) per language code; the first is the fallback
    guide_templates: dict[str, str] = {}
    # a module of the game's own pages (``urlpatterns``), mounted at ``/<key>/``
    urls: str | None = None
    # static files the service worker keeps for a fast start of the game's table (names
    # as for ``{% static %}``, e.g. ``"kut/table.js"``), beside the platform's own
    assets: tuple[str, ...] = ()

    def __init__(self, key: str):
        self.key = key

    # -- strings and contexts ---------------------------------------------------------
    def table_strings(self, match, user) -> dict:
        """Every text the table's script shows, in the request's language."""
        return {}

    def error_messages(self) -> dict:
        """The player's message for each of the game's own rule codes (``message_for``)."""
        return {}

    def replay_strings(self) -> dict:
        """Every text the replay script shows."""
        return {}

    def replay_context(self, match) -> dict:
        """More context for the replay page's template."""
        return {}

    def hand_label(self, match, detail: dict) -> str:
        """What a hand was about, beside its number in the record and the replay (KÜT: its
        task, K-M3); ``detail``: the hand's stored detail or its replay's first step."""
        return ""

    def options_text(self, options: dict) -> str:
        """A match's or table's own options in words (the invite, the record)."""
        return ""

    def record_context(self, match, record: dict) -> dict:
        """More context for the match record's hands part."""
        return {}

    def tutorial_about(self) -> str:
        """What the guided first hand teaches, in a sentence or two (its offer page)."""
        return ""

    def tutorial_strings(self) -> dict:
        """The guided first hand's hint per step (the game's ``tutorial``'s ``progress``
        names the step)."""
        return {}

    def ranking_text(self) -> str:
        """How the game's ranking counts, above its leaderboard (issue 29 item 7): P-4's
        placings by default; a game with its own rating (P-9) says how that counts."""
        return _(
            "Rated matches only: sole first +1, sole last −1, shared first 0, shared last −1. "
            "Leaving a match counts as a loss unless you were the sole leader."
        )

    def board_name(self) -> str:
        """The name of the game's one ranking board when it is not kept per level
        (``ranked_by_level = False``; Kelimeki's k-lig)."""
        return _("All levels")

    def deal_description(self, order: list[str]) -> tuple[str, str] | None:
        """When ``order`` is a dealt order this game commits to (P-2): a label and a line
        describing it for the verify page; else None (also for a game with no commitment)."""
        return None

    def links(self) -> list[tuple[str, str]]:
        """The game's own pages a player looks for beside its lobby and on their profile,
        ``(label, url)`` each (Kelimeki's *Skor Kartı*)."""
        return []

    def page_notices(self, user) -> list[tuple[str, str]]:
        """Notices for a logged-in player, shown once on the next page they open (a
        Django message each: ``(text, tags)``; Kelimeki's k-lig celebrations, W-L8).
        Called on every page of a logged-in player: keep it to one indexed query."""
        return []

    def badges(self, user_ids: list[int]) -> dict[int, str]:
        """A short mark per player on the game's leaderboard (Kelimeki's k-lig seal)."""
        return {}

    def guide_template(self, language: str) -> str | None:
        """The guide in ``language``, else in the first language it has; None: none."""
        if not self.guide_templates:
            return None
        return self.guide_templates.get(language) or next(iter(self.guide_templates.values()))

    # -- the analysis (issue 31) ---------------------------------------------------------
    def analysis_move_text(self, move: dict) -> str:
        """A decision's ``played`` or ``best`` move (``game.engine.analysis``) in words, for
        the record page and the replay's analysis panel.  This default is plain and
        generic (its type, then its values); a game says it in its own words."""
        if not move:
            return ""
        if isinstance(move.get("actions"), list):
            return "; ".join(self.analysis_move_text(a) for a in move["actions"] if a)
        parts = [str(move["type"])] if move.get("type") else []
        parts += [_plain(v) for k, v in move.items() if k != "type"]
        return " ".join(p for p in parts if p)

    def analysis_cost_text(self, unit: str, cost) -> str:
        """A cost in the game's unit (``points``, ``tiles``…): "12 points"."""
        n = round(cost, 1) if isinstance(cost, float) and cost != int(cost) else int(cost)
        count = n if isinstance(n, int) else 2
        words = {
            "points": ngettext("{n} point", "{n} points", count),
            "tiles": ngettext("{n} tile", "{n} tiles", count),
            "tricks": ngettext("{n} trick", "{n} tricks", count),
        }
        return words.get(unit, "{n} " + unit).format(n=n)

    def analysis_note_text(self, note: str, count: int) -> str:
        """A summary's count of one note (``missed_finish``: "3 missed finishes")."""
        words = {
            "missed_finish": ngettext("{n} missed finish", "{n} missed finishes", count),
            "missed_open": ngettext("{n} missed opening", "{n} missed openings", count),
            "missed_layoff": ngettext("{n} missed lay-off", "{n} missed lay-offs", count),
            "missed_lay": ngettext("{n} turn with tiles left unlaid",
                                   "{n} turns with tiles left unlaid", count),
            "okey_thrown": ngettext("{n} okey thrown", "{n} okeys thrown", count),
            "missed_bingo": ngettext("{n} missed all-tiles play", "{n} missed all-tiles plays",
                                     count),
            "missed_play": ngettext("{n} pass or exchange with a play available",
                                    "{n} passes or exchanges with a play available", count),
            "paid_tax": ngettext("{n} move that paid territory tax",
                                 "{n} moves that paid territory tax", count),
            "timeout": ngettext("{n} move made by the clock", "{n} moves made by the clock",
                                count),
            "forced": ngettext("{n} forced move", "{n} forced moves", count),
        }  # fmt: skip
        return words.get(note, note.replace("_", " ") + ": {n}").format(n=count)

    # -- resolved once ----------------------------------------------------------------
    def part(self, name: str) -> str:
        """The template of ``card``/``options``/``summary``: the game's own if it says
        so or has one, else the platform's generic ``game/_<name>.html``."""
        chosen = getattr(self, f"{name}_template")
        if chosen:
            return chosen
        own = f"{self.key}/{name}.html"
        try:
            get_template(own)
        except TemplateDoesNotExist:
            return f"game/_{name}.html"
        return own

    @property
    def playable(self) -> bool:
        """The site can seat players at the game: it has a table."""
        return bool(self.table_template)


def _plain(value) -> str:
    """A move's value in plain text: lists spaced, each inner list (a group) in brackets,
    a dict's values."""
    if isinstance(value, list):
        return " ".join(f"[{_plain(v)}]" if isinstance(v, list) else _plain(v) for v in value)
    if isinstance(value, dict):
        return " ".join(_plain(v) for v in value.values() if not isinstance(v, bool))
    if value is None or isinstance(value, bool):
        return ""
    return str(value)


class ComingSoon(GameWeb):
    """A registered game whose web side is not there yet (*yakında*)."""


@lru_cache(maxsize=None)
def web(key: str) -> GameWeb:
    """The web side of the registered game ``key`` (KeyError for an unknown key)."""
    home = registry.home(key)
    try:
        module = importlib.import_module(f"{home}.web")
    except ModuleNotFoundError as exc:
        if exc.name not in (home, f"{home}.web"):
            raise
        return ComingSoon(key)
    found = module.WEB
    if not isinstance(found, GameWeb):
        raise TypeError(f"{home}.web.WEB must be a game.web.GameWeb")
    return found


def playable(key: str) -> bool:
    """Whether the site can seat players at ``key`` (its engine loads and its web side
    names a table); games still being built are shown as coming soon."""
    try:
        registry.get(key)
    except (KeyError, ImportError):
        return False
    return web(key).playable
