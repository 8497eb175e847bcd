"""The replays' side of the analysis (issue 31): each game's replay script counts, for
every step, how many of the hand's scenario actions the shown position has applied
(the ``applied`` of ``replay:step`` and ``replay:goto``; the analysis's decisions index
the scenario's actions) exactly as the download's exporter does; the better move's
parts are what the analysis says; ``analysis_move_text`` speaks each game's moves in
Turkish and English."""

from __future__ import annotations

from collections import Counter

import pytest
from django.utils import translation

from game.engine import registry
from game.web import web
from lobby import history
from tests.history.analysis_matches import GAMES, finished_match, scenario, server_applied
from tests.nodejs import map_in_node

pytestmark = pytest.mark.django_db

MODULE = {"kut": "okey", "kdvli": "okey", "kastet": "okey", "king": "king", "kelimeki": "kelimeki"}


def node_applied(tmp_path, game: str, hands: list[list]) -> list[list[int]]:
    module = f"{MODULE[game]}/replay-best.js"
    return map_in_node(tmp_path, module, "appliedSteps", "(steps) => appliedSteps(steps)", hands)


@pytest.mark.parametrize("game", GAMES)
def test_each_step_counts_the_scenario_actions_the_server_counts(tmp_path, players, game):
    match = finished_match(game, players)
    hands = []
    expected = []
    for hand_no in range(
        1, len(registry.get(game).hand_results(registry.get(game).from_dict(match.state))) + 1
    ):
        data = history.replay_hand(match, hand_no)
        hands.append([{"a": s["a"], "s": s["s"]} for s in data["steps"]])
        expected.append(server_applied(match, hand_no))
    got = node_applied(tmp_path, game, hands)
    assert got == expected
    kinds = {s["a"]["type"] for hand in hands for s in hand}
    for hand, counts in zip(hands, got):
        # the whole hand is applied at its end (Kelimeki: up to its first exchange)
        assert counts[0] == 0 and counts[-1] == len(
            scenario(match, hands.index(hand) + 1)["actions"]
        )
    if game == "king":  # the take-back went back one action, and the count with it
        assert "take_back" in kinds
        first = got[0]
        assert any(b < a for a, b in zip(first, first[1:]))
    if game == "kelimeki":  # the download stops at the exchange: later steps stay
        assert {"pass", "exchange"} <= kinds
        k = next(i for i, s in enumerate(hands[0]) if s["a"]["type"] == "exchange")
        assert len(set(got[0][k - 1 :])) == 1 and got[0][-1] < len(hands[0]) - 1


def test_the_platform_rows_apply_nothing_and_a_forfeit_counts_as_the_download_does(tmp_path):
    def step(kind, seat=0, **s):
        return {"a": {"type": kind, "seat": seat}, "s": s}

    okey = [step("deal"), step("draw"), step("leave", 1), step("replace", 1), step("discard"),
            step("abandon")]  # fmt: skip
    assert node_applied(tmp_path, "kut", [okey]) == [[0, 1, 1, 1, 2, 2]]
    king = [step("deal"), step("choose"), step("play"), step("take_back"), step("play"),
            step("leave", 2)]  # fmt: skip
    assert node_applied(tmp_path, "king", [king]) == [[0, 1, 2, 1, 2, 2]]
    live = {"forfeited": [False, False, False], "over": False}
    gone = {"forfeited": [False, True, False], "over": False}
    kelimeki = [
        step("deal", turn=0, **live), step("play", 0, turn=1, **live),
        step("leave", 1, turn=2, **gone),  # a forfeit in turn: the download's timeout
        step("leave", 0, turn=2, **gone),  # a leave that forfeits nothing
        step("pass", 2, turn=0, **gone),
    ]  # fmt: skip
    assert node_applied(tmp_path, "kelimeki", [kelimeki]) == [[0, 1, 2, 2, 3]]
    out_of_turn = [*kelimeki[:2], step("leave", 2, turn=1, forfeited=[False, False, True], over=False),
                   step("play", 1, turn=0, forfeited=[False, False, True], over=False)]  # fmt: skip
    assert node_applied(tmp_path, "kelimeki", [out_of_turn]) == [[0, 1, 1, 1]]


def _faces(s: dict, seat: int) -> Counter:
    return Counter(f for seg in s["racks"][seat] for f in seg)


def _table(s: dict) -> Counter:
    return Counter(f for g in s.get("table") or [] for f in g["tiles"])


@pytest.mark.parametrize("game", ["kut", "kdvli", "kastet"])
def test_the_better_move_drawn_uses_what_the_seat_held_at_that_step(tmp_path, players, game):
    match = finished_match(game, players)
    steps = history.replay_hand(match, 1)["steps"]
    data = scenario(match, 1)
    report = registry.command("analyse", data)(data)
    applied = node_applied(tmp_path, game, [steps])[0]
    cases = []
    for d in report["decisions"]:
        if d["best"] is not None and len(cases) < 12:
            i = len(applied) - 1 - applied[::-1].index(d["step"])
            assert steps[i + 1]["a"]["seat"] == d["seat"]  # the move played from there
            cases.append({"steps": steps, "i": i, "decision": d})
    assert cases, "the easy bots missed nothing: pick another seed"
    drawn = map_in_node(tmp_path, "okey/replay-best.js", "bestAt",
                        "(c) => bestAt(c.steps, c.i, c.decision)", cases)  # fmt: skip
    for case, parts in zip(cases, drawn):
        d, i = case["decision"], case["i"]
        used = Counter(f for g in parts["groups"] for f, r in zip(g["tiles"], g["rack"]) if r)
        used += Counter(lay["tile"] for lay in parts["layoffs"])
        if parts["discard"]:
            used[parts["discard"]] += 1
        assert used, d
        s = steps[i]["s"]
        start = i
        while start > 0 and steps[start]["a"].get("seat") == d["seat"]:
            start -= 1
        held = _faces(s, d["seat"]) + (_table(s) - _table(steps[start]["s"]))
        if parts["take"]:
            assert s["thrown"] and "missed_finish" in d["notes"]
            held[s["thrown"]] += 1
        assert not used - held, (d, used - held)
        if game == "kastet":  # the tiles marked as the rack's are the lay's count
            assert sum(sum(g["rack"]) for g in parts["groups"]) == d["best_value"]


WORDS = [
    ("kut", {"actions": [{"seat": 2, "type": "open", "groups": [["R13", "Y13", "B13", "F"]]},
                         {"seat": 2, "type": "discard", "tile": "K4"}]},
     "open with red 13, yellow 13, blue 13, fake okey; discard black 4",
     "kırmızı 13, sarı 13, mavi 13, sahte okey ile aç; siyah 4 at"),
    ("kut", {"actions": [{"type": "lay_off", "tile": "B5", "group": 0, "end": "right"},
                         {"type": "auto_lay_off"}, {"type": "timeout"}]},
     "lay off blue 5; lay off every tile that fits; the time ran out",
     "mavi 5 işle; uyan her taşı işle; süre doldu"),
    ("kdvli", {"type": "take_discard", "then": {"type": "finish", "tile": "Y2",
                                                 "groups": [["R1", "R2", "R3"]]}},
     "take the thrown tile, finish with yellow 2 (red 1, red 2, red 3)",
     "atılan taşı al, sarı 2 atıp bit (kırmızı 1, kırmızı 2, kırmızı 3)"),
    ("kastet", {"type": "lay", "table": [["R5", "Y5", "K5"]], "pairs": [["B2", "B2"]]},
     "lay to leave red 5, yellow 5, black 5 · blue 2, blue 2",
     "masada kırmızı 5, sarı 5, siyah 5 · mavi 2, mavi 2 kalacak şekilde indir"),
    ("kastet", {"type": "draw"}, "draw from the deck", "desteden çek"),
    ("king", {"type": "play", "card": "QS"}, "play the queen of spades", "maça kız oyna"),
    ("king", {"type": "choose", "contract": "koz", "trump": "H"}, "choose Trump ♥", "Koz ♥ seç"),
    ("kelimeki", {"type": "play", "placements": [
        {"row": 0, "col": 1, "letter": "E", "joker": False},
        {"row": 0, "col": 0, "letter": "K", "joker": False},
        {"row": 0, "col": 2, "letter": "I", "joker": True}]},
     "KEı across from row 1, column 1", "KEı, 1. satır 1. sütundan yatay"),
    ("kelimeki", {"type": "play", "placements": [
        {"row": 3, "col": 7, "letter": "O", "joker": False},
        {"row": 4, "col": 7, "letter": "L", "joker": False}]},
     "OL down from row 4, column 8", "OL, 4. satır 8. sütundan dikey"),
    ("kelimeki", {"type": "exchange", "letters": ["A", "B"]}, "exchange 2 tiles", "2 taş değiştir"),
    ("kelimeki", {"type": "pass"}, "pass", "pas geç"),
]  # fmt: skip


@pytest.mark.parametrize(("game", "move", "en", "tr"), WORDS)
def test_each_game_says_its_moves_in_english_and_turkish(game, move, en, tr):
    for language, text in (("en", en), ("tr", tr)):
        with translation.override(language):
            assert web(game).analysis_move_text(move) == text
