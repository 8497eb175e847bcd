"""Kelimeki: the only way out of a game is the forfeit (kelimeki.md W-X5, W-E6, W-L4).

The platform's leave (``services.match_leave``) calls the game's optional ``forfeit``
hook when the game has ``leaving_rules = False``: the seat is out of the game in the
engine (no AI plays on for it), −2 k-lig once, the forfeit e-mail once; P-11's bar and
P-12's seat requests do not apply."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from game import move_mail, services
from game.models import Match, MoveNotice
from games.kelimeki.models import KligRecord
from lobby import services as lobby_services
from lobby.models import RankingResult
from lobby.ranking import leaver_barred_until
from tests.games.kelimeki.lobby.test_kelimeki_live import _live_match, kelimeki_mail  # noqa: F401
from tests.lobby.conftest import client_for


def _replayed(match: Match) -> dict:
    from game.engine import registry

    return registry.get("kelimeki").to_dict(services.match_replay(match))


@pytest.mark.django_db(transaction=True)  # the ranking hooks run after commit
def test_leaving_a_two_player_game_is_a_forfeit_once(players):
    a, b = players[:2]
    now = timezone.now()
    match = _live_match(a, b, now=now)
    racks = [list(r) for r in match.state["racks"]]
    loser = 0  # A, in turn or not
    resp = client_for(a).post(reverse("game:leave", args=[match.pk]))
    assert resp.status_code == 302
    match.refresh_from_db()
    st = match.state
    # W-E6: the seat forfeits in the engine; one seat left: over at once, no W-E3 deduction
    assert st["forfeited"] == [True, False] and st["over"] and st["end"] == "forfeit"
    assert st["deducted"] == [0, 0] and st["racks"][loser] == racks[loser]
    assert match.status == Match.Status.FINISHED
    assert _replayed(match) == match.state  # the log replays the forfeit (P-2, replays)
    # W-L4: −2 once; W-L2: the other is 1st of 2, +2
    rows = list(RankingResult.objects.filter(match=match).values_list("user_id", "points"))
    assert sorted(rows) == sorted([(a.pk, -2), (b.pk, 2)])
    assert KligRecord.objects.get(user=a).total == -2
    with pytest.raises(services.ServiceError):
        services.match_leave(match.pk, a)  # exactly once
    assert RankingResult.objects.filter(match=match, user=a).count() == 1
    # the forfeit e-mail, once (W-L4)
    assert move_mail.run(timezone.now()) == 1 and move_mail.run(timezone.now()) == 0
    (notice,) = mail.outbox
    assert notice.to == [a.email] and "-2" in notice.body.replace("−", "-")
    assert MoveNotice.objects.filter(match=match, kind=MoveNotice.Kind.FORFEIT).count() == 1
    # Maçlarım calls it what it was: a forfeit (W-E6), not leaving
    html = client_for(a).get(reverse("lobby:history")).content.decode()
    assert "teslim oldun" in html and "çıktın" not in html and "(teslim oldu)" in html


@pytest.mark.django_db(transaction=True)
def test_against_the_ai_leaving_ends_the_game_and_no_ai_plays_on(players):
    a = players[0]
    table = lobby_services.table_create(host=a, game="kelimeki", seat_count=2)
    match = lobby_services.table_start(table.pk, a, fill_with_bots=True)
    services.match_leave(match.pk, a)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.state["forfeited"][0]
    assert match.state["end"] == "forfeit"
    assert list(RankingResult.objects.filter(match=match).values_list("points", flat=True)) == [-2]


@pytest.mark.django_db(transaction=True)
def test_four_seats_leaving_out_of_turn_the_others_play_on_and_no_devam(players):
    """W-E6 out of turn: the mover's clock and turn stay; the left seat never gets a turn
    again; P-12: nobody may ask for the seat."""
    a, b, c = players[:3]
    table = lobby_services.table_create(host=a, game="kelimeki", seat_count=4)
    lobby_services.table_join(table.pk, b)
    match = lobby_services.table_start(table.pk, a, fill_with_bots=True)
    match.refresh_from_db()
    mover = match.state["turn"]
    assert mover in (0, 1)
    leaver = 1 - mover
    user = [a, b][leaver]
    deadline = match.deadline
    services.match_leave(match.pk, user)
    match.refresh_from_db()
    assert match.running and match.state["forfeited"][leaver]
    assert match.state["turn"] == mover and match.deadline == deadline
    with pytest.raises(services.ServiceError) as exc:
        services.match_seat_request(match.pk, c, leaver)
    assert exc.value.code == "seat_not_vacant"
    # the mover passes: the AI seats play, the forfeited seat is skipped
    services.match_apply_action(match.pk, mover, {"type": "pass"}, match.version)
    match.refresh_from_db()
    assert match.state["turn"] != leaver
    assert _replayed(match)["forfeited"] == match.state["forfeited"]
    assert RankingResult.objects.filter(match=match, user=user).count() == 1


@pytest.mark.django_db(transaction=True)
@override_settings(KUT_LEAVER_THRESHOLD=2)
def test_p11_bar_does_not_apply_to_kelimeki(players):
    """W-X5: P-11 does not apply: Kelimeki forfeits bar no table, and no Kelimeki table
    is barred."""
    a, b = players[:2]
    for _ in range(2):
        match = _live_match(a, b)
        services.match_leave(match.pk, a)
    assert leaver_barred_until(a, "kelimeki") is None
    assert leaver_barred_until(a, "king") is None
    table = lobby_services.table_create(host=b, game="kelimeki", seat_count=2)
    lobby_services.table_join(table.pk, a)  # not barred
    assert table.seats.filter(user=a).exists()


def test_the_table_offers_teslim_ol_with_a_confirmation(players, db):
    a, b = players[:2]
    match = _live_match(a, b)
    html = client_for(a).get(reverse("game:match", args=[match.pk])).content.decode()
    assert 'data-action="forfeit"' in html and "kk-forfeit-dialog" in html
    assert reverse("game:leave", args=[match.pk]) in html
    assert "Teslim ol" in html


@pytest.mark.django_db(transaction=True)
def test_the_end_card_gets_the_klig_change_once_recorded(players):
    """The board's end card (W-L1…W-L7): the page of a finished game carries the player's
    recorded k-lig change, total and seal for games/kelimeki/static/kelimeki/board.js."""
    import json
    import re

    a, b = players[:2]
    match = _live_match(a, b)
    services.match_leave(match.pk, b)  # A wins by B's forfeit: +2
    html = client_for(a).get(reverse("game:match", args=[match.pk])).content.decode()
    raw = re.search(r'<script id="kk-strings" type="application/json">(.*?)</script>', html, re.S)
    strings = json.loads(raw.group(1))
    assert strings["klig_after"] == {"points": 2, "total": 2, "rewards": [], "seal": "Çaylak"}
