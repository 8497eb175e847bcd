"""Issue 29 for Kastet: the timer's notes (S-N7) in Kastet's words, the rules guide in
Turkish and English, and the match record in the game's own words."""

from __future__ import annotations

import random

import pytest

from games.kastet.engine import GAME
from games.kastet.engine import notes as N
from games.kastet.engine.rules import apply
from tests.games.kastet.engine.helpers import position

RUN = ["R1", "R2", "R3"]


def timed_out(hand, seat=0):
    apply(hand, seat, {"type": "timeout"})
    return N.timeout_notes(hand, 1)


def test_s_n7_a_timeout_without_a_lay_draws_and_the_note_says_so():
    hand = position([RUN + ["K9"], ["Y5"], ["Y6"], ["Y7"]], deck=["B4", "B5", "B6", "B7", "B8"])
    assert N.timeout_notes(hand, 1) == []  # no timeout: no note
    assert timed_out(hand) == [{"seat": 0, "hand_no": 1, "at": 0, "did": N.DREW}]
    assert hand.rack_count(0) == 5  # the tile was drawn
    for seat in (1, 2, 3):  # the others' moves leave it
        apply(hand, seat, {"type": "draw"})
        assert N.timeout_notes(hand, 1)[0]["at"] == 0
    apply(hand, 0, {"type": "draw"})  # the seat acts again: its note is gone
    assert N.timeout_notes(hand, 1) == []


def test_s_n7_s_n3_a_timeout_with_a_standing_lay_passes_and_the_lays_stand():
    hand = position([RUN + ["K9"], ["Y5"], ["Y6"], ["Y7"]], deck=["B4"])
    apply(hand, 0, {"type": "lay", "table": [RUN]})
    [note] = timed_out(hand)
    assert note["did"] == N.PASSED_LAYS_STAND and note["at"] == 1
    assert len(hand.table) == 1 and hand.turn == 1


def test_s_n7_s_f1_a_timeout_with_an_empty_rack_finishes_the_hand():
    hand = position([RUN, ["Y5"], ["Y6"], ["Y7"]], deck=["B4"])
    apply(hand, 0, {"type": "lay", "table": [RUN]})
    [note] = timed_out(hand)
    assert note["did"] == N.FINISHED and hand.over and hand.finisher == 0


def test_s_n7_s_u1_an_undone_lay_does_not_stand_so_the_timer_draws():
    hand = position([RUN + ["K9"], ["Y5"], ["Y6"], ["Y7"]], deck=["B4"])
    apply(hand, 0, {"type": "lay", "table": [RUN]})
    apply(hand, 0, {"type": "undo"})
    assert timed_out(hand)[0]["did"] == N.DREW


def test_s_n7_s_n5_s_e1_a_timeout_that_cannot_draw_passes():
    full = ["R5", "R6", "R8", "R9", "R11", "R12", "Y1", "Y2", "Y4", "Y5", "Y7",
            "Y8", "Y10", "Y11", "B1", "B2", "B4", "B5", "B7", "B8", "B10", "B11"]  # fmt: skip
    hand = position([full, ["Y6"], ["Y9"], ["K7"]], deck=["B4"])
    assert timed_out(hand)[0]["did"] == N.PASSED_RACK_FULL
    hand = position([RUN, ["Y6"], ["Y9"], ["K7"]], deck=[])
    assert timed_out(hand)[0]["did"] == N.PASSED_DECK_EMPTY


@pytest.mark.parametrize("seed", range(6))
def test_s_n7_the_notes_agree_with_what_the_engine_did_in_whole_hands(seed):
    """Whole hands in which seats 0 and 1 time out now and then (after a lay, after an
    undo, at 22 tiles, with the deck empty): after each timeout the seat's note says what
    the engine's events say was done, and it holds nothing but public counts (S-V2)."""
    rng = random.Random(seed)
    st = GAME.new_match(GAME.clean_options({"hands": 1}), 4, random.Random(seed))
    seen = set()
    steps = 0
    while not st.hand.over and steps < 3000:
        steps += 1
        hand, seat = st.hand, st.hand.turn
        if seat in (0, 1) and rng.random() < 0.7:
            if not hand.undo and rng.random() < 0.3:
                choice = GAME.bot_choose(GAME.view_for(st, seat), "easy", rng)
                if choice and choice["type"] == "lay":
                    GAME.apply(st, seat, choice, 0)
                    if rng.random() < 0.3:
                        GAME.apply(st, seat, {"type": "undo"}, 0)
            before = (bool(hand.undo), hand.rack_count(seat), len(hand.deck))
            events = GAME.on_timeout(st, seat, 0)
            note = next(n for n in GAME.timeout_notes(st) if n["seat"] == seat)
            assert set(note) == {"seat", "hand_no", "at", "did"}
            assert note["at"] == len(hand.log) - 1 and note["hand_no"] == st.hand_no
            kinds = [e["type"] for e in events]
            if "draw" in kinds:
                want = N.DREW
            elif before[0]:
                want = N.FINISHED if hand.finisher == seat else N.PASSED_LAYS_STAND
            else:
                want = N.PASSED_RACK_FULL if before[1] >= 22 else N.PASSED_DECK_EMPTY
            assert note["did"] == want, (events, before)
            seen.add(want)
        else:
            choice = GAME.bot_choose(GAME.view_for(st, seat), "easy", rng)
            GAME.apply(st, seat, choice, 0)
            if seat in (0, 1):  # the seat acted: its note is gone
                assert all(n["seat"] != seat for n in GAME.timeout_notes(st))
    assert {N.DREW, N.PASSED_LAYS_STAND, N.PASSED_DECK_EMPTY} <= seen


# --- the rules guide (issue 29 item 1) ------------------------------------------------

GUIDE_WORDS = {
    "tr": ("Kastet · Nasıl Oynanır", ["taş atmak yok", "26 yer", "Çift alanı", "Örnek el",
                                       "22 taş", "en düşük", "+2H"]),
    "en": ("Kastet · How to play", ["never discard", "26 slots", "The pair area", "A worked hand",
                                    "22 tiles", "lowest penalty total", "+2H"]),
}  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["tr", "en"])
def test_the_guide_in_both_languages_with_the_tables_tiles(client, language):
    """S-T2..S-T4 (indicator, okey, fake okey), S-L2's two rearrangements drawn as the
    table's groups, S-A1 (26 slots), S-L5 (pairs after 26), S-N5 (22 tiles), S-S1..S-S3
    (the worked hand: −50, 11, 28, 11), S-P2 (+2H …)."""
    from django.urls import reverse

    title, words = GUIDE_WORDS[language]
    client.cookies["django_language"] = language
    page = client.get(reverse("guide", args=["kastet"])).content.decode()
    assert f"<h1>{title}</h1>" in page
    for word in words:
        assert word in page, word
    assert page.count('class="ks-group"') >= 9 and page.count('class="ks-pair"') == 3
    assert 'class="kt-tile kt-okey"' in page and 'class="kt-tile kt-fake"' in page
    assert "okey/tiles.css" in page and "kastet/table.css" in page
    for score in ("−50", ">11<", ">28<", "+10", "−5"):
        assert score in page, score
    assert "görev" not in page.lower() and "task" not in page.lower()  # KÜT's words
    # the embedded guide (the table's "?" dialog) is the guide alone
    embed = client.get(reverse("guide", args=["kastet"]) + "?embed=1").content.decode()
    assert f"<h1>{title}</h1>" in embed and "site-header" not in embed


def test_the_guide_templates_cite_the_rules():
    from tests.conftest import ROOT

    for language in ("tr", "en"):
        text = (ROOT / "games/kastet/templates/kastet" / f"guide_{language}.html").read_text()
        for rule in ("S-T1", "S-G1", "S-N1", "S-A1", "S-L1", "S-L5", "S-S1", "S-P1", "S-N7"):
            assert rule in text, (language, rule)
        assert text.count("<h2") == 8


# --- the game's own words around the match (issue 29 item 4) --------------------------


def _text(page: str) -> str:
    import html
    import re

    page = re.sub(r"<script.*?</script>|<style.*?</style>", "", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


KUT_WORDS = ("görev", "Deste tükendi", "Atılan taşlar", "en yüksek")


@pytest.mark.django_db(transaction=True)
def test_the_record_replay_and_invite_speak_kastet():
    """S-M5 (the lowest total wins), S-F1 / S-E2 (each hand: who finished with −50, or
    blocked), S-M2 (the hands), S-S4 (no discards in the replay), S-A1 / S-A2 (the run area
    and the pair area); never KÜT's tasks or its empty deck."""
    from django.test import Client
    from django.urls import reverse

    from game import services
    from game.models import HandResult
    from lobby import services as lobby_services
    from tests.e2e.test_table import make_user
    from tests.history.play import play_as_humans

    people = [make_user(n, n.title()) for n in ("ali", "ayse", "can", "deniz")]
    match = services.match_create(game="kastet", options={"hands": 3}, users=people,
                                  host=people[0], seed="kastet-record", rated=True)  # fmt: skip
    match = play_as_humans(match, level="easy", rng=random.Random(5), max_steps=20000)
    assert match.status == "finished"
    client = Client(HTTP_ACCEPT_LANGUAGE="tr")
    client.force_login(people[0])
    record = _text(client.get(reverse("lobby:history_match", args=[match.pk])).content.decode())
    assert "Kastet · 3 el · puanlı" in record
    assert "en düşük toplam kazanır" in record
    for r in HandResult.objects.filter(match=match).order_by("hand_no"):
        if r.detail["blocked"]:
            want = f"{r.hand_no}. el — kilitlendi: kimse hamle yapamadı"
        else:
            name = people[r.detail["finisher"]].display_name
            want = f"{r.hand_no}. el — {name} bitirdi (−50)"
            assert r.scores[r.detail["finisher"]] == -50
        assert want in record, want
    from django.utils import translation

    from games.kastet.web import WEB

    with translation.override("tr"):  # a hand someone finished (S-F1), a bot's seat
        assert WEB.hand_label(match, {"finisher": 1, "blocked": False}) == "Ayse bitirdi (−50)"
        assert WEB.hand_label(match, {"finisher": None, "blocked": True}).startswith("kilit")
        replay = client.get(reverse("lobby:replay", args=[match.pk])).content.decode()
    assert 'class="rp-discards"' not in replay  # no discards (S-S4)
    assert "Seri alanı ve çift alanı" in _text(replay)
    # the invite page names the game and its hands
    table = lobby_services.table_create(game="kastet", host=people[0], private=True,
                                        rated=False, options={"hands": 7})  # fmt: skip
    invite = reverse("lobby:invite", args=[lobby_services.invite_current(table).token])
    guest = Client(HTTP_ACCEPT_LANGUAGE="tr")
    guest.force_login(people[1])
    words = _text(guest.get(invite).content.decode())
    assert "Kastet" in words and "7 el" in words and "None" not in words
    for page in (record, _text(replay), words):
        for kut in KUT_WORDS:
            assert kut not in page, kut


def test_the_end_of_hand_card_says_tiles_not_letters():
    """S-V3: the tiles left in every rack are "Kalan taşlar" (Kelimeki keeps its letters)."""
    from django.utils import translation

    from games.kastet.web import kastet_strings

    with translation.override("tr"):
        assert kastet_strings()["left_in_rack"] == "Kalan taşlar"
        assert set(kastet_strings()["timed_out"]) == {
            N.DREW,
            N.PASSED_LAYS_STAND,
            N.FINISHED,
            N.PASSED_RACK_FULL,
            N.PASSED_DECK_EMPTY,
        }
