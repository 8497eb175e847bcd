"""Short finished matches of every game with an analysis, made through the services: one
player (seat 0, moving as an easy bot would, through ``match_apply_action``) against bots
— the shortest match each game offers (``quick_options``; Kelimeki with a short bag)."""

from __future__ import annotations

import random

from django.test import override_settings

from game import services
from game.engine import registry
from game.models import Match

ANALYSED = [key for key, entry in registry.GAMES.items() if "analyse" in entry.commands]
# a short match of each game: its Hemen Oyna options, King's shortest length
OPTIONS = {"king": {"length": 4}}
TEST_OPTIONS = {"kelimeki": {"test_bag": 3}}  # Kelimeki: a bag of a few tiles


def finished_match(game: str, user, *, seed: str = "analiz-1", others=None) -> Match:
    """A recorded match of ``game`` played to its end: ``user`` at seat 0 (and
    ``others`` beside), bots in the rest."""
    spec = registry.get(game)
    seats = spec.seat_counts[0]
    users = [user, *(others or [])]
    users += [None] * (seats - len(users))
    options = dict(getattr(spec, "quick_options", None) or {}) | OPTIONS.get(game, {})
    with override_settings(DEBUG=True, KUT_TEST_SEEDS=True, KUT_BOTS_INLINE=True,
                           KUT_BOT_DELAY_SECONDS=0):  # fmt: skip
        match = services.match_create(
            game=game, options=options, users=users, rated=True, seed=seed,
            bot_levels=["" if u else "normal" for u in users],
            test_options=TEST_OPTIONS.get(game),
        )  # fmt: skip
        human = {i for i, u in enumerate(users) if u is not None}

        def choose(st, seat):
            return spec.bot_choose(spec.view_for(st, seat), "easy", rng)

        rng = random.Random(seed)
        return _play(match, spec, human, choose)


def _play(match: Match, spec, human: set[int], choose) -> Match:
    for _ in range(20000):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return match
        if match.status == Match.Status.BETWEEN:
            services.match_next_hand(match.pk, match.version, force=True)
            continue
        st = spec.from_dict(match.state)
        acting = spec.to_act(st)
        seat = next(iter(acting))
        if seat in human:
            services.match_apply_action(match.pk, seat, choose(st, seat), match.version)
        else:
            services.match_play_bot(match.pk, match.version)
    raise AssertionError(f"match {match.pk} did not end")
