"""Issue 29 for KDVli Okey without a browser: the timeout notes (V-N6: what the timer
played, public facts only), the rules guide in Turkish and English (drawn with the
table's tiles), the match record in KDVli's own words, the table's words for the
notes, the tab take-back and the finishing tile's mark."""

from __future__ import annotations

import random

import orjson
import pytest
from django.urls import reverse
from django.utils import timezone, translation

from game import services
from game.engine import registry
from game.models import HandResult, Match
from games.kdvli.engine.hand import apply
from games.kdvli.web import WEB, finish_text, kdvli_strings
from games.okey.engine.tiles import face_name, face_of
from lobby.ranking import match_rank
from tests.clients import client_for

GAME = registry.get("kdvli")


def _top(hand, seat) -> str:
    return face_name(face_of(hand.discards[seat][-1]))


def test_v_n6_timeout_notes_say_what_the_timer_played_once_per_timeout():
    state = GAME.new_match({"hands": 3}, 4, random.Random(29))
    hand = state.hand
    starter = hand.turn
    assert GAME.timeout_notes(state) == []
    # the starter's first turn: nothing to take (V-D3), the server discards for it
    GAME.on_timeout(state, starter, 0.0)
    (first,) = GAME.timeout_notes(state)
    assert first == {"seat": starter, "hand_no": 1, "at": 0, "took": None,
                     "tile": _top(hand, starter)}  # fmt: skip
    # the next seat: the server draws from the centre (the drawn face is never named:
    # the note names only the discard, public on the pile)
    second_seat = hand.turn
    GAME.on_timeout(state, second_seat, 0.0)
    notes = {n["seat"]: n for n in GAME.timeout_notes(state)}
    assert notes[starter] == first  # the same note: the table shows it once
    assert notes[second_seat] == {"seat": second_seat, "hand_no": 1, "at": 1, "took": "deck",
                                  "tile": _top(hand, second_seat)}  # fmt: skip
    # public facts only: no tile id, no other rack, no deck (V-H1, V-H2)
    assert all(set(n) == {"seat", "hand_no", "at", "took", "tile"} for n in notes.values())
    text = orjson.dumps(GAME.timeout_notes(state)).decode()
    assert not any(tid in text for tid in hand.ids)
    # the others play on; the starter's own move ends its note (it is back), the other stays
    for seat in (hand.turn, (hand.turn + 1) % 4):
        apply(hand, seat, {"type": "draw"})
        apply(hand, seat, {"type": "discard", "tile_id": hand.ids[hand.took]})
    assert hand.turn == starter
    apply(hand, starter, {"type": "draw"})
    assert [n["seat"] for n in GAME.timeout_notes(state)] == [second_seat]
    # a timeout when the deck is empty takes the tile thrown to the seat (public)
    apply(hand, starter, {"type": "discard", "tile_id": hand.ids[hand.took]})
    thrown = _top(hand, starter)
    hand.deck.clear()
    seat = hand.turn
    GAME.on_timeout(state, seat, 0.0)
    note = next(n for n in GAME.timeout_notes(state) if n["seat"] == seat)
    assert note["took"] == "thrown" and note["tile"] == thrown  # the taken tile goes again


def test_v_n6_the_timeout_log_keeps_the_scenario_export_unchanged():
    """The notes' facts live in the log beside the action: the scenario of the hand still
    lists a timeout as the plain action (V-N6 decides its tile again on replay)."""
    state = GAME.new_match({"hands": 3}, 4, random.Random(5))
    GAME.on_timeout(state, state.hand.turn, 0.0)
    assert GAME.export_hand(state)["actions"] == [{"seat": state.hand.log[0]["seat"],
                                                  "type": "timeout"}]  # fmt: skip


@pytest.mark.parametrize("language, title, words", [
    ("tr", "KDVli Okey · Nasıl Oynanır",
     ["Gösterge yapmak", "Bitmek", "Kat (M)", "çiftten bitiş", "bozulur", "toplamı en düşük olan kazanır",
      "Seri Diz", "Çift Diz", "1500"]),
    ("en", "KDVli Okey · How to play",
     ["Showing the indicator", "Finishing", "multiplier (M)", "pairs finish", "void",
      "the lowest total wins", "Arrange runs", "Arrange pairs", "1500"]),
])  # fmt: skip
def test_the_guide_in_both_languages_with_the_tables_tiles(client, language, title, words):
    """V-T*, V-G*, V-N*, V-I*, V-F*, V-S* (the worked hand: −50, 34, −1, 18; with the okey
    M = 2: −100, 68, 23, 36), V-E*, V-Q*."""
    client.cookies["django_language"] = language
    page = client.get(reverse("guide", args=["kdvli"])).content.decode()
    assert f"<h1>{title}</h1>" in page
    for word in words:
        assert word in page, word
    for colour in "RYBK":  # the table's own tile component
        assert f'<span class="kt-tile kt-c-{colour}" data-face="{colour}' in page
    assert 'class="kt-tile kt-okey"' in page and 'class="kt-tile kt-fake"' in page
    assert "okey/tiles.css" in page
    for score in (">−50<", ">34<", ">−1<", ">18<", "−100", "68", "23", "36", "−25"):
        assert score in page, score
    assert page.count("<h2") == 8


def test_the_worked_hand_is_the_engines_count():
    """The guide's numbers are V-S2's count of those very tiles (indicator B2, okey B3)."""
    from games.kdvli.engine.counting import points
    from games.okey.engine.tiles import okey_face, parse_face

    okey = okey_face(parse_face("B2"))
    racks = {
        34: "R4 R5 R6 Y9 B9 K9 K10 K11 K12 R12 Y13 Y1 Y2 B6",
        24: "Y10 Y10 Y8 Y8 R11 R11 K5 K5 Y12 Y12 Y3 B2 K1 R6",
        18: "Y4 Y5 Y6 Y7 R8 R9 R10 K2 K3 K4 Y11 B1 R2 B4",
    }
    for expected, rack in racks.items():
        assert points([parse_face(f) for f in rack.split()], okey) == expected


def test_the_table_words_for_notes_take_back_and_the_finishing_mark():
    with translation.override("tr"):
        strings = kdvli_strings()
    assert strings["replaced_note"] == "Bu masa başka bir sekmede açık."
    assert strings["play_here"] == "Burada oyna"
    assert strings["timed_out_drew"].startswith("Süren doldu: ortadan çekildi")
    assert "{tile}" in strings["timed_out_took"] and "{tile}" in strings["timed_out"]
    assert "{tile}" in strings["can_finish_with"] and strings["finish_mark"]
    assert WEB.guide_template("tr") == "kdvli/guide_tr.html"
    assert WEB.guide_template("en") == "kdvli/guide_en.html"


@pytest.mark.django_db
def test_the_match_record_speaks_kdvli(settings):
    """A finished KDVli match's record: hands as KDVli counts them (who finished, runs or
    pairs, the multiplier, points and indicator bonus), the lowest total wins, never
    KÜT's tasks or its "deck ran out"."""
    from accounts.models import User

    settings.KUT_BOTS_INLINE = True
    settings.KUT_BOT_DELAY_SECONDS = 0
    ayse = User.objects.create_user(username="ayse29", password="x-okey-29", display_name="Ayşe")
    match = services.match_create(game="kdvli", options={"hands": 3}, users=[ayse, None, None, None],
                                  rated=True, seed="kdvli-record")  # fmt: skip
    hands = [
        {"scores": [-50, 34, -1, 18], "finisher": 0, "kind": "runs", "multiplier": 1,
         "bonuses": [0, 0, -25, 0], "points": [0, 34, 24, 18]},
        {"scores": [16, -200, 48, 8], "finisher": 1, "kind": "pairs", "multiplier": 4,
         "bonuses": [0, 0, 0, 0], "points": [4, 0, 12, 2]},
        {"scores": [-100, 10, 6, 4], "finisher": 0, "kind": "runs", "multiplier": 2,
         "bonuses": [0, 0, 0, 0], "points": [0, 5, 3, 2]},
    ]  # fmt: skip
    for n, hand in enumerate(hands, start=1):
        HandResult.objects.create(match=match, hand_no=n, scores=hand["scores"],
                                  detail={"hand_no": n, **hand})  # fmt: skip
    totals = [sum(h["scores"][s] for h in hands) for s in range(4)]
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED,
                                             finished_at=timezone.now(),
                                             state=dict(match.state, totals=totals))  # fmt: skip
    match_rank(match.pk)
    page = client_for(ayse).get(reverse("lobby:history_match", args=[match.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    for words in ("seriyle bitiş, ×1", "çiftten bitiş, ×4", "seriyle bitiş, ×2", "Ayşe eli bitirdi.",
                  "KDVli"):  # fmt: skip
        assert words in html, words
    assert "görev" not in html.lower() and "Deste tükendi" not in html
    kdvli_hands = page.context["record_hands"]
    first = kdvli_hands[0]["rows"]
    assert [r["points"] for r in first] == [0, 34, 24, 18] and first[2]["bonus"] == -25
    assert first[0]["finisher"] and not first[1]["finisher"]
    assert page.context["record"]["lower_is_better"] is True
    assert finish_text({}) == ""  # a replay's first step: nothing finished yet
