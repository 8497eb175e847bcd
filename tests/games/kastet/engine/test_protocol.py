"""Kastet on the Game protocol: GAME meets protocol.Game, whole matches are played
through the protocol's methods only (with to_dict/from_dict round trips between
moves), and an exported hand replays to the same end."""

from __future__ import annotations

import json
import random

from game.engine import protocol, registry
from game.engine.fair import SeededRNG
from games.kastet.engine import GAME
from games.kastet.engine.replay import run_scenario


def test_game_meets_the_protocol_and_is_registered():
    assert isinstance(GAME, protocol.Game)
    assert registry.get("kastet") is GAME
    assert GAME.key == "kastet" and GAME.seat_counts == (4,) and GAME.partners
    assert GAME.lower_is_better
    assert registry.command("rating", {"game": "kastet"}).__module__.endswith("kastet.engine.rating")
    assert registry.command("replay", {"game": "kastet"}).__module__.endswith("kastet.engine.replay")


def play_match(options: dict, seed: int, levels=("hard", "normal", "easy", "normal")):
    rng = random.Random(seed)
    state = GAME.new_match(GAME.clean_options(options), 4, SeededRNG(seed))
    exports = []
    steps = 0
    while True:
        while not GAME.hand_over(state):
            assert GAME.may_act(state) == GAME.to_act(state)
            seat = GAME.may_act(state)[0]
            view = json.loads(json.dumps(GAME.view_for(state, seat)))
            action = GAME.bot_choose(view, levels[seat], rng)
            if rng.random() < 0.02:
                GAME.on_timeout(state, seat, 1000.0 + steps)
            else:
                GAME.apply(state, seat, action, 1000.0 + steps)
            data = GAME.to_dict(state)
            state = GAME.from_dict(json.loads(json.dumps(data)))
            assert GAME.to_dict(state) == data
            steps += 1
            assert steps < 5000, "a match did not end"
        assert GAME.to_act(state) == ()
        exports.append((GAME.export_hand(state), state.hand.scores))
        if GAME.match_over(state):
            return state, exports
        GAME.start_next_hand(state, SeededRNG(seed * 100 + state.hand_no))


def test_whole_matches_through_the_protocol(small_budget):
    for seed, options in ((1, {"hands": 3}), (2, {"hands": 1, "partners": True})):
        state, exports = play_match(options, seed)
        result = GAME.match_result(state)
        hands = GAME.hand_results(state)
        assert len(hands) == options["hands"] == result.hands
        assert result.totals == [sum(h.scores[s] for h in hands) for s in range(4)]
        for scenario, scores in exports:  # replays and downloads
            out = run_scenario(json.loads(json.dumps(scenario)))
            assert all(r["ok"] for r in out["results"]) and out["over"]
            assert out["scores"] == scores
        if options.get("partners"):
            assert hands[0].detail["team_scores"] == [
                hands[0].scores[0] + hands[0].scores[2],
                hands[0].scores[1] + hands[0].scores[3],
            ]


def test_platform_hooks_turn_key_away_log_form_private_kinds():
    """S-N6: the clock restarts only when a new turn starts (not on lays or undos);
    S-N7: two timeouts in a row mark the seat away; the log keeps only rule keys;
    S-X4: the rack arrangement is private."""
    from games.kastet.engine.deal import hand_from_faces
    from games.kastet.engine.match import MatchState, clean_options
    from games.okey.engine.tiles import parse_face

    m = MatchState(clean_options({}), 0)
    m.hand_no = 1
    f = [parse_face(n) for n in ("R1", "R2", "R3", "K9")]
    m.hand = hand_from_faces(0, parse_face("R7"), [f, f[:1], f[1:2], f[2:3]],
                             [parse_face("Y1"), parse_face("Y2")])  # fmt: skip
    key = GAME.turn_key(m)
    GAME.apply(m, 0, {"type": "lay", "table": [["R1", "R2", "R3"]]}, 1.0)
    GAME.apply(m, 0, {"type": "undo"}, 2.0)
    assert GAME.turn_key(m) == key
    GAME.on_timeout(m, 0, 3.0)
    assert GAME.turn_key(m) != key and not GAME.away_after_timeout(m, 0)
    for seat in (1, 2, 3):
        GAME.on_timeout(m, seat, 4.0)
    GAME.on_timeout(m, 0, 5.0)
    assert GAME.away_after_timeout(m, 0)
    assert GAME.log_form({"type": "lay", "table": [["R1"]], "junk": 1, "seat": 3}) == {
        "type": "lay",
        "table": [["R1"]],
    }
    assert GAME.log_form({"type": "draw", "tile": "R1"}) == {"type": "draw"}
    assert GAME.private_kinds == frozenset({"arrange"})
    assert 0 < GAME.bot_pace(m) <= 2
