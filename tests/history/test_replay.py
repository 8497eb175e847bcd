"""Replays (issue 9): rebuilt from the seed and the action log, the replay's final state
is the stored one; only the match's players see it, and it carries no secret.  (A downloaded hand replaying to the same end is the contract
suite's, tests/contract, for every game.)"""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from game import services
from game.models import HandResult, Match
from games.kut.engine import GAME as KUT
from games.kut.engine.match import MatchState
from lobby.history import replay_hand
from tests.history.conftest import client_for

pytestmark = pytest.mark.django_db


def test_the_replay_ends_in_the_stored_state(played):
    for match in played.matches:
        stored = MatchState.from_dict(match.state)
        assert match.status == Match.Status.FINISHED and stored.over
        assert services.match_replay(match).to_dict() == stored.to_dict()
        results = {r.hand_no: r for r in HandResult.objects.filter(match=match)}
        for hand_no in range(1, 6):
            data = replay_hand(match, hand_no)
            steps = data["steps"]
            assert steps[0]["a"] == {"type": "deal"} and not steps[0]["s"]["table"]
            assert sum(steps[0]["s"]["counts"]) == 57  # K-D2: 15 + 3 × 14
            last = steps[-1]["s"]
            assert last["over"] and last["scores"] == results[hand_no].scores
            assert last["lines"] == results[hand_no].detail["lines"]
            for step in steps:  # tiles are conserved: racks, table, discards, deck
                s = step["s"]
                on_table = sum(len(g["tiles"]) for g in s["table"])
                in_racks = sum(len(t) for rack in s["racks"] for t in rack)
                assert in_racks == sum(s["counts"])
                assert in_racks + on_table + sum(map(len, s["discards"])) + s["deck"] == 105
        as_stored = KUT.replay_snapshot(stored)
        as_stored.pop("move")
        assert steps[-1]["s"] == as_stored  # the last hand as stored


def test_the_replay_json_is_for_players_only_and_holds_no_secret(played):
    match = played.matches[0]
    ali, ayse, outsider = played.users
    url = reverse("lobby:replay_hand", args=[match.pk, 2])
    response = client_for(ayse).get(url)
    assert response.status_code == 200
    text = response.content.decode()
    data = json.loads(text)
    assert data["hand_no"] == 2 and data["seats"][:2] == ["rp_ali", "rp_ayse"]
    assert match.seed not in text
    assert re.search(r'"[0-9a-f]{10}"', text) is None  # no opaque tile ids (K-T7)
    assert '"salt"' not in text and "commitment" not in text
    assert client_for(outsider).get(url).status_code == 404
    assert client_for(ayse).get(reverse("lobby:replay_hand", args=[match.pk, 6])).status_code == 404
    page = client_for(ali).get(reverse("lobby:replay", args=[match.pk]) + "?hand=3")
    assert page.status_code == 200 and page.context["first"] == 3
    html = page.content.decode()
    assert "okey/replay.js" in html and "Maç" in html and match.seed not in html
    assert client_for(outsider).get(reverse("lobby:replay", args=[match.pk])).status_code == 404


def test_a_running_match_has_no_replay(played):
    ali, ayse, _ = played.users
    running = services.match_create(
        game="kut", options={"tasks": 5}, users=[ali, ayse, None, None], seed="still-on"
    )
    for name in ("lobby:replay", "lobby:history_match"):
        assert client_for(ali).get(reverse(name, args=[running.pk])).status_code == 404
    url = reverse("lobby:scenario", args=[running.pk, 1])
    assert client_for(ali).get(url).status_code == 404
