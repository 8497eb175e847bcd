"""Kelimeki's analysis (issue 31; games/kelimeki/engine/analysis.py): the best play, the
rank and the count of plays against a brute force on boards with a few letters, golden
games, jokers, secrecy, the budget, the command, determinism."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.engine.scenario_input import ScenarioError
from games.kelimeki.engine import GAME, analysis
from games.kelimeki.engine.replay import load_scenario, run_action

from .brute import all_plays
from .helpers import make_state

ROOT = Path(__file__).resolve().parents[4]


def P(row, col, letter, joker=False) -> dict:  # noqa: N802
    out = {"row": row, "col": col, "letter": letter}
    if joker:
        out["joker"] = True
    return out


def play(seat, *placements) -> dict:
    return {"seat": seat, "type": "play", "placements": list(placements)}


def game(racks, actions, words, bag=(), players=2, starter=0) -> dict:
    return {"game": "kelimeki", "players": players, "starter": starter, "racks": racks,
            "bag": list(bag), "words": words, "actions": actions}  # fmt: skip


def states_before(data) -> list:
    """The state before each action (a fresh replay up to it)."""
    out = []
    for i in range(len(data["actions"])):
        state, actions = load_scenario(dict(data, actions=data["actions"][:i]))
        for a in actions:
            run_action(state, a)
        out.append(state)
    return out


def check_against_brute_force(data) -> int:
    """Every analysed move: its best value, rank and count of plays equal the brute
    force's on the position the seat faced; the best play is worth what it says."""
    out = analysis.analyse(data)
    assert out["complete"] is True
    before = states_before(data)
    for d in out["decisions"]:
        state = before[d["step"]]
        brute = all_plays(state, d["seat"])
        values = list(brute.values())
        assert d["plays"] == len(brute)
        assert d["best_value"] == max([d["value"], *values])
        assert d["rank"] == 1 + sum(1 for v in values if v > d["value"])
        if d["kind"] == "play":  # the move itself is one of the plays, at its value
            assert d["value"] in values
        if d["best"] is not None:
            key = frozenset((p["row"] * 15 + p["col"], p["letter"], p["joker"])
                            for p in d["best"]["placements"])  # fmt: skip
            assert brute[key] == d["best_value"] > d["value"]
    return len(out["decisions"])


WORDS = ["ev", "eve", "ve", "ze", "ez", "zev", "en", "ne", "ek", "ak", "ka", "kar", "kare",
         "ar", "are", "ara", "er", "re", "ne", "an", "na", "kan", "kana"]  # fmt: skip


def test_best_rank_and_plays_equal_a_brute_force_on_small_boards():
    """Issue 31's "done when" for Kelimeki: boards with a few letters and a small word
    list (W-D4).  Two seats open at their homes (W-M5), then build on each other's and
    their own words (W-M6), with cross words (W-M4) and bonus cells (W-B5)."""
    data = game(
        [["K", "A", "R", "E"], ["E", "V", "Z", "N"]],
        [play(0, P(0, 0, "K"), P(0, 1, "A"), P(0, 2, "R")),
         play(1, P(14, 13, "E"), P(14, 14, "V")),
         play(0, P(1, 2, "E")),  # RE down col 2
         {"seat": 1, "type": "pass"},
         play(0, P(1, 0, "A")),  # KA down col 0
         ],
        WORDS, bag=["A", "N", "E", "K"],
    )  # fmt: skip
    assert check_against_brute_force(data) >= 4


def test_brute_force_with_a_joker_and_tax():
    """A joker (W-T3: any letter, 0 points) and a play that can touch the opponent's
    zone and pay tax (W-Z5…W-Z7): the values compared are what the mover keeps."""
    st = make_state(2, racks=[["Z", "*", "K"], ["A"]], rows={10: "..........EV..."}, placer=1,
                    first_done=[True, True], words=WORDS)  # fmt: skip
    st.zone[11 * 15 + 11] = 1  # one cell of seat 1's zone beside its word
    view = GAME.view_for(st, 0)
    moves, _, full, jokers = analysis.plays(view, 10**9)
    brute = all_plays(st, 0)
    assert (full, jokers) == (1, 1)
    assert {frozenset(m.cells): analysis.gain(m, view) for m in moves} == brute
    assert len(moves) == len(brute)  # each play once, though found in two stages
    assert any(m.touched for m in moves) and len(brute) > 20


def test_the_joker_finish_counts_in_a_plays_value():
    """W-E4: going out (bag empty, W-E1) with a joker alone earns +25, not shared."""
    st = make_state(2, racks=[["*"], ["A"]], rows={7: "......EV......."}, placer=1,
                    first_done=[True, True], words=WORDS)  # fmt: skip
    view = GAME.view_for(st, 0)
    moves, *_ = analysis.plays(view, 10**9)
    brute = all_plays(st, 0)
    assert {frozenset(m.cells): analysis.gain(m, view) for m in moves} == brute
    # the best: the joker as Z before EV, ZEV = 0 (W-T3) + 1 + 7, and the finish 25
    assert max(brute.values()) == 1 + 7 + 25 and all(v >= 25 for v in brute.values())


# --- golden games, hand-checked --------------------------------------------------------


def test_golden_a_short_word_for_a_long_one():
    """Seat 0 opens (W-M5: on its home (0,0), no bonus in the block) with AK = 1 + 1 =
    2 while JAK = 10 + 1 + 1 = 12 was there, across or down: cost 10, a loss (≥ 10,
    < 30); rank 3 of 4 plays (AK and JAK, each across or down)."""
    data = game([["J", "A", "K", "E"], ["E", "V"]], [play(0, P(0, 0, "A"), P(0, 1, "K"))],
                ["ak", "jak"])  # fmt: skip
    (d,) = analysis.analyse(data)["decisions"]
    assert (d["kind"], d["value"], d["best_value"], d["cost"], d["mark"]) == (
        "play", 2, 12, 10, "loss")  # fmt: skip
    assert (d["rank"], d["plays"], d["exact"], d["notes"]) == (3, 4, True, [])
    assert d["played"] == {"type": "play", "placements": [P(0, 0, "A"), P(0, 1, "K")]}
    assert {p["letter"] for p in d["best"]["placements"]} == {"J", "A", "K"}
    assert d["detail"]["best"]["words"] == [{"word": "JAK", "points": 12}]
    assert d["detail"]["played"]["shares"] == [2, 0]


def test_golden_a_pass_with_a_bingo_on_the_rack():
    """Seat 0 passes (W-M10) holding ABCÇDEF, a word of this game's list: across from
    (0,0) or down, F lands on an X2 cell ((0,6) or (6,0), W-B4): 1+3+4+4+3+1+14 = 30,
    +25 bingo (W-S4) = 55.  Cost 55, a big loss, a bingo and a play missed."""
    data = game([list("ABCÇDEF"), ["E", "V"]], [{"seat": 0, "type": "pass"}], ["abcçdef"])
    out = analysis.analyse(data)
    (d,) = out["decisions"]
    assert (d["kind"], d["value"], d["best_value"], d["cost"], d["mark"]) == (
        "pass", 0, 55, 55, "big_loss")  # fmt: skip
    assert d["notes"] == ["missed_bingo", "missed_play"]
    assert (d["rank"], d["plays"]) == (3, 2)
    assert d["detail"] == {"played": None, "best": {
        "words": [{"word": "ABCÇDEF", "points": 55 - 25}], "points": 55, "shares": [55, 0],
        "finish_bonus": 0}}  # fmt: skip
    assert out["summary"][0]["counts"] == {"missed_bingo": 1, "missed_play": 1}
    assert out["summary"][1]["decisions"] == 0


def test_a_timeout_or_a_rejected_play_is_no_decision():
    data = game([["J", "A", "K"], ["E", "V"]],
                [play(0, P(5, 5, "A"), P(5, 6, "K")), {"seat": 0, "type": "pass"},
                 {"seat": 1, "type": "timeout"}], ["ak", "jak"])  # fmt: skip
    out = analysis.analyse(data)
    assert [d["step"] for d in out["decisions"]] == [1]
    assert out["complete"] is True


# --- jokers: the staged search and its cap --------------------------------------------


def test_a_rack_with_both_jokers_is_searched_in_stages_within_its_cap(monkeypatch):
    """Two jokers: the plays with at most one joker are searched in full first; when the
    cap stops the last stage the decision says so (exact false, the bound) and its best
    is at least the best with one joker."""
    data = json.loads((ROOT / "tests/games/kelimeki/engine/scenarios/shipped_dictionary.json")
                      .read_text(encoding="utf-8"))  # fmt: skip
    data = dict(data, racks=[["K", "A", "L", "E", "M", "*", "*"], data["racks"][1]])
    data["actions"] = [{"seat": 0, "type": "pass"}]
    view = GAME.view_for(load_scenario(data)[0], 0)
    one = analysis.plays(dict(view, rack=["K", "A", "L", "E", "M", "*"]), 10**9)
    assert one[2:] == (1, 1)
    monkeypatch.setattr(analysis, "DECISION_LIMIT", one[1] + 2000)
    (d,) = analysis.analyse(data)["decisions"]
    assert d["exact"] is False
    assert d["bound"] == f"steps {one[1] + 2000}: the plays with at most one joker searched in full"
    assert d["best_value"] >= max(analysis.gain(m, view) for m in one[0])
    assert d["plays"] >= len(one[0])


# --- secrecy, the budget, determinism, the command ---------------------------------------


SECRET = game(
    [["K", "A", "R", "E", "N", "A", "Z"], ["E", "V", "Z", "N", "A", "K", "R"]],
    [play(0, P(0, 0, "K"), P(0, 1, "A"), P(0, 2, "R")), {"seat": 1, "type": "pass"},
     play(0, P(1, 2, "E")), {"seat": 1, "type": "pass"}, play(0, P(1, 0, "A")),
     {"seat": 1, "type": "pass"}],
    WORDS, bag=["A", "N", "E", "R", "K", "E", "L", "A", "N", "E"],
)  # fmt: skip


def test_a_seats_analysis_never_depends_on_what_it_could_not_see():
    """P-1, W-T5: seat 0's moves are judged from its own view only.  Another rack for
    seat 1 and another order of the bag below what seat 0 draws (it draws 3, 1, 1) leave
    every one of seat 0's decisions unchanged."""
    other = json.loads(json.dumps(SECRET))
    other["racks"][1] = ["İ", "Ş", "Ğ", "O", "U", "*", "T"]
    other["bag"] = SECRET["bag"][:5] + ["*", "J", "Ö", "Ü", "E"]
    mine = [d for d in analysis.analyse(SECRET)["decisions"] if d["seat"] == 0]
    theirs = [d for d in analysis.analyse(other)["decisions"] if d["seat"] == 0]
    assert len(mine) == 3 and mine == theirs
    # while seat 1's own (passes) are judged from its own, different rack
    assert analysis.analyse(SECRET)["decisions"][1] != analysis.analyse(other)["decisions"][1]


def test_a_small_budget_analyses_a_prefix_and_says_so():
    full = analysis.analyse(SECRET)
    assert full["complete"] is True and len(full["decisions"]) == 6
    used = full["budget"]["used"]
    part = analysis.analyse(SECRET, budget=used // 3)
    assert part["complete"] is False
    assert part["budget"] == {"limit": used // 3, "used": part["budget"]["used"],
                              "unit": "steps"}  # fmt: skip
    assert part["budget"]["used"] <= used // 3
    n = len(part["decisions"])
    assert 0 < n < 6 and part["decisions"] == full["decisions"][:n]
    assert analysis.analyse(SECRET, budget=0)["decisions"] == []


def test_the_same_input_gives_the_same_output():
    assert json.dumps(analysis.analyse(SECRET)) == json.dumps(analysis.analyse(
        json.loads(json.dumps(SECRET))))  # fmt: skip


def run_command(stdin: str):
    return subprocess.run([sys.executable, "-m", "game.engine.analyse", "-"], cwd=ROOT,
                          input=stdin, capture_output=True, text=True, timeout=120)  # fmt: skip


def test_the_command_prints_the_analysis():
    proc = run_command(json.dumps(SECRET))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["game"] == "kelimeki" and out["unit"] == "points"
    assert out["thresholds"] == {"loss": 10, "big_loss": 30}
    assert list(out["decisions"][0]) == [
        "step", "seat", "kind", "played", "best", "value", "best_value", "cost", "exact",
        "bound", "mark", "notes", "rank", "plays", "detail"]  # fmt: skip
    assert [r["seat"] for r in out["summary"]] == [0, 1]
    assert run_command(json.dumps(SECRET)).stdout == proc.stdout


@pytest.mark.parametrize("bad", [
    {"players": 3}, {"racks": [["A"]]}, {"words": ["a"]},
    {"actions": [{"seat": 0, "type": "play", "placements": [{"row": 0, "col": 0,
                                                             "letter": "*"}]}]},
])  # fmt: skip
def test_the_command_refuses_a_malformed_scenario_with_one_line(bad):
    data = dict(SECRET, **bad)
    proc = run_command(json.dumps(data))
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    with pytest.raises(ScenarioError):
        analysis.analyse(data)


def test_brute_force_with_both_jokers():
    """Both jokers (the 29 × 29 letters): every play, each once, at its value."""
    st = make_state(2, racks=[["*", "*"], ["A"]], rows={7: "......EV......."}, placer=1,
                    first_done=[True, True], bag=["A"], words=WORDS)  # fmt: skip
    view = GAME.view_for(st, 0)
    moves, _, full, jokers = analysis.plays(view, 10**9)
    brute = all_plays(st, 0)
    assert (full, jokers) == (2, 2) and len(moves) == len(brute) > 20
    assert {frozenset(m.cells): analysis.gain(m, view) for m in moves} == brute


def test_the_bounded_generator_stops_after_its_steps():
    """movegen.generate_bounded: no limit gives generate's plays; a limit stops after
    that many steps with the plays found so far (a deterministic subset), and says so."""
    from games.kelimeki.engine.lexicon import lexicon_for
    from games.kelimeki.engine.movegen import Position, generate, generate_bounded

    st = make_state(2, racks=[["Z", "*", "K", "E"], ["A"]], rows={10: "..........EV..."},
                    placer=1, first_done=[True, True], words=WORDS)  # fmt: skip
    pos, lex = Position.from_view(GAME.view_for(st, 0)), lexicon_for(WORDS)
    every, steps, done = generate_bounded(pos, lex)
    assert done and set(every) == set(generate(pos, lex)) and steps > 100
    assert generate_bounded(pos, lex, steps) == (every, steps, True)
    some, used, done = generate_bounded(pos, lex, steps // 2)
    assert (used, done) == (steps // 2, False) and set(some) < set(every)
    assert generate_bounded(pos, lex, steps // 2) == (some, used, done)
    assert generate_bounded(pos, lex, 0) == ([], 0, False)


def test_the_analysis_is_the_same_in_every_process():
    """Determinism across processes (Python hashes strings differently in each): with
    both jokers there are plays on the same cells with other letters and equal values
    (the best is then the first by its letters, not the first found), and a search cut
    short by its cap finds the same plays (the word list's trie and the generator's
    letters go in W-T1 order, not hash order)."""
    base = json.loads((ROOT / "tests/games/kelimeki/engine/scenarios/shipped_dictionary.json")
                      .read_text(encoding="utf-8"))  # fmt: skip
    first = dict(base, racks=[["K", "A", "L", "E", "M", "*", "*"], base["racks"][1]],
                 actions=[{"seat": 0, "type": "pass"}])  # fmt: skip
    cut = dict(base, racks=[base["racks"][0], ["E", "V", "N", "A", "R", "*", "*"]],
               actions=[base["actions"][0], {"seat": 1, "type": "pass"}])  # fmt: skip
    for data in (first, cut):
        outs = set()
        for seed in ("1", "2", "3"):
            proc = subprocess.run(
                [sys.executable, "-m", "game.engine.analyse", "-"], cwd=ROOT,
                input=json.dumps(data), capture_output=True, text=True, timeout=120,
                env={**os.environ, "PYTHONHASHSEED": seed})  # fmt: skip
            assert proc.returncode == 0, proc.stderr
            outs.add(proc.stdout)
        assert len(outs) == 1
    d = json.loads(outs.pop())["decisions"][1]
    assert d["exact"] is False and d["kind"] == "pass" and d["plays"] > 1000
