"""The toy game's web side: a table page and its card; everything else is the platform's
default (``game.web.GameWeb``)."""

from __future__ import annotations

from game.web import GameWeb


class ToyWeb(GameWeb):
    table_template = "toy/table.html"
    replay_template = "toy/replay.html"
    guide_templates = {"tr": "toy/guide_tr.html", "en": "toy/guide_en.html"}

    def table_strings(self, match, user) -> dict:
        return {"add": "+{n}", "count": "{n}"}


WEB = ToyWeb("toy")
