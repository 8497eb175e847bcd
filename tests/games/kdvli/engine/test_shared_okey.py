"""The okey family's games share one copy of their common code (games/okey/engine/):
KÜT, KDVli Okey and Kastet take the tiles, the rack and the shuffle from there, and the
RNG and P-2's commitment from the platform (game.engine.fair) — no game imports
another game."""

from __future__ import annotations

import games.kastet.engine.deal as kastet_deal
import games.kdvli.engine.hand as kdvli_hand
import games.kut.engine.deal as kut_deal
from game.engine import fair
from games.okey.engine import deal, rack


def test_the_tile_games_use_the_shared_shuffle_and_ids():
    for module in (kut_deal, kdvli_hand, kastet_deal):
        assert module.shuffled_deal is deal.shuffled_deal
    assert kut_deal.make_ids is deal.make_ids and kastet_deal.make_ids is deal.make_ids
    assert kut_deal.commitment is fair.commitment


def test_kdvli_uses_the_shared_rack_and_shuffle():
    assert kdvli_hand.Rack is rack.Rack
    assert kdvli_hand.shuffled_deal is deal.shuffled_deal
    hand = kdvli_hand.new_hand(0, fair.SeededRNG(1))
    assert isinstance(hand.racks[0], rack.Rack)
