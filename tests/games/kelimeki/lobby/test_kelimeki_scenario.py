"""The history's scenario download for a finished Kelimeki game (kelimeki-scenario.md):
the deal as committed (P-2) and its moves; ``python -m game.engine.replay`` replays it
to the same end."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils import timezone

from game import services
from games.kelimeki.engine import GAME, bots
from games.kelimeki.engine.replay import run_scenario
from tests.games.kelimeki.lobby.test_kelimeki_live import _live_match, kelimeki_mail  # noqa: F401
from tests.lobby.conftest import client_for


@pytest.mark.django_db(transaction=True)
def test_a_finished_games_download_replays_to_the_same_end(players):
    a, b = players[:2]
    now = timezone.now()
    match = _live_match(a, b, now=now)
    plays = 0
    for _ in range(40):
        match.refresh_from_db()
        if not match.running:
            break
        seat = match.state["turn"]
        view = json.loads(json.dumps(GAME.view_for(GAME.from_dict(match.state), seat)))
        move = bots.best_move(view) if plays < 4 else None
        if move is not None:
            action = {"type": "play", "placements": [
                {"row": i // 15, "col": i % 15, "letter": ch, "joker": j}
                for i, ch, j in move.cells]}  # fmt: skip
            plays += 1
        else:
            action = {"type": "pass"}
        services.match_apply_action(match.pk, seat, action, match.version, now=now)
    match.refresh_from_db()
    assert not match.running and plays == 4
    client = client_for(a)
    record = client.get(reverse("lobby:history_match", args=[match.pk])).content.decode()
    url = reverse("lobby:scenario", args=[match.pk, 1])
    assert url in record
    resp = client.get(url)
    assert resp.status_code == 200
    data = json.loads(resp.content)
    assert data["game"] == "kelimeki" and len(data["actions"]) == match.state["moves"]
    assert data["racks"][0] == match.state["fair"]["order"][:7]  # the deal as committed
    out = run_scenario(data)
    assert all(r["ok"] for r in out["results"])
    assert out["over"] and out["scores"] == match.state["scores"]
    assert out["board"] == match.state["board"]
