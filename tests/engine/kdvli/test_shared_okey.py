"""KÜT and KDVli share the okey family's code (game/engine/okey/), not a copy: KÜT's old
module names re-export the very same objects, and KDVli imports them from okey/."""

from __future__ import annotations

import game.engine.deal as kut_deal
import game.engine.kdvli.hand as kdvli_hand
import game.engine.rack as kut_rack
import game.engine.tiles as kut_tiles
from game.engine.okey import deal, rack, tiles


def test_kut_module_names_are_the_shared_objects():
    for name in ("parse_face", "face_name", "face_of", "okey_face", "FAKE", "NUM_TILES"):
        assert getattr(kut_tiles, name) is getattr(tiles, name)
    assert kut_rack.Rack is rack.Rack and kut_rack.CELLS == rack.CELLS
    for name in ("SeededRNG", "secure_rng", "shuffled_deal", "make_ids", "commitment"):
        assert getattr(kut_deal, name) is getattr(deal, name)


def test_kdvli_uses_the_shared_rack_and_shuffle():
    assert kdvli_hand.Rack is rack.Rack
    assert kdvli_hand.shuffled_deal is deal.shuffled_deal
    hand = kdvli_hand.new_hand(0, deal.SeededRNG(1))
    assert isinstance(hand.racks[0], rack.Rack)
