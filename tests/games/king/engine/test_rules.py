"""A test per rule of king.md, through the scenario command's function (run_scenario)
where the rule is about a hand, and through the engine's modules otherwise."""

from __future__ import annotations

import random

import pytest

from game.engine.errors import ActionFormatError, RuleError
from game.engine.protocol import InputError
from games.king.engine import GAME
from games.king.engine.cards import (
    DECK,
    HEART_CARDS,
    JACKS,
    KH,
    KINGS,
    MEN,
    QUEENS,
    NotationError,
    card,
    name,
    names,
)
from games.king.engine.contracts import (
    HAND_TOTAL,
    PENALTIES,
    QUOTA,
    allowed,
    history_error,
    quota,
    refusal,
)
from games.king.engine.hand import HandState, apply
from games.king.engine.match import NEXT_HAND_SECONDS, MatchState
from games.king.engine.match import deal as deal_cards
from games.king.engine.rules import trick_winner_index

from .helpers import BY_SUIT, choose, errors, play, run, timeout

# Every seat holds every suit (card int c goes to seat c mod 4).
ROUND = [
    "AS TS 6S 2S JH 7H 3H QC 8C 4C KD 9D 5D".split(),
    "KS 9S 5S AH TH 6H 2H JC 7C 3C QD 8D 4D".split(),
    "QS 8S 4S KH 9H 5H AC TC 6C 2C JD 7D 3D".split(),
    "JS 7S 3S QH 8H 4H KC 9C 5C AD TD 6D 2D".split(),
]


def swap(hands, a: str, b: str):
    """The hands with cards a and b exchanged between their holders."""
    out = [list(h) for h in hands]
    sa = next(s for s in range(4) if a in out[s])
    sb = next(s for s in range(4) if b in out[s])
    out[sa][out[sa].index(a)] = b
    out[sb][out[sb].index(b)] = a
    return out


def all_tricks_by_suit(contract, trump=None):
    """BY_SUIT, chooser 0 leads spades from the top; seats 1-3 follow down their suit."""
    acts = [choose(0, contract, trump)]
    for r in "AKQJT98765432":
        acts += play(0, r + "S", r + "H", r + "C", r + "D")
    return acts


# --- 1. cards -----------------------------------------------------------------------


def test_g_c1_deck_and_rank_order():
    """G-C1: 52 distinct cards, A K Q J T 9 … 2; no suit outranks another in a penalty
    hand (an ace of another suit never wins)."""
    assert len(DECK) == 52 and len({name(c) for c in DECK}) == 52
    spades = [card(r + "S") for r in "AKQJT98765432"]
    for hi, lo in zip(spades, spades[1:]):
        assert trick_winner_index([lo, hi], None) == 1
    out = run(BY_SUIT, [choose(0, "el_almaz"), *play(0, "2S", "AH", "AC", "AD")])
    assert out["tricks"][0]["winner"] == 0


@pytest.mark.parametrize("text", ["10H", "th", "H10", "AS ", "", "1S", "AX", "as", None, 14])
def test_g_c2_notation_rejects(text):
    """G-C2: exactly two upper-case characters, rank then suit."""
    with pytest.raises(NotationError):
        card(text)


def test_g_c2_notation_accepts_every_card():
    """G-C2: AS, TH, QC, 2D …"""
    for r in "AKQJT98765432":
        for s in "SHCD":
            assert name(card(r + s)) == r + s


def test_g_c3_display_order():
    """G-C3: suits S H C D, A down to 2; the replay output and the views use it."""
    shuffled = ["2D", "AH", "TS", "KC", "3H", "AS", "QD", "2S", "9C", "JH", "4D", "KS", "5C"]
    assert names(card(c) for c in shuffled) == [
        "AS",
        "KS",
        "TS",
        "2S",
        "AH",
        "JH",
        "3H",
        "KC",
        "9C",
        "5C",
        "QD",
        "4D",
        "2D",
    ]
    out = run([list(reversed(h)) for h in ROUND])
    assert out["hands"] == [names(card(c) for c in h) for h in ROUND]


def test_g_c4_named_cards():
    """G-C4: erkek = 4 kings + 4 jacks, kız = 4 queens, Rıfkı = KH, kupa = 13 hearts."""
    assert MEN == KINGS | JACKS and len(MEN) == 8
    assert names(QUEENS) == ["QS", "QH", "QC", "QD"]
    assert name(KH) == "KH" and len(HEART_CARDS) == 13
    assert all(name(c)[1] == "H" for c in HEART_CARDS)


# --- 2. match structure ---------------------------------------------------------------


def test_g_m1_turn_passes_to_the_right():
    """G-M1: after seat s comes seat s+1 mod 4, in the trick and for the chooser."""
    out = run(ROUND, [choose(2, "el_almaz"), *play(2, "8S")], chooser=2)
    assert out["turn"] == 3
    out = run(ROUND, [choose(3, "el_almaz"), *play(3, "7S")], chooser=3)
    assert out["turn"] == 0
    m = MatchState(20, 3)
    assert [m.chooser_of(n) for n in (1, 2, 3, 4, 5)] == [3, 0, 1, 2, 3]


def test_g_m2_match_length_option():
    """G-M2: 4, 8, 12 or 20 hands, default 20."""
    assert GAME.clean_options({})["length"] == 20
    for n in (4, 8, 12, 20):
        assert GAME.clean_options({"length": n})["length"] == n
    for bad in (0, 5, 16, 21, "20", True, None, 20.0):
        with pytest.raises(InputError):
            GAME.clean_options({"length": bad})


@pytest.mark.parametrize("length", [4, 8, 12, 20])
def test_g_m3_chooser_rotates_and_each_seat_chooses_length_over_4(length):
    """G-M3: hand n is chosen by (c1 + n - 1) mod 4; each seat chooses length/4 times;
    G-M6: every hand is played; G-S9: totals are the sums of hand scores."""
    rng = random.Random(length)
    state = GAME.new_match({"length": length}, 4, rng)
    c1 = state.first_chooser
    while True:
        assert state.hand.chooser == (c1 + state.hand_no - 1) % 4
        while not GAME.hand_over(state):
            (seat,) = GAME.to_act(state)
            GAME.on_timeout(state, seat, 0.0)
        if GAME.match_over(state):
            break
        GAME.start_next_hand(state, rng)
    assert len(state.results) == length
    assert [len(c) for c in state.chosen()] == [length // 4] * 4
    assert state.totals == [sum(r["scores"][s] for r in state.results) for s in range(4)]


def test_g_m3_first_chooser_drawn_with_the_rng():
    """G-M3: the first chooser comes from the injected RNG (all four seats occur)."""
    firsts = {GAME.new_match({}, 4, random.Random(i)).first_chooser for i in range(40)}
    assert firsts == {0, 1, 2, 3}


def test_g_m4_next_hand_only_after_the_hand_and_ten_seconds():
    """G-M4: deal, choice, tricks, scoring; the next hand starts after the hand (10 s)."""
    assert NEXT_HAND_SECONDS == 10
    rng = random.Random(3)
    state = GAME.new_match({"length": 4}, 4, rng)
    with pytest.raises(RuleError) as exc:
        GAME.start_next_hand(state, rng)
    assert exc.value.code == "hand_in_progress"
    while not GAME.hand_over(state):
        GAME.on_timeout(state, GAME.to_act(state)[0], 0.0)
    assert GAME.to_act(state) == ()
    events = GAME.start_next_hand(state, rng)
    assert events[0]["hand_no"] == 2 and state.hand.phase == "choose"


def test_g_m5_highest_total_wins_and_ties_share():
    """G-M5: the highest match total wins; equal highest share first place."""
    m = MatchState(4, 0)
    m.hand = HandState(4, 0, [[], [], [], []], deal_cards(random.Random(1)))
    m.totals = [300, -100, 300, 50]
    r = GAME.match_result(m)
    assert r.places == [1, 4, 1, 3]
    assert r.detail["sole_leader"] is None


def test_g_m6_no_king_ending_all_tricks_to_one_seat():
    """G-M6: taking all 13 tricks of a koz hand does not end the match."""
    rng = random.Random(9)
    state = GAME.new_match({"length": 4}, 4, rng)
    state.hand = HandState(
        4, state.first_chooser, [[], [], [], []], [[card(c) for c in h] for h in BY_SUIT]
    )
    c = state.first_chooser
    GAME.apply(state, c, {"type": "choose", "contract": "koz", "trump": "SHCD"[c]}, 0.0)
    while not GAME.hand_over(state):
        GAME.on_timeout(state, GAME.to_act(state)[0], 0.0)
    assert state.hand.scores[c] == 650 and not GAME.match_over(state)
    GAME.start_next_hand(state, rng)
    assert state.hand_no == 2


# --- 3. dealing -------------------------------------------------------------------------


def test_g_d1_thirteen_cards_each_from_the_injected_rng():
    """G-D1 (P-2): a shuffle of the 52 cards by the injected RNG, 13 to each seat; the same
    seed deals the same hands."""
    a = deal_cards(random.Random(42))
    assert [len(h) for h in a] == [13] * 4
    assert sorted(c for h in a for c in h) == list(range(52))
    assert a == deal_cards(random.Random(42)) and a != deal_cards(random.Random(43))


def test_g_d2_no_redeal_whatever_the_cards():
    """G-D2: a seat with thirteen hearts plays its hand; there is no redeal action."""
    out = run(BY_SUIT, [choose(0, "el_almaz"), {"seat": 0, "type": "timeout"}])
    assert errors(out) == [None, None]
    state = GAME.new_match({}, 4, random.Random(1))
    with pytest.raises(ActionFormatError) as exc:
        GAME.apply(state, state.hand.chooser, {"type": "redeal"}, 0.0)
    assert exc.value.code == "unknown_action"


# --- 4. choosing ------------------------------------------------------------------------


def test_g_h1_the_chooser_chooses_first_and_once():
    """G-H1: nobody plays before the choice; only the chooser chooses; the choice is
    final."""
    out = run(
        ROUND,
        [
            *play(1, "KS"),
            choose(1, "koz", "D"),
            *play(1, "KS"),
            choose(0, "kiz_almaz"),
            choose(1, "el_almaz"),
        ],
        chooser=1,
    )
    assert errors(out) == ["not_chosen", None, None, "already_chosen", "already_chosen"]
    out = run(ROUND, [choose(0, "el_almaz")], chooser=1)
    assert errors(out) == ["not_your_turn"] and out["turn"] == 1 and out["contract"] is None


def test_g_h2_contract_ids_and_hand_totals():
    """G-H2: six penalty contracts and koz, with their hand totals."""
    assert PENALTIES == ("el_almaz", "kupa_almaz", "erkek_almaz", "kiz_almaz", "rifki", "son_iki")
    assert HAND_TOTAL == {
        "el_almaz": -650,
        "kupa_almaz": -390,
        "erkek_almaz": -480,
        "kiz_almaz": -400,
        "rifki": -320,
        "son_iki": -360,
        "koz": 650,
    }
    for contract in HAND_TOTAL:
        acts = [choose(0, contract, "S" if contract == "koz" else None)]
        acts += [timeout(s) for _ in range(13) for s in range(4)]  # seat 0 takes every trick
        out = run(BY_SUIT, acts)
        assert out["over"] and sum(out["scores"]) == HAND_TOTAL[contract], contract


def test_g_h3_koz_names_any_trump_suit():
    """G-H3: koz names its trump in the same step: any suit, hearts included."""
    for t in "SHCD":
        out = run(ROUND, [choose(0, "koz", t)])
        assert out["results"] == [{"ok": True}] and out["trump"] == t
    h = HandState(20, 0, [[], [], [], []], [[card(c) for c in x] for x in ROUND])
    for bad in (
        {"type": "choose", "contract": "koz"},
        {"type": "choose", "contract": "koz", "trump": "X"},
        {"type": "choose", "contract": "rifki", "trump": "H"},
    ):
        with pytest.raises(ActionFormatError) as exc:
            apply(h, 0, bad)
        assert exc.value.code == "bad_trump"
    assert h.contract is None


@pytest.mark.parametrize(
    "length,per,ceza,koz", [(20, 5, 3, 2), (12, 3, 2, 1), (8, 2, 1, 1), (4, 1, 1, 1)]
)
def test_g_h4_quota_per_seat(length, per, ceza, koz):
    """G-H4: choices per seat and the most ceza / koz of each, for every length."""
    assert QUOTA[length] == (per, ceza, koz)
    q = quota(length, [[], [], [], []])
    assert q["ceza"] == [min(ceza, per)] * 4 and q["koz"] == [min(koz, per)] * 4


def test_g_h4_koz_used_up_forces_ceza_and_the_other_way_round():
    """G-H4: a seat whose koz choices are used up must choose ceza, and vice versa."""
    chosen = [["koz", "koz"], ["el_almaz", "koz"], ["rifki", "koz"], ["son_iki", "koz"]]
    assert refusal(20, chosen, 0, "koz") == "no_koz_left"
    assert refusal(20, chosen, 0, "kiz_almaz") is None
    out = run(ROUND, [choose(0, "koz", "H"), choose(0, "kiz_almaz")], chosen=chosen)
    assert errors(out) == ["no_koz_left", None]
    chosen = [
        ["el_almaz", "rifki", "kiz_almaz"],
        ["koz", "koz", "el_almaz"],
        ["koz", "koz", "son_iki"],
        ["koz", "koz", "kupa_almaz"],
    ]
    out = run(ROUND, [choose(0, "son_iki"), choose(0, "koz", "D")], chosen=chosen)
    assert errors(out) == ["no_ceza_left", None]
    assert out["quota"]["ceza"][0] == 0 and out["quota"]["koz"][0] == 1


def test_g_h4_four_hands_one_choice_of_either_kind():
    """G-H4: in 4 hands a seat makes one choice, ceza or koz (G-Q1: then 0 of both)."""
    assert allowed(4, [[], [], [], []], 0) == [*PENALTIES, "koz"]
    out = run(ROUND, [choose(0, "rifki")], length=4)
    assert out["quota"]["ceza"] == [0, 1, 1, 1] and out["quota"]["koz"] == [0, 1, 1, 1]


def test_g_h5_each_penalty_contract_at_most_twice():
    """G-H5: a penalty contract played twice (by anyone) is refused, in every length."""
    chosen = [["kiz_almaz"], ["kiz_almaz"], [], []]
    out = run(ROUND, [choose(2, "kiz_almaz"), choose(2, "el_almaz")], chooser=2, chosen=chosen)
    assert errors(out) == ["contract_used_up", None]
    chosen = [["rifki"], ["rifki"], [], []]
    out = run(ROUND, [choose(2, "rifki")], chooser=2, chosen=chosen, length=12)
    assert errors(out) == ["contract_used_up"]
    assert out["quota"]["contracts"]["rifki"] == 0


def test_g_h6_same_penalty_twice_by_one_seat_and_koz_from_hand_one():
    """G-H6: one seat may choose a penalty contract twice; koz is allowed in hand 1."""
    chosen = [["erkek_almaz", "koz"], ["koz", "el_almaz"], ["koz", "rifki"], ["koz", "son_iki"]]
    out = run(ROUND, [choose(0, "erkek_almaz")], chosen=chosen)
    assert errors(out) == [None] and out["chosen"][0] == ["erkek_almaz", "koz", "erkek_almaz"]
    assert errors(run(ROUND, [choose(0, "koz", "C")])) == [None]


def test_g_h7_refused_choice_changes_nothing_and_a_choice_always_exists():
    """G-H7: a forbidden choice is refused without a change; a seat with a choice left
    always has an allowed contract."""
    chosen = [["koz", "koz"], [], [], []]
    chosen = [["koz", "koz"], ["el_almaz"], ["el_almaz"], ["son_iki"]]
    h = HandState(20, 0, chosen, [[card(c) for c in x] for x in ROUND])
    before = h.to_dict()
    with pytest.raises(RuleError):
        apply(h, 0, {"type": "choose", "contract": "koz", "trump": "S"})
    with pytest.raises(RuleError):
        apply(h, 0, {"type": "choose", "contract": "el_almaz"})
    assert h.to_dict() == before
    rng = random.Random(7)
    for length in (4, 8, 12, 20):
        for _ in range(200):  # random legal histories: the chooser always has a choice
            chosen = [[], [], [], []]
            for n in range(length):
                seat = n % 4
                ok = allowed(length, chosen, seat)
                assert ok, (length, chosen, seat)
                assert history_error(length, chosen, seat) is None
                chosen[seat].append(rng.choice(ok))


# --- 5. play -------------------------------------------------------------------------

# Seat 0 holds 12 spades and 2H; seat 1 ten hearts (not KH, 9H, 2H) and three clubs;
# seat 2 KH 9H, ten clubs and 2S; seat 3 the diamonds.
RIFKI_DEAL = [
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2H".split(),
    "AH QH JH TH 8H 7H 6H 5H 4H 3H 2C 3C 4C".split(),
    "KH 9H AC KC QC JC TC 9C 8C 7C 6C 5C 2S".split(),
    [r + "D" for r in "AKQJT98765432"],
]
# Seat 0: AH KH QH JH and nine spades; seats 1 and 2 three hearts each and no spades;
# seat 3 the three low hearts, four low spades and low clubs and diamonds.
KUPA_DEAL = [
    "AH KH QH JH AS KS QS JS TS 9S 8S 7S 6S".split(),
    "TH 9H 8H AC KC QC JC TC 9C 8C 7C 6C 5C".split(),
    "7H 6H 5H AD KD QD JD TD 9D 8D 7D 6D 5D".split(),
    "4H 3H 2H 5S 4S 3S 2S 4C 3C 2C 4D 3D 2D".split(),
]


def test_g_p1_chooser_leads_and_the_winner_leads_next():
    """G-P1: the chooser leads trick 1; the winner of a trick leads the next."""
    out = run(ROUND, [choose(1, "el_almaz"), *play(1, "KS", "QS", "JS", "AS")], chooser=1)
    assert out["tricks"][0] == {"leader": 1, "cards": ["KS", "QS", "JS", "AS"], "winner": 0}
    assert out["turn"] == 0
    out = run(
        ROUND, [choose(1, "el_almaz"), *play(1, "KS", "QS", "JS", "AS"), *play(1, "9S")], chooser=1
    )
    assert errors(out)[-1] == "not_your_turn"


def test_g_p2_follow_suit_with_any_card_of_it():
    """G-P2: holding the led suit, play it — any card of it, no duty to go higher."""
    out = run(
        ROUND,
        [
            choose(0, "kiz_almaz"),
            *play(0, "AS"),
            *play(1, "AH"),
            *play(1, "5S"),
            *play(2, "KH"),
            *play(2, "4S"),
            *play(3, "3S"),
        ],
    )
    assert errors(out) == [None, None, "must_follow_suit", None, "must_follow_suit", None, None]
    assert out["tricks"][0]["winner"] == 0


def test_g_p3_winner_highest_trump_else_highest_of_the_led_suit():
    """G-P3: the highest trump wins; without one, the highest card of the led suit."""
    s, h = (lambda x: card(x + "S")), (lambda x: card(x + "H"))
    assert trick_winner_index([s("2"), h("A"), s("3"), card("AD")], None) == 2
    assert trick_winner_index([s("2"), h("2"), s("A"), h("3")], 1) == 3
    assert trick_winner_index([s("2"), card("KC"), s("3"), card("AC")], 1) == 2
    hands = swap(BY_SUIT, "2D", "2H")  # seat 1 holds 2D
    out = run(hands, [choose(0, "koz", "D"), *play(0, "AS", "2D", "AC", "3D")])
    assert out["tricks"][0]["winner"] == 3  # the highest trump


def test_g_p4_trump_when_void_no_overtrump_duty():
    """G-P4: void in the led suit, play a trump if you hold one (any trump, lower than one
    on the table too); holding neither, any card."""
    hands = swap(BY_SUIT, "AD", "2H")  # seat 1 holds AD among hearts
    out = run(
        hands,
        [
            choose(0, "koz", "D"),
            *play(0, "AS"),
            *play(1, "AH"),
            *play(1, "AD"),
            *play(2, "AC", "2D"),
        ],
    )
    assert errors(out) == [None, None, "must_trump", None, None, None]
    assert out["tricks"][0]["winner"] == 1
    out = run(BY_SUIT, [choose(0, "koz", "S"), *play(0, "AS", "2H", "5C", "KD")])
    assert errors(out) == [None] * 5  # no trumps: any card


def test_g_p5_no_trump_lead_before_broken():
    """G-P5: trumps may not be led before a trump fell in an earlier trick; a leader with
    only trumps may lead one; once broken, trumps may be led."""
    out = run(ROUND, [choose(0, "koz", "S"), *play(0, "AS"), *play(0, "JH")])
    assert errors(out) == [None, "trump_not_broken", None]
    out = run(BY_SUIT, [choose(0, "koz", "S"), *play(0, "AS")])
    assert errors(out) == [None, None]  # only trumps
    hands = swap(BY_SUIT, "2D", "2H")  # seat 1 holds 2D, seat 3 2H
    acts = [choose(0, "koz", "D"), *play(0, "AS", "2D", "AC", "AD")]  # trumps broken
    out = run(hands, [*acts, *play(3, "KD")])
    assert errors(out)[-1] is None and out["tricks"][0]["winner"] == 3
    out = run(hands, [choose(0, "koz", "D"), *play(0, "AS", "2D", "AC", "2H")])
    assert errors(out)[-1] == "must_trump"  # seat 3 holds trumps


def test_g_p6_no_heart_lead_before_broken_in_kupa_and_rifki():
    """G-P6: in kupa almaz and rıfkı hearts may not be led before broken (unless only
    hearts are held); in other contracts they may; in koz with hearts trump G-P5 rules."""
    for contract in ("kupa_almaz", "rifki"):
        out = run(ROUND, [choose(0, contract), *play(0, "JH"), *play(0, "2S")])
        assert errors(out) == [None, "hearts_not_broken", None], contract
    for contract in ("el_almaz", "erkek_almaz", "kiz_almaz", "son_iki"):
        assert errors(run(ROUND, [choose(0, contract), *play(0, "JH")])) == [None, None]
    out = run(ROUND, [choose(0, "koz", "H"), *play(0, "JH")])
    assert errors(out) == [None, "trump_not_broken"]
    out = run(BY_SUIT, [choose(1, "kupa_almaz"), *play(1, "AH")], chooser=1)
    assert errors(out) == [None, None]  # only hearts
    out = run(
        RIFKI_DEAL, [choose(0, "kupa_almaz"), *play(0, "AS", "3H", "2S", "AD"), *play(0, "2H")]
    )
    assert errors(out) == [None] * 6  # hearts broken in trick 1: seat 0 may lead 2H


def test_g_p7_penalty_card_when_void():
    """G-P7: void in the led suit, a seat must play a penalty card of the contract if it
    holds one: any heart (kupa), a king or jack (erkek), a queen (kız), only KH (rıfkı);
    in el almaz and son iki any card."""
    hands = swap(BY_SUIT, "2C", "2H")  # seat 1: 12 hearts and 2C; seat 2: 2H
    out = run(
        hands,
        [
            choose(0, "kupa_almaz"),
            *play(0, "AS"),
            *play(1, "2C"),
            *play(1, "9H"),
            *play(2, "AC"),
            *play(2, "2H", "AD"),
        ],
    )
    assert errors(out) == [
        None,
        None,
        "must_play_penalty_card",
        None,
        "must_play_penalty_card",
        None,
        None,
    ]
    out = run(
        hands,
        [choose(0, "rifki"), *play(0, "AS"), *play(1, "AH"), *play(1, "KH"), *play(2, "AC", "AD")],
    )
    assert errors(out) == [None, None, "must_play_penalty_card", None, None, None]
    out = run(
        BY_SUIT,
        [
            choose(0, "erkek_almaz"),
            *play(0, "AS"),
            *play(1, "AH"),
            *play(1, "JH", "AC"),
            *play(2, "KC", "QD"),
            *play(3, "KD"),
        ],
    )
    assert errors(out) == [
        None,
        None,
        "must_play_penalty_card",
        None,
        "must_play_penalty_card",
        None,
        "must_play_penalty_card",
        None,
    ]
    out = run(
        BY_SUIT,
        [choose(0, "kiz_almaz"), *play(0, "AS"), *play(1, "KH"), *play(1, "QH", "QC", "QD")],
    )
    assert errors(out) == [None, None, "must_play_penalty_card", None, None, None]
    for contract in ("el_almaz", "son_iki"):
        out = run(BY_SUIT, [choose(0, contract), *play(0, "AS", "KH", "2C", "QD")])
        assert errors(out) == [None] * 5


def test_g_p8_rifki_king_falls_on_the_ace():
    """G-P8: in rıfkı, a heart-led trick with AH on it forces KH from its holder; an AH in
    an earlier trick forces nothing; no such duty in other contracts."""
    base = [choose(0, "rifki"), *play(0, "AS", "3H", "2S", "AD"), *play(0, "2H", "AH")]
    out = run(RIFKI_DEAL, [*base, *play(2, "9H"), *play(2, "KH", "KD")])
    assert errors(out)[-3:] == ["must_play_kh", None, None]
    assert out["tricks"][1]["winner"] == 1 and out["over"]
    out = run(
        RIFKI_DEAL,
        [choose(0, "rifki"), *play(0, "AS", "AH", "2S", "AD"), *play(0, "2H", "QH", "9H", "KD")],
    )
    assert errors(out) == [None] * 9  # AH fell in trick 1: 9H is free in trick 2
    out = run(
        RIFKI_DEAL,
        [
            choose(0, "kupa_almaz"),
            *play(0, "AS", "3H", "2S", "AD"),
            *play(0, "2H", "AH", "9H", "KD"),
        ],
    )
    assert errors(out) == [None] * 9  # no such duty in kupa almaz


def test_g_p9_early_ends():
    """G-P9: kupa, erkek, kız and rıfkı end when the last penalty card is taken; the
    unplayed cards stay in hand; el almaz, son iki and koz play 13 tricks."""
    acts = [
        choose(0, "kupa_almaz"),
        *play(0, "AS", "TH", "7H", "5S"),
        *play(0, "KS", "9H", "6H", "4S"),
        *play(0, "QS", "8H", "5H", "3S"),
        *play(0, "AH", "AC", "AD", "4H"),
        *play(0, "KH", "KC", "KD", "3H"),
        *play(0, "QH", "QC", "QD", "2H"),
    ]
    assert not run(KUPA_DEAL, acts)["over"]  # JH is still out
    out = run(KUPA_DEAL, [*acts, *play(0, "JH", "JC", "JD", "2S"), *play(0, "JS")])
    assert out["over"] and len(out["tricks"]) == 7 and out["turn"] is None
    assert out["scores"] == [-390, 0, 0, 0] and errors(out)[-1] == "hand_over"
    assert [len(h) for h in out["hands"]] == [6, 6, 6, 6]
    kiz = [
        choose(0, "kiz_almaz"),
        *play(0, "AS", "QH", "QC", "QD"),
        *play(0, "QS", "AH", "AC", "AD"),
    ]
    out = run(BY_SUIT, kiz)
    assert out["over"] and len(out["tricks"]) == 2 and out["scores"] == [-400, 0, 0, 0]
    erkek = [
        choose(0, "erkek_almaz"),
        *play(0, "AS", "KH", "KC", "KD"),
        *play(0, "KS", "JH", "JC", "JD"),
        *play(0, "JS", "AH", "AC", "AD"),
    ]
    out = run(BY_SUIT, erkek)
    assert out["over"] and len(out["tricks"]) == 3 and out["scores"] == [-480, 0, 0, 0]
    for contract in ("el_almaz", "son_iki", "koz"):
        acts = all_tricks_by_suit(contract, "S" if contract == "koz" else None)
        assert not run(BY_SUIT, acts[:-1])["over"]
        assert len(run(BY_SUIT, acts)["tricks"]) == 13


def test_g_p10_legal_cards_are_exactly_the_accepted_ones():
    """G-P10: the view's playable cards are exactly the cards the engine accepts."""
    rng = random.Random(11)
    for _ in range(30):
        state = GAME.new_match({"length": 4}, 4, rng)
        while not GAME.hand_over(state):
            (seat,) = GAME.to_act(state)
            view = GAME.view_for(state, seat)
            if view["phase"] == "choose":
                GAME.on_timeout(state, seat, 0.0)
                continue
            ok = []
            for c in view["hand"]:
                h = HandState.from_dict(state.hand.to_dict())
                try:
                    apply(h, seat, {"type": "play", "card": c})
                    ok.append(c)
                except RuleError:
                    pass
            assert ok == view["playable"]
            GAME.apply(state, seat, {"type": "play", "card": rng.choice(ok)}, 0.0)


def test_g_p10_any_other_card_is_refused_and_changes_nothing():
    """G-P10: a refused card (or one not held) changes nothing."""
    h = HandState(20, 0, [[], [], [], []], [[card(c) for c in x] for x in ROUND])
    apply(h, 0, {"type": "choose", "contract": "kupa_almaz"})
    before = h.to_dict()
    for bad in ("JH", "KS", "AH"):
        with pytest.raises(RuleError) as exc:
            apply(h, 0, {"type": "play", "card": bad})
        assert exc.value.code in ("hearts_not_broken", "not_in_hand")
    assert h.to_dict() == before


def test_every_code_the_engine_raises_is_documented():
    """Every refusal code in the King package is listed in rules.CODES (translations)."""
    import re
    from pathlib import Path

    from games.king.engine import rules

    src = "".join(p.read_text() for p in Path(rules.__file__).parent.glob("*.py"))
    raised = set(re.findall(r'Error\("([a-z_]+)"', src))
    raised |= set(re.findall(r'return "([a-z_]+)"(?: if|$)', src, re.M)) - {"over"}
    raised |= set(re.findall(r'"([a-z_]+)" if contract == KOZ else "([a-z_]+)"', src)[0])
    raised |= {"must_follow_suit"}
    assert raised <= set(rules.CODES), raised - set(rules.CODES)
    assert len(raised) >= 20
