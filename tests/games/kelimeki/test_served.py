"""Kelimeki as well served as KÜT (issue 29): its rules guide (tr, en), the timeout note
in its own words (W-X3, W-E6), its match record (one game, its moves, who went out, the
highest score wins: W-E1…W-E5), its guided first game, and the table's "?", zoom and
notes."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from game import services, tutorial
from game.engine.errors import RuleError
from game.frames import match_frame
from game.models import Match
from games.kelimeki.engine import GAME, bots
from games.kelimeki.engine import tutorial as script
from tests.clients import client_for

pytestmark = pytest.mark.django_db(transaction=True)  # the AI answers after commit


@pytest.fixture(autouse=True)
def _settings(settings):
    settings.KUT_BOTS_INLINE = True
    settings.KUT_BOT_DELAY_SECONDS = 0
    settings.DEBUG, settings.KUT_TEST_SEEDS = True, True  # the short bag (test-only)


@pytest.fixture
def ali(db):
    return User.objects.create_user(username="ali", email="ali@example.com", password="x-42-y-42")


def best(match: Match, seat: int = 0) -> dict:
    view = json.loads(json.dumps(GAME.view_for(GAME.from_dict(match.state), seat)))
    move = bots.best_move(view)
    return move.to_action() if move else {"type": "pass"}


def act(match: Match, action: dict, seat: int = 0):
    match.refresh_from_db()
    return services.match_apply_action(match.pk, seat, action, match.version)


# --- the guide --------------------------------------------------------------------------


@pytest.mark.parametrize("language, words", [
    ("tr", ["en yüksek olan kazanır", "ev kareni (⌂)", "Bölge vergisi", "Değiştir", "Pas Geç",
            "+25", "48 saat", "teslim", "Hamlenin puanı"]),
    ("en", ["the highest score wins", "home square (⌂)", "Zone tax", "Exchange", "Pass",
            "+25", "48 hours", "forfeited", "The play scores"]),
])  # fmt: skip
def test_the_guide_renders_in_both_languages_with_the_key_rules(client, language, words):
    for url in (
        reverse("guide", args=["kelimeki"]),
        reverse("guide", args=["kelimeki"]) + "?embed=1",
    ):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        for word in words:
            assert word in page, (language, word)
        # the worked example (W-S5) drawn with the table's own board: YEL on ×3, ×2, ×2
        assert page.count('class="kk kk-guide-board"') >= 3
        assert '<span class="kk-cell x3" style=""><span class="kk-tile tent">' in page
        assert "kelimeki/board.css" in page
        assert "görev" not in page and "task" not in page


# --- the timeout note ---------------------------------------------------------------------


def test_a_timeout_forfeits_and_its_note_names_it_without_any_tile(ali):
    """W-X3, W-E6: the rated game against the AI; its deadline passes; the seat forfeits
    and every frame carries the note once (public: no tile of anyone's)."""
    client = client_for(ali)
    client.post(reverse("kelimeki:solo_new"), {"level": "easy", "players": "4"})
    match = Match.objects.get(game="kelimeki", kind=Match.Kind.NORMAL)
    match.refresh_from_db()
    st = GAME.from_dict(match.state)
    assert st.turn == 0 or not st.over  # the AI moves until it is the player's turn
    assert GAME.timeout_notes(st) == []
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.match_expire_turn(match.pk)
    match.refresh_from_db()
    st = GAME.from_dict(match.state)
    assert st.forfeited[0] and st.end != "forfeit"  # four players: the AIs play on (W-E6)
    notes = GAME.timeout_notes(st)
    assert notes == [{"seat": 0, "hand_no": 1, "at": notes[0]["at"], "forfeit": True,
                      "ended": False}]  # fmt: skip
    for seat in (0, 1, None):
        frame = match_frame(match, seat)
        assert frame["match"]["timeouts"] == notes
    text = json.dumps(notes)
    assert not any(f'"{t}"' in text for t in st.racks[0] if len(t) == 1)
    assert GAME.from_dict(GAME.to_dict(st)).timed_out == st.timed_out  # the JSON round trip
    # the table has its words for it (W-X3's two clocks, the k-lig −2 of W-L4)
    page = client.get(reverse("game:match", args=[match.pk]))
    strings = json.loads(page.content.decode().split('id="kk-strings" type="application/json">')[1]
                         .split("</script>")[0])  # fmt: skip
    assert "teslim" in strings["timeout_mine"] and "{clock}" in strings["timeout_mine"]
    assert strings["clock_ai"] == "7 gün" and strings["clock_live"] == "48 saat"
    assert "−2" in strings["timeout_klig"] and strings["play_here"] == "Burada oyna"


def test_a_forfeit_by_choice_is_not_a_timeout(ali):
    client = client_for(ali)
    client.post(reverse("kelimeki:solo_new"), {"level": "easy", "players": "2"})
    match = Match.objects.get(game="kelimeki")
    services.match_leave(match.pk, ali)  # Teslim ol (W-X5)
    match.refresh_from_db()
    assert GAME.timeout_notes(GAME.from_dict(match.state)) == []


# --- the match record ---------------------------------------------------------------------


def test_the_record_of_a_finished_game_speaks_kelimeki(ali):
    client = client_for(ali)
    client.post(reverse("kelimeki:solo_new"),
                {"level": "easy", "players": "2", "seed": "record", "bag": "4"})  # fmt: skip
    match = Match.objects.get(game="kelimeki")
    for _ in range(200):
        match.refresh_from_db()
        if not match.running:
            break
        act(match, best(match))
    assert match.status == Match.Status.FINISHED
    detail = match.hand_results.get().detail
    page = client.get(reverse("lobby:history_match", args=[match.pk])).content.decode()
    for wrong in ("görev", "Deste tükendi", "en düşük toplam", "1. el", "Altta eller"):
        assert wrong not in page, wrong
    assert "Kelimeki" in page and "en yüksek toplam kazanır" in page
    assert "Oyun" in page and "hamle" in page
    if detail["end"] == "out":
        name = "ali" if detail["out"] == 0 else "Yapay Zeka"
        assert "bitirdi" in page and name in page
    else:
        assert detail["end"] == "passes" and "iki kez pas" in page
    st = GAME.from_dict(match.state)
    played = [w for act_, s in services.match_replay_iter(match) if act_.kind == "play"
              for w in s.last["words"]]  # fmt: skip
    assert played and all(w in page for w in played)
    assert st.over


# --- the guided first game ----------------------------------------------------------------


def test_the_guided_game_in_three_steps(ali):
    assert "kelimeki" in tutorial.tutorial_games()
    assert tutorial.tutorial_offer_due(ali, "kelimeki")
    home = client_for(ali).get(reverse("home")).content.decode()
    assert 'data-game="kelimeki"' in home  # offered before the first game (the banner)
    assert "Rehberli ilk oyunu oyna" in home  # and on the game's card, at any time
    match = tutorial.tutorial_create(ali, "kelimeki")
    assert (match.kind, match.rated, match.deadline) == ("trial", False, None)

    def hint():
        match.refresh_from_db()
        return match_frame(match, 0)["match"]["trial"]

    assert hint() == {"step": 1, "steps": 3, "hint": "first"}
    assert GAME.from_dict(match.state).racks[0] == script.PLAYER_RACK
    for refused, code in (({"type": "pass"}, "tutorial_first"),
                          ({"type": "exchange", "letters": ["K"]}, "tutorial_first")):  # fmt: skip
        with pytest.raises(RuleError) as info:
            act(match, refused)
        assert info.value.code == code
    act(match, {"type": "play", "placements": [
        {"row": 0, "col": c, "letter": ch} for c, ch in enumerate("KALEM")]})  # fmt: skip
    match.refresh_from_db()
    st = GAME.from_dict(match.state)
    assert st.board_rows()[14].endswith("SU")  # the AI's scripted word over its home
    assert hint() == {"step": 2, "steps": 3, "hint": "join"}
    with pytest.raises(RuleError):
        act(match, {"type": "pass"})
    act(match, best(match))  # a word joined to the board
    match.refresh_from_db()
    assert GAME.from_dict(match.state).board_rows()[12][13] == "S"  # SES down col 13
    assert hint() == {"step": 3, "steps": 3, "hint": "exchange"}
    with pytest.raises(RuleError) as info:
        act(match, best(match))
    assert info.value.code == "tutorial_exchange"
    act(match, {"type": "exchange", "letters": GAME.from_dict(match.state).racks[0][:3]})
    assert hint() == {"step": 4, "steps": 3, "hint": "done"}
    ali.refresh_from_db()
    assert "kelimeki" in ali.tutorials_done
    # the texts of each hint, in the player's language
    page = client_for(ali).get(reverse("game:match", args=[match.pk])).content.decode()
    assert "KALEM" in page and "Değiştir" in page
    errors = json.loads(page.split('id="kk-strings" type="application/json">')[1]
                        .split("</script>")[0])["errors"]  # fmt: skip
    assert all(errors[f"tutorial_{k}"].startswith("Rehberli oyun") for k in script.STEP_KEYS)
    assert not match.hand_results.exists() or not match.rated


def test_the_script_holds_for_any_first_word():
    """Whatever first word the player lays, the AI's scripted words stay legal and the
    player has a word that joins the board (the engine alone)."""
    st = script.initial_state("any")
    first = bots.best_move(json.loads(json.dumps(GAME.view_for(st, 0))))
    GAME.apply(st, 0, first.to_action(), 0.0)
    for _ in range(2):
        seat, action = script.bot_choice(st, {1})
        assert seat == 1
        GAME.apply(st, seat, action, 0.0)
        if st.moves == 4:
            break
        move = bots.best_move(json.loads(json.dumps(GAME.view_for(st, 0))))
        assert move is not None
        GAME.apply(st, 0, move.to_action(), 0.0)
    assert script.progress(st)["hint"] == "exchange"


# --- the table page -----------------------------------------------------------------------


def test_the_table_has_the_guide_zoom_and_notes_and_no_turn_your_phone(client):
    client.post(reverse("kelimeki:solo_new"), {"level": "easy", "players": "2"})
    page = client.get(reverse("kelimeki:solo"), HTTP_ACCEPT_LANGUAGE="tr").content.decode()
    assert "data-guide-open" in page and reverse("guide", args=["kelimeki"]) in page
    assert 'class="kk-tool kk-zoom"' in page and 'class="kk-notes"' in page
    assert "kk-rotate" not in page and "yan çevir" not in page.lower()
