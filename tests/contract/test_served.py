"""Issue 29's contract: every platform feature works the same in every game — the five
and the test suite's toy game, taken from the registry, none named here.

* a rules guide in Turkish and English, also framed by the table's "?" dialog;
* a timeout is announced: the engine says what the timer did (``timeout_notes``) and the
  frame carries it to every seat (``match.timeouts``), public facts only;
* the replaced tab can take the table back: a second socket of the same seat replaces
  the first (told why), and reconnecting takes the seat back from the second;
* the match record and the history list speak the game's own words: its name, its
  options, and whether the highest or the lowest total wins (as its result ranks).
"""

from __future__ import annotations

import html
import json
import random
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation

from game import frames, services
from game import web as game_web
from game.engine import registry
from game.models import Match
from tests.game.conftest import connect, receive, session_cookie
from tests.history.play import play_as_humans

GAMES = [key for key in registry.GAMES if game_web.playable(key)]


def test_the_contract_covers_the_toy_game_too():
    assert "toy" in GAMES and len(GAMES) >= 6


def _match(game: str, tag: str, rated: bool = True) -> Match:
    spec = registry.get(game)
    User = get_user_model()
    users = [User.objects.create_user(f"{game[:4]}{tag}{i}", password="pw-pw-pw-123")
             for i in range(spec.seat_counts[-1])]  # fmt: skip
    return services.match_create(game=game, options={}, users=users, rated=rated,
                                 seed=f"served-{game}-{tag}")  # fmt: skip


# --- the guide ---------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("language", ["tr", "en"])
def test_every_game_has_its_guide_in_both_languages(game, language):
    assert set(game_web.web(game).guide_templates) >= {"tr", "en"}, game
    client = Client()
    client.cookies["django_language"] = language
    page = client.get(reverse("guide", args=[game]), HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    assert f'lang="{language}"' in page.content.decode()
    framed = client.get(reverse("guide", args=[game]) + "?embed=1")  # the table's "?"
    assert framed.status_code == 200 and framed["X-Frame-Options"] == "SAMEORIGIN"


# --- the timeout notice ------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_a_timeout_is_announced_to_every_seat_in_the_frame(game):
    spec = registry.get(game)
    assert spec.timeout_notes is not None, f"{game}: no timeout_notes (a silent timeout)"
    m = _match(game, "to")
    (seat,) = spec.to_act(spec.from_dict(m.state))
    assert spec.timeout_notes(spec.from_dict(m.state)) == []  # nothing before a timeout
    assert m.deadline is not None, f"{game}: a rated table has a move clock (P-6)"
    assert services.match_expire_turn(m.pk, m.version, now=m.deadline + timedelta(seconds=1))
    m.refresh_from_db()
    notes = spec.timeout_notes(spec.from_dict(m.state))
    mine = [n for n in notes if n["seat"] == seat]
    assert len(mine) == 1, notes
    assert {"seat", "hand_no", "at"} <= set(mine[0])
    seats = list(m.seats.all())
    for viewer in range(len(seats)):
        frame = frames.match_frame(m, viewer, seats)
        assert frame["match"]["timeouts"] == notes  # public: everyone sees the same note


# --- the replaced tab takes the table back -----------------------------------------------


async def _next(comm, kind: str) -> dict:
    for _ in range(30):
        out = await comm.receive_output(timeout=10)
        assert out["type"] != "websocket.close", f"closed before a {kind} frame"
        frame = json.loads(out["text"])
        if frame.get("type") == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", GAMES)
async def test_the_replaced_tab_can_take_the_table_back(game):
    m = await sync_to_async(_match)(game, "tb", rated=False)
    user = await sync_to_async(lambda: m.seats.get(seat=0).user)()
    cookie = await sync_to_async(session_cookie)(user)
    first, ok, _ = await connect(m.pk, cookie)
    assert ok and (await receive(first))["type"] == "state"
    second, ok, _ = await connect(m.pk, cookie)
    assert ok
    assert (await _next(first, "error"))["code"] == "replaced"
    again, ok, _ = await connect(m.pk, cookie)  # the first tab's "Burada oyna"
    assert ok
    assert (await _next(second, "error"))["code"] == "replaced"
    frame = await _next(again, "state")
    assert frame["me"] == 0 and frame["version"] == m.version
    await again.disconnect()


# --- the record speaks the game's words --------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_the_match_record_speaks_the_games_own_words(game):
    spec = registry.get(game)
    m = play_as_humans(_match(game, "rw"), level="easy", rng=random.Random(5))
    client = Client()
    client.force_login(m.seats.get(seat=0).user)
    with translation.override("en"):
        options = str(game_web.web(game).options_text(m.options))
    client.cookies["django_language"] = "en"
    page = client.get(reverse("lobby:history_match", args=[m.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    text = html.unescape(page.content.decode())
    assert spec.name in text
    if options:
        assert options in text
    lowest = "the lowest total wins" in text
    highest = "the highest total wins" in text
    assert lowest != highest, "the record says which total wins"
    result = spec.match_result(spec.from_dict(m.state))
    best = min(result.totals) if lowest else max(result.totals)
    assert result.places[result.totals.index(best)] == 1, "as the game's own result ranks"
    listed = client.get(reverse("lobby:history"), HTTP_ACCEPT_LANGUAGE="en")
    if options:
        assert options in html.unescape(listed.content.decode())  # the list: no KÜT "tasks"
