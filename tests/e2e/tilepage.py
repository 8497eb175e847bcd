"""A browser page on one of the tile tables (KDVli, Kastet): what the pages' tests share.
It collects console errors and the kinds of frames the match socket received (issue 22:
change frames after a snapshot); ``act`` does something and waits for the frame that
answers it, failing on a server error."""

from __future__ import annotations

import orjson
from playwright.sync_api import Page

WAIT = 30_000  # ms


def frame_kind(payload) -> str:
    try:
        return str(orjson.loads(payload).get("type"))
    except (ValueError, AttributeError):
        return "?"


class TilePage:
    FACTS_JS = ""  # the table's facts (a JS function of no arguments), per game

    def __init__(self, page: Page):
        self.page = page
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.sockets: list[str] = []  # the match socket's URLs (``?frames=change``)
        self.kinds: list[str] = []  # the type of every frame received
        page.on("websocket", self._socket)

    def _socket(self, ws) -> None:
        self.sockets.append(ws.url)
        ws.on("framereceived", lambda payload: self.kinds.append(frame_kind(payload)))

    def facts(self) -> dict:
        return self.page.evaluate(self.FACTS_JS)

    def wait(self, js: str, arg=None) -> None:
        self.page.wait_for_function(js, arg=arg, timeout=WAIT)

    def act(self, do) -> None:
        """``do()``, then wait for a newer frame; a server error fails the test."""
        f = self.facts()
        do()
        self.wait(
            "([v, l, e]) => { const d = document.getElementById('kt').dataset;"
            " return Number(d.version) > v || Number(d.layout) > l || Number(d.errors) > e; }",
            [f["version"], f["layout"], f["errors"]],
        )
        after = self.facts()
        assert after["errors"] == f["errors"], self.page.evaluate(
            "() => document.getElementById('kt').dataset.lastError"
        )

    def button(self, action: str):
        return self.page.locator(f'.kt-btn[data-action="{action}"]')
