"""King's analysis (issue 31; games/king/engine/analysis.py): the double dummy against a
plain minimax on end positions of up to four tricks, golden hands, the command, the
budget, determinism."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from game.engine.analysis import Budget
from game.engine.scenario_input import ScenarioError
from games.king.engine import analysis
from games.king.engine.analysis import Position, Solver, mask_of
from games.king.engine.cards import AH, HEARTS, KH, card
from games.king.engine.contracts import PENALTIES

from . import dd_reference as ref
from .helpers import BY_SUIT, choose, scenario, timeout

ROOT = Path(__file__).resolve().parents[4]
CONTRACTS = [(p, None) for p in PENALTIES] + [("koz", t) for t in range(4)]


def random_position(rng: random.Random, tricks: int):
    """An end position with ``tricks`` tricks left (the one in progress included): a
    random leader, 0-3 cards on the table, cards drawn from two to four suits, hearts
    more often than not and often with AH and KH (so that following, voids, G-P6, G-P7
    and G-P8 all come up)."""
    suits = rng.sample(range(4), rng.randint(2, 4))
    if HEARTS not in suits and rng.random() < 0.7:
        suits[0] = HEARTS
    pool = [c for c in range(52) if c // 13 in suits]
    cards = rng.sample(pool, 4 * tricks)
    if HEARTS in suits and rng.random() < 0.6:  # the Rıfkı and its ace in play
        for c in (AH, KH):
            if c not in cards:
                cards[rng.choice([i for i, x in enumerate(cards) if x not in (AH, KH)])] = c
    hands = [set(cards[tricks * s : tricks * (s + 1)]) for s in range(4)]
    leader = rng.randrange(4)
    trick = []
    for i in range(rng.randint(0, 3) if tricks > 0 else 0):
        c = rng.choice(sorted(hands[(leader + i) % 4]))
        hands[(leader + i) % 4].discard(c)
        trick.append(c)
    return hands, trick, leader, 13 - tricks


def solver_value(hands, trick, leader, done, contract, trump, me) -> int:
    solver = Solver(contract, trump, me, Budget(10**9))
    return solver.exact(Position([mask_of(h) for h in hands], trick, leader, done))


@pytest.mark.parametrize("tricks", [1, 2, 3, 4])
def test_double_dummy_equals_a_plain_minimax_on_end_positions(tricks):
    """Issue 31's "done when": the exact value of every contract (G-H2), for every
    seat's point of view, equals the plain minimax of dd_reference (G-P1…G-P10, G-S1…
    G-S7, G-P9's early end)."""
    rng = random.Random(tricks)
    checked = 0
    for _ in range({1: 60, 2: 60, 3: 25, 4: 3}[tricks]):
        hands, trick, leader, done = random_position(rng, tricks)
        for contract, trump in CONTRACTS:
            me = rng.randrange(4)
            want = ref.value(hands, trick, leader, done, contract, trump, me)
            assert solver_value(hands, trick, leader, done, contract, trump, me) == want, (
                hands, trick, leader, contract, trump, me)  # fmt: skip
            checked += 1
    assert checked >= 30


@pytest.mark.parametrize("tricks", [2, 3, 4])
def test_each_card_against_the_best_equals_a_plain_minimax(tricks):
    """The analysis's judgement of a card (its value, the best value, a best card) for
    the seat to play, against the minimax value of every legal card."""
    rng = random.Random(100 + tricks)
    judged = 0
    while judged < {2: 150, 3: 100, 4: 12}[tricks]:
        hands, trick, leader, done = random_position(rng, tricks)
        contract, trump = rng.choice(CONTRACTS)
        me = (leader + len(trick)) % 4
        pos = Position([mask_of(h) for h in hands], trick, leader, done)
        solver = Solver(contract, trump, me, Budget(10**9))
        groups = solver.candidates(pos)
        legal = [c for _, m in groups for c in range(52) if m >> c & 1]
        brute = {c: ref.card_value(hands, trick, leader, done, contract, trump, me, c)
                 for c in legal}  # fmt: skip
        top = max(brute.values())
        for played in legal:
            value, best, best_card, classes = solver.judge(pos, played)
            assert value == brute[played] and best == top
            if brute[played] == top:
                assert best_card is None
            else:
                assert brute[best_card] == top
            assert classes == len(groups)
            judged += 1
        # equivalent cards really play alike (the pruning is exact)
        for _, members in groups:
            assert len({brute[c] for c in range(52) if members >> c & 1}) == 1


def test_the_king_of_hearts_falls_on_the_ace_in_the_search():
    """G-P8 where it decides the value: seat 1 leads AH, seat 2 must drop KH on it (seat
    1 takes the Rıfkı); were seat 2 free to play 4H, it would keep KH and drop it on the
    last trick, which seat 0 must win with 5S (G-P7), -320 for seat 0."""
    hands = [{card("QH"), card("5S")}, {card("3S")}, {card("KH"), card("4H")},
             {card("2H"), card("2S")}]  # fmt: skip
    trick, leader, done = [card("AH")], 1, 11
    assert ref.value(hands, trick, leader, done, "rifki", None, 0) == 0
    assert solver_value(hands, trick, leader, done, "rifki", None, 0) == 0


@pytest.mark.parametrize("contract,trump,deal,leader", [
    ("kupa_almaz", None, ("2S AH KH QH", "JH TH 9H 8H", "7H 6H 5H 4H", "3H 2H 3S 4S"), 0),
    ("rifki", None, ("2S AH KH QH", "JH TH 9H 8H", "7H 6H 5H 4H", "3H 2H 3S 4S"), 0),
    ("koz", HEARTS, ("JH 9H 6H 3H", "KH QH 2H TC", "8H 5H 4H QC", "4S AH TH 7H"), 2),
])  # fmt: skip
def test_no_heart_or_trump_lead_before_it_is_broken_in_the_search(contract, trump, deal,
                                                                  leader):  # fmt: skip
    """G-P5 and G-P6 where they decide: all 13 hearts still in play four tricks from
    the end, so the leader must lead another suit first (in the koz deal seat 0 takes
    a trick only because seat 2 may not lead a trump at once)."""
    hands = [{card(c) for c in h.split()} for h in deal]
    for me in range(4):
        want = ref.value(hands, [], leader, 9, contract, trump, me)
        assert solver_value(hands, [], leader, 9, contract, trump, me) == want


# --- golden hands, hand-checked --------------------------------------------------------

GOLDEN = ROOT / "tests" / "games" / "king" / "engine" / "analysis"


def golden(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


def at(out: dict, step: int) -> dict:
    return next(d for d in out["decisions"] if d["step"] == step)


def test_golden_koz_a_ruff_thrown_away():
    """Koz, diamonds (G-S7: +50 a trick).  Trick 12, seat 3 to lead, holding JS 6D; seat
    0 KS JH, seat 1 2S 3H, seat 2 TC JD.  Leading 6D loses it to JD and seat 2's TC
    takes the last trick: 0.  Leading JS makes seat 2 ruff (G-P4) and lead TC, which seat
    3 ruffs with 6D: +50 whatever the others do.  Cost 50: a loss (≥ 30, < 100)."""
    out = analysis.analyse(golden("koz_lead_the_spade_to_ruff_last"))
    d = at(out, 45)
    assert (d["seat"], d["kind"], d["played"]) == (3, "card", {"type": "play", "card": "6D"})
    assert d["best"] == {"type": "play", "card": "JS"}
    assert (d["value"], d["best_value"], d["cost"], d["mark"]) == (0, 50, 50, "loss")
    assert d["exact"] is True and d["bound"] is None and d["notes"] == []
    # the last trick's cards were all forced
    assert all(at(out, s)["notes"] == ["forced"] for s in range(49, 53))


def test_golden_erkek_almaz_a_jack_taken_instead_of_ducked():
    """Erkek almaz (G-S3: -60 a king or jack).  Trick 12: seat 0 leads JC; seat 1 holds
    QC 3C and plays QC, taking the jack (-60); 3C ducks, seat 0 keeps the trick and then
    takes the last one with KC (seat 1 must follow with QC, a queen is no man): 0.  Cost
    60: a loss."""
    out = analysis.analyse(golden("erkek_almaz_duck_under_the_jack"))
    d = at(out, 46)
    assert (d["seat"], d["played"], d["best"]) == (
        1, {"type": "play", "card": "QC"}, {"type": "play", "card": "3C"})  # fmt: skip
    assert (d["value"], d["best_value"], d["cost"], d["mark"]) == (-60, 0, 60, "loss")
    # seat 0's KC on the last trick is forced, and takes the king itself
    assert at(out, 52)["value"] == -60 and at(out, 52)["notes"] == ["forced"]


def test_golden_choice_of_el_almaz_with_every_spade():
    """A 4-hand match (G-H4: one choice each, nothing kept for later): seat 0 holds all
    13 spades and chooses El almaz, so it takes every trick (-650, G-S1); Koz in spades
    takes every trick (+650, G-S7).  The estimate is exact here (every card is forced):
    cost 1300, a big loss, and every option is listed."""
    data = scenario(BY_SUIT, [choose(0, "el_almaz"), *[timeout((s) % 4) for s in range(52)]],
                    length=4)  # fmt: skip
    out = analysis.analyse(data)
    d = at(out, 0)
    assert d["kind"] == "choose" and d["played"] == {"type": "choose", "contract": "el_almaz"}
    assert d["best"] == {"type": "choose", "contract": "koz", "trump": "S"}
    assert (d["value"], d["best_value"], d["cost"], d["mark"]) == (-650, 650, 1300, "big_loss")
    assert d["exact"] is False and "heuristic" in d["bound"]
    assert len(d["options"]) == 10  # six penalty contracts, koz in four suits
    scores = {o["contract"]: o["score"] for o in d["options"] if o["trump"] in (None, "S")}
    # seat 0 wins every trick; void seat 1 must drop a heart on each (G-P7)
    assert scores["kupa_almaz"] == -390 and scores["rifki"] == -320
    # the cards: all forced (each seat holds one suit), every value the seat's own take
    cards = [x for x in out["decisions"] if x["kind"] == "card"]
    # notes are sorted (game/engine/analysis.py)
    assert len(cards) == 52 and all(x["notes"] == ["forced", "timeout"] for x in cards)
    assert [x["value"] for x in cards if x["seat"] == 0][-1] == -50
    assert out["complete"] is True
    assert out["summary"][0] == {"seat": 0, "decisions": 14, "good": 13, "loss": 0,
                                 "big_loss": 1, "total_cost": 1300, "average_cost": 92.86,
                                 "counts": {"forced": 13, "timeout": 13}}  # fmt: skip


def test_the_choice_weighs_the_choices_kept_for_later():
    """In a 20-hand match a koz now is a koz fewer later (G-H4): the options' values are
    their scores plus the worth of the choices left (analysis.BASELINE each)."""
    data = scenario(BY_SUIT, [choose(0, "el_almaz")], length=20)
    d = at(analysis.analyse(data), 0)
    by = {(o["contract"], o["trump"]): o for o in d["options"]}
    koz, el = by[("koz", "S")], by[("el_almaz", None)]
    b = analysis.BASELINE
    assert koz["value"] == round(koz["score"] + 3 * b["ceza"] + b["koz"], 1)
    assert el["value"] == round(el["score"] + 2 * b["ceza"] + 2 * b["koz"], 1)
    assert "later choices" in d["bound"]


# --- the budget, determinism, the command ------------------------------------------------


def test_the_last_six_tricks_and_the_choice_fit_the_default_budget():
    """At least the last six tricks are searched exactly (issue 31) with the default
    budget, then the choice, then earlier cards as far as the budget goes."""
    for name_ in ("koz_lead_the_spade_to_ruff_last", "erkek_almaz_duck_under_the_jack"):
        out = analysis.analyse(golden(name_))
        steps = {d["step"] for d in out["decisions"]}
        assert set(range(29, 53)) | {0} <= steps  # tricks 8-13 are steps 29-52
        assert out["budget"] == {"limit": analysis.DEFAULT_BUDGET,
                                 "used": out["budget"]["used"], "unit": "nodes"}  # fmt: skip
        cards = sorted(s for s in steps if s)
        assert cards == list(range(cards[0], 53))  # a run of the latest cards
        assert all(d["exact"] for d in out["decisions"] if d["kind"] == "card")


def test_a_small_budget_analyses_the_latest_cards_only_and_says_so():
    data = golden("erkek_almaz_duck_under_the_jack")
    out = analysis.analyse(data, budget=300)
    assert out["complete"] is False
    assert out["budget"] == {"limit": 300, "used": 300, "unit": "nodes"}
    steps = [d["step"] for d in out["decisions"]]
    assert steps and steps == list(range(53 - len(steps), 53))  # the latest, whole
    none = analysis.analyse(data, budget=0)  # only what needs no search: the last card
    assert none["complete"] is False and [d["step"] for d in none["decisions"]] == [52]
    # a bigger budget reaches further back and keeps what the small one found
    more = analysis.analyse(data, budget=3000)
    assert len(more["decisions"]) > len(steps)
    assert all(d in more["decisions"] for d in out["decisions"])


def test_the_same_input_gives_the_same_output():
    data = golden("koz_lead_the_spade_to_ruff_last")
    a = json.dumps(analysis.analyse(data, budget=20_000))
    assert json.dumps(analysis.analyse(json.loads(json.dumps(data)), budget=20_000)) == a


def test_rejected_actions_are_no_decisions():
    data = scenario(BY_SUIT, [choose(1, "koz", "S"), choose(0, "koz", "S"),
                              {"seat": 0, "type": "play", "card": "AH"}, timeout(0)])  # fmt: skip
    out = analysis.analyse(data)
    assert [(d["step"], d["kind"]) for d in out["decisions"]] == [(1, "choose"), (3, "card")]


def run_command(stdin: str):
    return subprocess.run([sys.executable, "-m", "game.engine.analyse", "-"], cwd=ROOT,
                          input=stdin, capture_output=True, text=True, timeout=120)  # fmt: skip


def test_the_command_prints_the_analysis():
    proc = run_command((GOLDEN / "erkek_almaz_duck_under_the_jack.json").read_text())
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert list(out) == ["game", "unit", "thresholds", "complete", "budget", "decisions",
                         "summary"]  # fmt: skip
    assert out["game"] == "king" and out["unit"] == "points"
    assert out["thresholds"] == {"loss": 30, "big_loss": 100}
    assert list(out["decisions"][0])[:12] == [
        "step", "seat", "kind", "played", "best", "value", "best_value", "cost", "exact",
        "bound", "mark", "notes"]  # fmt: skip
    assert [r["seat"] for r in out["summary"]] == [0, 1, 2, 3]
    again = run_command((GOLDEN / "erkek_almaz_duck_under_the_jack.json").read_text())
    assert again.stdout == proc.stdout  # byte for byte


@pytest.mark.parametrize("bad", [
    "{", "[]", json.dumps({"game": "king", "chooser": 5, "hands": BY_SUIT}),
    json.dumps({"game": "king", "chooser": 0, "hands": BY_SUIT, "actions": [{"seat": 0}]}),
])  # fmt: skip
def test_the_command_refuses_a_malformed_scenario_with_one_line(bad):
    proc = run_command(bad)
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    if bad.startswith('{"'):
        with pytest.raises(ScenarioError):
            analysis.analyse(json.loads(bad))
