"""King's guided first hand (issue 29, as KÜT's trial K-X1): four scripted steps of one
Kupa almaz hand through the one service path, the hints in the frames, the moves that
would leave the script refused, and no trace in history or ranking."""

from __future__ import annotations

import json
import random

import pytest
from django.urls import reverse

from game import services, tutorial
from game.engine.errors import RuleError
from game.frames import match_frame
from game.models import Match
from games.king.engine import GAME, bots
from games.king.engine.match import MatchState
from games.king.engine.tutorial import DEAL, SCRIPT
from games.king.engine.views import view_for
from games.king.web import WEB
from lobby.history import match_history_for_user
from lobby.models import RankingResult
from tests.clients import client_for

pytestmark = pytest.mark.django_db(transaction=True)


def state(match) -> MatchState:
    match.refresh_from_db()
    return MatchState.from_dict(match.state)


def hint(match) -> dict:
    match.refresh_from_db()
    return match_frame(match, 0)["match"]["trial"]


def act(match, action):
    match.refresh_from_db()
    return services.match_apply_action(match.pk, 0, action, match.version)


def refused(match, action) -> str:
    before = state(match).to_dict()
    with pytest.raises(RuleError) as info:
        act(match, action)
    assert state(match).to_dict() == before  # a refused move changes nothing
    return info.value.code


def test_the_four_steps_through_the_service(players):
    ali = players[0]
    assert "king" in tutorial.tutorial_games()
    match = tutorial.tutorial_create(ali, "king")
    assert (match.kind, match.rated, match.options["length"]) == ("trial", False, 4)
    assert match.deadline is None  # unrated: no move timer (P-3)
    hand = state(match).hand
    assert hand.chooser == 0 and [len(h) for h in hand.hands] == [13] * 4
    frame = match_frame(match, 0)
    assert frame["hand"]["hand"] == sorted(
        DEAL[0], key=lambda c: ("SHCD".index(c[1]), "AKQJT98765432".index(c[0]))
    )
    assert frame["hand"]["choice"] is not None  # the choice panel (G-Q2)
    assert hint(match) == {"step": 1, "steps": 4, "hint": "choose"}
    assert "AS" not in json.dumps(frame["hand"])  # G-V2: another seat's cards are never sent

    # step 1: choose Kupa almaz; any other contract is refused
    assert (
        refused(match, {"type": "choose", "contract": "koz", "trump": "C"})
        == "tutorial_choose_kupa"
    )
    act(match, {"type": "choose", "contract": "kupa_almaz"})
    assert state(match).hand.contract == "kupa_almaz"
    assert hint(match) == {"step": 2, "steps": 4, "hint": "lead"}

    # step 2: lead the 2 of clubs (hearts may not be led: G-P6)
    assert refused(match, {"type": "play", "card": "AC"}) == "tutorial_card"
    assert refused(match, {"type": "play", "card": "2H"}) == "hearts_not_broken"
    act(match, {"type": "play", "card": "2C"})
    # the bots played their scripted cards: seat 2 took trick 1, led 9D, seat 3 followed
    hand = state(match).hand
    assert [hand.tricks[0][2], hand.turn] == [2, 0]
    assert hint(match) == {"step": 3, "steps": 4, "hint": "follow"}

    # step 3: follow suit with the low diamond (G-P2)
    assert refused(match, {"type": "play", "card": "2C"}) in ("must_follow_suit", "not_in_hand")
    assert refused(match, {"type": "play", "card": "QD"}) == "tutorial_card"
    act(match, {"type": "play", "card": "3D"})
    assert hint(match) == {"step": 4, "steps": 4, "hint": "heart"}

    # step 4: no spade: a heart must be played (G-P7)
    assert refused(match, {"type": "play", "card": "6C"}) == "must_play_penalty_card"
    assert refused(match, {"type": "play", "card": "2H"}) == "tutorial_card"
    act(match, {"type": "play", "card": "QH"})
    st = state(match)
    played = [(ld + i) % 4 for ld, cs, _ in st.hand.tricks for i, _ in enumerate(cs)]
    assert len(played) >= len(SCRIPT) and st.hand.tricks[2][2] == 1  # seat 1 took the queen
    assert hint(match)["hint"] in ("done", "over")
    ali.refresh_from_db()
    assert "king" in ali.tutorials_done  # not offered again

    # then the bots and the player play freely; the guided match ends with its one hand
    rng = random.Random(3)
    for _ in range(200):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            break
        st = state(match)
        view = json.loads(json.dumps(view_for(st, 0)))
        act(match, bots.choose(view, "easy", rng))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    st = state(match)
    assert st.hand_no == 1 and st.over and match.hand_results.count() == 1
    assert hint(match)["hint"] == "over"
    assert services.match_replay(match).to_dict() == st.to_dict()
    assert list(match_history_for_user(ali)) == []  # recorded nowhere
    assert not RankingResult.objects.exists()


def test_the_hints_and_the_refusals_have_words():
    hints = WEB.tutorial_strings()
    for key in ("choose", "lead", "follow", "heart", "wait", "done", "over"):
        assert hints[key], key
    assert "Kupa" in hints["choose"] or "hearts" in hints["choose"]
    errors = WEB.error_messages()
    assert errors["tutorial_choose_kupa"] and errors["tutorial_card"]
    assert WEB.tutorial_about()


def test_the_offer_page_for_king(players):
    client = client_for(players[1])
    page = client.get(reverse("lobby:tutorial", args=["king"]))
    assert page.status_code == 200 and "King" in page.content.decode()
    assert GAME.tutorial.options == {"length": 4, "rated": False}
