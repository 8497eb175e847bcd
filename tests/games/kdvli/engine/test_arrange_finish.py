"""Issue 29: *Seri Diz* / *Çift Diz* (V-R2) leave the finishing tile out when the rack can
finish now (V-F1, V-F2) — the other 14 in groups, the finishing tile last, so that a
finish from the rack's segments (V-F3) works at once — and the seat's own view names
the tiles that could finish (``finishing_tiles``, for the table to mark; V-H1, V-H2)."""

from __future__ import annotations

from games.kdvli.engine.hand import apply
from games.kdvli.engine.views import hand_view
from games.okey.engine.tiles import face_name, face_of
from tests.games.kdvli.engine.helpers import hand_of, scenario

# 15 tiles, all in runs (R1–R5, B7–B9, K10–K12, Y2–Y5) under indicator Y5 (okey Y6):
# the whole rack counts 0, yet a finish needs one tile out (R1, R5, Y2 or Y5)
ALL_GROUPED = "R1 R2 R3 R4 R5 B7 B8 B9 K10 K11 K12 Y2 Y3 Y4 Y5"
# seven pairs and the real okey (Y6); the okey could also pair with a 1, leaving that out
PAIRS_AND_OKEY = "R1 R1 Y3 Y3 B4 B4 K7 K7 R9 R9 Y10 Y10 B12 B12 Y6"


def names(tiles) -> list[str]:
    return [face_name(face_of(t)) for t in tiles]


def segments(hand, seat=0) -> list[list[str]]:
    return [names(g) for g in hand.racks[seat].segments()]


def last_tile(hand, seat=0) -> int:
    return [t for t in hand.racks[seat].cells if t is not None][-1]


def test_v_r2_seri_diz_keeps_the_finishing_tile_out_and_the_finish_follows():
    """The issue's case: every tile fits a group, so the old *Seri Diz* grouped all 15
    and left nothing to finish with (the player had to undo it by hand)."""
    hand = hand_of(scenario({0: ALL_GROUPED}))
    apply(hand, 0, {"type": "arrange", "how": "runs"})
    segs = segments(hand)
    fin = last_tile(hand)
    assert segs[-1] == [face_name(face_of(fin))]  # alone, after every group
    assert sum(map(len, segs[:-1])) == 14 and face_name(face_of(fin)) in ("R1", "R5", "Y2", "Y5")
    # V-F1, V-F3: finishing with that tile and the rack's segments as groups is valid
    apply(hand, 0, {"type": "finish", "tile_id": hand.ids[fin]})
    assert hand.over and hand.finisher == 0 and hand.finish_kind == "runs"


def test_v_r2_cift_diz_keeps_the_real_okey_as_the_finishing_tile():
    """V-S1: a real okey as the finishing tile doubles what the others pay, so *Çift
    Diz* keeps it out rather than pairing it with a 1 (which counts less)."""
    hand = hand_of(scenario({0: PAIRS_AND_OKEY}))
    apply(hand, 0, {"type": "arrange", "how": "pairs"})
    fin = last_tile(hand)
    assert names([fin]) == ["Y6"] and segments(hand)[-1] == ["Y6"]
    assert all(len(g) == 2 for g in segments(hand)[:-1]) and len(segments(hand)) == 8
    apply(hand, 0, {"type": "finish", "tile_id": hand.ids[fin]})
    assert hand.finish_kind == "pairs" and hand.multiplier == 4  # pairs × okey (V-S1)


def test_v_f1_no_finishing_tile_off_turn_or_before_the_take():
    """Off turn (14 tiles) the arrangement is the plain V-S2 one: all groups."""
    s = scenario({1: ALL_GROUPED.rsplit(" ", 1)[0]}, starter=0)
    hand = hand_of(s)
    apply(hand, 1, {"type": "arrange", "how": "runs"})
    assert sum(map(len, segments(hand, 1))) == 14 and len(segments(hand, 1)) == 4
    assert hand_view(hand, 1)["finishing_tiles"] == []


def test_v_h1_the_own_view_names_the_finishing_tiles_and_no_other_seat_sees_them():
    hand = hand_of(scenario({0: ALL_GROUPED}))
    view = hand_view(hand, 0)
    by_id = {hand.ids[t]: face_name(face_of(t)) for t in hand.racks[0].tiles()}
    assert sorted(by_id[i] for i in view["finishing_tiles"]) == ["R1", "R5", "Y2", "Y5"]
    for seat in (1, 2, 3, None):  # V-H2: another rack's tiles are never shown
        other = hand_view(hand, seat)
        assert not set(view["finishing_tiles"]) & set(other.get("finishing_tiles", []))
        assert seat is not None or "finishing_tiles" not in other
    # a rack that cannot finish names none
    assert hand_view(hand_of(scenario()), 0)["finishing_tiles"] == []
