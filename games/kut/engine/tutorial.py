"""The trial hand (*Deneme Eli*, K-X1): a scripted three-step practice against bots.

One hand on a fixed deal (``deal.hand_from_faces``), the player in seat 0
and three easy bots whose first moves are scripted, so that each step arises at the
same moment in every trial:

1. **open the task** — task 1 of a 12-task list is a küt of 3; the player starts with
   15 tiles holding R7 Y7 B7 (and no other küt of 3), opens on the first turn
   (K-D3, K-O1) and discards;
2. **lay off a tile** — each bot takes the tile thrown to it and discards a tile that
   fits nothing, so no claim is possible meanwhile; on the player's second turn the
   top of the deck is K7, which the player draws and lays off on the küt (K-L1);
3. **claim a thrown tile** — the bot on the player's right draws and throws B12, the
   next bot draws from the centre instead of taking it (K-C1) and waits; the player
   claims B12 and gets the penalty tile Y5 with it (K-C3).

Then the bots play on freely until the hand ends; the trial match ends with that hand.
While the script runs, the player's moves that would break it are refused with a
reason (``check_action``): no discard before opening, a centre draw on the second turn
and the lay-off before the discard.  The progress is shown in every frame
(``match.trial``: the step and a hint key; KÜT's web side holds the hint texts).

Pure Python, like the rest of the engine: ``TUTORIAL`` meets the protocol's ``Tutorial``
(``GAME.tutorial``).  The platform plays it as a match of kind ``trial`` (unrated, never
listed or ranked; ``game.tutorial``), through the one service path.
"""

from __future__ import annotations

import random
import sys

from game.engine.errors import RuleError
from game.engine.fair import SeededRNG
from game.engine.protocol import WAIT, ScriptedTutorial
from games.kut.engine.deal import hand_from_faces
from games.kut.engine.match import MatchState
from games.kut.engine.views import can_claim
from games.okey.engine.groups import KUT
from games.okey.engine.tiles import face_name, face_of, parse_face

TASKS = 12  # task 1 of the 12-task list is a küt of 3 (K-M3): it can take a fourth tile
HUMAN = 0
BOT_LEVEL = "easy"
STEPS = 3

INDICATOR = "Y2"  # the okey is Y3; no real or fake okey is in the player's rack
PLAYER_RACK = [
    "R7", "Y7", "B7", "B10", "B11", "R1", "R4", "Y9", "Y12", "B2", "B5", "K3", "K9",
    "K12", "R13",
]  # fmt: skip
KUT_TILES = ("R7", "Y7", "B7")  # the only küt of 3 the player's rack holds
LAY_OFF_TILE = "K7"  # top of the deck on the player's second turn
CLAIM_TILE = "B12"  # thrown by seat 1 on its second turn (with B10 B11: a run later)
PENALTY_TILE = "Y5"  # the claim's penalty tile (K-C3)
# The deck's first four tiles (top first): the player's draw, seat 1's and seat 2's
# draws, then the claim's penalty tile.
DECK_TOP = [LAY_OFF_TILE, "R9", "K5", PENALTY_TILE]
# (seat, own turns completed) -> (how the bot takes, what it discards or WAIT)
SCRIPT = {
    (1, 0): ("take_discard", "K13"),
    (2, 0): ("take_discard", "R11"),
    (3, 0): ("take_discard", "Y1"),
    (1, 1): ("draw", CLAIM_TILE),
    (2, 1): ("draw", WAIT),  # the claim stays open until this bot discards (K-C5)
}
FIXED_BOT_TILES = {1: ["K13", CLAIM_TILE], 2: ["R11"], 3: ["Y1"]}


def deal_faces() -> dict:
    """The scripted deal as faces: the fixed tiles above, the other 82 tiles in a fixed
    pseudo-random order (the same in every trial)."""
    fixed = [INDICATOR, *PLAYER_RACK, *DECK_TOP]
    for tiles in FIXED_BOT_TILES.values():
        fixed += tiles
    pool = [face_name(f) for f in range(52) for _copy in range(2)] + ["F", "F"]
    for name in fixed:
        pool.remove(name)
    random.Random("kut-trial-v1").shuffle(pool)
    racks = [list(PLAYER_RACK)]
    for seat in (1, 2, 3):
        need = 14 - len(FIXED_BOT_TILES[seat])
        racks.append(FIXED_BOT_TILES[seat] + pool[:need])
        pool = pool[need:]
    return {"indicator": INDICATOR, "racks": racks, "deck": DECK_TOP + pool}


def initial_state(seed: str) -> MatchState:
    """The trial match's state before the first move.  ``seed`` only draws the opaque
    tile ids (K-T7), so that ids are not the same in every trial."""
    deal = deal_faces()
    hand = hand_from_faces(
        TASKS,
        1,
        HUMAN,
        parse_face(deal["indicator"]),
        [[parse_face(t) for t in rack] for rack in deal["racks"]],
        [parse_face(t) for t in deal["deck"]],
        rng=SeededRNG(f"trial:{seed}"),
    )
    ms = MatchState(TASKS, HUMAN)
    ms.hand_no = 1
    ms.hand = hand
    return ms


# --- progress -------------------------------------------------------------------------------


def finish(ms: MatchState) -> None:
    """K-X1: the trial match ends with its one hand."""
    ms.over = True


def _kut(hand):
    for g in hand.table:
        if g.owner == HUMAN and g.kind == KUT:
            return g
    return None


def completed(hand) -> bool:
    """Step 3 is done: the player has claimed a thrown tile."""
    return any(e.get("seat") == HUMAN and e.get("type") == "claim" for e in hand.log)


def progress(hand) -> dict:
    """The player's step (1-3; 4 once done) and the hint to show (a key of the page's
    texts): what the frame carries as ``match.trial``."""
    my_turn = not hand.over and hand.turn == HUMAN
    if completed(hand):
        return {"step": STEPS + 1, "steps": STEPS, "hint": "over" if hand.over else "done"}
    if hand.over:
        return {"step": 1, "steps": STEPS, "hint": "over"}
    if not hand.opened[HUMAN]:
        return {"step": 1, "steps": STEPS, "hint": "open" if my_turn else "wait"}
    kut = _kut(hand)
    laid = kut is not None and len(kut.tiles) >= 4
    opening_turn = hand.opened_at[HUMAN] == hand.turns_done[HUMAN]
    if not laid:
        if my_turn and opening_turn:
            return {"step": 1, "steps": STEPS, "hint": "discard_open"}
        if my_turn:
            return {"step": 2, "steps": STEPS,
                    "hint": "draw" if hand.phase == "take" else "lay_off"}  # fmt: skip
        return {"step": 2, "steps": STEPS, "hint": "wait"}
    if my_turn:
        return {"step": 2, "steps": STEPS, "hint": "discard_lay_off"}
    if can_claim(hand, HUMAN) and hand.thrown is not None:
        return {"step": 3, "steps": STEPS, "hint": "claim"}
    return {"step": 3, "steps": STEPS, "hint": "wait_claim"}


def check_action(hand, seat: int, action) -> None:
    """Refuse the player's moves that would leave the script (nothing else changes the
    rules).  Raises a RuleError whose code the table translates."""
    if seat != HUMAN or hand.over or completed(hand) or not isinstance(action, dict):
        return
    kind = action.get("type")
    if not hand.opened[HUMAN]:
        if kind in ("discard", "timeout"):
            raise RuleError("not_opened")  # step 1: open the task first
        return
    kut = _kut(hand)
    if kut is not None and len(kut.tiles) >= 4:
        return  # step 2 done; step 3 is a claim, out of the player's turn
    if hand.opened_at[HUMAN] == hand.turns_done[HUMAN]:
        return  # the opening turn: discard freely
    if kind == "take_discard":
        raise RuleError("must_draw")  # step 2: the black 7 is on top of the deck
    if kind in ("discard", "timeout"):
        raise RuleError("trial_lay_off_first")


def bot_choice(hand, botset: set[int]):
    """The scripted bot move: ``(seat, action)``, ``WAIT`` (no bot moves now), or None
    once the script is over (the bots play on by themselves)."""
    if hand.over or completed(hand):
        return None
    seat = hand.turn
    if seat not in botset:
        return WAIT  # the player's turn: no bot claims during the script
    entry = SCRIPT.get((seat, hand.turns_done[seat]))
    if entry is None:
        return None
    take, discard = entry
    if hand.phase == "take":
        return seat, {"type": take}
    if discard == WAIT:
        return WAIT
    if not any(face_name(face_of(t)) == discard for t in hand.racks[seat].tiles()):
        return None  # cannot happen with the fixed deal; never stall the table
    return seat, {"type": "discard", "tile": discard}


# the protocol's Tutorial: the script above reads the match's one hand
TUTORIAL = ScriptedTutorial(options={"tasks": TASKS}, seats=4, human_seat=HUMAN, bot_level=BOT_LEVEL,
                            script=sys.modules[__name__], part=lambda state: state.hand)  # fmt: skip
