"""P-2 for Kelimeki (kelimeki.md W-X5): the bag order is committed at the start and
revealed when the game is over; the platform's verify page takes it."""

from __future__ import annotations

import hashlib
import random

import pytest
from django.test import Client

from game.fairness import verify_url
from games.kelimeki.engine import GAME, rules


def _game(seed="fair", players=2):
    return GAME.new_match({}, players, random.Random(seed))


def test_the_commitment_covers_the_dealt_bag_and_is_shown_from_the_start():
    st = _game()
    order = st.fair["order"]
    assert order[:7] == st.racks[0] and order[7:14] == st.racks[1]
    assert order[14:-1] == st.bag and order[-1] == f"#{st.secret:x}"
    text = "kut-deal-v1|" + st.fair["salt"] + "|" + ",".join(order)
    assert st.fair["commitment"] == hashlib.sha256(text.encode()).hexdigest()
    for seat in (0, 1, None):  # during the game: the commitment only (P-1)
        view = GAME.view_for(st, seat)
        assert view["fair"] == {"commitment": st.fair["commitment"]}
        assert st.fair["salt"] not in str(view)
    assert GAME.from_dict(GAME.to_dict(st)).fair == st.fair  # round-trips


def test_revealed_when_the_game_is_over_and_the_verify_page_takes_it(db):
    st = _game("fair-end")
    rules.forfeit(st, st.turn)  # W-E6: over at once
    view = GAME.view_for(st, 0)
    assert view["fair"]["salt"] == st.fair["salt"] and view["fair"]["order"] == st.fair["order"]
    page = Client().get(verify_url(view["fair"]))
    assert page.status_code == 200
    html = page.content.decode()
    assert view["fair"]["commitment"] in html and 'id="verify-data"' in html
    bad = dict(view["fair"], order=view["fair"]["order"][:-2])
    assert Client().get(verify_url(bad)).status_code == 400


@pytest.mark.django_db(transaction=True)
def test_a_platform_match_commits_its_bag(players):
    """The recorded match's frame carries the commitment, and the end reveals it."""
    from game import services
    from lobby import services as lobby_services

    a = players[0]
    table = lobby_services.table_create(host=a, game="kelimeki", seat_count=2)
    match = lobby_services.table_start(table.pk, a, fill_with_bots=True)
    match.refresh_from_db()
    commit = match.state["fair"]["commitment"]
    services.match_leave(match.pk, a)
    match.refresh_from_db()
    view = GAME.view_for(GAME.from_dict(match.state), 0)
    assert view["fair"]["commitment"] == commit and view["fair"]["salt"]
