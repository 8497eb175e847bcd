"""KDVli replays through the protocol's optional ``replay_snapshot`` (issue 18): one step
per action of the hand, all racks revealed as faces, the hand's final scores equal to
its HandResult row, no seed, salt or tile id, and only for the match's players once the
match is over (lobby.history.match_visible_to)."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.urls import reverse

from accounts.models import User
from game import services
from game.models import HandResult, Match
from games.kdvli.engine import GAME as KDVLI
from lobby import history
from tests.clients import client_for
from tests.history.play import play_as_humans

pytestmark = pytest.mark.django_db

SNAPSHOT_KEYS = {
    "hand_no", "indicator", "okey", "starter", "turn", "deck", "thrown", "thrower",
    "claimable", "racks", "counts", "table", "discards", "shown", "bonuses", "over", "void",
    "finisher", "finish_tile", "finish_kind", "multiplier", "scores", "totals",
}  # fmt: skip


def play_out(match: Match, until=None) -> Match:
    """Every seat moves as the hard bot would, as a human would send it."""
    return play_as_humans(match, level="hard", rng=random.Random(11), until=until)


@pytest.fixture
def finished(players):
    match = services.match_create(
        game="kdvli", options={"hands": 3}, users=players, host=players[0], rated=False,
        seed="kdvli-replay",
    )  # fmt: skip
    return play_out(match)


def test_the_replay_has_one_step_per_action_and_ends_in_the_hand_result(finished, players):
    match = finished
    results = {r.hand_no: r for r in HandResult.objects.filter(match=match)}
    assert sorted(results) == [1, 2, 3]
    # this seed has a void hand dealt again (V-M5): still three hands to replay
    assert match.actions.filter(kind__in=("start", "next_hand")).count() > 3
    assert history.hands_played(match) == 3
    client = client_for(players[1])
    for hand_no in (1, 2, 3):
        response = client.get(reverse("lobby:replay_hand", args=[match.pk, hand_no]))
        assert response.status_code == 200
        text = response.content.decode()
        data = json.loads(text)
        assert data["game"] == "kdvli" and data["hand_no"] == hand_no
        assert data["okey"] and data["indicator"]
        steps = data["steps"]
        assert steps[0]["a"] == {"type": "deal"}
        assert sum(steps[0]["s"]["counts"]) == 57  # V-D1: 15 + 3 × 14
        for s in steps:
            assert set(s["s"]) == SNAPSHOT_KEYS and s["s"]["table"] == []
            assert sum(len(seg) for seg in s["s"]["racks"][0]) == s["s"]["counts"][0]
        # one step per action of the hand that is not a private rack arrangement (a
        # void hand dealt again under the same number, V-M5, starts the steps again)
        kinds: list[str] = []
        current = 0
        for act, st in services.match_replay_iter(match):
            if act.kind in ("start", "next_hand"):
                current = len(KDVLI.hand_results(st)) + 1
                kinds = [] if current == hand_no else kinds
            elif current == hand_no and act.kind not in KDVLI.private_kinds:
                kinds.append(act.kind)
        assert [x["a"]["type"] for x in steps[1:]] == kinds
        discards = [x["a"] for x in steps if x["a"]["type"] == "discard"]
        assert discards and all(re.fullmatch(r"[RYBK]\d{1,2}|F", d["tile"]) for d in discards)
        last = steps[-1]["s"]
        assert last["over"] and last["scores"] == results[hand_no].scores
        assert match.seed not in text and '"salt"' not in text and "commitment" not in text
        assert "tile_id" not in text and re.search(r'"[0-9a-f]{10}"', text) is None


def test_the_replay_page_renders_for_a_player(finished, players):
    response = client_for(players[0]).get(reverse("lobby:replay", args=[finished.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "okey/replay.js" in html and 'id="rp-config"' in html
    assert "Açılan gruplar" not in html and "Open groups" not in html  # no table groups (V-F1)
    record = client_for(players[0]).get(reverse("lobby:history_match", args=[finished.pk]))
    assert reverse("lobby:replay", args=[finished.pk]) in record.content.decode()


def test_the_replay_is_refused_while_the_match_runs_and_to_a_non_player(players):
    match = services.match_create(
        game="kdvli", options={"hands": 3}, users=players, host=players[0], rated=False,
        seed="kdvli-replay-2",
    )  # fmt: skip
    play_out(match, until=lambda m: m.actions.count() > 12)
    match.refresh_from_db()
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


def test_the_okey_games_share_one_replay_page():
    """KÜT and KDVli Okey replay through their own ``replay_snapshot`` on the okey family's
    replay page (games/okey/templates/okey/replay.html); King has a page of its own."""
    from game.engine import registry
    from game.web import web

    assert registry.get("kut").replay_snapshot is not None
    assert web("kut").replay_template == web("kdvli").replay_template == "okey/replay.html"
    assert web("king").replay_template == "king/replay.html"


def test_a_log_the_engine_no_longer_replays_is_a_404_not_a_crash(finished, players):
    """A finish logged before ``group_ids`` was kept (the old log form) cannot be
    replayed: the replay and the scenario download answer 404, never a stack trace."""
    act = finished.actions.filter(kind="finish").order_by("version").first()
    act.payload = {k: v for k, v in act.payload.items() if k != "group_ids"}
    act.payload["groups"] = [["R1"]]
    act.save(update_fields=["payload"])
    client = client_for(players[0])
    for name in ("lobby:replay_hand", "lobby:scenario"):
        assert client.get(reverse(name, args=[finished.pk, 1])).status_code == 404
