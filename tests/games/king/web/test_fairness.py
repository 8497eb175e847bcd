"""P-2 for King (king.md G-V2, P-2): each deal is committed when it is dealt and, once
the hand is over, revealed to all four seats "with P-2's check": the salt and the order
that the platform's verify page hashes again."""

from __future__ import annotations

import hashlib
import random

from django.test import Client

from game.fairness import verify_url
from games.king.engine import GAME
from games.king.engine.cards import NAMES
from games.king.engine.match import recorded_check
from games.king.engine.simulate import play_hand


def _match(seed="king-fair"):
    return GAME.new_match({"length": 4}, 4, random.Random(seed))


def _hash(salt: str, order: list[str]) -> str:
    return hashlib.sha256(("kut-deal-v1|" + salt + "|" + ",".join(order)).encode()).hexdigest()


def test_the_commitment_covers_the_deal_and_only_it_is_shown_during_the_hand():
    st = _match()
    hand = st.hand
    order = [NAMES[c] for seat in range(4) for c in sorted(hand.deal[seat])]
    assert hand.fair["commitment"] == _hash(hand.fair["salt"], order)
    assert len(hand.fair["salt"]) == 32
    for seat in (0, 1, 2, 3, None):  # in play: the commitment, never the salt (G-V2)
        view = GAME.view_for(st, seat)
        assert view["fair"] == {"commitment": hand.fair["commitment"]}
        assert hand.fair["salt"] not in str(view)
    assert GAME.from_dict(GAME.to_dict(st)).hand.fair == hand.fair  # round-trips


def test_revealed_to_every_seat_once_the_hand_is_over_and_kept_in_the_record():
    st = _match("king-fair-2")
    committed = st.hand.fair["commitment"]
    play_hand(st, ["easy"] * 4, random.Random(2))
    for seat in range(4):
        fair = GAME.view_for(st, seat)["fair"]
        assert fair["commitment"] == committed == _hash(fair["salt"], fair["order"])
        assert fair["order"] == [
            c for cards in GAME.view_for(st, seat)["summary"]["deal"] for c in cards
        ]
    GAME.start_next_hand(st, random.Random(3))
    record = recorded_check(st.results[0])
    assert record["commitment"] == committed and _hash(record["salt"], record["order"]) == committed
    assert st.hand.fair["commitment"] != committed  # every hand its own
    assert st.hand.fair["salt"] not in str(GAME.view_for(st, 0))


def test_a_changed_card_breaks_it_and_the_verify_page_takes_a_king_deal(db):
    st = _match("king-fair-3")
    play_hand(st, ["easy"] * 4, random.Random(3))
    fair = GAME.view_for(st, 0)["fair"]
    swapped = list(fair["order"])
    swapped[0], swapped[13] = swapped[13], swapped[0]  # a card of seat 0 with seat 1's
    assert _hash(fair["salt"], swapped) != fair["commitment"]
    page = Client().get(verify_url(fair))
    assert page.status_code == 200
    html = page.content.decode()
    assert fair["commitment"] in html and 'id="verify-data"' in html
    assert page.context["check"]["about"][0] == "Kartlar"  # "52 cards · each seat's 13 …"
    twice = dict(fair, order=[fair["order"][0]] + fair["order"][:-1])  # a card twice
    assert Client().get(verify_url(twice)).status_code == 400
    assert Client().get(verify_url(dict(fair, order=fair["order"][:-1]))).status_code == 400


def test_a_hand_stored_before_the_commitment_still_loads():
    d = GAME.to_dict(_match("king-fair-4"))
    del d["hand"]["fair"]
    st = GAME.from_dict(d)
    assert st.hand.fair == {} and "fair" not in GAME.view_for(st, 0)
