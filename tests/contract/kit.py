"""The contract suite's kit (tests/contract/test_contract.py): matches of a game made and
played through the service path as a player's socket would send the moves (each seat's
move is its easy bot's choice from its own view).  Nothing here names a game: what a
test needs of one comes from the registry, the game's protocol (``registry.get``) and
its web side (``game.web.web``).  No conftest: the fixtures stay in the suite's module,
so that nothing reaches the other contract files beside it."""

from __future__ import annotations

import importlib
import json
import random
from datetime import timedelta
from pathlib import Path

from game import services
from game.engine import registry
from game.models import Match


def home_dir(key: str) -> Path:
    """The folder of the game's home package."""
    return Path(importlib.import_module(registry.home(key)).__file__).parent


def new_match(key: str, users: list, *, rated: bool = False, seed: str = "contract") -> Match:
    """A match of the game's shortest kind (its ``quick_options``) with human seats."""
    spec = registry.get(key)
    seats = spec.seat_counts[0]
    return services.match_create(game=key, options=dict(spec.quick_options),
                                 users=list(users[:seats]), host=users[0], rated=rated,
                                 seed=f"{seed}-{key}", watchers_allowed=True)  # fmt: skip


def plain(data):
    """As a socket carries it (JSON)."""
    return json.loads(json.dumps(data))


def move(match: Match, rng: random.Random) -> bool:
    """One move (or the next deal) of the seat on turn, as its socket would send it;
    False when the match is over."""
    spec = registry.get(match.game)
    match.refresh_from_db()
    if match.status == Match.Status.BETWEEN:
        services.match_next_hand(match.pk, match.version, force=True)
        return True
    if match.status != Match.Status.PLAYING:
        return False
    st = spec.from_dict(match.state)
    seat = spec.to_act(st)[0]
    action = spec.bot_choose(plain(spec.view_for(st, seat)), "easy", rng)
    if action is None:  # nothing to choose: what the clock would do
        late = match.deadline + timedelta(seconds=1)
        services.match_expire_turn(match.pk, match.version, now=late)
    else:
        services.match_apply_action(match.pk, seat, action, match.version)
    return True


def play_out(match: Match, seed: int = 7, max_steps: int = 5000) -> Match:
    rng = random.Random(seed)
    for _ in range(max_steps):
        if not move(match, rng):
            match.refresh_from_db()
            return match
    raise AssertionError(f"the {match.game} match did not end")
