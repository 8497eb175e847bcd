"""Browser tests: Playwright driving Debian's chromium (no downloaded browsers)."""

import os

import pytest

# The real stack (daphne + a Celery worker) for the table tests: tests/e2e/livesite.py.
from tests.e2e.livesite import live_site, paced_site  # noqa: F401

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (see .ci/run)")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
        ],
    }


@pytest.fixture(scope="session", autouse=True)
def _allow_orm_beside_playwright():
    # Playwright's sync API runs an event loop in this thread; live_server and the
    # database fixtures use the ORM here too. Browser tests are sorted last
    # (tests/conftest.py), so this only affects them.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    yield
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


def watch_console(page, errors: list[str]) -> list[str]:
    """Collect console errors and uncaught exceptions of ``page`` into ``errors``."""
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    return errors


@pytest.fixture
def console_errors(page):
    return watch_console(page, [])
