"""The trial hand (K-X1): three scripted steps through the one service path, the hints
in the frames, the offer to a first-time player, skipping it, and no trace in history
or ranking."""

from __future__ import annotations

import pytest
from django.urls import reverse

from game import services, tutorial
from game.engine.errors import RuleError
from game.frames import match_frame
from game.models import Match, MatchAction
from games.kut.engine.match import MatchState
from games.okey.engine.tiles import tile_name
from lobby.history import match_history_for_user
from lobby.models import RankedMatch, Ranking, RankingResult
from tests.clients import client_for
from tests.history.play import play_out

pytestmark = pytest.mark.django_db(transaction=True)

KUT_OFFER = 'trial-offer" role="note" data-game="kut"'  # templates/history/_trial_banner.html


def state(match):
    match.refresh_from_db()
    return MatchState.from_dict(match.state).hand


def hint(match):
    match.refresh_from_db()
    return match_frame(match, 0)["match"]["trial"]


def act(match, action):
    match.refresh_from_db()
    return services.match_apply_action(match.pk, 0, action, match.version)


def refused(match, action) -> str:
    with pytest.raises(RuleError) as info:
        act(match, action)
    return info.value.code


def rack_id(match, face: str) -> str:
    hand = state(match)
    for tile in hand.racks[0].tiles():
        if tile_name(tile) == face:
            return hand.ids[tile]
    raise AssertionError(f"{face} not in the rack")


def test_the_three_steps_through_the_service(players):
    ali = players[0]
    match = tutorial.tutorial_create(ali, "kut")
    assert (match.kind, match.rated, match.options["tasks"]) == ("trial", False, 12)
    assert match.deadline is None  # unrated: no move timer (P-3)
    assert hint(match) == {"step": 1, "steps": 3, "hint": "open"}
    assert tutorial.tutorial_create(ali, "kut").pk == match.pk  # the running one, not a second

    # step 1: open the küt of 3 on the first turn (K-D3, K-O1), then discard
    assert refused(match, {"type": "discard", "tile_id": rack_id(match, "R1")}) == "not_opened"
    act(match, {"type": "arrange"})  # Diz: the task's küt set apart on the rack (K-R4)
    act(match, {"type": "open"})
    assert [len(g.tiles) for g in state(match).table] == [3]
    assert hint(match)["hint"] == "discard_open"
    act(match, {"type": "discard", "tile_id": rack_id(match, "R1")})
    # the bots took the tiles thrown to them and threw harmless ones: no claim came up
    hand = state(match)
    assert hand.turn == 0 and hand.phase == "take" and hand.turns_done == [1, 1, 1, 1]
    assert hint(match) == {"step": 2, "steps": 3, "hint": "draw"}

    # step 2: draw the black 7 and lay it off on the küt
    assert refused(match, {"type": "take_discard"}) == "must_draw"
    act(match, {"type": "draw"})
    assert hint(match)["hint"] == "lay_off"
    assert refused(match, {"type": "discard", "tile_id": rack_id(match, "R4")}) == (
        "trial_lay_off_first"
    )
    act(match, {"type": "lay_off", "tile_id": rack_id(match, "K7"), "group": 0})
    assert len(state(match).table[0].tiles) == 4
    assert hint(match)["hint"] == "discard_lay_off"
    act(match, {"type": "discard", "tile_id": rack_id(match, "R4")})

    # step 3: seat 1 throws B12, seat 2 draws instead and waits: the claim is open
    hand = state(match)
    assert hand.turn == 2 and hand.phase == "play" and hand.claimable
    assert tile_name(hand.thrown) == "B12"
    assert hint(match) == {"step": 3, "steps": 3, "hint": "claim"}
    assert match.bot_due is None  # the bot waits for the player
    act(match, {"type": "claim"})
    hand = state(match)
    assert [tile_name(t) for t in hand.picked[0]] == ["B12"]
    assert "Y5" in [tile_name(t) for t in hand.racks[0].tiles()]  # the penalty tile
    assert hint(match)["hint"] == "done"
    ali.refresh_from_db()
    assert "kut" in ali.tutorials_done  # not offered again
    assert hand.turn == 0  # the bots played on by themselves after the script

    # the trial ends with its one hand; replaying the log gives the same state
    match = play_out(match.pk)
    assert match.status == Match.Status.FINISHED
    assert MatchState.from_dict(match.state).hand_no == 1 and match.hand_results.count() == 1
    assert hint(match)["hint"] == "over"
    assert services.match_replay(match).to_dict() == MatchState.from_dict(match.state).to_dict()
    # nothing recorded: no history, no ranking
    assert list(match_history_for_user(ali)) == []
    assert not RankedMatch.objects.exists() and not RankingResult.objects.exists()
    assert not Ranking.objects.filter(user=ali).exists()
    assert client_for(ali).get(reverse("lobby:history_match", args=[match.pk])).status_code == 404
    assert client_for(ali).get(reverse("lobby:replay", args=[match.pk])).status_code == 404
    assert MatchAction.objects.filter(match=match, kind="claim", actor="human").count() == 1


def test_bots_never_claim_during_the_script_and_frames_of_other_matches_have_no_trial(players):
    match = tutorial.tutorial_create(players[0], "kut")
    act(match, {"type": "arrange"})
    act(match, {"type": "open"})
    act(match, {"type": "discard", "tile_id": rack_id(match, "K12")})
    claims = MatchAction.objects.filter(match=match, kind="claim")
    assert not claims.exists()
    kinds = list(
        MatchAction.objects.filter(match=match, actor="bot").values_list("seat", "kind", "payload")
    )
    assert [k[1] for k in kinds] == ["take_discard", "discard"] * 3
    assert [k[2].get("tile") for k in kinds if k[1] == "discard"] == ["K13", "R11", "Y1"]
    normal = services.match_create(
        game="kut", options={"tasks": 5}, users=[players[1], None, None, None], seed="n"
    )
    frame = match_frame(normal, 0)["match"]
    assert frame["kind"] == "normal" and "trial" not in frame and "rematch" not in frame


def test_a_first_time_player_is_offered_the_trial_and_can_skip_it(players):
    ali, ayse = players[:2]
    client = client_for(ali)
    home = client.get(reverse("home")).content.decode()
    assert "trial-offer" in home and KUT_OFFER in home and "Deneme Elini Oyna" in home
    assert "trial-offer" in client.get(reverse("accounts:profile")).content.decode()
    page = client.get(reverse("lobby:tutorial", args=["kut"]))
    assert page.status_code == 200 and "Geç" in page.content.decode()

    response = client.post(reverse("lobby:tutorial_skip", args=["kut"]), {"next": "/"})
    assert response.status_code == 302 and response["Location"] == "/"
    ali.refresh_from_db()
    assert "kut" in ali.tutorials_done
    home = client.get(reverse("home")).content.decode()
    assert KUT_OFFER not in home  # (another game's guided hand may still be offered)
    assert "Deneme Elini Oyna" in home  # it can still be played from the home page
    response = client.post(reverse("lobby:tutorial", args=["kut"]))
    match = Match.objects.get(kind="trial", seats__user=ali)
    assert response["Location"] == reverse("game:match", args=[match.pk])

    # a player who has already sat in a match is not offered it
    services.match_create(
        game="kut", options={"tasks": 5}, users=[ayse, None, None, None], seed="played", rated=False
    )
    assert not tutorial.tutorial_offer_due(ayse, "kut")
    assert KUT_OFFER not in client_for(ayse).get(reverse("home")).content.decode()
    assert not tutorial.tutorial_offer_due(None, "kut")


def test_skipping_a_running_trial_closes_it(players):
    ali = players[0]
    match = tutorial.tutorial_create(ali, "kut")
    response = client_for(ali).post(
        reverse("lobby:tutorial_skip", args=["kut"]), HTTP_ACCEPT="application/json"
    )
    assert response.json() == {"ok": True, "url": reverse("lobby:index")}
    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED  # no human left (K-X3)
    assert not RankingResult.objects.exists()
    assert tutorial.tutorial_running(ali, "kut") is None
    assert client_for(ali).get(reverse("lobby:tutorial_skip", args=["kut"])).status_code == 405
