"""King's guided first hand (issue 29; as KÜT's trial hand, K-X1): one scripted hand of
*Kupa almaz* against three easy bots, with the player in seat 0 as the chooser.

A fixed deal (the same in every guided hand) and scripted bot cards make each step arise
at the same moment; the player is asked for one action per step:

1. **choose** — the choice panel (G-Q2): choose *Kupa almaz* (no hearts, G-H2);
2. **lead** — the chooser leads (G-P1); hearts may not be led yet (G-P6): lead ``2C``;
   seat 2 takes the trick with ``KC``;
3. **follow** — seat 2 leads ``9D``: the player must follow suit (G-P2) and plays the
   low ``3D``, so seat 1's ``JD`` takes the trick;
4. **heart** — seat 1 leads ``AS``; the player holds no spade and must then play a
   heart (G-P7): ``QH``, which seat 1's ace takes (−30, G-S2).

Then the script is over: the bots play as bots and the player freely until the hand
ends; the guided match ends with that hand.  While the script runs, a move of the player
that would leave it is refused with a reason (``check_action``); the progress is in
every frame (``match.trial``: the step and a hint key; King's web side holds the words).

Pure Python: ``TUTORIAL`` meets the protocol's ``Tutorial`` (``GAME.tutorial``).
"""

from __future__ import annotations

import sys

from game.engine.errors import RuleError
from game.engine.fair import SeededRNG
from game.engine.protocol import WAIT, ScriptedTutorial
from games.king.engine.cards import card, name
from games.king.engine.hand import HandState
from games.king.engine.match import MatchState, commit

HUMAN = 0
BOT_LEVEL = "easy"
LENGTH = 4  # the shortest match (G-M2); the guided match ends after its one hand
CONTRACT = "kupa_almaz"

# G-C2 notation; seat 0 holds no spade (step 4) and no card above the script's needs
DEAL = (
    ("2C", "6C", "9C", "JC", "AC", "3D", "7D", "TD", "QD", "QH", "8H", "5H", "2H"),
    ("AS", "9S", "5S", "2S", "KH", "6H", "QC", "7C", "3C", "JD", "8D", "4D", "2D"),
    ("KS", "JS", "8S", "4S", "AH", "TH", "7H", "3H", "KC", "TC", "5C", "9D", "6D"),
    ("QS", "TS", "7S", "6S", "3S", "JH", "9H", "4H", "8C", "4C", "AD", "KD", "5D"),
)
# the hand's first three tricks, card by card in the order played (seat, card)
SCRIPT = (
    (0, "2C"), (1, "7C"), (2, "KC"), (3, "4C"),  # trick 1: seat 2 takes it
    (2, "9D"), (3, "5D"), (0, "3D"), (1, "JD"),  # trick 2: seat 1 takes it
    (1, "AS"), (2, "4S"), (3, "3S"), (0, "QH"),  # trick 3: seat 1 takes the queen of hearts
)  # fmt: skip
STEP_OF_CARD = {0: ("lead", 2), 6: ("follow", 3), 11: ("heart", 4)}  # script index -> hint
STEPS = 4


def initial_state(seed: str) -> MatchState:
    """The guided match before the first move: hand 1 of a 4-hand match, the scripted
    deal, chosen by the player.  ``seed`` only draws the deal's P-2 salt."""
    ms = MatchState(LENGTH, HUMAN)
    ms.hand_no = 1
    ms.hand = HandState(LENGTH, HUMAN, [[], [], [], []], [[card(c) for c in h] for h in DEAL])
    commit(ms.hand, SeededRNG(f"trial:{seed}"))
    return ms


def _on_script(hand) -> bool:
    """Whether everything so far is the script's (a choice of Kupa almaz, its cards)."""
    if hand.log and hand.contract != CONTRACT:
        return False
    played = [(seat, name(c)) for seat, c in _cards_in_order(hand)]
    return played == list(SCRIPT[: len(played)])


def _cards_in_order(hand) -> list[tuple[int, int]]:
    out = []
    for leader, cards, _ in hand.tricks:
        out += [((leader + i) % 4, c) for i, c in enumerate(cards)]
    out += [((hand.leader + i) % 4, c) for i, c in enumerate(hand.trick)]
    return out


def completed(hand) -> bool:
    """Step 4 is done: the player has played the scripted heart."""
    return len(_cards_in_order(hand)) >= len(SCRIPT) and _on_script(hand)


def progress(hand) -> dict:
    """The player's step (1-4; 5 once done) and the hint to show (a key of the page's
    texts): what the frame carries as ``match.trial``."""
    if completed(hand):
        return {"step": STEPS + 1, "steps": STEPS, "hint": "over" if hand.over else "done"}
    if hand.over or not _on_script(hand):
        return {"step": 1, "steps": STEPS, "hint": "over" if hand.over else "done"}
    if hand.contract is None:
        return {"step": 1, "steps": STEPS, "hint": "choose" if hand.turn == HUMAN else "wait"}
    n = len(_cards_in_order(hand))
    following = [k for k in sorted(STEP_OF_CARD) if k >= n]
    hint, step = STEP_OF_CARD[following[0]]
    if hand.turn != HUMAN:
        return {"step": step, "steps": STEPS, "hint": "wait"}
    return {"step": step, "steps": STEPS, "hint": hint}


def check_action(hand, seat: int, action) -> None:
    """Refuse the player's moves that would leave the script (nothing else changes the
    rules).  Raises a RuleError whose code the table translates."""
    if seat != HUMAN or hand.over or completed(hand) or not isinstance(action, dict):
        return
    if not _on_script(hand):
        return
    kind = action.get("type")
    if hand.contract is None:
        if kind == "timeout" or (kind == "choose" and action.get("contract") != CONTRACT):
            raise RuleError("tutorial_choose_kupa")
        return
    if kind == "play" and action.get("card") not in [name(c) for c in hand.legal(HUMAN)]:
        return  # the rules refuse it with their own reason (G-P10), which teaches more
    n = len(_cards_in_order(hand))
    if kind == "timeout" or (kind == "play" and action.get("card") != SCRIPT[n][1]):
        raise RuleError("tutorial_card")


def bot_choice(hand, botset: set[int]):
    """The scripted bot move ``(seat, action)``, ``WAIT`` (the player is to act), or None
    once the script is over (the bots play as bots)."""
    if hand.over or completed(hand) or not _on_script(hand):
        return None
    seat = hand.turn
    if seat not in botset:
        return WAIT
    n = len(_cards_in_order(hand))
    if hand.contract is None or SCRIPT[n][0] != seat:
        return None  # cannot happen with the fixed deal; never stall the table
    return seat, {"type": "play", "card": SCRIPT[n][1]}


def finish(ms: MatchState) -> None:
    """The guided match ends with its one hand."""
    ms.over = True


# the protocol's Tutorial: the script above reads the match's one hand
TUTORIAL = ScriptedTutorial(options={"length": LENGTH, "rated": False}, seats=4, human_seat=HUMAN, bot_level=BOT_LEVEL,
                            script=sys.modules[__name__], part=lambda state: state.hand)  # fmt: skip
