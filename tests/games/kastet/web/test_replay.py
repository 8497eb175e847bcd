"""Kastet replays and scenario downloads (issue 20, item 2) through the protocol's
optional ``replay_snapshot``: one step per action of the hand, all racks revealed as
faces, the run area and the pair area as the replay's groups (no owner: S-A3), the hand's
final scores equal to its HandResult row, no seed or tile id.  The scenario download
replaying to the same scores is the contract suite's (tests/contract)."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.urls import reverse

from game import services
from game.models import HandResult, Match
from games.kastet.engine import GAME as KASTET
from lobby import history
from tests.clients import client_for
from tests.history.play import play_as_humans

pytestmark = pytest.mark.django_db

SNAPSHOT_KEYS = {
    "hand_no", "indicator", "okey", "starter", "turn", "deck", "thrown", "thrower",
    "claimable", "racks", "counts", "table", "discards", "over", "blocked", "finisher",
    "scores", "totals",
}  # fmt: skip


def play_out(match: Match) -> Match:
    return play_as_humans(match, level="hard", rng=random.Random(7), max_steps=3000)


@pytest.fixture
def finished(players):
    match = services.match_create(
        game="kastet", options={"hands": 1}, users=players, host=players[0], rated=False,
        seed="kastet-replay-2",  # a deal on which the hard bots also draw
    )  # fmt: skip
    return play_out(match)


def test_the_replay_has_one_step_per_action_and_ends_in_the_hand_result(finished, players):
    match = finished
    result = HandResult.objects.get(match=match, hand_no=1)
    response = client_for(players[1]).get(reverse("lobby:replay_hand", args=[match.pk, 1]))
    assert response.status_code == 200
    text = response.content.decode()
    data = json.loads(text)
    assert data["game"] == "kastet" and data["hand_no"] == 1 and data["okey"]
    steps = data["steps"]
    assert steps[0]["a"] == {"type": "deal"}
    assert sum(steps[0]["s"]["counts"]) == 56 and steps[0]["s"]["deck"] == 49  # S-D2
    for s in steps:
        assert set(s["s"]) == SNAPSHOT_KEYS
        assert [sum(len(seg) for seg in r) for r in s["s"]["racks"]] == s["s"]["counts"]
        assert all(g["owner"] is None for g in s["s"]["table"])  # S-A3: common property
    kinds = [a.kind for a in match.actions.order_by("version")
             if a.kind not in ("start", "next_hand", *KASTET.private_kinds)]  # fmt: skip
    assert [x["a"]["type"] for x in steps[1:]] == kinds
    lays = [x for x in steps if x["a"]["type"] == "lay"]
    assert lays, "the bots laid nothing"
    for x in lays:  # the groups the lay made or changed, by faces, all on the table after
        assert x["a"]["groups"]
        after = [g["tiles"] for g in x["s"]["table"]]
        assert all(g in after for g in x["a"]["groups"])
        assert all(re.fullmatch(r"[RYBK]\d{1,2}|F", f) for g in x["a"]["groups"] for f in g)
    draws = [x["a"] for x in steps if x["a"]["type"] == "draw"]
    assert draws and all(len(d["got"]) == 1 for d in draws)
    last = steps[-1]["s"]
    assert last["over"] and last["scores"] == result.scores
    assert match.seed not in text and re.search(r'"[0-9a-f]{10}"', text) is None  # no ids


def test_the_replay_page_shows_the_table_groups(finished, players):
    response = client_for(players[0]).get(reverse("lobby:replay", args=[finished.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "okey/replay.js" in html and 'id="rp-config"' in html
    assert "Seri alanı ve çift alanı" in html  # the run area and the pair area (S-A1, S-A2)
    assert 'class="rp-discards"' not in html  # no discards in Kastet (S-S4)
    config = json.loads(re.search(r'id="rp-config" type="application/json">(.*?)</script>',
                                  html, re.S).group(1))  # fmt: skip
    assert config["strings"]["lay"] and config["strings"]["pass"]
    assert history.hands_played(finished) == 1
