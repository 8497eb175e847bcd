"""The rules of play as pure functions (king.md sections 5, 6 and G-T2): the legal
cards, why a card is refused, the trick's winner, the scores, the timeout moves.  Bots
use these too; they never see a state."""

from __future__ import annotations

from games.king.engine.cards import AH, HEARTS, KH, strength, suit_of
from games.king.engine.contracts import (
    HEARTS_RULE,
    KOZ,
    PENALTIES,
    PENALTY_CARDS,
    PENALTY_DUTY,
    allowed,
)

TRICKS = 13

# --- the legal cards (G-P2 … G-P10) ---------------------------------------------------


def legal_cards(cards, trick: list[int], contract: str, trump: int | None,
                hearts_broken: bool, trumps_broken: bool) -> list[int]:  # fmt: skip
    """G-P10: the cards a seat holding ``cards`` may play to ``trick`` (cards so far)."""
    if not trick:  # 1. leading
        if contract == KOZ and not trumps_broken:  # G-P5
            rest = [c for c in cards if c // 13 != trump]
            return rest or list(cards)
        if contract in HEARTS_RULE and not hearts_broken:  # G-P6
            rest = [c for c in cards if c // 13 != HEARTS]
            return rest or list(cards)
        return list(cards)
    led = trick[0] // 13
    follow = [c for c in cards if c // 13 == led]
    if follow:  # 2. G-P2, G-P8
        if contract == "rifki" and led == HEARTS and AH in trick and KH in follow:
            return [KH]
        return follow
    if contract == KOZ:  # 3. G-P4
        trumps = [c for c in cards if c // 13 == trump]
        if trumps:
            return trumps
    elif contract in PENALTY_DUTY:  # G-P7
        duty = PENALTY_CARDS[contract]
        pen = [c for c in cards if c in duty]
        if pen:
            return pen
    return list(cards)


def refusal_code(cards, trick: list[int], contract: str, trump: int | None,
                 hearts_broken: bool, trumps_broken: bool, c: int) -> str | None:  # fmt: skip
    """Why card ``c`` may not be played (a stable code), or None when it may."""
    if c not in cards:
        return "not_in_hand"
    if c in legal_cards(cards, trick, contract, trump, hearts_broken, trumps_broken):
        return None
    if not trick:
        return "trump_not_broken" if contract == KOZ else "hearts_not_broken"
    led = trick[0] // 13
    if any(x // 13 == led for x in cards):
        return "must_play_kh" if suit_of(c) == led else "must_follow_suit"
    return "must_trump" if contract == KOZ else "must_play_penalty_card"


def trick_winner_index(trick: list[int], trump: int | None) -> int:
    """G-P3: the index in ``trick`` of the winning card."""
    best = 0
    led = trick[0] // 13
    for i in range(1, len(trick)):
        c, b = trick[i], trick[best]
        cs, bs = c // 13, b // 13
        if cs == bs:
            if c < b:  # same suit: a smaller int is a higher rank
                best = i
        elif cs == trump or (bs != trump and cs == led):
            best = i
    return best


def score_tricks(contract: str, tricks: list[tuple[int, list[int], int]]) -> list[int]:
    """Section 6: each seat's score for these completed tricks (leader, cards, winner)."""
    scores = [0, 0, 0, 0]
    for no, (_, cards, w) in enumerate(tricks, start=1):
        if contract == "el_almaz":  # G-S1
            scores[w] -= 50
        elif contract == "koz":  # G-S7
            scores[w] += 50
        elif contract == "son_iki":  # G-S6
            if no >= 12:
                scores[w] -= 180
        elif contract == "kupa_almaz":  # G-S2
            scores[w] -= 30 * sum(1 for c in cards if c // 13 == HEARTS)
        elif contract == "erkek_almaz":  # G-S3
            scores[w] -= 60 * sum(1 for c in cards if c % 13 in (1, 3))
        elif contract == "kiz_almaz":  # G-S4
            scores[w] -= 100 * sum(1 for c in cards if c % 13 == 2)
        elif contract == "rifki":  # G-S5
            if KH in cards:
                scores[w] -= 320
    return scores


def timeout_contract(length: int, chosen: list[list[str]], seat: int,
                     cards) -> tuple[str, int | None]:  # fmt: skip
    """G-T2: Koz in the suit held most (ties: S H C D) if allowed, else the first
    allowed penalty contract in G-H2's order."""
    ok = allowed(length, chosen, seat)
    if KOZ in ok:
        counts = [sum(1 for c in cards if c // 13 == s) for s in range(4)]
        return KOZ, counts.index(max(counts))
    return next(c for c in PENALTIES if c in ok), None


def timeout_card(legal: list[int]) -> int:
    """G-T2: the lowest legal card by rank, ties by the suit order S H C D."""
    return min(legal, key=lambda c: (strength(c), c // 13))


# Every code King's engine may raise (RuleError / ActionFormatError), for documentation,
# the table's translated messages (G-Q2's reasons among them) and tests.
CODES = {
    "bad_action": "the action is malformed",
    "unknown_action": "no such action type",
    "unknown_contract": "no such contract (G-H2)",
    "bad_trump": "koz names a trump suit S, H, C or D; a penalty contract none (G-H3)",
    "bad_card": "not a card in notation (G-C2)",
    "bad_seat": "no such seat",
    "hand_over": "the hand has ended (G-P9)",
    "not_your_turn": "it is not this seat's turn (G-M1, G-H1)",
    "already_chosen": "this hand's contract is already chosen (G-H1)",
    "not_chosen": "no card before the contract is chosen (G-H1)",
    "no_ceza_left": "Ceza hakkınız kalmadı: no penalty choice left (G-H4, G-Q2)",
    "no_koz_left": "Koz hakkınız kalmadı: no koz choice left (G-H4, G-Q2)",
    "contract_used_up": "İki kez oynandı: played twice already (G-H5, G-Q2)",
    "not_in_hand": "you do not hold that card",
    "must_follow_suit": "play a card of the led suit (G-P2)",
    "must_play_kh": "the king of hearts falls on the ace (G-P8)",
    "must_trump": "void in the led suit: play a trump (G-P4)",
    "must_play_penalty_card": "void in the led suit: play a penalty card (G-P7)",
    "trump_not_broken": "no trump lead before trumps are broken (G-P5)",
    "hearts_not_broken": "no heart lead before hearts are broken (G-P6)",
    "take_back_off": "take-back is off at this table (G-X4)",
    "nothing_to_take_back": "only your own last action, while nothing followed (G-X4)",
    "hand_in_progress": "the hand is still being played (G-M4)",
    "match_over": "the match is over (G-M6)",
    # the guided first hand (tutorial.py): the player keeps to the script
    "tutorial_choose_kupa": "the guided hand is played as Kupa almaz",
    "tutorial_card": "the guided hand asks for the card its hint names",
}
