"""Kelimeki live with friends (issue 21): the table of 2 or 4 seats by invite link, the
AI filling seats, the long move clock (kelimeki.md W-X3) with its e-mails, k-lig
(W-L1…W-L9) and the Skor Kartı (W-X2).  Time is injected (``now``), never waited for."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from game import move_mail, services, tasks
from game.models import Match, MoveNotice
from games.kelimeki.engine import AI_MOVE_SECONDS, LIVE_MOVE_SECONDS
from games.kelimeki.models import KligEntry, KligRecord
from lobby import services as lobby_services
from lobby.models import Ranking, RankingResult, Table
from tests.lobby.conftest import client_for

HOUR = timedelta(hours=1)


@pytest.fixture(autouse=True)
def kelimeki_mail(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.KUT_SITE_URL = "https://kut.example"


def _live_match(a, b, *, now=None) -> Match:
    """A creates a 2-seat Kelimeki table, B sits through its invite link, A starts."""
    table = lobby_services.table_create(host=a, game="kelimeki", seat_count=2, private=True,
                                        now=now)  # fmt: skip
    token = lobby_services.invite_current(table, now).token
    lobby_services.invite_accept(token, b, now=now)
    return lobby_services.table_start(table.pk, a, now=now)


def _turn_seat(match: Match) -> int:
    return match.state["turn"]


def _pass_out(match: Match, now) -> Match:
    """W-E2: four passes in a row end a 2-player game."""
    for _ in range(4):
        match.refresh_from_db()
        services.match_apply_action(match.pk, _turn_seat(match), {"type": "pass"},
                                    match.version, now=now)  # fmt: skip
    match.refresh_from_db()
    return match


@pytest.mark.django_db
def test_table_of_two_by_invite_link_and_the_dialog(players):
    a, b = players[:2]
    client = client_for(a)
    page = client.get(reverse("lobby:game", args=["kelimeki"]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="seat_count"' in html and 'name="rated"' not in html  # W-X5: no test tables
    assert 'name="move_seconds"' not in html  # W-X3's clock, not P-6's
    resp = client.post(reverse("lobby:create"), {"game": "kelimeki", "seat_count": "2",
                                                  "private": "1", "level": "orta"})  # fmt: skip
    assert resp.status_code == 302
    table = Table.objects.get(game="kelimeki")
    assert table.seat_count == 2 and table.seats.count() == 2 and table.rated
    token = lobby_services.invite_current(table).token
    invite_url = reverse("lobby:invite", args=[token])
    other = client_for(b)
    assert other.get(invite_url).status_code == 200
    assert other.post(invite_url).status_code == 302
    assert table.seats.get(seat=1).user == b  # W-M1: the invited player is seat 1
    lobby_page = client.get(reverse("lobby:table", args=[table.pk])).content.decode()
    assert "48" in lobby_page  # the summary badge: 48 hours per move
    match = lobby_services.table_start(table.pk, a)
    assert match.game == "kelimeki" and match.seats.count() == 2
    assert [s.user for s in match.seats.order_by("seat")] == [a, b]
    assert match.deadline - match.turn_started == timedelta(seconds=LIVE_MOVE_SECONDS)
    assert client.get(reverse("game:match", args=[match.pk])).status_code == 200


@pytest.mark.django_db(transaction=True)  # bots move after commit
def test_four_seats_the_ai_fills_the_empty_ones(players):
    a, b = players[:2]
    table = lobby_services.table_create(host=a, game="kelimeki", seat_count=4)
    lobby_services.table_join(table.pk, b)
    match = lobby_services.table_start(table.pk, a, fill_with_bots=True)
    seats = list(match.seats.order_by("seat"))
    assert [s.user for s in seats[:2]] == [a, b]
    assert all(s.bot_level == "normal" for s in seats[2:])  # the table's level, P-7
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    assert _turn_seat(match) in (0, 1)  # the AI has answered at once (W-X3)


@pytest.mark.django_db(transaction=True)  # the ranking hooks run after commit
def test_48_hours_then_a_reminder_once_then_the_forfeit_once(players):
    """W-X3, W-E6, W-L4: the reminder 12 h before (Decision), the forfeit by the sweep at
    the deadline, exactly once, and its e-mail, once; nothing of a rack in them."""
    a, b = players[:2]
    start = timezone.now()
    match = _live_match(a, b, now=start)
    mover = _turn_seat(match)
    user = [a, b][mover]
    deadline = match.deadline
    assert deadline == start + timedelta(hours=48)
    assert move_mail.run(deadline - 13 * HOUR) == 0 and not mail.outbox
    assert move_mail.run(deadline - 11 * HOUR) == 1
    assert move_mail.run(deadline - 10 * HOUR) == 0  # at most once per turn
    (reminder,) = mail.outbox
    assert reminder.to == [user.email]
    assert "hamle sırası sende" in reminder.subject and "Merhaba" in reminder.body  # Turkish first
    assert (
        f"https://kut.example/match/{match.pk}/" in reminder.body or str(match.pk) in reminder.body
    )
    rack = "".join(match.state["racks"][mover])
    assert rack not in reminder.body and rack not in reminder.subject
    assert tasks.sweep(deadline - timedelta(seconds=1)) == 0
    tasks.sweep(deadline)
    tasks.sweep(deadline + HOUR)  # a second sweep changes nothing
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.actions.filter(kind="timeout").count() == 1
    assert match.state["forfeited"][mover] and match.state["end"] == "forfeit"
    assert move_mail.run(deadline + 2 * HOUR) == 1
    assert move_mail.run(deadline + 3 * HOUR) == 0
    forfeit = mail.outbox[-1]
    assert forfeit.to == [user.email] and "-2" in forfeit.body.replace("−", "-")
    assert MoveNotice.objects.filter(match=match).count() == 2
    # W-L4: −2 for the forfeit; W-L2: the other player is 1st of 2, +2
    points = {r.user_id: r.points for r in RankingResult.objects.filter(match=match)}
    assert points == {user.pk: -2, [a, b][1 - mover].pk: 2}
    assert KligRecord.objects.get(user=user).total == -2  # W-L5: may go below 0


@pytest.mark.django_db
def test_a_move_restarts_the_48_hours_and_the_reminder(players):
    a, b = players[:2]
    start = timezone.now()
    match = _live_match(a, b, now=start)
    first = _turn_seat(match)
    assert move_mail.run(match.deadline - 11 * HOUR) == 1
    moved = start + 40 * HOUR
    services.match_apply_action(match.pk, first, {"type": "pass"}, match.version, now=moved)
    match.refresh_from_db()
    assert match.deadline == moved + timedelta(hours=48)
    assert tasks.sweep(start + 49 * HOUR) == 0  # the old deadline means nothing now
    assert move_mail.run(match.deadline - 11 * HOUR) == 1  # the new turn's reminder
    assert mail.outbox[-1].to == [[a, b][1 - first].email]


@pytest.mark.django_db
def test_against_the_ai_the_clock_is_7_days(players):
    a = players[0]
    start = timezone.now()
    match = services.match_create(game="kelimeki", users=[a, None], options={"vs_ai": True},
                                  now=start)  # fmt: skip
    match.refresh_from_db()
    if _turn_seat(match) == 1:  # the AI starts: it answers at once
        assert services.match_play_bot(match.pk, now=start)
        match.refresh_from_db()
    assert _turn_seat(match) == 0
    assert match.deadline - match.turn_started == timedelta(seconds=AI_MOVE_SECONDS)
    assert move_mail.run(match.deadline - 25 * HOUR) == 0
    assert move_mail.run(match.deadline - 23 * HOUR) == 1  # Decision: a day before


@pytest.mark.django_db(transaction=True)
def test_klig_places_and_one_celebration(players):
    """W-L2, W-L3, W-L8: both stand at 98 with the first two rewards paid; the winner
    (or both, in a tie) reaches 100: one celebration, shown once on the next page."""
    a, b = players[:2]
    for user in (a, b):
        KligRecord.objects.create(user=user, total=98, rewarded=[25, 75])
        Ranking.objects.create(user=user, game="kelimeki", level="", points=98, matches=5)
    match = _pass_out(_live_match(a, b), timezone.now())
    assert match.status == Match.Status.FINISHED and match.state["end"] == "passes"
    scores = match.state["scores"]
    winners = [u for s, u in enumerate((a, b)) if scores[s] == max(scores)]
    for user in (a, b):
        rec = KligRecord.objects.get(user=user)
        assert rec.total == (100 if user in winners else 98)  # W-L2 (W-L3: a tie, both +2)
        assert Ranking.objects.get(user=user, game="kelimeki", level="").points == rec.total
    assert {e.user_id: e.points for e in KligEntry.objects.filter(match=match)} == {
        u.pk: (2 if u in winners else 0) for u in (a, b)}  # fmt: skip
    client = client_for(winners[0])
    first = client.get(reverse("lobby:index")).content.decode()
    second = client.get(reverse("lobby:index")).content.decode()
    assert "klig-celebration" in first and "100 k-lig" in first
    assert "klig-celebration" not in second  # once
    from games.kelimeki import klig

    assert klig.settle(match.pk) == []  # idempotent: the hooks again change nothing
    assert KligRecord.objects.get(user=winners[0]).total == 100


@pytest.mark.django_db
def test_klig_rewards_once_in_a_lifetime(players):
    """W-L6: the first time the total reaches a threshold its reward is added (and the
    new total checked again); reaching it again later gives nothing.  W-L7: the seal
    follows the total down, Kozmik stays."""
    from games.kelimeki import klig

    a = players[0]
    match = services.match_create(game="kelimeki", users=[a, None])
    KligRecord.objects.create(user=a, total=23)
    # as lobby.ranking leaves it: the game's +2 written, the reward not yet
    Ranking.objects.create(user=a, game="kelimeki", level="", points=25, matches=3)
    RankingResult.objects.create(match=match, user=a, game="kelimeki", level="", seat=0,
                                 outcome="rated", points=2)  # fmt: skip
    (entry,) = klig.settle(match.pk)
    assert entry.rewards == [["Hececi", 3]] and entry.total_after == 28
    assert Ranking.objects.get(user=a, game="kelimeki").points == 28
    assert klig.seals([a.pk]) == {a.pk: "Hececi"}
    # down below 25 by forfeits, then up again: no second reward
    other = services.match_create(game="kelimeki", users=[a, None])
    KligRecord.objects.filter(user=a).update(total=23)
    RankingResult.objects.create(match=other, user=a, game="kelimeki", level="", seat=0,
                                 outcome="rated", points=2)  # fmt: skip
    assert klig.seals([a.pk]) == {a.pk: "Çaylak"}  # W-L7: the seal can go down
    (again,) = klig.settle(other.pk)
    assert again.rewards == [] and again.total_after == 25


@pytest.mark.django_db(transaction=True)
def test_score_card_and_the_klig_table(players):
    a, b = players[:2]
    match = _pass_out(_live_match(a, b), timezone.now())
    card = client_for(a).get(reverse("kelimeki:score_card"))
    assert card.status_code == 200
    html = card.content.decode()
    assert 'data-testid="klig-card"' in html and f'data-match="{match.pk}"' in html
    assert str(b) in html  # the opponent
    assert 'data-testid="klig-seal"' in html  # W-L7
    total = KligRecord.objects.get(user=a).total
    assert f'data-testid="klig-total">{total}<' in html
    assert 'data-testid="klig-played">1<' in html
    assert client_for(a).get(reverse("accounts:profile")).content.decode().count("game-link")
    board = client_for(a).get(reverse("lobby:leaderboard") + "?game=kelimeki").content.decode()
    assert "board-levels" not in board and "Çaylak" in board  # one k-lig, seals (W-L7)
    # a visitor is sent to log in
    from django.test import Client

    assert Client().get(reverse("kelimeki:score_card")).status_code == 302


@pytest.mark.django_db
def test_a_rematch_plays_the_same_game_again_nothing_to_choose(players):
    """The end card's rematch: Kelimeki has no option to choose again (its
    ``rematch_choice`` is ``(None, (1,))``); the new game keeps the seats and options,
    and the old games are not left (W-X4)."""
    from game import rematch
    from lobby.templatetags.history_tags import table_extras_config

    a, b = players[:2]
    match = _pass_out(_live_match(a, b), timezone.now())
    cfg = table_extras_config(match, "x")
    assert cfg["rematch_choices"] == [{"value": 1, "label": ""}]  # one "Play again" button
    other = services.match_create(game="kelimeki", users=[a, None])
    rematch.rematch_offer(match.pk, a, 1)
    rematch.rematch_answer(match.pk, b, True)
    new = Match.objects.exclude(pk__in=[match.pk, other.pk]).get(game="kelimeki")
    assert new.rematch_of_id == match.pk and new.options == match.options
    assert [s.user for s in new.seats.order_by("seat")] == [a, b]
    other.refresh_from_db()
    assert other.status == Match.Status.PLAYING and not other.seats.filter(left=True).exists()


@pytest.mark.django_db
def test_score_card_lists_the_running_games_with_the_time_left(players):
    """W-X4, W-X3: each running game with its own turn and the time left."""
    a, b = players[:2]
    match = _live_match(a, b)
    html = client_for(a).get(reverse("kelimeki:score_card")).content.decode()
    assert 'data-testid="klig-running"' in html and f'data-match="{match.pk}"' in html
    assert ("sıra sende" if _turn_seat(match) == 0 else "rakip bekleniyor") in html
    assert re.search(r"1 gün, 2\d saat kaldı", html.replace("\xa0", " "))


@pytest.mark.django_db(transaction=True)
def test_the_history_of_a_finished_game_and_its_replay(players):
    """The Skor Kartı links each game's record; the replay page steps through the game
    (``replay_template``, ``replay_snapshot``), every rack shown once it is over, never
    the bag's order, the salt or the secret (P-1, P-2)."""
    a, b = players[:2]
    match = _pass_out(_live_match(a, b), timezone.now())
    client = client_for(a)
    record = client.get(reverse("lobby:history_match", args=[match.pk]))
    assert record.status_code == 200
    assert reverse("lobby:replay", args=[match.pk]) in record.content.decode()
    page = client.get(reverse("lobby:replay", args=[match.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "kelimeki/replay.js" in html and 'id="wr-config"' in html
    data = client.get(reverse("lobby:replay_hand", args=[match.pk, 1])).json()
    assert data["game"] == "kelimeki" and len(data["steps"]) == 1 + 4  # the deal, 4 passes
    assert [st["a"]["type"] for st in data["steps"]] == ["deal"] + ["pass"] * 4
    last = data["steps"][-1]["s"]
    assert last["over"] and last["scores"] == match.state["scores"]
    assert len(last["racks"][0]) == len(match.state["racks"][0])  # every rack shown
    text = page.content.decode() + str(data)
    fair = match.state["fair"]
    assert fair["salt"] not in text and "secret" not in str(data)
    assert ",".join(fair["order"][:20]) not in str(data)
    outsider = client_for(players[2])
    assert outsider.get(reverse("lobby:replay", args=[match.pk])).status_code == 404


@pytest.mark.django_db
def test_a_table_started_with_the_ai_alone_is_a_game_against_the_ai(players):
    """W-M1, W-X3: one human and the AI: 7 days per move, and k-lig (W-L1); two humans
    (the AI in the other seats of four): live, 48 hours."""
    a, b = players[:2]
    solo = lobby_services.table_create(host=a, game="kelimeki", seat_count=2)
    match = lobby_services.table_start(solo.pk, a, fill_with_bots=True)
    assert match.options["vs_ai"] and match.rated
    assert match.deadline - match.turn_started == timedelta(seconds=AI_MOVE_SECONDS)
    mixed = lobby_services.table_create(host=b, game="kelimeki", seat_count=4)
    lobby_services.table_join(mixed.pk, players[2])
    match = lobby_services.table_start(mixed.pk, b, fill_with_bots=True)
    assert not match.options["vs_ai"]
    assert match.deadline - match.turn_started == timedelta(seconds=LIVE_MOVE_SECONDS)


@pytest.mark.django_db
def test_play_now_opens_a_rated_table_and_a_barred_player_is_told_why(players, monkeypatch):
    """*Hemen Oyna* for Kelimeki: no test table to fall back on (W-X5)."""
    a, b = players[:2]
    table = lobby_services.play_now(a, game="kelimeki")
    assert table.game == "kelimeki" and table.rated
    from game import seat_gate  # the one gate every way onto a seat asks (issue 27)

    monkeypatch.setattr(seat_gate, "barred_until",
                        lambda *args, **kw: timezone.now() + HOUR)  # fmt: skip
    from lobby.services import LobbyError

    with pytest.raises(LobbyError) as exc:
        lobby_services.play_now(b, game="kelimeki")
    assert exc.value.code == "leaver_barred"
