import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import watch_console

pytestmark = pytest.mark.slow


def test_home_page_loads_without_console_errors(live_server, page: Page, console_errors):
    page.goto(live_server.url + "/")
    expect(page).to_have_title(re.compile("KÜT"))
    expect(page.locator("h1")).to_contain_text("KÜT")
    # htmx and its websocket extension loaded from static/vendor.
    page.wait_for_function("() => window.htmx && htmx.version.startsWith('2.')")
    assert console_errors == []


def test_language_switch_in_the_browser(live_server, page: Page, console_errors):
    page.goto(live_server.url + "/")
    page.locator(".lang-switch button[value='tr']").click()
    expect(page.locator("html")).to_have_attribute("lang", "tr")
    expect(page.locator("h1")).to_have_text("KÜT'e hoş geldin")
    page.locator(".lang-switch button[value='en']").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("h1")).to_have_text("Welcome to KÜT")
    assert console_errors == []


def test_phone_viewport_has_no_horizontal_scroll(live_server, browser):
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="tr-TR")
    phone = context.new_page()
    errors = watch_console(phone, [])
    phone.goto(live_server.url + "/accounts/signup/")
    expect(phone.locator("h1")).to_have_text("Hesabını oluştur")
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360
    context.close()
    assert errors == []
