"""Issue 27, item 7: a guest's exchange and play sent together at the same version used to
both succeed (4 in 93 tries: the session game checked the version with no lock, and the
play then drew the tiles the exchange's answer had shown).  A guest's game is now a match
on the one locked path: two actions at one version, from two threads with their own
PostgreSQL transactions, released together — exactly one applies, the other is refused
as stale, all 100 tiles are there, the log is contiguous and replays to the state.

The same race against the service with the row lock removed goes wrong (the log's
unique version then throws the second writer out with an IntegrityError instead of a
clean refusal), which shows that the two actions really overlap.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

from game import guests, rows, services
from game.models import Match, MatchAction
from games.kelimeki.engine import GAME, bots
from games.kelimeki.engine.alphabet import COUNTS
from tests.game.races import in_threads
from tests.games.kelimeki.engine.test_properties import all_tiles

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
        reason="races need PostgreSQL's row locks and real transactions (SQLite has neither "
        "select_for_update nor concurrent writers): set DATABASE_URL=postgres://…",
    ),
    pytest.mark.django_db(transaction=True),
]

TRIALS = 40
UNLOCKED_TRIALS = 20  # stops at the first race that goes wrong


def _new_game() -> Match:
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    match = guests.start(game="kelimeki", players=2, level="easy", session=session)
    return Match.objects.get(pk=match.pk)


def _position(match: Match):
    """(version, [exchange, play-or-pass]) for the guest to move now, or None when the
    bag is too small for an exchange (a new game then)."""
    match.refresh_from_db()
    st = GAME.from_dict(match.state)
    if not match.running or st.turn != 0 or len(st.bag) < 2:
        return None
    view = GAME.view_for(st, 0)
    move = bots.best_move(view)
    other = move.to_action() if move else {"type": "pass"}
    return match.version, [{"type": "exchange", "letters": view["rack"][:2]}, other]


def _race(match_id: int, version: int, actions: list[dict]) -> list[str]:
    out = in_threads({
        i: (lambda a=action: services.match_apply_action(match_id, 0, a, version))
        for i, action in enumerate(actions)
    })  # fmt: skip
    return [out[i] or "ok" for i in range(len(actions))]


def _judge(match: Match, version: int, out: list[str]) -> str:
    match.refresh_from_db()
    st = GAME.from_dict(match.state)
    if all_tiles(st) != Counter(COUNTS):
        return "tiles_not_conserved"
    if sorted(out) != ["ok", "stale_version"]:
        return "/".join(out)
    versions = list(match.actions.order_by("version").values_list("version", flat=True))
    if versions != list(range(1, match.version + 1)):
        return "log_gap"
    human = MatchAction.objects.filter(match=match, version__gt=version, actor="human")
    if human.count() != 1:
        return "two_human_moves"
    if GAME.to_dict(services.match_replay(match)) != match.state:
        return "replay_differs"
    return "ok"


def _trials(n: int, stop_at_first_failure: bool = False) -> list[str]:
    verdicts: list[str] = []
    match = _new_game()
    while len(verdicts) < n:
        position = _position(match)
        if position is None:
            match = _new_game()
            continue
        version, actions = position
        if len(verdicts) % 2:
            actions.reverse()  # either action may leave first
        verdicts.append(_judge(match, version, _race(match.pk, version, actions)))
        if stop_at_first_failure and verdicts[-1] != "ok":
            break
    return verdicts


def test_two_actions_of_a_guest_at_one_version_apply_once():
    verdicts = _trials(TRIALS)
    assert verdicts == ["ok"] * TRIALS, Counter(verdicts)


def test_without_the_row_lock_the_same_race_goes_wrong(monkeypatch):
    """The check of the check: the match row read without ``FOR UPDATE``."""

    def unlocked(match_id):
        return Match.objects.filter(pk=match_id).first(), None

    monkeypatch.setattr(rows, "lock_match_with_seats", unlocked)
    verdicts = _trials(UNLOCKED_TRIALS, stop_at_first_failure=True)
    assert any(v != "ok" for v in verdicts), verdicts
