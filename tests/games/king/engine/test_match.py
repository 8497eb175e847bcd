"""Timer, leaving and tables (king.md section 9), the portal rules of section 10, and
the Game protocol (game/engine/protocol.py) played through its methods only."""

from __future__ import annotations

import json
import random

import pytest

from game.engine import protocol, registry
from game.engine.errors import RuleError
from game.engine.protocol import InputError
from games.king.engine import GAME
from games.king.engine.cards import card
from games.king.engine.hand import HandState
from games.king.engine.match import AWAY_AFTER_TIMEOUTS, WARNING_SECONDS, MatchState
from games.king.engine.rules import timeout_card, timeout_contract

from .helpers import BY_SUIT, choose, play, run, timeout
from .test_rules import KUPA_DEAL, ROUND


def _match(hands=ROUND, chooser=0, length=20, chosen=None, take_back=False):
    m = MatchState(length, chooser, take_back)
    m.hand_no = 1
    m.hand = HandState(length, chooser, chosen or [[], [], [], []],
                       [[card(c) for c in h] for h in hands])  # fmt: skip
    return m


def _act(m, a):
    return GAME.apply(m, a["seat"], {k: v for k, v in a.items() if k != "seat"}, 0.0)


# --- timer ------------------------------------------------------------------------------


def test_g_t1_move_time_option():
    """G-T1 (P-6): 30–300 s in steps of 15 on rated tables, default 30; none on test
    tables; a warning in the last 10 s."""
    assert GAME.default_move_seconds == 30 and not GAME.fixed_move_seconds
    assert GAME.clean_options({})["move_seconds"] == 30
    for ok in (30, 45, 120, 300):
        assert GAME.clean_options({"move_seconds": ok})["move_seconds"] == ok
    for bad in (15, 31, 310, 0, "30", True):
        with pytest.raises(InputError):
            GAME.clean_options({"move_seconds": bad})
    assert GAME.clean_options({"rated": False})["move_seconds"] is None
    with pytest.raises(InputError):
        GAME.clean_options({"rated": False, "move_seconds": 30})
    assert WARNING_SECONDS == 10


def test_g_t2_timeout_choice_koz_in_the_longest_suit():
    """G-T2: a timed-out choice is koz in the suit held most (ties: S H C D) when koz is
    allowed, else the first allowed penalty contract in G-H2's order."""
    out = run(ROUND, [timeout(0)])
    assert (out["contract"], out["trump"]) == ("koz", "S")  # four spades
    out = run(ROUND, [timeout(1)], chooser=1)
    assert (out["contract"], out["trump"]) == ("koz", "H")  # four hearts
    hands = [KUPA_DEAL[3], *KUPA_DEAL[:3]]  # seat 0: 4 spades, 3 of each other suit
    assert run(hands, [timeout(0)])["trump"] == "S"
    hand = [card(c) for c in "AH KH QH AC KC QC 2S 3S 4S 2D 3D 4D 5D".split()]
    assert timeout_contract(20, [[], [], [], []], 0, hand) == ("koz", 3)
    hand = [card(c) for c in "AH KH QH JH AC KC QC 2S 3S 4S 5S 2D 3D".split()]
    assert timeout_contract(20, [[], [], [], []], 0, hand) == ("koz", 0)  # S and H tie: S
    hand = [card(c) for c in "AH KH QH JH AC KC 6C 2S 3S 2D 3D 4D 5D".split()]
    assert timeout_contract(20, [[], [], [], []], 0, hand) == ("koz", 1)  # H and D tie: H
    chosen = [["koz", "koz"], ["el_almaz", "koz"], ["el_almaz", "koz"], ["son_iki", "koz"]]
    out = run(ROUND, [timeout(0)], chosen=chosen)
    assert (out["contract"], out["trump"]) == ("kupa_almaz", None)  # el almaz played twice


def test_g_t2_timeout_card_lowest_rank_ties_by_suit():
    """G-T2: a timed-out card is the lowest legal card by rank, ties S H C D."""
    out = run(KUPA_DEAL, [choose(3, "el_almaz"), timeout(3)], chooser=3)
    assert out["tricks"][0]["cards"] == ["2S"]  # 2S 2C 2D (2H) all lowest: S first
    out = run(KUPA_DEAL, [choose(3, "el_almaz"), timeout(3), timeout(0)], chooser=3)
    assert out["tricks"][0]["cards"] == ["2S", "6S"]  # must follow: lowest spade
    assert timeout_card([card("3S"), card("2D"), card("2H")]) == card("2H")  # H before D


def test_g_t3_two_consecutive_timeouts_mark_the_seat_away():
    """G-T3: after two consecutive timeouts the seat is away until it acts again."""
    m = _match(BY_SUIT)
    assert AWAY_AFTER_TIMEOUTS == 2
    GAME.on_timeout(m, 0, 0.0)  # the choice
    assert m.away() == [False] * 4
    events = GAME.on_timeout(m, 0, 1.0)  # the first card
    assert m.away()[0] and {"type": "away", "seat": 0, "away": True} in events
    assert GAME.view_for(m, 2)["away"] == [True, False, False, False]
    for s in (1, 2, 3):
        GAME.on_timeout(m, s, 2.0)
    _act(m, {"seat": 0, "type": "play", "card": GAME.view_for(m, 0)["playable"][0]})
    assert m.away()[0] is False  # acting again


# --- tables -----------------------------------------------------------------------------


def test_g_x1_p5_sole_leader_on_the_completed_hands():
    """G-X1, P-5: for a leaver, the sole leader on the completed hands' totals (the
    highest); none when the lead is shared."""
    rng = random.Random(8)
    state = GAME.new_match({"length": 20}, 4, rng)
    for _ in range(3):
        while not GAME.hand_over(state):
            GAME.on_timeout(state, GAME.to_act(state)[0], 0.0)
        GAME.start_next_hand(state, rng)
    GAME.on_timeout(state, GAME.to_act(state)[0], 0.0)  # hand 4 under way: not counted
    r = GAME.match_result(state)
    assert r.hands == 3 and not r.detail["complete"]
    top = max(r.totals)
    want = r.totals.index(top) if r.totals.count(top) == 1 else None
    assert r.detail["sole_leader"] == want


def test_g_x2_p4_places_the_same_for_every_length():
    """G-X2, P-4: places come from the totals only (sole first, shared first, last),
    whatever the length."""
    for length in (4, 8, 12, 20):
        m = _match(length=length)
        m.totals = [100, -50, 100, -300]
        assert GAME.match_result(m).places == [1, 3, 1, 4]
        m.totals = [0, 0, 0, 0]
        assert GAME.match_result(m).places == [1, 1, 1, 1]  # P-4: all share first


def test_g_x3_p1_bots_fill_seats_from_views_only():
    """G-X3, P-1: a bot's action comes from its seat's view (a JSON copy) and is legal."""
    rng = random.Random(12)
    state = GAME.new_match({"length": 4}, 4, rng)
    while not GAME.match_over(state):
        while not GAME.hand_over(state):
            (seat,) = GAME.to_act(state)
            view = json.loads(json.dumps(GAME.view_for(state, seat)))
            level = ("hard", "easy", "normal", "easy")[seat]
            GAME.apply(state, seat, GAME.bot_choose(view, level, rng), 0.0)
        if not GAME.match_over(state):
            GAME.start_next_hand(state, rng)
    assert len(state.results) == 4


def test_g_x4_take_back_on_test_tables():
    """G-X4: with take-back on, a seat takes back its own last action (its choice before
    any card, or its last card, the trick reopening) while nothing has followed; never on
    rated tables."""
    assert GAME.clean_options({"rated": False, "take_back": True})["take_back"]
    with pytest.raises(InputError):
        GAME.clean_options({"take_back": True})  # rated
    m = _match(BY_SUIT, take_back=True)
    _act(m, choose(0, "el_almaz"))
    GAME.apply(m, 0, {"type": "take_back"}, 0.0)
    assert m.hand.contract is None and m.hand.turn == 0
    for a in [choose(0, "el_almaz"), *play(0, "AS", "AH", "AC", "AD")]:
        _act(m, a)
    assert len(m.hand.tricks) == 1
    with pytest.raises(RuleError) as exc:
        GAME.apply(m, 2, {"type": "take_back"}, 0.0)  # seat 3 acted after
    assert exc.value.code == "nothing_to_take_back"
    before = m.to_dict()
    GAME.apply(m, 3, {"type": "take_back"}, 0.0)  # the card that completed the trick
    assert m.hand.tricks == [] and [m.hand.trick, m.hand.turn] == [
        [card(c) for c in ("AS", "AH", "AC")],
        3,
    ]
    _act(m, play(3, "KD")[0])
    assert m.to_dict() != before and m.hand.tricks[0][1][3] == card("KD")
    rated = _match(BY_SUIT)
    _act(rated, choose(0, "el_almaz"))
    with pytest.raises(RuleError) as exc:
        GAME.apply(rated, 0, {"type": "take_back"}, 0.0)
    assert exc.value.code == "take_back_off"


def test_g_x5_rematch_new_length_fresh_totals():
    """G-X5: a rematch is a new match with its own length; totals and quota from zero."""
    first = GAME.new_match({"length": 4}, 4, random.Random(1))
    again = GAME.new_match({"length": 12}, 4, random.Random(2))
    assert again.length == 12 and again.totals == [0] * 4 and again.results == []
    assert first.length == 4


def test_p2_deal_revealed_after_the_hand_and_seeded_replay():
    """P-2: the deal is revealed after its hand (G-V2); the same RNG gives the same match."""
    a = GAME.new_match({}, 4, random.Random(77))
    b = GAME.new_match({}, 4, random.Random(77))
    assert GAME.to_dict(a) == GAME.to_dict(b)
    while not GAME.hand_over(a):
        GAME.on_timeout(a, GAME.to_act(a)[0], 0.0)
    assert GAME.hand_results(a)[0].detail["deal"] == GAME.view_for(a, 1)["summary"]["deal"]


def test_p3_test_tables_have_no_move_time():
    """P-3: a test table has no move time; take-back only there (G-X4)."""
    opts = GAME.clean_options({"rated": False})
    assert opts == {"length": 20, "rated": False, "move_seconds": None, "take_back": False}


# --- the protocol ---------------------------------------------------------------------


def test_game_meets_the_protocol_and_is_registered():
    assert isinstance(GAME, protocol.Game)
    assert registry.get("king") is GAME
    assert GAME.key == "king" and GAME.seat_counts == (4,) and not GAME.lower_is_better


@pytest.mark.parametrize("length", [4, 8])
def test_whole_matches_through_the_protocol_only(length):
    """new_match → loop {may_act / bot_choose / apply, on_timeout, start_next_hand} →
    match_over / match_result, with to_dict/from_dict round trips in between."""
    rng = random.Random(length)
    state = GAME.new_match({"length": length}, 4, rng)
    levels = ["easy", "normal", "hard", "normal"]
    steps = 0
    while not GAME.match_over(state):
        if GAME.hand_over(state):
            assert GAME.to_act(state) == ()
            GAME.start_next_hand(state, rng)
            continue
        (seat,) = GAME.may_act(state)
        if steps % 7 == 3:
            GAME.on_timeout(state, seat, float(steps))
        else:
            view = json.loads(json.dumps(GAME.view_for(state, seat)))
            GAME.apply(state, seat, GAME.bot_choose(view, levels[seat], rng), float(steps))
        state = GAME.from_dict(json.loads(json.dumps(GAME.to_dict(state))))
        steps += 1
    result = GAME.match_result(state)
    assert result.hands == length and sum(1 for _ in GAME.hand_results(state)) == length
    assert result.totals == [sum(h.scores[s] for h in GAME.hand_results(state)) for s in range(4)]
    with pytest.raises(RuleError):
        GAME.start_next_hand(state, rng)
    export = GAME.export_hand(state)
    assert export["game"] == "king" and len(export["hands"]) == 4


def test_bad_seat_and_watcher_cannot_act():
    state = GAME.new_match({}, 4, random.Random(1))
    before = GAME.to_dict(state)
    for seat in (None, 4, -1, "0"):
        with pytest.raises(Exception) as exc:
            GAME.apply(state, seat, {"type": "timeout"}, 0.0)
        assert getattr(exc.value, "code", None) == "bad_seat"
    assert GAME.to_dict(state) == before
    with pytest.raises(InputError):
        GAME.new_match({}, 3, random.Random(1))


def test_newer_protocol_members():
    """The platform's newer members (main's protocol.py): log_form keeps only the keys the
    rules read; turn_key changes with every new turn (G-T1); away_after_timeout is G-T3;
    bot_pace; no private action kinds."""
    assert GAME.private_kinds == frozenset()
    assert GAME.log_form({"type": "choose", "contract": "koz", "trump": "S", "x": 1}) == {
        "type": "choose",
        "contract": "koz",
        "trump": "S",
    }
    assert GAME.log_form({"type": "choose", "contract": "rifki", "trump": None}) == {
        "type": "choose",
        "contract": "rifki",
    }
    assert GAME.log_form({"type": "play", "card": "AS", "junk": 2}) == {
        "type": "play",
        "card": "AS",
    }
    m = _match(BY_SUIT)
    keys = [GAME.turn_key(m)]
    GAME.apply(m, 0, GAME.log_form({"type": "choose", "contract": "el_almaz"}), 0.0)
    keys.append(GAME.turn_key(m))  # the chooser's lead: a new turn, same seat
    _act(m, play(0, "AS")[0])
    keys.append(GAME.turn_key(m))
    assert len({json.dumps(k) for k in keys}) == 3
    assert GAME.bot_pace(m) > 0
    GAME.on_timeout(m, 1, 0.0)
    assert not GAME.away_after_timeout(m, 1)
    for s in (2, 3, 0):
        GAME.on_timeout(m, s, 0.0)
    GAME.on_timeout(m, 1, 0.0)  # seat 0 won the trick and leads: seat 1 plays second
    assert GAME.away_after_timeout(m, 1)
