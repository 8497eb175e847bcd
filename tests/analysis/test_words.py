"""Issue 31: the platform's default words for the analysis (``game.web.GameWeb``), which a
game may replace with its own (``analysis_move_text``)."""

from __future__ import annotations

from django.utils import translation

from game.web import GameWeb

WEB = GameWeb("toy")


def test_a_move_in_plain_generic_words():
    move = {"actions": [{"type": "open", "groups": [["R12", "Y12", "B12"]]},
                        {"type": "discard", "tile": "K9"}]}  # fmt: skip
    assert WEB.analysis_move_text(move) == "open [R12 Y12 B12]; discard K9"
    assert WEB.analysis_move_text({"type": "lay", "table": [["R4", "R5"], ["Y1", "Y2"]]}) == (
        "lay [R4 R5] [Y1 Y2]"
    )
    assert WEB.analysis_move_text({"type": "choose", "contract": "koz", "trump": "C"}) == (
        "choose koz C"
    )
    assert WEB.analysis_move_text({}) == ""


def test_costs_and_notes_in_turkish_and_english():
    with translation.override("en"):
        assert WEB.analysis_cost_text("points", 12) == "12 points"
        assert WEB.analysis_cost_text("tiles", 1) == "1 tile"
        assert WEB.analysis_cost_text("points", 2.5) == "2.5 points"
        assert WEB.analysis_note_text("missed_finish", 3) == "3 missed finishes"
        assert WEB.analysis_note_text("something_new", 2) == "something new: 2"
    with translation.override("tr"):
        assert WEB.analysis_cost_text("points", 12) == "12 puan"
        assert WEB.analysis_note_text("missed_finish", 3) == "3 kaçan bitiş"
        assert WEB.analysis_note_text("okey_thrown", 1) == "1 atılan okey"
