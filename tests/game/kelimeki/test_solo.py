"""Kelimeki against the AI without an account (issue 21, item 2; kelimeki.md W-X1, W-M2,
W-M7, W-T5): the game lives in the session, nothing is recorded, bad input changes
nothing, the preview answers without changing anything, a reload resumes the game.  The
whole game in a browser is tests/e2e/test_kelimeki.py."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from game.kelimeki_solo import SESSION_KEY
from game.models import Match
from games.kelimeki.engine import GAME, bots
from games.kelimeki.web import final_result

pytestmark = pytest.mark.django_db


def start(client: Client, **fields) -> dict:
    data = {"level": "normal", "players": "2", **fields}
    response = client.post(reverse("kelimeki:solo_new"), data)
    assert response.status_code == 302 and response.url == reverse("kelimeki:solo")
    return state(client)


def state(client: Client) -> dict:
    response = client.get(reverse("kelimeki:solo_state"))
    assert response.status_code == 200
    return response.json()


def post(client: Client, name: str, body) -> tuple[int, dict]:
    raw = body if isinstance(body, (bytes, str)) else json.dumps(body)
    response = client.post(reverse(f"kelimeki:{name}"), raw, content_type="application/json")
    return response.status_code, response.json()


def test_a_guest_starts_a_game_and_the_page_resumes_it():
    client = Client(HTTP_ACCEPT_LANGUAGE="tr")
    page = client.get(reverse("kelimeki:solo"))
    html = page.content.decode()
    assert page.status_code == 200 and "kelimeki:solo_new" not in html
    assert 'data-mode="solo"' in html and "Yapay Zekaya karşı yeni oyun" in html
    assert 'id="kk-frame"' in html and "null" in html.split('id="kk-frame"')[1][:40]
    frame = start(client)
    assert frame["type"] == "state" and frame["me"] == 0 and frame["match"]["kind"] == "solo"
    hand = frame["hand"]
    assert hand["seat"] == 0 and len(hand["rack"]) == 7 and hand["players"] == 2
    assert hand["turn"] == 0  # the AI moved at once if it started (W-M1)
    # W-T5, P-1: no other rack, no bag order, no secret in the frame
    text = json.dumps(frame)
    assert '"bag"' not in text and '"racks"' not in text and "secret" not in text
    assert "seed" not in text
    # a reload renders the same game into the page
    html = client.get(reverse("kelimeki:solo")).content.decode()
    embedded = json.loads(re.search(r'id="kk-frame"[^>]*>(.*?)</script>', html, re.S).group(1))
    assert embedded["hand"]["rack"] == hand["rack"] and embedded["version"] == frame["version"]
    assert not Match.objects.exists()  # W-X1: recorded nowhere


def test_bad_input_is_refused_with_a_reason_and_changes_nothing():
    client = Client()
    frame = start(client)
    before = client.session[SESSION_KEY]["state"]
    for body, code in [
        (b"{not json", "bad_action"),
        ([1, 2], "bad_action"),
        ({"action": {"type": "teleport"}}, "unknown_action"),
        ({"action": {"type": "play", "placements": [{"row": "a", "col": 1, "letter": "A"}]}},
         "bad_action"),
        ({"action": {"type": "play", "placements": [{"row": 7, "col": 7, "letter": "Q"}]}},
         "bad_action"),
        ({"action": {"type": "play", "placements": [{"row": 99, "col": 7, "letter": "A"}]}},
         None),
        ({"action": {"type": "exchange", "letters": ["Q"]}}, "bad_action"),
        ({"action": {"type": "pass"}, "version": frame["version"] + 5}, "stale_version"),
    ]:  # fmt: skip
        status, answer = post(client, "solo_action", body)
        assert status in (400, 409) and answer["type"] == "error", body
        assert answer["message"] and "Traceback" not in answer["message"]
        if code:
            assert answer["code"] == code, (body, answer)
    assert client.session[SESSION_KEY]["state"] == before
    # no game at all: a clear error, not a crash
    status, answer = post(Client(), "solo_action", {"action": {"type": "pass"}})
    assert status == 404 and answer["code"] == "no_game"


def test_the_preview_tells_valid_from_invalid_and_changes_nothing(settings):
    """W-M7: the preview gives each word's validity, the points and the shares."""
    settings.DEBUG, settings.KUT_TEST_SEEDS = True, True  # the seed's rack has a word
    client = Client()
    frame = start(client, seed="solo-preview")
    view = frame["hand"]
    before = dict(client.session[SESSION_KEY])
    move = bots.best_move(view)
    assert move is not None
    placements = move.to_action()["placements"]
    status, answer = post(client, "solo_preview", {"placements": placements})
    assert status == 200 and answer["ok"] is True and answer["points"] > 0
    assert answer["shares"][0] == answer["points"]  # nobody's zone touched yet
    # the same tiles in a nonsense order: not a word (or not a legal play)
    wrong = [dict(p, col=p["col"] + 5, row=p["row"] + 5) for p in placements]
    status, answer = post(client, "solo_preview", {"placements": wrong})
    assert status == 200 and answer["ok"] is False and answer["error"]
    status, answer = post(client, "solo_preview", b"[]")
    assert status == 400
    assert dict(client.session[SESSION_KEY]) == before


def test_a_play_is_answered_by_the_ai_in_the_same_request(settings):
    settings.DEBUG, settings.KUT_TEST_SEEDS = True, True  # the seed's rack has a word
    client = Client()
    frame = start(client, seed="solo-play", level="hard")
    move = bots.best_move(frame["hand"])
    status, after = post(client, "solo_action",
                         {"action": move.to_action(), "version": frame["version"]})  # fmt: skip
    assert status == 200 and after["type"] == "state"
    log = after["match"]["log"]
    mine = [e for e in log if e["seat"] == 0 and e["type"] == "play"]
    assert len(mine) == 1 and mine[0]["shares"][0] == move.kept  # the preview's kept points
    # the human's score: the play's kept points, plus any tax the AI's replies paid (W-Z6)
    assert after["hand"]["scores"][0] == sum(e["shares"][0] for e in log if e["type"] == "play")
    assert after["version"] >= frame["version"] + 2  # the AI moved too
    assert after["hand"]["turn"] == 0 or after["hand"]["over"]
    kinds = [e["type"] for e in after["match"]["log"]]
    assert kinds[-2] == "play" and after["match"]["log"][-2]["seat"] == 0
    assert not Match.objects.exists()


def test_a_whole_short_game_ends_with_a_result(settings):
    """A test-only short bag (KUT_TEST_SEEDS): the game ends by going out or passes."""
    settings.DEBUG, settings.KUT_TEST_SEEDS = True, True
    client = Client()
    frame = start(client, seed="solo-short", bag="4", level="easy")
    assert frame["hand"]["bag_count"] <= 4  # the AI may have started and drawn
    for _ in range(60):
        if frame["hand"]["over"]:
            break
        move = bots.best_move(frame["hand"])
        action = move.to_action() if move else {"type": "pass"}
        status, frame = post(client, "solo_action", {"action": action, "version": frame["version"]})
        assert status == 200, frame
    hand = frame["hand"]
    assert hand["over"] and frame["match"]["status"] == "finished"
    result = final_result(hand, ["Sen", "Yapay Zeka"])
    assert result["winners"] == frame["match"]["winners"]
    assert [r["score"] for r in sorted(result["rows"], key=lambda r: r["seat"])] == hand["scores"]
    status, answer = post(client, "solo_action", {"action": {"type": "pass"}})
    assert status == 400 and answer["code"] == "game_over"


def test_seeds_and_short_bags_are_for_tests_only(settings):
    settings.DEBUG, settings.KUT_TEST_SEEDS = True, False
    client = Client()
    frame = start(client, seed="x", bag="3")
    assert frame["hand"]["bag_count"] + sum(frame["hand"]["rack_counts"]) >= 86


def test_the_live_table_renders_the_board_and_its_preview_is_seat_only(players):
    from game import services

    match = services.match_create(game="kelimeki", options={}, users=players[:2],
                                  host=players[0], rated=False)  # fmt: skip
    client = Client(HTTP_ACCEPT_LANGUAGE="tr")
    client.force_login(players[0])
    html = client.get(reverse("game:match", args=[match.pk])).content.decode()
    assert 'data-mode="live"' in html and 'id="kk-strings"' in html
    st = GAME.from_dict(match.state)
    view = GAME.view_for(st, 0)
    url = reverse("kelimeki:match_preview", args=[match.pk])
    placements = [{"row": 0, "col": 0, "letter": view["rack"][0]
                   if view["rack"][0] != "*" else "A", "joker": view["rack"][0] == "*"}]  # fmt: skip
    answer = client.post(url, json.dumps({"placements": placements}),
                         content_type="application/json").json()  # fmt: skip
    assert answer["ok"] is False and answer["error"] == "no_word"
    outsider = Client()
    outsider.force_login(players[2])
    response = outsider.post(url, json.dumps({"placements": placements}),
                             content_type="application/json")  # fmt: skip
    assert response.status_code == 404


def test_the_final_result_renders_for_other_pages():
    """games.kelimeki.web.final_result + templates/kelimeki/_result.html (W-E5:
    equal scores share a place; W-E6: a forfeited seat has none)."""
    from django.template.loader import render_to_string

    view = {"scores": [50, 50, 40, 12], "deducted": [0, 3, 5, 0], "ranks": [1, 1, 3, None],
            "forfeited": [False, False, False, True], "end": "passes"}  # fmt: skip
    result = final_result(view, ["Ali", "Ayşe", "Can", "Deniz"])
    assert result["winners"] == [0, 1] and [r["seat"] for r in result["rows"]] == [0, 1, 2, 3]
    html = render_to_string("kelimeki/_result.html", {"result": result})
    assert "Ayşe" in html and "−5" in html and html.count("<tr") == 5


def test_the_live_frame_of_a_kelimeki_match_holds_only_the_seats_view(players):
    from game import frames, services

    match = services.match_create(game="kelimeki", options={}, users=players[:2],
                                  host=players[0], rated=False)  # fmt: skip
    frame = frames.match_frame(match, 1)
    assert frame["type"] == "state" and frame["me"] == 1 and frame["hand"]["seat"] == 1
    text = json.dumps(frame)
    assert "secret" not in text and '"bag"' not in text and '"racks"' not in text


def test_four_players_against_three_ais_and_csrf_is_required():
    client = Client()
    frame = start(client, players="4", level="hard")
    hand = frame["hand"]
    assert hand["players"] == 4 and len(frame["match"]["seats"]) == 4
    assert [s["bot"] for s in frame["match"]["seats"]] == [None, "hard", "hard", "hard"]
    assert hand["turn"] == 0 and hand["rack_counts"][1:] == [7, 7, 7]
    # a POST without the CSRF token is refused (the page sends X-CSRFToken)
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = client.cookies
    response = strict.post(reverse("kelimeki:solo_action"), json.dumps({"action": {"type": "pass"}}),
                           content_type="application/json")  # fmt: skip
    assert response.status_code == 403
    assert state(client)["version"] == frame["version"]


def test_an_untouched_guest_game_is_gone_after_seven_days(monkeypatch):
    """W-X3: a guest's game against the AI not resumed within 7 days is deleted."""
    import time as real_time

    from game import kelimeki_solo

    client = Client()
    start(client)
    later = real_time.time() + kelimeki_solo.KEEP_SECONDS + 60
    monkeypatch.setattr(kelimeki_solo.time, "time", lambda: later)
    response = client.get(reverse("kelimeki:solo_state"))
    assert response.status_code == 404 and response.json()["code"] == "no_game"


def test_a_guest_finds_the_game_against_the_ai_on_the_home_page():
    html = Client(HTTP_ACCEPT_LANGUAGE="tr").get(reverse("home")).content.decode()
    assert f'href="{reverse("kelimeki:solo")}"' in html
    assert "Yapay Zekaya karşı oyna — hesap gerekmez" in html


def test_a_broken_saved_game_is_dropped_not_a_crash():
    client = Client()
    start(client)
    session = client.session
    session[SESSION_KEY] = {**session[SESSION_KEY], "state": {"players": 2}}
    session.save()
    assert client.get(reverse("kelimeki:solo")).status_code == 200
    assert client.get(reverse("kelimeki:solo_state")).status_code == 404


def test_an_ai_that_fails_passes_instead_of_leaving_the_guest_stuck(monkeypatch):
    from games.kelimeki.engine import bots as bot_module

    client = Client()
    frame = start(client)
    monkeypatch.setattr(bot_module, "choose", lambda *a: 1 / 0)
    status, after = post(
        client, "solo_action", {"action": {"type": "pass"}, "version": frame["version"]}
    )
    assert status == 200 and after["hand"]["turn"] == 0
    assert [e["type"] for e in after["match"]["log"][-2:]] == ["pass", "pass"]


def test_the_board_speaks_english_too():
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    html = client.get(reverse("kelimeki:solo")).content.decode()
    assert "A new game against the AI" in html and ">Exchange<" in html and ">Pass<" in html
    strings = json.loads(re.search(r'id="kk-strings"[^>]*>(.*?)</script>', html, re.S).group(1))
    assert strings["errors"]["not_connected"] == "Your word must touch a tile already on the board."
    html = Client(HTTP_ACCEPT_LANGUAGE="tr").get(reverse("kelimeki:solo")).content.decode()
    assert ">Değiştir<" in html and ">Pas Geç<" in html and ">Karıştır<" in html
    assert ">Geri Al<" in html and ">Oyna<" in html
