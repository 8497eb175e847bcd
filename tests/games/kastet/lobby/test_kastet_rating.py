"""Kastet's own rating on the platform (kastet.md section 10, P-9; issue 20, item 2): the
ranking hook (lobby.ranking._rank_own_scheme) writes S-P2 … S-P4 at the end of a rated
match from the Kastet start of 1500 (S-P1); leaving costs 2 × hands at once (S-P8) and
nothing more at the end; a substitute who took the seat with *Devam* (P-12, S-X3) never
loses (S-P6)."""

from __future__ import annotations

import random

import pytest

from game import services
from game.models import Match
from games.kastet.engine import GAME as KASTET
from games.kastet.engine.rating import START_RATING
from lobby.models import Ranking, RankingResult
from tests.history.play import play_as_humans

pytestmark = pytest.mark.django_db(transaction=True)  # the finish and leave hooks run after commit


def play_out(match: Match, level: str = "easy") -> Match:
    return play_as_humans(match, level=level, rng=random.Random(5), max_steps=5000)


def test_s_p2_to_s_p4_a_rated_match_writes_kastets_own_points(players):
    people = players[:4]
    match = play_out(services.match_create(game="kastet", options={"hands": 1},
                                           users=people, host=people[0], seed="kastet-rank"))  # fmt: skip
    st = KASTET.from_dict(match.state)
    result = KASTET.match_result(st)
    want = KASTET.rating.match_changes(
        result, False, [{"rating": START_RATING, "role": "played"}] * 4, match.options
    )
    assert want == result.detail["points"]  # S-P2 … S-P4 as the engine counts them
    rows = {r.seat: (r.outcome, r.points) for r in RankingResult.objects.filter(match=match)}
    assert rows == {s: ("rated", want[s]) for s in range(4)}
    for seat, user in enumerate(people):
        assert Ranking.objects.get(user=user, game="kastet").points == START_RATING + want[seat]
    # H = 1: 1st +2, 2nd 0, 3rd 0, 4th −1 — and a total over 50 gains nothing (S-P4)
    for seat in range(4):
        if st.totals[seat] > 50:
            assert want[seat] <= 0, (st.totals, want)


def test_s_p8_leaving_costs_twice_the_hands_at_once_and_the_substitute_never_loses(players):
    a, b, c = players[:3]
    match = services.match_create(game="kastet", options={"hands": 3}, users=[a, b, None, None],
                                  host=a, seed="kastet-leave")  # fmt: skip
    services.match_leave(match.pk, b)
    left = RankingResult.objects.get(match=match, user=b)
    assert (left.outcome, left.points) == ("leave_cost", -6)  # S-P8: 2 × 3 hands, at once
    assert Ranking.objects.get(user=b, game="kastet").points == START_RATING - 6
    # P-12, S-X3: another player asks for the seat and the manager says Devam
    services.match_seat_request(match.pk, c, 1)
    services.match_seat_answer(match.pk, a, 1, True)
    match = play_out(Match.objects.get(pk=match.pk))
    rows = {r.user_id: (r.outcome, r.points) for r in RankingResult.objects.filter(match=match)}
    assert rows[b.pk] == ("leave_cost", -6)  # nothing more at the end
    assert rows[c.pk][1] >= 0  # S-P6: the substitute only gains
    assert Ranking.objects.get(user=b, game="kastet").points == START_RATING - 6


def test_maclarim_lists_the_rated_kastet_match_with_its_hands_and_replay(players):
    """Maçlarım (issue 17's history) shows a finished rated Kastet match under its own
    game filter, and its record page links the replay and the hand's scenario."""
    from django.test import Client
    from django.urls import reverse

    people = players[:4]
    match = play_out(services.match_create(game="kastet", options={"hands": 1},
                                           users=people, host=people[0], seed="kastet-hist"))  # fmt: skip
    client = Client(HTTP_ACCEPT_LANGUAGE="tr")
    client.force_login(people[1])
    listing = client.get(reverse("lobby:history") + "?game=kastet").content.decode()
    assert reverse("lobby:history_match", args=[match.pk]) in listing and "Kastet" in listing
    record = client.get(reverse("lobby:history_match", args=[match.pk]))
    assert record.status_code == 200
    html = record.content.decode()
    assert reverse("lobby:replay", args=[match.pk]) in html
    assert reverse("lobby:scenario", args=[match.pk, 1]) in html
