"""The rules guide in a browser (issue 29): over a table in its dialog, and from a
game's lobby — the checks every game's served tests make."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.touch import screenshot


def guide_over_table(page, title: str, section: str, *, drawn: str | None = None,
                     scroll_to: str | None = None, shot: str | None = None) -> None:  # fmt: skip
    """The guide the table's "?" opened: its dialog shows the guide alone (no site
    header) with its ``title`` and the ``section`` heading, ``drawn`` (the table's own
    tiles, cards or board) visible; ``shot``: a screenshot's name (scrolled to
    ``scroll_to`` first); Escape closes it."""
    dialog = page.locator("dialog.guide-dialog")
    expect(dialog).to_be_visible()
    frame = page.frame_locator("dialog.guide-dialog iframe")
    expect(frame.locator("h1")).to_have_text(title)
    expect(frame.locator("h2", has_text=section)).to_have_count(1)
    if drawn:
        expect(frame.locator(drawn).first).to_be_visible()
    expect(frame.locator(".site-header")).to_have_count(0)  # the guide alone
    if scroll_to:
        frame.locator(scroll_to).scroll_into_view_if_needed()
    if shot:
        screenshot(page, shot)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()


def guide_from_lobby(page, key: str, title: str) -> None:
    """The game's lobby links the same guide."""
    page.goto(f"/lobby/{key}/")
    page.get_by_test_id("guide-link").first.click()
    expect(page.locator("article.guide h1")).to_have_text(title)
