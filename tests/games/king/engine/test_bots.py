"""King bots: they see a view only (P-1, G-X3), play legal moves at every level, hard
samples deals consistent with what its seat saw (G-V3's public facts) and chooses its
contract and trump suit from its hand and the quota (G-H3, G-H4)."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

from games.king.engine import GAME, bots
from games.king.engine.cards import card
from games.king.engine.hand import HandState
from games.king.engine.match import MatchState
from games.king.engine.simulate import simulate

from .helpers import BY_SUIT, choose, play
from .test_rules import ROUND

BOTS = Path(bots.__file__)
ALLOWED = {"cards", "contracts", "rules"}


def test_p1_bot_code_cannot_reach_the_state():
    """P-1: the bot module imports only the pure card, contract and rule helpers, never
    the hand state, the match, the views or the deal."""
    tree = ast.parse(BOTS.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level >= 1:
            assert (node.module or "").split(".")[0] in ALLOWED, node.module
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith("game") for a in node.names)


def _match(hands, chooser=0, length=20, chosen=None) -> MatchState:
    m = MatchState(length, chooser)
    m.hand_no = 1
    m.hand = HandState(length, chooser, chosen or [[], [], [], []],
                       [[card(c) for c in h] for h in hands])  # fmt: skip
    return m


def _do(m, *actions):
    for a in actions:
        GAME.apply(m, a["seat"], {k: v for k, v in a.items() if k != "seat"}, 0.0)


def _shuffle_hidden(m: MatchState, seat: int, rng: random.Random) -> MatchState:
    """The same match except for what ``seat`` cannot see: the other seats' unplayed
    cards dealt around again (counts kept)."""
    other = MatchState.from_dict(m.to_dict())
    hidden = [c for s in range(4) if s != seat for c in other.hand.hands[s]]
    rng.shuffle(hidden)
    for s in range(4):
        if s != seat:
            n = len(other.hand.hands[s])
            other.hand.hands[s], hidden = sorted(hidden[:n]), hidden[n:]
    return other


def test_p1_decisions_depend_on_the_view_only():
    """P-1: with the hidden cards dealt differently the view is identical, and so is every
    level's action for the same RNG."""
    m = _match(ROUND)
    _do(m, choose(0, "el_almaz"), *play(0, "AS", "KS", "QS", "JS"), *play(0, "TS"))
    seat = m.hand.turn
    rng = random.Random(3)
    for _ in range(5):
        other = _shuffle_hidden(m, seat, rng)
        assert other.hand.hands != m.hand.hands
        v1, v2 = GAME.view_for(m, seat), GAME.view_for(other, seat)
        assert v1 == v2
        for level in bots.LEVELS:
            a1 = GAME.bot_choose(json.loads(json.dumps(v1)), level, random.Random(9))
            a2 = GAME.bot_choose(json.loads(json.dumps(v2)), level, random.Random(9))
            assert a1 == a2


def test_every_level_plays_legal_hands_in_every_seat():
    """G-X3: a short simulation at every level ends every hand with legal moves only
    (an illegal bot move raises)."""
    r = simulate(8, ["hard", "normal", "easy", "normal"], seed=4, length=4)
    assert r["hands"] == 8 and set(r["levels"]) == {"easy", "normal", "hard"}


def test_hard_samples_deals_consistent_with_what_it_saw():
    """The hard bot's deals: the unseen cards only, each seat's count, no card of a suit a
    seat showed it lacks, no penalty card a seat showed it does not hold."""
    hands = [list(h) for h in BY_SUIT]
    hands[1][hands[1].index("2H")], hands[2][hands[2].index("2C")] = "2C", "2H"
    m = _match(hands)
    _do(m, choose(0, "kupa_almaz"), *play(0, "AS", "9H", "2H", "AD"), *play(0, "KS"))
    seen = bots.Seen(json.loads(json.dumps(GAME.view_for(m, 1))))
    rng = random.Random(1)
    for _ in range(50):
        deal = seen.sample(rng)
        assert deal is not None and deal[1] == seen.hand
        assert [len(h) for h in deal] == seen.counts
        assert sorted(c for h in deal for c in h) == sorted(
            set(range(52)) - seen.played
        )  # every unseen card once
        for s in (0, 2, 3):
            assert all(c // 13 not in seen.voids[s] and c not in seen.lacks[s] for c in deal[s])
        assert not any(c // 13 == 1 for c in deal[3])  # seat 3 showed it has no heart
        assert not any(c // 13 == 0 for c in deal[2] + deal[3])  # void in spades


def _choice_view(hand: list[str], length=4, chosen=None, chooser=0):
    rest = [c for c in (r + s for s in "SHCD" for r in "AKQJT98765432") if c not in hand]
    hands = [hand, rest[:13], rest[13:26], rest[26:]]
    m = _match(hands, chooser, length, chosen)
    return json.loads(json.dumps(GAME.view_for(m, chooser)))


def test_hard_names_the_trump_of_its_long_strong_suit():
    """G-H3: with seven top spades the hard bot chooses koz and names spades."""
    view = _choice_view("AS KS QS JS TS 9S 8S AH KH AC KC AD 2D".split())
    action = GAME.bot_choose(view, "hard", random.Random(1))
    assert action == {"type": "choose", "contract": "koz", "trump": "S"}


def test_bots_choose_only_what_the_quota_allows():
    """G-H4, G-H5, G-Q2: a bot never picks a disabled contract; with koz used up the hard
    bot picks a penalty contract even holding a koz hand."""
    chosen = [["koz", "koz"], ["kiz_almaz", "koz"], ["kiz_almaz", "koz"], ["el_almaz", "son_iki"]]
    view = _choice_view("AS KS QS JS TS 9S 8S AH KH AC KC AD 2D".split(), length=20,
                        chosen=chosen)  # fmt: skip
    ok = {o["contract"] for o in view["choice"]["options"] if o["allowed"]}
    assert ok == {"el_almaz", "kupa_almaz", "erkek_almaz", "rifki", "son_iki"}
    for level in bots.LEVELS:
        for seed in range(5):
            action = GAME.bot_choose(view, level, random.Random(seed))
            assert action["contract"] in ok and "trump" not in action


def test_hard_avoids_a_penalty_contract_its_hand_is_bad_for():
    """The hard bot weighs its hand: with koz forbidden, holding AH KH QH JH TH 9H 8H it
    never picks kupa almaz (it would take the heart tricks)."""
    chosen = [["koz", "koz"], ["rifki", "koz"], ["son_iki", "koz"], ["el_almaz", "koz"]]
    view = _choice_view("AH KH QH JH TH 9H 8H 2S 3S 2C 3C 2D 3D".split(), length=20,
                        chosen=chosen)  # fmt: skip
    picks = {GAME.bot_choose(view, "hard", random.Random(s))["contract"] for s in range(3)}
    assert "kupa_almaz" not in picks


def test_hard_leads_low_in_el_almaz():
    """In el almaz the hard bot's play-outs find a low lead, never the ace of spades or the
    king of diamonds that would take the trick."""
    m = _match(ROUND, chooser=0)
    _do(m, choose(0, "el_almaz"))
    view = json.loads(json.dumps(GAME.view_for(m, 0)))
    for seed in range(3):
        action = GAME.bot_choose(view, "hard", random.Random(seed))
        assert action["card"] in view["playable"] and action["card"] not in ("AS", "KD", "QC")


def test_simulate_and_bench_commands(capsys):
    """The simulation prints each level's mean score per hand with its 95% interval; the
    bench prints engine speed and bot move times (tiny runs here)."""
    from games.king.engine import bench
    from games.king.engine import simulate as sim

    assert sim.main(["--hands", "4", "--length", "4", "--seed", "3", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["hands"] == 4 and set(r["levels"]) == {"easy", "normal", "hard"}
    for x in r["levels"].values():
        assert x["low"] <= x["mean"] <= x["high"] and x["move_ms"]["p99"] >= 0
    assert sim.main(["--hands", "1", "--length", "4"]) == 0
    assert "hard > normal > easy" in capsys.readouterr().out
    assert bench.main(["--hands", "3", "--bot-hands", "2", "--json"]) == 0
    b = json.loads(capsys.readouterr().out)
    assert b["engine"]["hands"] == 3 and b["bots"]["hard"]["moves"] > 0


LOW_HAND = "5S 4S 3S 2S 5H 4H 3H 2H 4C 3C 2C 3D 2D".split()  # takes no trick anywhere


def test_issue_29_a_hand_that_takes_nothing_chooses_a_penalty_contract():
    """Issue 29 (G-H2, G-H4): in a 4-hand match each seat chooses once, koz or a
    penalty; a hand of twos to fives takes almost nothing, so a penalty contract (the
    others share its whole total, G-S8) is worth more to it than koz — the old bots
    chose koz with every hand."""
    view = _choice_view(LOW_HAND, length=4)
    for level in ("normal", "hard"):
        for seed in range(3):
            action = GAME.bot_choose(view, level, random.Random(seed))
            assert action["contract"] != "koz", (level, seed)


def test_issue_29_the_same_strong_trump_hand_still_chooses_koz():
    view = _choice_view("AS KS QS JS TS 9S 8S AH KH AC KC AD 2D".split(), length=4)
    for level in ("normal", "hard"):
        assert GAME.bot_choose(view, level, random.Random(2))["contract"] == "koz"


def test_issue_29_every_contract_is_played_in_four_hand_bot_matches():
    """A short run of 4-hand matches (the simulate command's contract counts): the bots
    choose penalty contracts by their hands, not koz every time (README, "King")."""
    r = simulate(48, ["normal", "normal", "normal", "normal"], seed=7, length=4)
    chosen = r["levels"]["normal"]["contracts"]
    assert sum(chosen.values()) == 48
    assert chosen["koz"] < 40 and sum(1 for c, n in chosen.items() if n and c != "koz") >= 4
