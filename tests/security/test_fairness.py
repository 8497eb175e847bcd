"""Provably fair shuffles in a played match (issue 11): every hand publishes a SHA-256
commitment when it starts and reveals the salt and the dealt order when it is over; the
commitment matches the reveal, the reveal is the real deal, and changing one tile (or
the salt) breaks it.  The verify page recomputes it in the browser: success for a real
hand, failure for a tampered order."""

from __future__ import annotations

import os
import random
from urllib.parse import urlencode

import pytest
from django.test import Client
from django.urls import reverse

from game import services
from game.engine.fair import SeededRNG, commitment
from game.fairness import verify_url
from game.models import Match
from games.kut.engine.deal import new_hand
from games.kut.engine.randomplay import play_random_hand
from games.kut.engine.views import view_for
from games.okey.engine.tiles import face_name, face_of
from tests.security.test_hidden_information import states_by_version
from tests.security.world import play_out

FACES = [face_name(f) for f in range(53)]


def _tamper(order: list[str], rng: random.Random) -> list[str]:
    """The order with one tile changed to another face."""
    changed = list(order)
    i = rng.randrange(len(order))
    changed[i] = rng.choice([f for f in FACES if f != order[i]])
    return changed


def _hands(match: Match) -> list[tuple[dict, dict, object]]:
    """Per hand: the ``fair`` part of seat 0's view at its first version, at its last,
    and the hand as dealt."""
    states = states_by_version(match)
    by_hand: dict[int, list[int]] = {}
    for version, hand in sorted(states.items()):
        by_hand.setdefault(hand.task_no, []).append(version)
    out = []
    for versions in by_hand.values():
        first, last = states[versions[0]], states[versions[-1]]
        out.append((view_for(first, 0)["fair"], view_for(last, 0)["fair"], first))
    return out


@pytest.mark.django_db
def test_every_hand_of_a_played_match_keeps_its_commitment(settings):
    from tests.security.conftest import make_user

    settings.KUT_TURN_SECONDS = 3600
    player = make_user("adil")
    m = services.match_create(game="kut", options={"tasks": 5}, users=[player, None, None, None], rated=False,
                              bot_levels=["", "easy", "easy", "easy"], seed="fair-match")  # fmt: skip
    m = play_out(m.pk, seed=3)
    assert m.status == Match.Status.FINISHED
    hands = _hands(m)
    assert len(hands) == 5
    rng = random.Random(7)
    seen = set()
    for during, after, dealt in hands:
        # during the hand: the commitment only; after it: the salt and the order too
        assert set(during) == {"commitment"} and len(during["commitment"]) == 64
        assert after["commitment"] == during["commitment"]
        assert commitment(after["order"], after["salt"]) == during["commitment"]
        # the revealed order is the real deal: the indicator, the racks, the deck
        racks = [[face_name(face_of(t)) for t in dealt.racks[s].tiles()] for s in range(4)]
        assert after["order"][0] == face_name(face_of(dealt.indicator))
        pos = 1
        for s in range(4):
            assert sorted(after["order"][pos : pos + len(racks[s])]) == sorted(racks[s])
            pos += len(racks[s])
        assert after["order"][pos:] == [face_name(face_of(t)) for t in reversed(dealt.deck)]
        # one tile changed, two tiles swapped, another salt: the commitment no longer holds
        for _ in range(20):
            assert commitment(_tamper(after["order"], rng), after["salt"]) != after["commitment"]
        i = next(i for i in range(1, 106) if after["order"][i] != after["order"][0])
        swapped = list(after["order"])
        swapped[0], swapped[i] = swapped[i], swapped[0]
        assert commitment(swapped, after["salt"]) != after["commitment"]
        assert commitment(after["order"], "0" * 32) != after["commitment"]
        seen.add(during["commitment"])
    assert len(seen) == 5  # a fresh commitment (and salt) for every hand


@pytest.mark.django_db
def test_the_verify_page_takes_its_values_from_the_query_string_and_checks_their_shape():
    client = Client(raise_request_exception=False)
    url = reverse("game:verify")
    assert client.get(url).status_code == 200  # the empty form
    good = {"commitment": "a" * 64, "salt": "b" * 32, "order": ",".join(["R1"] * 106)}
    response = client.get(url + "?" + urlencode(good))
    assert response.status_code == 200 and response.context["check"]["order"] == ["R1"] * 106
    assert 'id="verify-data"' in response.content.decode()
    spaced = client.get(url + "?" + urlencode({**good, "order": ", ".join(["K13"] * 106)}))
    assert spaced.status_code == 200 and spaced.context["check"]["order"] == ["K13"] * 106
    for bad in ({"commitment": "xyz"}, {**good, "commitment": "g" * 64},
                {**good, "salt": "<script>alert(1)</script>"},
                {**good, "order": "R1,R2"}, {**good, "order": ",".join(["R14"] * 106)},
                {**good, "order": "A" * 5000}, {**good, "salt": "ş" * 200}):  # fmt: skip
        response = client.get(url + "?" + urlencode(bad))
        assert response.status_code == 400, bad
        assert response.context["form"].errors and response.context["check"] is None
        assert "<script>alert(1)" not in response.content.decode()


# --- in the browser ----------------------------------------------------------------------

from tests.e2e.conftest import browser_type_launch_args  # noqa: E402, F401 (chromium)


@pytest.fixture(scope="module")
def orm_beside_playwright():
    """Playwright's sync API runs an event loop in this thread, and live_server's
    database clean-up runs here too (after the test: hence module scope)."""
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    yield
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def real_hand() -> dict:
    """The ``fair`` part of a view after a real hand, played by the engine (in the
    browser test no service may broadcast: Playwright's loop runs in this thread)."""
    hand = new_hand(5, 1, 2, SeededRNG("fair-browser"))
    play_random_hand(hand, random.Random(4))
    fair = view_for(hand, 0)["fair"]
    assert set(fair) == {"commitment", "salt", "order"}
    return fair


@pytest.mark.slow
def test_the_verify_page_checks_a_real_hand_in_the_browser(orm_beside_playwright, real_hand,
                                                           live_server, page):  # fmt: skip
    from playwright.sync_api import expect

    from tests.e2e.conftest import watch_console

    errors = watch_console(page, [])
    fair = real_hand
    page.goto(live_server.url + verify_url(fair))
    result = page.locator("#verify-result")
    expect(result).to_have_attribute("data-state", "ok")
    expect(page.locator("#verify-computed")).to_have_text(fair["commitment"])
    tampered = {**fair, "order": _tamper(fair["order"], random.Random(1))}
    page.goto(live_server.url + verify_url(tampered))
    expect(result).to_have_attribute("data-state", "mismatch")
    assert page.locator("#verify-computed").inner_text() != fair["commitment"]
    assert errors == []
