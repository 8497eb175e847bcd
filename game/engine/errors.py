"""Typed engine errors.  Every illegal action raises ``RuleError`` with a stable
snake_case ``code`` (used in replay output, error frames and translations) and changes
nothing."""

from __future__ import annotations


class EngineError(Exception):
    code = "engine_error"

    def __init__(self, code: str | None = None, detail: str = ""):
        if code:
            self.code = code
        self.detail = detail
        super().__init__(f"{self.code}: {detail}" if detail else self.code)


class RuleError(EngineError):
    """The action is well-formed but not allowed now (kut.md)."""

    code = "illegal_action"


class ActionFormatError(EngineError):
    """The action itself is malformed (unknown type, missing or bad field)."""

    code = "bad_action"


# Every code the engine may raise, for documentation, translations and tests.
CODES = {
    "bad_action": "the action is malformed",
    "unknown_action": "no such action type",
    "bad_seat": "no such seat",
    "hand_over": "the hand has ended",
    "not_your_turn": "it is not this seat's turn",
    "already_taken": "a tile was already taken this turn (K-N1)",
    "must_take_first": "take a tile first (K-N1)",
    "first_turn_no_take": "the starter does not take on the first turn (K-D3)",
    "must_draw": "a centre draw is forced (K-N5)",
    "no_thrown_tile": "there is no tile thrown to you (K-N1)",
    "deck_empty": "the centre deck is empty (K-D4)",
    "claim_not_open": "no tile can be claimed now (K-C1, K-C6)",
    "claim_own_turn": "the player whose turn it is cannot claim (K-C2)",
    "own_discard": "you cannot claim your own discard (K-C2)",
    "too_many_tiles": "a claimant may hold at most 29 tiles (K-C2)",
    "tile_not_in_rack": "that tile is not in your rack",
    "already_opened": "you have already opened this hand (K-O3)",
    "not_opened": "open your task first (K-O3)",
    "opened_this_turn": "no lay-offs or new groups in the turn you opened (K-O4)",
    "task_mismatch": "the groups are not exactly this hand's task (K-O1, K-O2, K-O5)",
    "invalid_group": "not a valid run, küt or pair (K-G1…K-G6)",
    "finish_incomplete": "finish from hand needs every tile but one in runs and küts (K-O7)",
    "no_opening_in_finish": "nobody opens in the finish-from-hand hand (K-O7)",
    "rack_would_be_empty": "keep at least one tile to discard (K-N4)",
    "no_such_group": "no such group on the table",
    "cannot_lay_off": "that tile does not fit that group (K-L3…K-L6)",
    "end_required": "say which end: the tile fits both (left or right)",
    "lay_off_limit": "at most two tiles at each end of a run per turn (K-L3)",
    "pair_cannot_grow": "a pair cannot grow; only the okey exchange is allowed (K-L6)",
    "pairs_not_allowed": "new pairs only in the pairs hand, by a player who opened with pairs (K-O6)",
    "nothing_to_lay_off": "no tile can be laid off now (K-L7)",
    "no_groups": "no ready groups on the rack",
    "nothing_to_undo": "nothing to undo this turn (K-U1…K-U3)",
    "bad_layout": "the rack layout does not hold exactly your tiles (K-R1…K-R3)",
    "not_seated": "watchers cannot act",
}
