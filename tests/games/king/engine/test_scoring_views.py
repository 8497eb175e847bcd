"""Scores (king.md section 6), views (section 7), the quota's display (section 8)."""

from __future__ import annotations

import json
import random

from games.king.engine import GAME
from games.king.engine.cards import card
from games.king.engine.contracts import quota
from games.king.engine.hand import HandState
from games.king.engine.match import MatchState
from games.king.engine.rules import score_tricks
from games.king.engine.views import view_for

from .helpers import BY_SUIT, choose, play, run, timeout
from .test_rules import ROUND


def tricks(*specs):
    """(leader, "AS KS …", winner) triples for score_tricks."""
    return [(ld, [card(c) for c in cs.split()], w) for ld, cs, w in specs]


FILLER = ("2S 3S 4S 5S",) * 13


def test_g_s1_el_almaz_minus_50_per_trick():
    """G-S1: −50 for each trick taken."""
    winners = [0, 1, 1, 2, 2, 2, 0, 0, 0, 0, 1, 2, 0]
    t = [(0, [card(c) for c in FILLER[0].split()], w) for w in winners]
    assert score_tricks("el_almaz", t) == [-300, -150, -200, 0]


def test_g_s2_kupa_almaz_minus_30_per_heart():
    """G-S2: −30 for each heart in the tricks a seat takes."""
    t = tricks((0, "2S AH KH 3S", 1), (1, "QH 2H JC 3D", 3), (3, "AS KS QS JS", 0))
    assert score_tricks("kupa_almaz", t) == [0, -60, 0, -60]


def test_g_s3_erkek_almaz_minus_60_per_king_or_jack():
    """G-S3: −60 for each king and each jack taken."""
    t = tricks((0, "KS JS QS AS", 3), (3, "JD KC 2H QD", 0), (0, "QH AH TH 9H", 1))
    assert score_tricks("erkek_almaz", t) == [-120, 0, 0, -120]


def test_g_s4_kiz_almaz_minus_100_per_queen():
    """G-S4: −100 for each queen taken."""
    t = tricks((0, "QS QH 2S 3S", 2), (2, "QC 2C 3C KC", 1))
    assert score_tricks("kiz_almaz", t) == [0, -100, -200, 0]


def test_g_s5_rifki_minus_320_for_kh():
    """G-S5: −320 for the seat that takes the trick holding KH."""
    t = tricks((0, "2H KH 3H 4H", 3), (3, "AS KS QS JS", 1))
    assert score_tricks("rifki", t) == [0, 0, 0, -320]


def test_g_s6_son_iki_tricks_12_and_13():
    """G-S6: −180 for the winners of tricks 12 and 13; −360 when one seat takes both."""
    spade = [card(c) for c in FILLER[0].split()]
    one = [(0, spade, w) for w in [0] * 11 + [2, 2]]
    assert score_tricks("son_iki", one) == [0, 0, -360, 0]
    two = [(0, spade, w) for w in [1] * 11 + [3, 0]]
    assert score_tricks("son_iki", two) == [-180, 0, 0, -180]


def test_g_s7_koz_plus_50_per_trick():
    """G-S7: +50 for each trick taken."""
    spade = [card(c) for c in FILLER[0].split()]
    t = [(0, spade, w) for w in [0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 0, 0, 0]]
    assert score_tricks("koz", t) == [200, 100, 150, 200]


def test_g_s8_twenty_hand_match_totals_add_up_to_zero():
    """G-S8: each hand adds up to its contract's total; a full 20-hand match to 0 (12
    penalty hands −5,200, 8 trump hands +5,200).  G-S9: totals are sums of hand scores."""
    rng = random.Random(5)
    state = GAME.new_match({"length": 20}, 4, rng)
    while True:
        while not GAME.hand_over(state):
            GAME.on_timeout(state, GAME.to_act(state)[0], 0.0)
        if GAME.match_over(state):
            break
        GAME.start_next_hand(state, rng)
    kinds = [r["contract"] for r in state.results]
    assert kinds.count("koz") == 8 and sum(state.totals) == 0
    penalty = sum(sum(r["scores"]) for r in state.results if r["contract"] != "koz")
    assert penalty == -5200
    assert all(kinds.count(p) == 2 for p in set(kinds) - {"koz"})


# --- 7. views -----------------------------------------------------------------------


def _match(hands=BY_SUIT, chooser=0, length=20, chosen=None):
    m = MatchState(length, chooser)
    m.hand_no = 1
    m.hand = HandState(
        length, chooser, chosen or [[], [], [], []], [[card(c) for c in h] for h in hands]
    )
    return m


def _do(m, *actions):
    for a in actions:
        GAME.apply(m, a["seat"], {k: v for k, v in a.items() if k != "seat"}, 0.0)


def test_g_v1_own_cards_from_the_deal_in_display_order():
    """G-V1: a seat sees its own 13 cards before the choice, in G-C3's order."""
    m = _match(ROUND)
    v = view_for(m, 2)
    assert v["phase"] == "choose"
    assert v["hand"] == [
        "QS",
        "8S",
        "4S",
        "KH",
        "9H",
        "5H",
        "AC",
        "TC",
        "6C",
        "2C",
        "JD",
        "7D",
        "3D",
    ]
    assert view_for(m, None)["hand"] == []


def test_g_v2_others_only_counts_then_the_deal_once_over():
    """G-V2: of another seat's cards only the count; the deal is revealed once the hand is
    over, early end included."""
    m = _match(BY_SUIT)
    _do(m, choose(0, "kiz_almaz"), *play(0, "AS", "QH", "QC"))
    v = view_for(m, 3)
    text = json.dumps(v)
    assert v["counts"] == [12, 12, 12, 13]
    for c in ("KS", "KH", "KC"):  # unplayed cards of seats 0-2
        assert f'"{c}"' not in text
    assert v["summary"] is None
    _do(m, *play(3, "QD"), *play(0, "QS", "AH", "AC", "AD"))  # all queens: early end
    v = view_for(m, 3)
    assert v["phase"] == "over" and v["summary"]["early"]
    assert v["summary"]["deal"] == BY_SUIT
    assert m.results[0]["deal"] == BY_SUIT  # kept in the match history


def test_g_v3_public_facts():
    """G-V3: length, chooser, contract and trump, the trick with who played what, tricks
    taken, penalty cards taken, running scores, totals, the quota."""
    hands = [list(h) for h in BY_SUIT]
    m = _match(hands)
    _do(m, choose(0, "kupa_almaz"), *play(0, "AS", "KH", "AC", "AD"), *play(0, "KS", "QH"))
    for seat in (None, 0, 1, 2, 3):
        v = view_for(m, seat)
        assert v["length"] == 20 and v["chooser"] == 0 and v["contract"] == "kupa_almaz"
        assert v["trump"] is None
        assert v["trick"] == {
            "leader": 0,
            "winner": None,
            "cards": [{"seat": 0, "card": "KS"}, {"seat": 1, "card": "QH"}],
        }
        assert v["tricks_taken"] == [1, 0, 0, 0]
        assert v["penalty_taken"] == [["KH"], [], [], []]
        assert v["hand_scores"] == [-30, 0, 0, 0]
        assert v["score_table"]["left"][0] == {"ceza": 2, "koz": 2}
    m = _match(ROUND)
    _do(m, choose(0, "koz", "H"))
    assert view_for(m, 1)["trump"] == "H"


def test_g_v4_only_the_last_trick_then_all_in_the_summary():
    """G-V4: during the hand only the last completed trick; all tricks once over."""
    m = _match(BY_SUIT)
    _do(m, choose(0, "el_almaz"), *play(0, "AS", "AH", "AC", "AD"))
    assert view_for(m, 2)["last_trick"]["cards"][0] == {"seat": 0, "card": "AS"}
    _do(m, *play(0, "KS", "KH", "KC", "KD"), *play(0, "QS"))
    v = view_for(m, 2)
    assert v["last_trick"] == {
        "leader": 0,
        "winner": 0,
        "cards": [
            {"seat": 0, "card": "KS"},
            {"seat": 1, "card": "KH"},
            {"seat": 2, "card": "KC"},
            {"seat": 3, "card": "KD"},
        ],
    }
    assert "AH" not in json.dumps(v["last_trick"]) and "tricks" not in v
    while not m.hand.over:
        GAME.on_timeout(m, m.hand.turn, 0.0)
    v = view_for(m, 2)
    assert len(v["summary"]["tricks"]) == 13 and v["last_trick"] is None


def test_g_v5_playable_cards_only_for_the_seat_to_play():
    """G-V5: which cards may be played is sent to the seat to play only."""
    m = _match(ROUND)
    _do(m, choose(0, "kupa_almaz"))
    assert view_for(m, 0)["playable"] == [
        "AS",
        "TS",
        "6S",
        "2S",
        "QC",
        "8C",
        "4C",
        "KD",
        "9D",
        "5D",
    ]
    assert all(view_for(m, s)["playable"] == [] for s in (1, 2, 3, None))
    _do(m, *play(0, "AS"))
    assert view_for(m, 1)["playable"] == ["KS", "9S", "5S"]


def test_views_carry_public_deductions_for_a_players_memory():
    """P-1 / G-V3: the cards played and what the play showed (voids, G-P4 and G-P7/G-P8
    duties not met) — public facts any player at the table could work out."""
    m = _match(swap_cards(BY_SUIT, "2C", "2H"))
    _do(m, choose(0, "kupa_almaz"), *play(0, "AS", "9H", "2H", "AD"), *play(0, "KS"))
    v = view_for(m, 0)
    assert v["played"] == ["AS", "KS", "9H", "2H", "AD"]
    assert v["voids"] == [[], ["S"], ["S"], ["S"]]
    assert v["lacks"][3] == [r + "H" for r in "AKQJT98765432"] and v["lacks"][2] == []
    m = _match(swap_cards(BY_SUIT, "2C", "2H"))
    _do(m, choose(0, "koz", "H"), *play(0, "AS", "9H", "2H", "AD"))
    assert view_for(m, 0)["voids"] == [[], ["S"], ["S"], ["S", "H"]]  # G-P4: no trump


def swap_cards(hands, a, b):
    out = [list(h) for h in hands]
    sa = next(s for s in range(4) if a in out[s])
    sb = next(s for s in range(4) if b in out[s])
    out[sa][out[sa].index(a)], out[sb][out[sb].index(b)] = b, a
    return out


# --- 8. quota ---------------------------------------------------------------------------


def test_g_q1_quota_derived_from_the_record_only():
    """G-Q1: the record of hands (number, chooser, contract, trump) is the quota state;
    choices left of a kind = min(allowance left, choices left in total)."""
    rng = random.Random(2)
    state = GAME.new_match({"length": 8}, 4, rng)
    for _ in range(5):
        while not GAME.hand_over(state):
            GAME.on_timeout(state, GAME.to_act(state)[0], 0.0)
        GAME.start_next_hand(state, rng)
    chosen = [[], [], [], []]
    for r in state.results:
        assert set(r) >= {"hand_no", "chooser", "contract", "trump"}
        chosen[r["chooser"]].append(r["contract"])
    assert state.quota() == quota(8, chosen)
    assert quota(8, [["koz"], [], [], []])["ceza"] == [1, 1, 1, 1]
    assert quota(8, [["koz", "rifki"], [], [], []])["ceza"][0] == 0
    assert quota(4, [["koz"], [], [], []])["ceza"][0] == 0


def test_g_q2_choice_panel_for_the_chooser_with_reasons():
    """G-Q2: the chooser alone gets the panel: six penalty contracts with plays left and
    koz with four suits; a forbidden one is disabled with its reason."""
    chosen = [["kiz_almaz", "koz"], ["kiz_almaz", "koz"], ["rifki", "el_almaz"], ["son_iki", "koz"]]
    m = _match(ROUND, chooser=0, chosen=chosen)
    panel = view_for(m, 0)["choice"]
    by = {o["contract"]: o for o in panel["options"]}
    assert [o["contract"] for o in panel["options"]] == [
        "el_almaz",
        "kupa_almaz",
        "erkek_almaz",
        "kiz_almaz",
        "rifki",
        "son_iki",
        "koz",
    ]
    assert by["kiz_almaz"] == {
        "contract": "kiz_almaz",
        "kind": "ceza",
        "plays_left": 0,
        "allowed": False,
        "reason": "contract_used_up",
    }
    assert by["rifki"]["plays_left"] == 1 and by["rifki"]["allowed"]
    assert by["koz"]["allowed"] and panel["trumps"] == ["S", "H", "C", "D"]
    assert all(view_for(m, s)["choice"] is None for s in (1, 2, 3, None))
    chosen = [["koz", "koz"], ["koz", "el_almaz"], ["rifki", "koz"], ["son_iki", "koz"]]
    by = {o["contract"]: o for o in view_for(_match(ROUND, chosen=chosen), 0)["choice"]["options"]}
    assert by["koz"]["reason"] == "no_koz_left" and by["el_almaz"]["allowed"]
    chosen = [
        ["el_almaz", "rifki", "son_iki"],
        ["koz", "koz", "el_almaz"],
        ["koz", "koz", "rifki"],
        ["koz", "koz", "son_iki"],
    ]
    by = {o["contract"]: o for o in view_for(_match(ROUND, chosen=chosen), 0)["choice"]["options"]}
    assert by["kupa_almaz"]["reason"] == "no_ceza_left" and by["koz"]["allowed"]


def test_g_q3_score_table_for_every_seat():
    """G-Q3: a row per hand played (number, chooser, contract with trump, four scores),
    totals, each seat's choices left and each penalty contract's plays left."""
    rng = random.Random(4)
    state = GAME.new_match({"length": 12}, 4, rng)
    for _ in range(2):
        while not GAME.hand_over(state):
            GAME.on_timeout(state, GAME.to_act(state)[0], 0.0)
        if not GAME.match_over(state):
            GAME.start_next_hand(state, rng)
    for seat in (0, 1, 2, 3, None):
        t = view_for(state, seat)["score_table"]
        assert [r["hand_no"] for r in t["rows"]] == [1, 2]
        assert t["rows"][0]["contract"] == "koz" and t["rows"][0]["trump"] in "SHCD"
        assert t["totals"] == [sum(r["scores"][s] for r in t["rows"]) for s in range(4)]
        assert len(t["left"]) == 4 and set(t["contracts"]) == {
            "el_almaz",
            "kupa_almaz",
            "erkek_almaz",
            "kiz_almaz",
            "rifki",
            "son_iki",
        }
    c1, c2 = state.results[0]["chooser"], state.results[1]["chooser"]
    assert t["left"][c1] == {"ceza": 2, "koz": 0} and t["left"][c2] == {"ceza": 2, "koz": 0}


def test_g_q4_rematch_starts_with_an_empty_record():
    """G-Q4, G-X5: a new match (rematch) has no record, zero totals, a full quota."""
    state = GAME.new_match({"length": 8}, 4, random.Random(1))
    assert state.results == [] and state.totals == [0, 0, 0, 0]
    assert state.quota() == quota(8, [[], [], [], []])


def test_scenario_output_hands_and_timeouts():
    """king-scenario.md: a timeout acts for the seat to act (G-T2)."""
    out = run(BY_SUIT, [choose(0, "el_almaz"), timeout(0), timeout(2)])
    assert out["results"][2] == {"ok": False, "error": "not_your_turn"}
