import pytest


@pytest.fixture
def small_budget(monkeypatch):
    """Bots with a small search budget: whole games stay fast in tests (the full budget
    is measured by ``python -m games.kastet.engine.bench``)."""
    from games.kastet.engine import bots

    monkeypatch.setitem(bots.BUDGETS, "hard", 600)
    monkeypatch.setitem(bots.BUDGETS, "normal", 300)
