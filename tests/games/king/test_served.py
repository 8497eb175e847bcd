"""Issue 29 for King: the timer's notes in King's words (G-T2), the rules guide in
Turkish and English drawn with the table's cards, the table's "?" and notes script, and
the match record of a finished King match in the game's own words."""

from __future__ import annotations

import json
import random

import pytest
from django.urls import reverse

from game import services
from game.frames import match_frame
from game.models import Match
from games.king.engine import GAME, bots
from games.king.engine.cards import card, name
from games.king.engine.hand import HandState
from games.king.engine.match import MatchState
from games.king.engine.views import view_for
from games.king.web import WEB
from tests.clients import client_for
from tests.conftest import ROOT


def _match(chooser=0) -> MatchState:
    rng = random.Random(7)
    deck = list(range(52))
    rng.shuffle(deck)
    m = MatchState(20, chooser)
    m.hand_no = 1
    m.hand = HandState(
        20, chooser, [[], [], [], []], [sorted(deck[13 * s : 13 * s + 13]) for s in range(4)]
    )
    return m


def test_g_t2_a_timed_out_choice_is_named_with_its_contract():
    m = _match()
    assert GAME.timeout_notes(m) == []  # no timeout: no note
    GAME.on_timeout(m, 0, 0.0)
    assert GAME.timeout_notes(m) == [
        {"seat": 0, "hand_no": 1, "at": 0, "kind": "choose", "contract": m.hand.contract,
         "trump": "SHCD"[m.hand.trump] if m.hand.trump is not None else None}
    ]  # fmt: skip
    GAME.apply(m, 0, {"type": "play", "card": name(m.hand.legal(0)[0])}, 0.0)
    assert GAME.timeout_notes(m)[0]["at"] == 0  # it stays for the hand (shown once by ``at``)
    GAME.on_timeout(m, 1, 0.0)
    assert [(n["seat"], n["at"], n["kind"]) for n in GAME.timeout_notes(m)] == [
        (0, 0, "choose"), (1, 2, "play")]  # fmt: skip


@pytest.mark.parametrize("seed", range(4))
def test_g_t2_each_timed_out_card_is_the_card_the_engine_played(seed):
    """Whole hands where seats 0 and 2 time out now and then: each note names the card the
    engine's events say was played for the seat, stays for the hand (each seat's latest
    timeout: a bot playing the away seat at once cannot hide it, G-T3), and holds nothing
    but public facts (G-V2: no card still in anyone's hand)."""
    rng = random.Random(seed)
    m = GAME.new_match(GAME.clean_options({"length": 4}), 4, random.Random(seed))
    seen = 0
    while not m.hand.over:
        seat = m.hand.turn
        if seat in (0, 2) and rng.random() < 0.4:
            events = GAME.on_timeout(m, seat, 0.0)
            note = next(n for n in GAME.timeout_notes(m) if n["seat"] == seat)
            assert note["at"] == len(m.hand.log) - 1 and note["hand_no"] == m.hand_no
            if note["kind"] == "choose":
                chose = next(e for e in events if e["type"] == "choose")
                assert (note["contract"], note["trump"]) == (chose["contract"], chose["trump"])
            else:
                played = next(e for e in events if e["type"] == "play")
                assert note["card"] == played["card"] and set(note) == {
                    "seat",
                    "hand_no",
                    "at",
                    "kind",
                    "card",
                }
                assert all(card(note["card"]) not in h for h in m.hand.hands)  # public now
                seen += 1
        else:
            before = GAME.timeout_notes(m)
            view = json.loads(json.dumps(view_for(m, seat)))
            GAME.apply(m, seat, bots.choose(view, "easy", rng), 0.0)
            assert GAME.timeout_notes(m) == before  # a move never changes nor adds a note
    assert seen


def test_the_table_says_a_timeout_in_kings_words():
    strings = WEB.table_strings(None, None)
    assert "{card}" in strings["timed_out_card"] and "{contract}" in strings["timed_out_choice"]
    assert strings["play_here"] and strings["replaced_note"]
    script = (ROOT / "games/king/static/king/notes.js").read_text()
    assert (
        "timed_out_card" in script and "timed_out_choice" in script and "match.timeouts" in script
    )
    table = (ROOT / "games/king/static/king/table.js").read_text()
    assert (
        'reason === "replaced"' in table and "sock.reconnect()" in table and "showTimeouts" in table
    )


# --- the rules guide (issue 29 item 1) ------------------------------------------------

GUIDE_WORDS = {
    "tr": ("King nasıl oynanır", ["en yüksek olan kazanır", "renkten atmak zorundasın",
                                  "Kupa almaz", "Rıfkı", "Koz", "en fazla iki kez", "erken biter",
                                  "Örnek bir el", "−390", "Geri döndüm"]),
    "en": ("How to play King", ["the highest total wins", "must follow suit", "No hearts",
                                "Rıfkı", "Trump", "at most twice", "end early", "A worked hand",
                                "−390", "I'm back"]),
}  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["tr", "en"])
def test_the_guide_in_both_languages_with_the_tables_cards(client, language):
    """G-M5 (highest wins), G-P2 (follow suit), G-H2 (the contracts, hand totals), G-H5
    (twice), G-P9 (early end), G-S2 (the worked No hearts hand: −90 −180 −120 0 = −390),
    G-T3 (I'm back), drawn with the table's own card faces."""
    title, words = GUIDE_WORDS[language]
    client.cookies["django_language"] = language
    page = client.get(reverse("guide", args=["king"])).content.decode()
    assert f"<h1>{title}</h1>" in page
    for word in words:
        assert word in page, word
    assert page.count('class="kg-card suit-') >= 25 and "kg-win" in page
    assert "king/table.css" in page and "king/guide.css" in page
    assert "görev" not in page.lower() and "task" not in page.lower()  # KÜT's words
    embed = client.get(reverse("guide", args=["king"]) + "?embed=1").content.decode()
    assert f"<h1>{title}</h1>" in embed and "site-header" not in embed


def test_the_guide_templates_cite_the_rules():
    for language in ("tr", "en"):
        text = (ROOT / "games/king/templates/king" / f"guide_{language}.html").read_text()
        for rule in ("G-C1", "G-H2", "G-H4", "G-P1", "G-P4", "G-S1", "G-M5", "G-T1"):
            assert rule in text, (language, rule)
        assert text.count("<h2") == 8


# --- the table page and the match record ----------------------------------------------


@pytest.fixture
def finished(players):
    """A rated 4-hand King match of one player and three bots, played to its end."""
    match = services.match_create(game="king", options={"length": 4}, users=[players[0], None, None, None],
                                  seed="record", rated=True)  # fmt: skip
    rng = random.Random(1)
    for _ in range(400):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return match
        if match.status == Match.Status.BETWEEN:
            services.match_next_hand(match.pk, match.version, force=True)
            continue
        st = MatchState.from_dict(match.state)
        view = json.loads(json.dumps(view_for(st, 0)))
        services.match_apply_action(match.pk, 0, bots.choose(view, "easy", rng), match.version)
    raise AssertionError("the match did not end")


@pytest.mark.django_db(transaction=True)
def test_the_record_of_a_finished_king_match_speaks_king(players, finished):
    page = (
        client_for(players[0])
        .get(reverse("lobby:history_match", args=[finished.pk]))
        .content.decode()
    )
    assert "King" in page and "4 el" in page  # the game and its length (options_text)
    assert "en yüksek toplam kazanır" in page  # G-M5: the highest total wins
    assert 'class="board king-hands"' in page and page.count("<tr data-hand=") == 4
    contracts = [
        r["contract"]
        for r in finished.hand_results.order_by("hand_no").values_list("detail", flat=True)
    ]
    names = {"el_almaz": "El almaz", "kupa_almaz": "Kupa almaz", "erkek_almaz": "Erkek almaz",
             "kiz_almaz": "Kız almaz", "rifki": "Rıfkı", "son_iki": "Son iki", "koz": "Koz"}  # fmt: skip
    for contract in contracts:
        assert names[contract] in page
    for wrong in ("görev", "Deste tükendi", "en düşük toplam"):
        assert wrong not in page, wrong  # KÜT's words
    replay = (
        client_for(players[0]).get(reverse("lobby:replay", args=[finished.pk])).content.decode()
    )
    # each hand named by its contract (in the page, or in its JSON strings: "R\u0131fk\u0131")
    first = names[contracts[0]]
    assert first in replay or json.dumps(first)[1:-1] in replay
    assert match_frame(finished, 0)["match"]["timeouts"] == []


@pytest.mark.django_db(transaction=True)
def test_the_table_has_the_guide_button_and_the_notes(players, finished):
    page = client_for(players[0]).get(reverse("game:match", args=[finished.pk])).content.decode()
    assert "data-guide-open" in page and reverse("guide", args=["king"]) + "?embed=1" in page


@pytest.mark.django_db
def test_the_king_card_offers_the_guided_hand_again(players):
    page = client_for(players[0]).get(reverse("home")).content.decode()
    assert 'action="/lobby/tutorial/king/"' in page and "king-guided-form" in page
    assert 'trial-offer" role="note" data-game="king"' in page  # first-timer: offered
