"""KÜT's load-harness command from its own home (``games/kut/management/commands``):
``manage.py load_setup`` still answers and makes KÜT tables of four humans."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from game.models import Match


@pytest.mark.django_db
def test_load_setup_makes_kut_tables_of_four_humans():
    out = io.StringIO()
    call_command("load_setup", game="kut", tables=2, tasks=5, prefix="lt", stdout=out)
    data = json.loads(out.getvalue())
    assert data["tasks"] == 5 and len(data["matches"]) == 2
    for row in data["matches"]:
        match = Match.objects.get(pk=row["id"])
        assert match.game == "kut" and match.options["tasks"] == 5
        assert [s["seat"] for s in row["seats"]] == [0, 1, 2, 3] and all(
            s["cookie"] for s in row["seats"]
        )
