"""The King scenario command (``king-scenario.md``), reached through
``python -m game.engine.replay FILE|-`` with ``"game": "king"``."""

from __future__ import annotations

from game.engine.scenario_input import (
    ScenarioError,
    action_object,
    checked_actions,
    is_int_in,
    play_actions,
)
from games.king.engine.cards import NotationError, card, name, names, suit_letter
from games.king.engine.contracts import (
    CONTRACTS,
    DEFAULT_LENGTH,
    KOZ,
    LENGTHS,
    history_error,
    quota,
)
from games.king.engine.hand import ACTION_TYPES, HandState, apply


def _check_action(i: int, a) -> dict:
    where = action_object(i, a)
    seat = a.get("seat")
    if not is_int_in(seat, 0, 3):
        raise ScenarioError(f"{where}: 'seat' must be an integer 0-3, not {seat!r}")
    kind = a.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise ScenarioError(f"{where}: unknown action type {kind!r}")
    if kind == "choose":
        contract = a.get("contract")
        if not isinstance(contract, str) or contract not in CONTRACTS:
            raise ScenarioError(f"{where}: unknown contract {contract!r}")
        trump = a.get("trump")
        if contract == KOZ:
            if not isinstance(trump, str) or trump not in ("S", "H", "C", "D"):
                raise ScenarioError(f"{where}: koz needs 'trump' S, H, C or D, not {trump!r}")
        elif trump is not None:
            raise ScenarioError(f"{where}: {contract} takes no trump (null), not {trump!r}")
    elif kind == "play":
        if "card" not in a:
            raise ScenarioError(f"{where}: 'play' needs a 'card'")
        try:
            card(a["card"])
        except NotationError as exc:
            raise ScenarioError(f"{where}: {exc}") from None
    return a


def load_scenario(data) -> tuple[HandState, list[dict]]:
    """Validate a scenario and set up its hand; raises ScenarioError."""
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a JSON object")
    if data.get("game") != "king":
        raise ScenarioError(f"unknown game {data.get('game')!r}")
    length = data.get("length", DEFAULT_LENGTH)
    if type(length) is not int or length not in LENGTHS:
        raise ScenarioError(f"'length' must be 4, 8, 12 or 20, not {length!r}")
    chooser = data.get("chooser")
    if not is_int_in(chooser, 0, 3):
        raise ScenarioError(f"'chooser' must be an integer 0-3, not {chooser!r}")
    hands = data.get("hands")
    if not isinstance(hands, list) or len(hands) != 4:
        raise ScenarioError("'hands' must be a list of four hands")
    deal: list[list[int]] = []
    seen: set[int] = set()
    for i, h in enumerate(hands):
        if not isinstance(h, list) or len(h) != 13:
            raise ScenarioError(f"hand {i} must be a list of 13 cards")
        try:
            cards = [card(c) for c in h]
        except NotationError as exc:
            raise ScenarioError(f"hand {i}: {exc}") from None
        for c in cards:
            if c in seen:
                raise ScenarioError(f"the card {name(c)} appears twice")
            seen.add(c)
        deal.append(cards)
    chosen = data.get("chosen", [[], [], [], []])
    if (not isinstance(chosen, list) or len(chosen) != 4
            or not all(isinstance(c, list) for c in chosen)):  # fmt: skip
        raise ScenarioError("'chosen' must be four lists of contract ids")
    for c in chosen:
        for x in c:
            if not isinstance(x, str) or x not in CONTRACTS:
                raise ScenarioError(f"'chosen': unknown contract {x!r}")
    why = history_error(length, chosen, chooser)
    if why:
        raise ScenarioError(f"'chosen' is not a possible history: {why}")
    checked = checked_actions(data, _check_action)
    return HandState(length, chooser, chosen, deal), checked


def run_scenario(data) -> dict:
    hand, actions = load_scenario(data)
    return result_of(hand, play_actions(hand, actions, apply))


def result_of(hand: HandState, results: list[dict]) -> dict:
    tricks = [{"leader": ld, "cards": [name(c) for c in cs], "winner": w}
              for ld, cs, w in hand.tricks]  # fmt: skip
    if hand.trick:
        tricks.append({"leader": hand.leader, "cards": [name(c) for c in hand.trick],
                       "winner": None})  # fmt: skip
    chosen = hand.chosen_after()
    return {
        "results": results,
        "contract": hand.contract,
        "trump": suit_letter(hand.trump),
        "tricks": tricks,
        "over": hand.over,
        "turn": None if hand.over else hand.turn,
        "hands": [names(h) for h in hand.hands],
        "scores": None if hand.scores is None else list(hand.scores),
        "chosen": chosen,
        "quota": quota(hand.length, chosen),
    }


def export_scenario(hand: HandState) -> dict:
    """The hand as a scenario file: its deal, the choices before it and every accepted
    action (match records, replays, downloads)."""
    return {
        "game": "king",
        "length": hand.length,
        "chooser": hand.chooser,
        "chosen": [list(c) for c in hand.chosen],
        "hands": [names(h) for h in hand.deal],
        "actions": [dict(a) for a in hand.log],
    }
