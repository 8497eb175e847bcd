"""King replays through the protocol's optional ``replay_snapshot`` (issue 19): one step
per action of the hand, the four hands revealed, the hand's final scores equal to its
HandResult row, no seed, and only for the match's players once the match is over."""

from __future__ import annotations

import json
import random

import pytest
from django.urls import reverse

from accounts.models import User
from game import services
from game.models import HandResult, Match
from tests.clients import client_for
from tests.history.play import play_as_humans

pytestmark = pytest.mark.django_db

SNAPSHOT_KEYS = {
    "hand_no", "chooser", "phase", "contract", "trump", "turn", "leader", "hands", "trick",
    "last_trick", "tricks", "taken", "running", "over", "scores", "totals",
}  # fmt: skip


def play_out(match: Match, until=None) -> Match:
    """Every seat plays the easy bot's move, as a human would send it (G-M6)."""
    return play_as_humans(match, rng=random.Random(7), until=until, max_steps=400)


def new_match(players, seed="king-replay") -> Match:
    return services.match_create(
        game="king", options={"length": 4}, users=list(players), host=players[0],
        rated=False, seed=seed,
    )  # fmt: skip


@pytest.fixture
def finished(players):
    return play_out(new_match(players))


def test_the_replay_has_one_step_per_action_and_ends_in_the_hand_result(finished, players):
    match = finished
    results = {r.hand_no: r for r in HandResult.objects.filter(match=match)}
    assert sorted(results) == [1, 2, 3, 4]
    client = client_for(players[3])
    hand_no = 0
    kinds: dict[int, list[str]] = {}
    for act in match.actions.order_by("version", "layout_version", "seat"):
        if act.kind in ("start", "next_hand"):
            hand_no += 1
            kinds[hand_no] = []
        else:
            kinds[hand_no].append(act.kind)
    for hand_no in (1, 2, 3, 4):
        response = client.get(reverse("lobby:replay_hand", args=[match.pk, hand_no]))
        assert response.status_code == 200
        text = response.content.decode()
        data = json.loads(text)
        assert data["game"] == "king" and data["hand_no"] == hand_no
        steps = data["steps"]
        assert steps[0]["a"] == {"type": "deal"}
        assert [len(h) for h in steps[0]["s"]["hands"]] == [13, 13, 13, 13]  # G-D1
        assert steps[0]["s"]["contract"] is None
        assert [x["a"]["type"] for x in steps[1:]] == kinds[hand_no]
        assert steps[1]["a"]["type"] == "choose" and steps[1]["s"]["contract"]
        for x in steps:
            s = x["s"]
            assert set(s) == SNAPSHOT_KEYS
            # every card is somewhere: in a hand, the trick, or a trick taken (G-C1)
            held = sum(map(len, s["hands"])) + len(s["trick"]) + sum(map(len, s["taken"]))
            assert held == 52
            assert sum(s["tricks"]) * 4 == sum(map(len, s["taken"]))
        plays = [x["a"] for x in steps if x["a"]["type"] == "play"]
        assert plays and all(len(p["card"]) == 2 for p in plays)
        last = steps[-1]["s"]
        assert last["over"] and last["scores"] == results[hand_no].scores
        assert match.seed not in text and '"salt"' not in text and "commitment" not in text


def test_the_replay_page_renders_for_a_player_in_turkish_and_english(finished, players):
    url = reverse("lobby:replay", args=[finished.pk])
    tr = client_for(players[0]).get(url)
    assert tr.status_code == 200
    html = tr.content.decode()
    assert "king/replay.js" in html and "king/table.css" in html
    assert 'id="kr-config"' in html and "okey/replay.js" not in html
    assert "Sonraki" in html and "1. el" in html
    en = client_for(players[0], "en").get(url).content.decode()
    assert "Next" in en and "Hand 1" in en
    record = client_for(players[0]).get(reverse("lobby:history_match", args=[finished.pk]))
    assert url in record.content.decode()  # the record links the replay again


def test_the_replay_is_refused_while_the_match_runs_and_to_a_non_player(players):
    match = play_out(new_match(players, "king-replay-2"), until=lambda m: m.actions.count() > 10)
    assert match.status == Match.Status.PLAYING
    outsider = User.objects.create_user(username="seyirci", password="kirmizi-yedi-okey-42")
    for user in (players[0], outsider):  # an unfinished match: nobody
        client = client_for(user)
        assert client.get(reverse("lobby:replay_hand", args=[match.pk, 1])).status_code == 404
        assert client.get(reverse("lobby:replay", args=[match.pk])).status_code == 404
    play_out(match)
    url = reverse("lobby:replay_hand", args=[match.pk, 1])
    assert client_for(outsider).get(url).status_code == 404  # never a non-player
    assert client_for(players[2]).get(url).status_code == 200
