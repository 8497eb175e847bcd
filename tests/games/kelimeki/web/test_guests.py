"""Kelimeki against the AI without an account (issue 21, item 2; issue 27; kelimeki.md
W-X1, W-X3, W-M2, W-M7, W-T5): a guest's game is an unrecorded platform match whose
human seat is bound to the visitor's session (``game.guests``), played over the match
socket like every match, the AI in the background at the site's bot pace (issue 29: the
player's word first, the AI's as a later frame).  The whole game in a browser is
tests/e2e/test_kelimeki.py; the limits are tests/security/test_guest_limits.py; the
race of two actions at one version tests/game/test_guest_race.py."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from game import guests, services
from game.models import Match, MatchAction, MatchSeat
from games.kelimeki.engine import GAME, bots
from games.kelimeki.web import final_result
from tests.game.conftest import connect, receive, session_cookie
from tests.game.test_consumer import next_error
from tests.games.kelimeki.engine.test_properties import leak_free

# real commits: the AI answers after each commit (inline here: fast bots in tests)
pytestmark = pytest.mark.django_db(transaction=True)


def start(client: Client, **fields) -> Match:
    data = {"level": "normal", "players": "2", **fields}
    response = client.post(reverse("kelimeki:solo_new"), data)
    assert response.status_code == 302 and response.url == reverse("kelimeki:solo")
    return Match.objects.filter(kind=Match.Kind.GUEST).latest("pk")


def page(client: Client) -> str:
    response = client.get(reverse("kelimeki:solo"))
    assert response.status_code == 200
    return response.content.decode()


def cookie(client: Client) -> str:
    return client.cookies["sessionid"].value


def post_json(client: Client, url: str, body) -> tuple[int, dict]:
    raw = body if isinstance(body, (bytes, str)) else json.dumps(body)
    response = client.post(url, raw, content_type="application/json")
    return response.status_code, response.json()


def preview_url(match: Match) -> str:
    return reverse("kelimeki:match_preview", args=[match.pk])


def play_out(match: Match, choose=None) -> Match:
    """The human's moves through the service (the engine's best play, else a pass) until
    the game is over; the AI answers inline (fast bots in tests)."""
    for _ in range(200):
        match.refresh_from_db()
        if not match.running:
            return match
        st = GAME.from_dict(match.state)
        assert st.turn == 0, "the AI did not answer"
        view = json.loads(json.dumps(GAME.view_for(st, 0)))
        move = (choose or bots.best_move)(view)
        action = move.to_action() if move else {"type": "pass"}
        services.match_apply_action(match.pk, 0, action, match.version)
    raise AssertionError("the game did not end")


def test_a_guest_starts_a_game_and_the_page_resumes_it():
    """W-X1: no account; the game is a match of its own kind, bound to the session by
    the hash of a token the session keeps (never the session key), unrated (no clock)."""
    client = Client(HTTP_ACCEPT_LANGUAGE="tr")
    html = page(client)
    assert 'data-match=""' in html and "Yapay Zekaya karşı yeni oyun" in html
    assert 'data-open="1"' in html  # the start form opens by itself
    match = start(client)
    assert match.kind == Match.Kind.GUEST and not match.rated and match.deadline is None
    assert match.host is None and match.options["vs_ai"] is True
    seats = list(match.seats.order_by("seat"))
    assert seats[0].user is None and seats[0].bot_level == "" and seats[1].bot_level == "normal"
    token = client.session[guests.SESSION_TOKEN]
    assert seats[0].guest_key == guests.key_of(token) != cookie(client)
    assert cookie(client) not in seats[0].guest_key and token not in seats[0].guest_key
    assert "kelimeki_solo" not in client.session  # no game state in the session any more
    st = GAME.from_dict(match.state)
    assert st.turn == 0  # the AI moved at once (fast bots in tests) if it started (W-M1)
    html = page(client)
    assert f'data-match="{match.pk}"' in html and 'data-seat="0"' in html
    assert 'data-mode="live"' in html and "kk-frame" not in html
    assert reverse("kelimeki:match_preview", args=[match.pk]) in html
    # W-T5, P-1: nothing of the hidden tiles, the seed or the guest key on the page
    assert match.seed not in html and seats[0].guest_key not in html and token not in html
    # a second visitor has a game of their own
    other = Client()
    assert 'data-match=""' in page(other)


def test_starting_a_new_game_deletes_the_previous_one():
    """One unrecorded game per visitor: the rows stay bounded (issue 27)."""
    client = Client()
    first = start(client)
    second = start(client, players="4", level="hard")
    assert not Match.objects.filter(pk=first.pk).exists()
    assert not MatchAction.objects.filter(match_id=first.pk).exists()
    assert list(Match.objects.filter(kind=Match.Kind.GUEST)) == [second]
    assert [s.bot_level for s in second.seats.order_by("seat")] == ["", "hard", "hard", "hard"]
    assert 'name="record"' not in page(client)  # a guest has only the unrecorded game


@pytest.mark.asyncio
async def test_the_guest_plays_over_the_socket_and_nobody_else_can(players):
    """Issue 27: the match socket seats the visitor whose session holds the seat's
    token, under a guest identity; another guest, a visitor without a game and a
    logged-in outsider are refused (a guest's game cannot be watched).  Bad moves get
    an error frame and change nothing (W-M2)."""
    client = Client()
    match = await sync_to_async(start)(client)
    comm, ok, _ = await connect(match.pk, cookie(client))
    assert ok
    frame = await receive(comm)
    assert frame["type"] == "state" and frame["me"] == 0 and frame["match"]["kind"] == "guest"
    assert frame["match"]["seats"][0] == {**frame["match"]["seats"][0], "guest": True,
                                          "user_id": None, "bot": None, "connected": True}  # fmt: skip
    text = json.dumps(frame)
    for secret in ('"bag"', '"racks"', "secret", match.seed, cookie(client)):
        assert secret not in text
    for body, code in [
        ({"type": "teleport"}, "unknown_action"),
        ({"type": "play", "placements": [{"row": "a", "col": 1, "letter": "A"}]}, "bad_action"),
        ({"type": "play", "placements": [{"row": 7, "col": 7, "letter": "Q"}]}, "bad_action"),
        ({"type": "exchange", "letters": ["Q"]}, "bad_action"),
        ({"type": "timeout"}, "unknown_action"),
    ]:
        await comm.send_to(text_data=json.dumps({"type": "action", "action": body,
                                                 "version": frame["version"]}))  # fmt: skip
        answer = await next_error(comm)
        assert answer["code"] == code, (body, answer)
        assert answer["message"] and "Traceback" not in answer["message"]
    await comm.send_to(text_data=json.dumps({"type": "action", "action": {"type": "pass"},
                                             "version": frame["version"] + 5}))  # fmt: skip
    assert (await next_error(comm))["code"] == "stale_version"
    stored = await sync_to_async(Match.objects.get)(pk=match.pk)
    assert stored.version == frame["version"] and stored.state == match.state
    # nobody else: another guest, a visitor with no game, a logged-in outsider
    stranger = Client()
    await sync_to_async(start)(stranger)
    for other in (cookie(stranger), None, await sync_to_async(session_cookie)(players[0])):
        refused, ok, code = await connect(match.pk, other)
        assert not ok and code in (4001, 4003), code
    # and the guest reaches no other match
    theirs = await sync_to_async(Match.objects.filter(kind="guest").exclude(pk=match.pk).get)()
    refused, ok, code = await connect(theirs.pk, cookie(client))
    assert not ok and code == 4003
    await comm.disconnect()


@pytest.mark.asyncio
async def test_the_guests_word_is_answered_at_once_and_the_ais_arrives_later(settings):
    """Issue 27 item 3, issue 29: no AI move runs in the guest's request; the answer to
    the move is the frame of the player's own word (the AI's turn due at the site's bot
    pace), and the AI's word arrives as a frame of its own, played in the background
    (the embedded runner's timer here; Celery in production)."""
    settings.DEBUG, settings.KUT_TEST_SEEDS = True, True  # a seeded deal: the human has a word
    settings.KUT_BOT_DELAY_SECONDS = 0.25  # x Kelimeki's bot_pace 2.0, ±25 %
    client = Client()
    match = await sync_to_async(start)(client, seed="paced-guest", level="hard")
    comm, ok, _ = await connect(match.pk, cookie(client))
    assert ok
    frame = await receive(comm)
    while frame["hand"]["turn"] != 0:  # the AI started: its opening word comes first
        frame = await receive(comm)
    move = bots.best_move(frame["hand"])
    assert move is not None
    version = frame["version"]
    await comm.send_to(text_data=json.dumps({"type": "action", "action": move.to_action(),
                                             "version": version}))  # fmt: skip
    mine = await receive(comm)
    assert mine["version"] == version + 1
    assert mine["hand"]["last"]["seat"] == 0 and mine["hand"]["last"]["type"] == "play"
    assert mine["hand"]["turn"] == 1  # the AI to move, not moved yet
    due = mine["match"]["bot_due"]
    assert due is not None and due - mine["match"]["server_time"] >= 0.25 * 2 * 0.75 * 1000 - 50
    theirs = await receive(comm, timeout=15)
    assert theirs["version"] == version + 2 and theirs["hand"]["last"]["seat"] == 1
    assert theirs["hand"]["turn"] == 0 or theirs["hand"]["over"]
    rows = await sync_to_async(list)(
        MatchAction.objects.filter(match_id=match.pk, version__gt=version).order_by("version")
    )
    assert [(r.seat, r.actor) for r in rows] == [(0, "human"), (1, "bot")]
    assert (rows[1].created_at - rows[0].created_at).total_seconds() >= 0.25 * 2 * 0.75
    await comm.disconnect()


def test_the_preview_is_the_seats_own_and_changes_nothing(settings):
    """W-M7: the preview gives each word's validity, the points and the shares; only
    the guest whose session holds the seat may ask."""
    settings.DEBUG, settings.KUT_TEST_SEEDS = True, True
    client = Client()
    match = start(client, seed="solo-preview")
    view = GAME.view_for(GAME.from_dict(match.state), 0)
    move = bots.best_move(json.loads(json.dumps(view)))
    placements = move.to_action()["placements"]
    status, answer = post_json(client, preview_url(match), {"placements": placements})
    assert status == 200 and answer["ok"] is True and answer["points"] > 0
    wrong = [dict(p, col=p["col"] + 5, row=p["row"] + 5) for p in placements]
    status, answer = post_json(client, preview_url(match), {"placements": wrong})
    assert status == 200 and answer["ok"] is False and answer["error"]
    status, answer = post_json(client, preview_url(match), b"[]")
    assert status == 400 and answer["code"] == "bad_action"
    stranger = Client()
    start(stranger)
    response = stranger.post(preview_url(match), json.dumps({"placements": placements}),
                             content_type="application/json")  # fmt: skip
    assert response.status_code == 404
    assert (
        Client().post(preview_url(match), "{}", content_type="application/json").status_code == 404
    )
    before = Match.objects.get(pk=match.pk)
    assert (before.version, before.state) == (match.version, match.state)
    # a POST without the CSRF token is refused (the page sends X-CSRFToken)
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = client.cookies
    response = strict.post(preview_url(match), json.dumps({"placements": placements}),
                           content_type="application/json")  # fmt: skip
    assert response.status_code == 403


def test_a_whole_short_game_ends_with_a_result_recorded_nowhere(settings):
    """A test-only short bag (KUT_TEST_SEEDS): the game ends by going out or passes; the
    stored state is the replay of the log, and the result is the engine's."""
    settings.DEBUG, settings.KUT_TEST_SEEDS = True, True
    client = Client()
    match = start(client, seed="solo-short", bag="4", level="easy")
    assert len(GAME.from_dict(match.state).bag) <= 4
    match = play_out(match)
    assert match.status == Match.Status.FINISHED
    st = GAME.from_dict(match.state)
    assert GAME.to_dict(services.match_replay(match)) == match.state
    hand = GAME.view_for(st, 0)
    result = final_result(hand, ["Sen", "Yapay Zeka"])
    assert [r["score"] for r in sorted(result["rows"], key=lambda r: r["seat"])] == hand["scores"]
    with pytest.raises(services.ServiceError):
        services.match_apply_action(match.pk, 0, {"type": "pass"}, match.version)
    assert f'data-match="{match.pk}"' in page(client)  # the finished game stays on the page


def test_seeds_and_short_bags_are_for_tests_only(settings):
    settings.DEBUG, settings.KUT_TEST_SEEDS = True, False
    client = Client()
    match = start(client, seed="x", bag="3")
    st = GAME.from_dict(match.state)
    assert len(st.bag) + sum(len(r) for r in st.racks) >= 86 and match.seed != "x"
    assert "test_bag" not in match.options
    with pytest.raises(services.ServiceError):  # the platform refuses them outside tests
        guests.start(game="kelimeki", players=2, level="easy", session=client.session,
                     test_options={"test_bag": 3})  # fmt: skip


def test_only_games_that_offer_it_have_guests():
    """GAME.guest_play (default False): the platform names no game."""
    for key in ("kut", "kdvli", "king", "kastet"):
        with pytest.raises(services.ServiceError):
            guests.start(game=key, players=4, level="easy", session=Client().session)


def test_the_live_table_renders_the_board_and_its_preview_is_seat_only(players):
    match = services.match_create(game="kelimeki", options={}, users=players[:2],
                                  host=players[0], rated=False)  # fmt: skip
    client = Client(HTTP_ACCEPT_LANGUAGE="tr")
    client.force_login(players[0])
    html = client.get(reverse("game:match", args=[match.pk])).content.decode()
    assert 'data-mode="live"' in html and 'id="kk-strings"' in html
    st = GAME.from_dict(match.state)
    view = GAME.view_for(st, 0)
    placements = [{"row": 0, "col": 0, "letter": view["rack"][0]
                   if view["rack"][0] != "*" else "A", "joker": view["rack"][0] == "*"}]  # fmt: skip
    status, answer = post_json(client, preview_url(match), {"placements": placements})
    assert answer["ok"] is False and answer["error"] == "no_word"
    outsider = Client()
    outsider.force_login(players[2])
    response = outsider.post(preview_url(match), json.dumps({"placements": placements}),
                             content_type="application/json")  # fmt: skip
    assert response.status_code == 404


def test_the_final_result_renders_for_other_pages():
    """games.kelimeki.web.final_result + kelimeki/_result.html (W-E5:
    equal scores share a place; W-E6: a forfeited seat has none)."""
    from django.template.loader import render_to_string

    view = {"scores": [50, 50, 40, 12], "deducted": [0, 3, 5, 0], "ranks": [1, 1, 3, None],
            "forfeited": [False, False, False, True], "end": "passes"}  # fmt: skip
    result = final_result(view, ["Ali", "Ayşe", "Can", "Deniz"])
    assert result["winners"] == [0, 1] and [r["seat"] for r in result["rows"]] == [0, 1, 2, 3]
    html = render_to_string("kelimeki/_result.html", {"result": result})
    assert "Ayşe" in html and "−5" in html and html.count("<tr") == 5


def test_every_frame_of_a_guests_game_holds_only_the_guests_view(settings, monkeypatch):
    """W-T5, P-1: the frames of a whole guest game (four seats, three AIs) as the
    broadcast built them hold the guest's own view of each version and nothing else:
    the view does not change when the hidden tiles are dealt differently, and no frame
    holds the seed or the guest's key."""
    from game import frames

    settings.DEBUG, settings.KUT_TEST_SEEDS = True, True
    sent: list = []
    original = frames.frame_parts

    def spy(match, seats, st=None, **kw):
        parts = original(match, seats, st, **kw)
        sent.append((match.version, parts, GAME.from_dict(GAME.to_dict(st)) if st else None))
        return parts

    from game import broadcast

    monkeypatch.setattr(broadcast, "frame_parts", spy)
    match = play_out(start(Client(), seed="frames", bag="10", players="4", level="hard"))
    key = match.seats.get(seat=0).guest_key
    assert len(sent) > 10
    for version, parts, st in sent:
        assert parts[1:] == [None, None, None, None]  # no AI seat, no watcher gets a frame
        assert parts[0][0] == version and parts[0][2] == "0"
        text = json.dumps(parts[0], default=str)
        assert match.seed not in text and key not in text
        if st is not None and not st.over:
            leak_free(st, 0)


def test_an_untouched_game_and_expired_sessions_are_cleared_by_the_beat(players):
    """W-X3: a guest's game not resumed within 7 days is deleted; expired sessions are
    cleared (what ``clearsessions`` does), on beat (``game.tasks.guest_cleanup``)."""
    from django.conf import settings

    from game.tasks import guest_cleanup

    assert settings.CELERY_BEAT_SCHEDULE["kut-guest-cleanup"]["task"] == "game.tasks.guest_cleanup"
    old, recent, moved = Client(), Client(), Client()
    stale = start(old)
    kept = start(recent)
    resumed = start(moved)
    # a practice game of a logged-in player is an unrecorded game too
    player = Client()
    player.force_login(players[0])
    practice = start(player, record="unrecorded")
    assert practice.seats.get(seat=0).user == players[0]
    long_ago = timezone.now() - timedelta(days=7, minutes=1)
    for m in (stale, resumed, practice):
        Match.objects.filter(pk=m.pk).update(created_at=long_ago)
        MatchAction.objects.filter(match=m).update(created_at=long_ago)
    services.match_apply_action(resumed.pk, 0, {"type": "pass"}, resumed.version)  # a move now
    recorded = services.match_create(game="kelimeki", users=[players[1], None], rated=True,
                                      bot_levels=["", "easy"])  # fmt: skip
    Match.objects.filter(pk=recorded.pk).update(created_at=long_ago)
    MatchAction.objects.filter(match=recorded).update(created_at=long_ago)
    Session.objects.filter(session_key=cookie(old)).update(
        expire_date=timezone.now() - timedelta(1)
    )
    sessions = Session.objects.count()
    assert guest_cleanup() == 2
    assert set(Match.objects.values_list("pk", flat=True)) == {kept.pk, resumed.pk, recorded.pk}
    assert not MatchSeat.objects.filter(match_id__in=[stale.pk, practice.pk]).exists()
    assert Session.objects.count() == sessions - 1
    assert not Session.objects.filter(session_key=cookie(old)).exists()
    assert guest_cleanup() == 0  # idempotent


def test_a_game_kept_by_the_old_version_is_dropped_with_a_notice():
    """Issue 27: games the previous version kept in the session (no match, no action
    log) cannot become matches; the visitor is told once and starts afresh."""
    client = Client(HTTP_ACCEPT_LANGUAGE="tr")
    page(client)
    session = client.session
    session["kelimeki_solo"] = {"state": {"players": 2}, "version": 3, "level": "easy"}
    session.save()
    html = page(client)
    assert "daha eski bir sürümü" in html and 'data-open="1"' in html
    assert "kelimeki_solo" not in client.session
    assert "daha eski bir sürümü" not in page(client)


def test_an_ai_that_fails_never_leaves_the_guest_stuck(monkeypatch):
    """A bot that raises instead of choosing is timed out by the rules (for Kelimeki's
    AI, W-E6's forfeit): the table never stalls and the error is logged."""
    from games.kelimeki.engine import bots as bot_module

    client = Client()
    match = start(client)
    monkeypatch.setattr(bot_module, "choose", lambda *a: 1 / 0)
    services.match_apply_action(match.pk, 0, {"type": "pass"}, match.version)
    match.refresh_from_db()
    st = GAME.from_dict(match.state)
    assert st.over and st.forfeited == [False, True] and match.status == "finished"
    kinds = list(match.actions.order_by("version").values_list("seat", "kind"))
    assert kinds[-2:] == [(0, "pass"), (1, "timeout")]


def test_a_guest_finds_the_game_against_the_ai_on_the_home_page():
    html = Client(HTTP_ACCEPT_LANGUAGE="tr").get(reverse("home")).content.decode()
    assert f'href="{reverse("kelimeki:solo")}"' in html
    assert "Yapay Zekaya karşı oyna — hesap gerekmez" in html


def test_the_board_speaks_english_too():
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    html = client.get(reverse("kelimeki:solo")).content.decode()
    assert "A new game against the AI" in html and ">Exchange<" in html and ">Pass<" in html
    strings = json.loads(re.search(r'id="kk-strings"[^>]*>(.*?)</script>', html, re.S).group(1))
    assert strings["errors"]["not_connected"] == "Your word must touch a tile already on the board."
    assert strings["thinking"] == "thinking…"
    html = Client(HTTP_ACCEPT_LANGUAGE="tr").get(reverse("kelimeki:solo")).content.decode()
    assert ">Değiştir<" in html and ">Pas Geç<" in html and ">Karıştır<" in html
    assert ">Geri Al<" in html and ">Oyna<" in html
