"""Kelimeki's guided first game (issue 29; KÜT's trial hand is K-X1): a scripted
three-step start against the AI.

A 2-player game on a fixed deal: the player (seat 0, home ⌂ at the top-left corner,
W-B2, W-B3) starts and holds ``K A L E M İ R``; the AI (seat 1, bottom-right) holds
``S U S E A K R``; the bag's top gives the player ``A N T E S`` after a five-letter first
word.  The steps:

1. **first word** — a play that covers the home square (W-M5), e.g. ``KALEM`` from ⌂
   rightwards; the AI answers with ``SU`` over its own home (scripted);
2. **join the board** — a play touching a tile on the board (W-M6); the hint explains
   the X2/X3 squares (W-B5); the AI answers with ``SES`` down through its ``S``
   (scripted);
3. **exchange** — *Değiştir* some tiles (W-M9).

Then the AI plays as the AI until the game ends.  While the script runs the player's
other moves are refused with a reason (``check_action``): a pass or an exchange instead
of the word asked for, a word instead of the exchange.  The player always starts and
each step is one move of theirs, so ``State.moves`` tells the step (0 and 2: the
player's words, 1 and 3: the AI's, 4: the exchange).  Pure Python: ``TUTORIAL`` meets
the protocol's ``Tutorial`` (``GAME.tutorial``).
"""

from __future__ import annotations

import random
import sys

from game.engine.errors import RuleError
from game.engine.protocol import WAIT, ScriptedTutorial
from games.kelimeki.engine import board
from games.kelimeki.engine.alphabet import COUNTS, TILES
from games.kelimeki.engine.board import corners_for
from games.kelimeki.engine.state import State

HUMAN, AI = 0, 1
STEPS = 3
PLAYER_RACK = ["K", "A", "L", "E", "M", "İ", "R"]
AI_RACK = ["S", "U", "S", "E", "A", "K", "R"]
BAG_TOP = ["A", "N", "T", "E", "S", "O", "L"]  # the player's refill, then the AI's
# State.moves -> the AI's scripted word: (row, col, letter) each
SCRIPT = {
    1: [(14, 13, "S"), (14, 14, "U")],  # SU over the AI's home (W-M5)
    3: [(12, 13, "S"), (13, 13, "E")],  # SES down col 13 through its S (W-M6)
}
# State.moves -> what the player is asked for now (the hint's key and the action type)
ASKED = {0: ("first", "play"), 2: ("join", "play"), 4: ("exchange", "exchange")}
DONE_AT = 5  # the player's exchange was the fifth move
STEP_KEYS = tuple(key for key, _kind in ASKED.values())  # the refusals' codes: tutorial_<key>


def initial_state(seed: str) -> State:
    """The scripted deal: the racks above, the bag's top, the other tiles in a fixed
    pseudo-random order (the same in every guided game); ``seed`` only draws the secret
    that places exchanged tiles (W-M9)."""
    pool = [t for t in TILES for _ in range(COUNTS[t])]
    for tile in PLAYER_RACK + AI_RACK + BAG_TOP:
        pool.remove(tile)
    random.Random("kelimeki-tutorial-v1").shuffle(pool)
    return State(players=2, corners=corners_for(2), racks=[list(PLAYER_RACK), list(AI_RACK)],
                 bag=list(BAG_TOP) + pool, turn=HUMAN, starter=HUMAN,
                 secret=random.Random(f"kelimeki-tutorial:{seed}").getrandbits(64))  # fmt: skip


def check_action(state: State, seat: int, action: dict) -> None:
    """Refuse what the script does not ask for now (the rules check the rest)."""
    asked = ASKED.get(state.moves)
    if seat != HUMAN or asked is None or state.over:
        return
    kind = action.get("type") if isinstance(action, dict) else None
    if kind != asked[1]:
        raise RuleError(f"tutorial_{asked[0]}", f"the guided game asks for a {asked[1]} now")


def bot_choice(state: State, bots: set[int]):
    """The AI's scripted word, WAIT while the player is asked for a move, else None (the
    AI plays as the AI)."""
    if state.over or state.moves >= DONE_AT:
        return None
    if state.turn == HUMAN:
        return WAIT
    cells = SCRIPT.get(state.moves)
    if cells is None or AI not in bots:
        return None
    if any(state.cells[board.idx(r, c)] is not None for r, c, _ in cells):
        return None  # the board is not as scripted: the AI plays as the AI
    return AI, {"type": "play",
                "placements": [{"row": r, "col": c, "letter": ch} for r, c, ch in cells]}  # fmt: skip


def completed(state: State) -> bool:
    """The player has done the three steps: their exchange was the fifth move (not a
    forfeit in its place)."""
    return state.moves > DONE_AT or (state.moves == DONE_AT and not state.forfeited[HUMAN])


def progress(state: State) -> dict:
    """The player's step (1–3; 4 once done) and the hint to show (a key of the web
    side's texts): what the frame carries as ``match.trial``."""
    if completed(state):
        return {"step": STEPS + 1, "steps": STEPS, "hint": "over" if state.over else "done"}
    step = min(state.moves // 2 + 1, STEPS)
    if state.over:
        return {"step": step, "steps": STEPS, "hint": "over"}
    asked = ASKED.get(state.moves)
    hint = asked[0] if asked is not None and state.turn == HUMAN else "wait"
    return {"step": step, "steps": STEPS, "hint": hint}


def finish(state: State) -> None:
    """A Kelimeki match is one game: it is over when the game is (nothing to do)."""


# the protocol's Tutorial: the script above reads the match state (one game)
TUTORIAL = ScriptedTutorial(options={"vs_ai": True}, seats=2, human_seat=HUMAN,  # W-X3
                            bot_level="easy", script=sys.modules[__name__])  # fmt: skip
