"""A small site full of other people's things, for the HTTP tests: players, a staff
member, running and finished matches, open public and private tables with invite links;
and what each viewer must never see in a page (``secrets_for``)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

from accounts.models import User
from game import services
from game.models import Match
from games.kut.engine import bots
from games.kut.engine.match import MatchState
from games.kut.engine.views import view_for
from games.okey.engine.deal import deal_order
from lobby import services as lobby
from tests.security.conftest import make_user

OVER = (Match.Status.FINISHED, Match.Status.ABANDONED, Match.Status.ABORTED)


def play_out(match_id: int, seed: int = 0) -> Match:
    """Play a match to its end: humans move as the easy bot would, through the service."""
    rng = random.Random(seed)
    for _ in range(20000):
        m = Match.objects.get(pk=match_id)
        if m.status in OVER:
            return m
        if m.status == Match.Status.BETWEEN:
            services.match_next_hand(m.pk, m.version, force=True)
            continue
        hand = MatchState.from_dict(m.state).hand
        if m.seats.get(seat=hand.turn).bot_controlled:
            services.match_play_bot(m.pk, m.version, rng=rng)
        else:
            view = json.loads(json.dumps(view_for(hand, hand.turn)))
            action = bots.choose(view, "easy", rng) or {"type": "timeout"}
            services.match_apply_action(m.pk, hand.turn, action, m.version)
    raise AssertionError(f"match {match_id} did not end")


@dataclass
class World:
    alice: User  # the normal player the scans log in as
    bob: User
    carol: User
    dave: User
    staff: User
    alice_match: Match  # alice plays here (with bots)
    other_match: Match  # bob, carol, dave: alice is not seated
    watch_match: Match  # carol and bots, watchers allowed
    done_match: Match  # bob and carol, finished
    public_table: object  # bob's, open
    private_table: object  # dave's, invite only
    alice_table: object  # alice's own, private
    tokens: dict = field(default_factory=dict)  # table -> invite token

    @property
    def users(self) -> list[User]:
        return [self.alice, self.bob, self.carol, self.dave, self.staff]

    @property
    def matches(self) -> list[Match]:
        return [self.alice_match, self.other_match, self.watch_match, self.done_match]

    @property
    def tables(self) -> list:
        return [self.public_table, self.private_table, self.alice_table]


def build_world() -> World:
    alice, bob, carol, dave = (make_user(n) for n in ("alice", "bob", "carol", "dave"))
    staff = make_user("yonetici", is_staff=True, is_superuser=True)
    done = services.match_create(game="kut", options={"tasks": 5}, users=[bob, carol, None, None], rated=True,
                                 bot_levels=["", "", "easy", "easy"], seed="world-done")  # fmt: skip
    done = play_out(done.pk)
    alice_match = services.match_create(game="kut", options={"tasks": 5}, users=[alice, None, None, None], rated=False,
                                        seed="world-alice", host=alice)  # fmt: skip
    other = services.match_create(game="kut", options={"tasks": 8}, users=[bob, carol, dave, None], rated=False,
                                  seed="world-other", host=bob)  # fmt: skip
    watch = services.match_create(game="kut", options={"tasks": 5}, users=[carol, None, None, None], rated=False,
                                  watchers_allowed=True, seed="world-watch", host=carol)  # fmt: skip
    public = lobby.table_create(game="kut", host=bob, options={"tasks": 5}, rated=False)
    private = lobby.table_create(
        game="kut", host=dave, options={"tasks": 8}, private=True, rated=False
    )
    own = lobby.table_create(
        game="kut", host=alice, options={"tasks": 5}, private=True, rated=False
    )
    world = World(alice, bob, carol, dave, staff, alice_match, other, watch, done, public,
                  private, own)  # fmt: skip
    for table in world.tables:
        world.tokens[table.pk] = lobby.invite_current(table).token
    return world


def world_delete(world: World) -> None:
    """Remove what ``build_world`` committed (players cascade to their rankings)."""
    from lobby.models import Table

    Table.objects.filter(pk__in=[t.pk for t in world.tables]).delete()
    Match.objects.filter(pk__in=[m.pk for m in world.matches]).delete()
    User.objects.filter(pk__in=[u.pk for u in world.users]).delete()


def secrets_for(world: World, viewer: User | None) -> dict[str, str]:
    """Text no page served to ``viewer`` may contain, with what it is.  Read fresh:
    the matches move on while a scan runs."""
    found: dict[str, str] = {}
    for m in Match.objects.filter(pk__in=[x.pk for x in world.matches]):
        found[m.seed] = f"the seed of match {m.pk}"
        if m.status not in (Match.Status.PLAYING, Match.Status.BETWEEN):
            continue
        hand = MatchState.from_dict(m.state).hand
        seat = services.seat_of(m, viewer) if viewer is not None else None
        hidden = list(hand.deck)
        for s in range(4):
            if s != seat:
                hidden += hand.racks[s].tiles()
        for t in hidden:
            found[hand.ids[t]] = f"a hidden tile id of match {m.pk} (viewer seat {seat})"
        if not hand.over:
            found[hand.deal["salt"]] = f"the salt of match {m.pk}'s running hand"
            order = deal_order(hand.deal)
            for sep in (",", '","', '", "', " "):
                found[sep.join(order[-12:])] = f"the deck order of match {m.pk}"
    for user in world.users:
        found[user.password] = f"{user.username}'s password hash"
        if viewer is None or not viewer.is_staff:  # staff see e-mails in the admin
            if viewer is None or user.pk != viewer.pk:
                found[user.email] = f"{user.username}'s e-mail"
    return found
