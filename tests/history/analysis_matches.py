"""Finished matches of each game for the analysis on the replays (issue 31), played
through the services as a player's socket would send the moves, with the steps a replay
must count right: King's take-back (G-X4), Kelimeki's pass and exchange (its download
stops at the exchange); and what each replay step applies of the hand's scenario, as
the server counts it (the scenario download's own ``export_hand`` / ``export_log``)."""

from __future__ import annotations

import json
import random

from game import services
from game.engine import registry
from game.models import Match
from lobby.history import hand_rows
from tests.history.play import play_as_humans

GAMES = ("kut", "kdvli", "kastet", "king", "kelimeki")
OPTIONS = {"kut": {"tasks": 5}, "kdvli": {"hands": 3}, "kastet": {"hands": 1}}


def _kelimeki_choice(rng: random.Random):
    """Play, pass, play, exchange two tiles, play, play, then pass to the end (W-E2)."""
    spec = registry.get("kelimeki")
    moves = [0]

    def choose(state, seat):
        n = moves[0]
        moves[0] += 1
        if n == 1 or n >= 6:
            return {"type": "pass"}
        if n == 3:
            return {"type": "exchange", "letters": [t for t in state.racks[seat] if t != "*"][:2]}
        view = json.loads(json.dumps(spec.view_for(state, seat)))
        return spec.bot_choose(view, "easy", rng) or {"type": "pass"}

    return choose


def _king_with_take_back(match: Match) -> Match:
    """The fifth card of the first hand taken back (G-X4) and another played."""
    spec = registry.get("king")
    rng = random.Random(7)

    def five_cards(m):
        hand = spec.from_dict(m.state).hand
        return hand is not None and len(hand.log) >= 6

    match = play_as_humans(match, rng=rng, until=five_cards, max_steps=50)
    last = spec.from_dict(match.state).hand.log[-1]
    assert last["type"] == "play"
    services.match_apply_action(match.pk, last["seat"], {"type": "take_back"}, match.version)
    return play_as_humans(Match.objects.get(pk=match.pk), rng=rng, max_steps=400)


def finished_match(game: str, users: list, seed: str = "analiz") -> Match:
    """A finished, unrated match of ``game`` among ``users`` (two for Kelimeki)."""
    if game == "kelimeki":
        match = services.match_create(game=game, users=users[:2], host=users[0], rated=False,
                                      seed=seed)  # fmt: skip
        return play_as_humans(match, choose=_kelimeki_choice(random.Random(3)), max_steps=200)
    options = OPTIONS.get(game) or {"length": 4, "rated": False, "take_back": True}
    match = services.match_create(game=game, options=options, users=users, host=users[0],
                                  rated=False, seed=seed)  # fmt: skip
    if game == "king":
        return _king_with_take_back(match)
    return play_as_humans(match, level="easy", rng=random.Random(3), max_steps=6000)


def scenario(match: Match, hand_no: int, rows: int | None = None) -> dict:
    """The hand's scenario as the history's download gives it (``views_history.scenario``)
    — with ``rows``, of the match's first ``rows`` log rows only (the whole-game games)."""
    from lobby import history

    spec = registry.get(match.game)
    state = history.hand_final_state(match, hand_no)
    if spec.export_log is not None:
        log = match.actions.order_by("version", "layout_version", "seat")
        log = list(log.values_list("seat", "kind", "payload"))
        return spec.export_log(state, log if rows is None else log[:rows])
    return spec.export_hand(state)


def server_applied(match: Match, hand_no: int) -> list[int]:
    """For each step of ``lobby.history.replay_hand`` (its walk, ``hand_rows``: the
    hand's deal, then every logged row but the private ones), how many of the scenario's
    actions the shown position has applied, counted by the download's own exporter."""
    spec = registry.get(match.game)
    log = list(match.actions.order_by("version", "layout_version", "seat")
               .values_list("seat", "kind", "payload"))  # fmt: skip
    out: list[int] = []
    for k, _act, st, deal in hand_rows(match, spec, hand_no):
        if deal:
            out = []
        if spec.export_log is not None:
            out.append(len(spec.export_log(st, log[: k + 1])["actions"]))
        else:
            out.append(len(spec.export_hand(st)["actions"]))
    return out
