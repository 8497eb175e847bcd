"""Provably fair shuffles: each hand publishes SHA-256(salt, dealt order) when it starts
and reveals the salt and the order when it ends (beyond P-2's promise)."""

from __future__ import annotations

import random

from game.engine.fair import SeededRNG, commitment
from games.kut.engine.deal import new_hand
from games.kut.engine.randomplay import play_random_hand
from games.kut.engine.views import view_for
from games.okey.engine.deal import deal_order


def test_commitment_is_published_and_matches_the_revealed_order():
    hand = new_hand(8, 2, 1, SeededRNG("fair"))
    during = view_for(hand, 0)["fair"]
    assert set(during) == {"commitment"} and len(during["commitment"]) == 64
    play_random_hand(hand, random.Random(1))
    after = view_for(hand, 2)["fair"]
    assert after["commitment"] == during["commitment"]
    assert len(after["order"]) == 106 and len(after["salt"]) == 32
    assert commitment(after["order"], after["salt"]) == during["commitment"]
    # the revealed order is the deal: the indicator first, then seat 0's rack...
    assert after["order"][0] == view_for(hand, 0)["indicator"]


def test_changing_one_tile_or_the_salt_breaks_the_commitment():
    hand = new_hand(5, 1, 0, SeededRNG("fair2"))
    order = deal_order(hand.deal)
    c = hand.deal["commitment"]
    assert commitment(order, hand.deal["salt"]) == c
    swapped = list(order)
    swapped[10], swapped[11] = swapped[11], swapped[10]
    if swapped != order:
        assert commitment(swapped, hand.deal["salt"]) != c
    changed = list(order)
    changed[5] = "R1" if changed[5] != "R1" else "R2"
    assert commitment(changed, hand.deal["salt"]) != c
    assert commitment(order, "0" * 32) != c


def test_salts_differ_between_hands():
    salts = {new_hand(8, 1, 0, SeededRNG(i)).deal["salt"] for i in range(20)}
    assert len(salts) == 20
