"""The match-socket fuzzer, shared by ``tests/security/test_fuzz_socket.py`` (a CI sample)
and ``tools/fuzz_socket.py`` (the long run).

A live match of four human seats (no bots, no timers: only the fuzzer's frames move it)
is played through ``kut_site.asgi.application`` by four ``WebsocketCommunicator``
sockets.  Hypothesis draws each frame from the current state: legal moves (so that the
hands go on and end), valid actions at the wrong time or from the wrong seat, other
seats' and the deck's tile ids (read from the stored state), mutated legal actions,
random JSON, unicode, huge numbers, nesting, binary and oversized frames.

After every frame the oracle checks:

* the socket is still open and answered (a ``ping`` sent after each frame gets its
  ``pong``; nothing but a deliberate close may end it) and never said ``server_error``;
* a frame the server accepted moved ``Match.version`` by exactly one and sent no error;
  every other frame got exactly one error frame and changed neither the version nor the
  stored state (``sync`` gets a snapshot and ``ping`` a ``pong`` instead);
* all 106 tiles are accounted for.

At the end of each match: the action log's versions are contiguous, it holds exactly
the accepted frames, and replaying it gives the stored state.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from asgiref.sync import SyncToAsync
from django.db import connections
from hypothesis import strategies as st

from game import consumers, services
from game.models import Match, MatchAction, MatchSeat
from games.kut.engine import bots
from games.kut.engine.actions import ACTION_TYPES
from games.kut.engine.match import MatchState
from games.kut.engine.views import can_claim, view_for
from games.okey.engine.rack import CELLS, VALID_SEPARATORS
from games.okey.engine.tiles import NUM_TILES
from tests.games.kut.engine.test_properties import all_tiles

MAX_BYTES = consumers.MAX_FRAME_BYTES
REPLY_TIMEOUT = 30.0  # loaded 2-core machine

HOSTILE_STRINGS = [
    "", " ", "\u0000", "a\u0000b", "\ud800", "\udfff", "ş", "İı", "ğÜÖÇ", "🀄", "👩‍👩‍👧",
    "\u202eokey", "\ufeff", "R7", "F", "R14", "X1", "R0", "r7", "K13", "Y 7",
    "<script>alert(1)</script>", "' OR 1=1 --", '"; DROP TABLE game_match; --',
    "{{ 7*7 }}", "%s%s%n", "../../../etc/passwd", "\\", "\n\r\t", "null", "NaN",
    "A" * 33, "0" * 10, "ffffffffff", "A" * 400,
]  # fmt: skip

BIG_NUMBERS = [
    2**31, -(2**31) - 1, 2**63, -(2**63) - 1, 2**64, 10**30, -(10**30), 10**300,
    1e308, -1e308, 5e-324, 0.5, -0.0, 31.0, 32, 33, -1, 10_001,
]  # fmt: skip

# Number tokens no json.dumps writes but json.loads reads (or refuses).
RAW_NUMBERS = ["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "1" * 5000, "0x10", "1_0"]

leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from(BIG_NUMBERS),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.sampled_from(HOSTILE_STRINGS),
)
json_values = st.recursive(
    leaf,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),  # fmt: skip
    max_leaves=8,
)
junk_types = st.one_of(st.sampled_from(ACTION_TYPES), st.text(max_size=12), json_values)


@dataclass
class Context:
    """What a frame is drawn from: the stored state right now."""

    match_id: int
    version: int
    status: str
    ms: MatchState

    @property
    def hand(self):
        return self.ms.hand

    def own_ids(self, seat: int) -> list[str]:
        h = self.hand
        return [h.ids[t] for t in h.racks[seat].tiles()]

    def foreign_ids(self, seat: int) -> list[str]:
        """Ids of tiles ``seat`` may not play: other racks, the deck, the indicator."""
        h = self.hand
        tiles = [h.indicator, *h.deck]
        for s in range(4):
            if s != seat:
                tiles += h.racks[s].tiles()
        return [h.ids[t] for t in tiles]

    def public_ids(self) -> list[str]:
        h = self.hand
        tiles = [t for d in h.discards for t in d] + [t for g in h.table for t in g.tiles]
        return [h.ids[t] for t in tiles]


def _legal(ctx: Context, rnd: random.Random) -> tuple[int, dict] | None:
    """A move the rules allow now (the game must go on): the easy bot's choice for the
    seat on turn, sometimes a claim or a rack layout change of any seat."""
    h = ctx.hand
    if h is None or h.over or ctx.status != Match.Status.PLAYING:
        return None
    claimers = [s for s in range(4) if can_claim(h, s)]
    roll = rnd.random()
    if claimers and roll < 0.15:
        return rnd.choice(claimers), {"type": "claim"}
    if roll < 0.25:
        seat = rnd.randrange(4)
        kind = rnd.choice(["arrange", "separator", "move"])
        if kind == "arrange":
            return seat, {"type": "arrange"}
        if kind == "separator":
            return seat, {"type": "separator", "at": rnd.choice(sorted(VALID_SEPARATORS))}
        ids = ctx.own_ids(seat)
        return seat, {"type": "move", "tile_id": rnd.choice(ids), "to": rnd.randrange(CELLS)}
    view = json.loads(json.dumps(view_for(h, h.turn)))
    action = bots.choose(view, "easy", rnd)
    return h.turn, action or {"type": "timeout"}


def _wrong_time(ctx: Context, seat: int, rnd: random.Random) -> dict:
    """A well-formed action with the seat's own tiles, whatever the moment."""
    own = ctx.own_ids(seat) or ["0000000000"]
    groups = len(ctx.hand.table) if ctx.hand else 0
    return rnd.choice([
        {"type": "draw"}, {"type": "take_discard"}, {"type": "claim"}, {"type": "undo"},
        {"type": "auto_lay_off"}, {"type": "open"}, {"type": "new_groups"},
        {"type": "timeout"}, {"type": "arrange"},
        {"type": "discard", "tile_id": rnd.choice(own)},
        {"type": "open", "group_ids": [rnd.sample(own, min(3, len(own)))]},
        {"type": "lay_off", "tile_id": rnd.choice(own), "group": rnd.randrange(groups + 2),
         "end": rnd.choice(["left", "right", None])},
        {"type": "discard", "tile": rnd.choice(["R7", "F", "K13", "Y1"])},
    ])  # fmt: skip


def _foreign(ctx: Context, seat: int, rnd: random.Random) -> dict:
    """An action naming tiles that are not in ``seat``'s rack (another seat's, the
    deck's, a public one)."""
    foreign = ctx.foreign_ids(seat) + ctx.public_ids()
    tid = rnd.choice(foreign)
    own = ctx.own_ids(seat)
    cells = [None] * CELLS
    for i, t in enumerate(own[: CELLS - 1]):
        cells[i] = t
    cells[-1] = tid
    return rnd.choice([
        {"type": "discard", "tile_id": tid},
        {"type": "move", "tile_id": tid, "to": rnd.randrange(CELLS)},
        {"type": "lay_off", "tile_id": tid, "group": 0},
        {"type": "open", "group_ids": [[tid, *own[:2]]]},
        {"type": "new_groups", "group_ids": [rnd.sample(foreign, 3)]},
        {"type": "layout", "cells": cells, "separators": []},
    ])  # fmt: skip


KINDS = [
    "legal", "legal", "legal", "legal", "wrong_time", "foreign", "mutated", "mutated",
    "version", "json", "text", "binary", "oversized", "nested", "raw_number", "control",
    "unknown",
]  # fmt: skip
OPS = ["set", "delete", "add", "type", "nest"]
TEMPLATES = [
    '{"type":"action","action":{"type":"draw"},"version":%s}',
    '{"type":"action","action":{"type":"move","tile_id":%%(tid)s,"to":%s}}',
    '{"type":"action","action":{"type":"lay_off","tile_id":%%(tid)s,"group":%s}}',
    '{"type":"action","action":{"type":"separator","at":%s}}',
    '{"type":%s}',
]
OPENERS = {"[": "]", '{"a":': "}", '{"type":"action","action":': "}"}
CONTROLS = [{"type": "sync"}, {"type": "ping"}, {"type": "SYNC"}, {"type": "ping", "x": 1},
            {"type": ["ping"]}]  # fmt: skip
BROKEN_TEXT = ['{"type":"action"', '{"type":"action","action":{', "{}}", '{"type": "sync"} x',
               '\x00{"type":"ping"}', "[]", '""', ""]  # fmt: skip
# Versions relative to the current one, or absolute junk.
BAD_VERSIONS = [("rel", -1), ("rel", 1), ("rel", -1000), ("abs", -1), ("abs", 0),
                ("abs", 10**30), ("abs", -(10**30)), ("abs", True), ("abs", False),
                ("abs", "1"), ("str", None), ("float", None), ("list", None)]  # fmt: skip


@st.composite
def recipes(draw) -> dict:
    """What hypothesis draws: a recipe whose shape depends only on drawn values, never
    on the match (hypothesis insists on that); ``realize`` turns it into a frame with
    the state of the moment."""
    r = {
        "seed": draw(st.integers(0, 2**32 - 1)),
        "seat": draw(st.integers(0, 3)),
        "kind": draw(st.sampled_from(KINDS)),
        "good_version": draw(st.booleans()),
    }
    kind = r["kind"]
    if kind == "mutated":
        r["from_legal"] = draw(st.booleans())
        r["ops"] = draw(st.lists(
            st.tuples(st.sampled_from(OPS), st.integers(0, 63), st.text(max_size=10),
                      json_values),
            min_size=1, max_size=3,
        ))  # fmt: skip
        r["beside"] = draw(st.none() | st.tuples(st.text(max_size=6), json_values))
    elif kind == "version":
        r["bad"] = draw(st.one_of(st.sampled_from(BAD_VERSIONS),
                                  json_values.map(lambda v: ("abs", v))))  # fmt: skip
    elif kind == "json":
        r["value"] = draw(json_values)
        r["wrap"] = draw(st.none() | st.tuples(junk_types, json_values))
    elif kind == "text":
        r["text"] = draw(st.one_of(
            st.text(max_size=200),
            st.text(st.characters(codec="utf-8"), max_size=50),
            st.sampled_from(HOSTILE_STRINGS),
            st.sampled_from(BROKEN_TEXT),
        ))  # fmt: skip
    elif kind == "binary":
        r["data"] = draw(st.one_of(st.binary(max_size=64), st.just(b'{"type":"ping"}'),
                                   st.just(b"\xff\xfe\x00")))  # fmt: skip
    elif kind == "oversized":
        r["extra"] = draw(st.integers(-3, 5000))
        r["filler"] = draw(st.sampled_from(["x", "ş", "🀄"]))
    elif kind == "nested":
        r["depth"] = draw(st.integers(50, 8000))
        r["opener"] = draw(st.sampled_from(sorted(OPENERS)))
    elif kind == "raw_number":
        r["token"] = draw(st.sampled_from(RAW_NUMBERS))
        r["template"] = draw(st.sampled_from(TEMPLATES))
    elif kind == "control":
        r["msg"] = draw(st.sampled_from(CONTROLS))
    elif kind == "unknown":
        r["type"] = draw(junk_types)
    return r


def _mutate(base: dict, ops) -> dict:
    action = dict(base)
    for op, index, key, value in ops:
        keys = sorted(action)
        if op == "set" and keys:
            action[keys[index % len(keys)]] = value
        elif op == "delete" and keys:
            action.pop(keys[index % len(keys)])
        elif op == "add":
            action[key] = value
        elif op == "type":
            action["type"] = value
        elif op == "nest":
            action = {"type": action.get("type"), "action": action}
    return action


def _message(action, version) -> dict:
    msg: dict = {"type": "action", "action": action}
    if version is not _MISSING:
        msg["version"] = version
    return msg


_MISSING = object()


def _bad_version(bad, ctx: Context):
    how, value = bad
    if how == "rel":
        return ctx.version + value
    if how == "str":
        return str(ctx.version)
    if how == "float":
        return float(ctx.version)
    if how == "list":
        return [ctx.version]
    return value


def realize(r: dict, ctx: Context) -> tuple[int, str | bytes, str]:
    """One frame from a recipe and the state now: (seat, payload, kind)."""
    rnd = random.Random(r["seed"])
    seat, kind = r["seat"], r["kind"]
    version = ctx.version if r["good_version"] else _MISSING
    needs_legal = kind in ("legal", "mutated", "version", "oversized")
    legal = _legal(ctx, rnd) if needs_legal else None
    if kind == "legal":
        if legal is not None:
            return legal[0], json.dumps(_message(legal[1], version)), kind
        kind = "wrong_time"
    if kind == "wrong_time":
        return seat, json.dumps(_message(_wrong_time(ctx, seat, rnd), version)), kind
    if kind == "foreign":
        return seat, json.dumps(_message(_foreign(ctx, seat, rnd), version)), kind
    if kind == "mutated":
        if legal is not None and r["from_legal"]:
            seat, base = legal
        else:
            base = _wrong_time(ctx, seat, rnd)
        msg = _message(_mutate(base, r["ops"]), version)
        if r["beside"] is not None:
            msg[r["beside"][0]] = r["beside"][1]  # junk beside the action
        return seat, json.dumps(msg), kind
    if kind == "version":
        seat, action = legal if legal is not None else (seat, _wrong_time(ctx, seat, rnd))
        return seat, json.dumps(_message(action, _bad_version(r["bad"], ctx))), kind
    if kind == "json":
        value = r["value"]
        if r["wrap"] is not None:
            value = {"type": r["wrap"][0], "action": value, "version": r["wrap"][1]}
        return seat, json.dumps(value), kind
    if kind == "text":
        return seat, r["text"], kind
    if kind == "binary":
        return seat, r["data"], kind
    if kind == "oversized":
        seat, action = legal if legal is not None else (seat, {"type": "draw"})
        msg = _message(action, version)
        base = len(json.dumps({**msg, "pad": ""}, ensure_ascii=False).encode())
        unit = len(r["filler"].encode())
        count = max(0, (MAX_BYTES - base + r["extra"]) // unit)
        msg["pad"] = r["filler"] * count  # around the limit, either side of it
        return seat, json.dumps(msg, ensure_ascii=False), kind
    if kind == "nested":
        opener, depth = r["opener"], r["depth"]
        text = opener * depth + "1" + OPENERS[opener] * depth
        if len(text.encode()) > MAX_BYTES:
            text = opener * depth  # unbalanced, maybe too large: an error either way
        return seat, text, kind
    if kind == "raw_number":
        ids = ctx.own_ids(seat) if ctx.hand else []
        text = r["template"] % r["token"]
        return seat, text % {"tid": json.dumps(ids[0] if ids else "x")}, kind
    if kind == "control":
        return seat, json.dumps(r["msg"]), kind
    msg = {"type": r["type"]}
    if msg["type"] in ("action", "sync", "ping"):
        msg["type"] = "fly"
    return seat, json.dumps(msg), kind


# --- the oracle's model of the consumer's input handling -------------------------------


def classify(payload) -> str:
    """What the consumer must answer, from its documented protocol: ``error`` (exactly
    one error frame), ``sync`` (a snapshot), ``ping`` (a pong) or ``action`` (an error
    frame, or accepted)."""
    if isinstance(payload, bytes):
        return "error"
    if len(payload.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        return "error"
    try:
        msg = json.loads(payload)
    except (ValueError, RecursionError):
        return "error"
    if not isinstance(msg, dict):
        return "error"
    kind = msg.get("type")
    if kind in ("sync", "ping"):
        return kind
    if kind == "action":
        return "action"
    return "error"


class FuzzFailure(AssertionError):
    pass


@dataclass
class Stats:
    frames: int = 0
    accepted: int = 0
    errors: int = 0
    crashes: int = 0
    lost_tiles: int = 0
    hands: int = 0
    matches: int = 0
    kinds: Counter = field(default_factory=Counter)
    codes: Counter = field(default_factory=Counter)
    started: float = field(default_factory=time.monotonic)

    def line(self) -> str:
        secs = time.monotonic() - self.started
        return (
            f"{self.frames} frames in {secs:.1f} s ({self.frames / max(secs, 1e-9):.0f}/s): "
            f"{self.accepted} accepted, {self.errors} error frames, {self.crashes} crashes, "
            f"{self.lost_tiles} lost tiles; {self.hands} hands over in {self.matches} "
            f"matches"
        )


class Harness:
    """Four seats' sockets on one match at a time (a finished match is replaced)."""

    def __init__(self, users, cookies, loop: asyncio.AbstractEventLoop, tasks: int = 5,
                 seed: str = "fuzz"):  # fmt: skip
        self.users = users
        self.cookies = cookies
        self.loop = loop
        self.tasks = tasks
        self.seed = seed
        self.stats = Stats()
        self.comms: list = []
        self.match_id: int | None = None
        self.between_frames = 0
        self.on_frame = None  # called after each checked frame (progress reports)
        self.last: list = []  # the last frames sent, for a failure report
        self.failure: FuzzFailure | None = None

    # -- match lifecycle (sync: ORM in the caller's thread, outside the loop) -------------
    def new_match(self) -> None:
        if self.comms:
            self.finish_match()
        self.match_accepted = 0
        m = services.match_create(
            game="kut",
            options={"tasks": self.tasks}, users=list(self.users), rated=False,
            seed=f"{self.seed}-{self.stats.matches}")  # fmt: skip
        self.match_id = m.pk
        self.stats.matches += 1
        self.comms = self.loop.run_until_complete(self._connect_all())
        self._check_tiles(self._read(), "the first deal")

    async def _connect_all(self):
        from tests.game.conftest import connect

        comms = []
        for seat in range(4):
            comm, ok, code = await connect(self.match_id, self.cookies[seat])
            if not ok:
                raise FuzzFailure(f"seat {seat} could not connect (close code {code})")
            comms.append(comm)
        return comms

    def finish_match(self) -> None:
        """The log holds exactly the accepted frames, contiguous; replay == state."""
        self.loop.run_until_complete(self._disconnect_all())
        m = Match.objects.get(pk=self.match_id)
        shared = m.actions.filter(layout_version=0)  # private layout rows keep the version
        versions = list(shared.order_by("version").values_list("version", flat=True))
        if versions != list(range(1, m.version + 1)):
            raise FuzzFailure(f"match {m.pk}: log versions not contiguous: {versions[:20]}…")
        humans = m.actions.filter(actor=MatchAction.Actor.HUMAN).count()
        if humans != self.match_accepted:
            raise FuzzFailure(f"{humans} human log rows but {self.match_accepted} accepted")
        if services.match_replay(m).to_dict() != MatchState.from_dict(m.state).to_dict():
            raise FuzzFailure(f"match {m.pk}: replaying the log does not give the state")
        self.comms = []

    async def _disconnect_all(self):
        for comm in self.comms:
            await comm.disconnect()

    # -- one frame ------------------------------------------------------------------------
    def context(self) -> Context:
        """The state to draw the next frame from (the last frame's reading of it)."""
        m = self.row
        if m.status == Match.Status.FINISHED:
            self.new_match()
            return self.context()
        if m.status == Match.Status.BETWEEN:
            self.between_frames += 1
            if self.between_frames > 3:  # a few frames between hands, then deal
                services.match_next_hand(m.pk, m.version, force=True)
                self.between_frames = 0
                self._check_tiles(self._read(), "the next hand's deal")
                return self.context()
        return Context(m.pk, m.version, m.status, MatchState.from_dict(m.state))

    def _read(self) -> Match:
        self.row = Match.objects.only("version", "status", "state").get(pk=self.match_id)
        self.version = self.row.version
        self.state = self.row.state
        self.layouts = list(
            MatchSeat.objects.filter(match_id=self.match_id)
            .order_by("seat")
            .values_list("layout_version", flat=True)
        )
        return self.row

    def start(self) -> None:
        self.new_match()

    def step(self, seat: int, payload, kind: str) -> None:
        """Send one frame and check everything.  After a failure nothing more is sent:
        hypothesis runs a failing example again to report it, and the report must name
        the frame that failed, not the next one."""
        if self.failure is not None:
            raise self.failure
        try:
            self._step(seat, payload, kind)
        except FuzzFailure as exc:
            self.failure = exc
            raise

    def _step(self, seat: int, payload, kind: str) -> None:
        stats = self.stats
        self.last = (self.last + [(seat, kind, payload)])[-30:]
        expect = classify(payload)
        before = self.version
        layouts_before = list(self.layouts)
        was_over = self._hand_over(self.state)
        state_before = self.state
        replies = self.loop.run_until_complete(self._exchange(seat, payload, expect))
        m = self._read()
        errors = [f for f in replies if f.get("type") == "error"]
        states = [f for f in replies if f.get("type") == "state"]
        stats.frames += 1
        stats.kinds[kind] += 1
        for e in errors:
            stats.codes[e["code"]] += 1
        stats.errors += len(errors)
        delta = m.version - before
        layout_delta = [a - b for a, b in zip(self.layouts, layouts_before, strict=True)]
        where = f"frame {stats.frames} ({kind}, seat {seat}): {_short(payload)}"
        if any(e.get("code") == "server_error" for e in errors):
            stats.crashes += 1
            raise FuzzFailure(f"server_error (an exception in the server) on {where}")
        if any(not e.get("message") for e in errors):
            raise FuzzFailure(f"an error frame without a message on {where}: {errors}")
        if any(layout_delta) and (delta or layout_delta[seat] != 1 or sum(layout_delta) != 1):
            raise FuzzFailure(f"layout versions moved by {layout_delta} on {where}")
        if delta == 0 and layout_delta[seat] == 1:
            # issue 16: a private rack layout: accepted without a new shared version (that
            # no other seat gets a frame of it: tests/security/test_issue16_live.py; here
            # the bots' frames of the step before may still arrive late)
            if expect != "action" or errors:
                raise FuzzFailure(f"layout moved with errors {errors} on {where}")
            stats.accepted += 1
            self.match_accepted += 1
        elif delta == 1:
            if expect != "action" or errors:
                raise FuzzFailure(f"version moved with errors {errors} on {where}")
            stats.accepted += 1
            self.match_accepted += 1
        elif delta == 0:
            if m.state != state_before:
                raise FuzzFailure(f"state changed without a new version on {where}")
            if expect in ("error", "action") and len(errors) != 1:
                raise FuzzFailure(f"{len(errors)} error frames (want 1) on {where}: {errors}")
            if expect == "sync" and (errors or not states):
                raise FuzzFailure(f"sync without a snapshot on {where}: {replies}")
            if expect == "ping" and errors:
                raise FuzzFailure(f"ping answered with {errors} on {where}")
        else:
            raise FuzzFailure(f"version moved by {delta} on {where}")
        ms = self._check_tiles(m, where)
        if ms.hand.over and not was_over:
            stats.hands += 1
        if self.on_frame is not None:
            self.on_frame()

    def _check_tiles(self, m: Match, where: str) -> MatchState:
        ms = MatchState.from_dict(m.state)
        tiles = all_tiles(ms.hand)
        if sorted(tiles) != list(range(NUM_TILES)):
            self.stats.lost_tiles += abs(NUM_TILES - len(set(tiles))) or 1
            raise FuzzFailure(f"tiles not accounted for after {where}")
        return ms

    def dump(self, path) -> None:
        """The failing match (seed, state, log) and the last frames, as JSON."""
        m = Match.objects.get(pk=self.match_id)
        log = list(m.actions.order_by("version").values("version", "seat", "kind", "payload",
                                                         "actor"))  # fmt: skip
        data = {"seed": m.seed, "status": m.status, "version": m.version, "state": m.state,
                "log": log, "last_frames": [[s, k, repr(p)[:2000]] for s, k, p in self.last]}  # fmt: skip
        with open(path, "w") as fh:
            json.dump(data, fh, default=str)

    @staticmethod
    def _hand_over(state) -> bool:
        ms = MatchState.from_dict(state)
        return bool(ms.hand and ms.hand.over)

    async def _exchange(self, seat: int, payload, expect: str) -> list[dict]:
        """Send the frame, then a ping; everything this socket gets up to the pong(s)
        is the frame's answer.  The other sockets' queues are drained (and checked for
        closes) so that they never grow."""
        comm = self.comms[seat]
        # the raw ASGI event: empty frames are valid websocket frames too
        key = "bytes" if isinstance(payload, bytes) else "text"
        await comm.send_input({"type": "websocket.receive", key: payload})
        await comm.send_to(text_data='{"type":"ping"}')
        want = 2 if expect == "ping" else 1
        pongs = 0
        replies: list[dict] = []
        deadline = time.monotonic() + REPLY_TIMEOUT
        while pongs < want:
            left = deadline - time.monotonic()
            if left <= 0:
                raise FuzzFailure(f"no pong from seat {seat} in {REPLY_TIMEOUT} s")
            frame = await _next(comm, left, seat)
            if frame.get("type") == "pong":
                pongs += 1
            else:
                replies.append(frame)
        for other, c in enumerate(self.comms):
            if other != seat:
                await _drain(c, other)
        return replies


async def _next(comm, timeout: float, seat: int) -> dict:
    try:
        out = await comm.receive_output(timeout=timeout)
    except TimeoutError:
        raise FuzzFailure(f"seat {seat}: no answer in {timeout:.0f} s") from None
    if out["type"] == "websocket.close":
        raise FuzzFailure(f"seat {seat}: the server closed the socket ({out.get('code')})")
    return json.loads(out["text"])


async def _drain(comm, seat: int) -> None:
    while not comm.output_queue.empty():
        out = comm.output_queue.get_nowait()
        if out["type"] == "websocket.close":
            raise FuzzFailure(f"seat {seat}: the server closed the socket ({out.get('code')})")
        frame = json.loads(out["text"])
        if frame.get("type") == "error":
            raise FuzzFailure(f"seat {seat} got an error it did not cause: {frame}")


def _short(payload, n: int = 300) -> str:
    text = repr(payload)
    return text if len(text) <= n else text[:n] + f"… ({len(payload)} long)"


def unlimited_rates(patch) -> None:
    """The fuzzer tests input handling, not the flood limits (tested on their own):
    ``patch(module, name, value)`` lifts both."""
    patch(consumers, "RATE_PER_SECOND", 1e9)
    patch(consumers, "RATE_BURST", 1e9)
    if hasattr(consumers, "USER_RATE_LIMIT"):
        patch(consumers, "USER_RATE_LIMIT", 10**9)


def run_fuzz(harness: Harness, total: int, batch: int = 25, seed: int | None = None) -> Stats:
    """Drive ``total`` frames through ``harness`` with hypothesis (``batch`` frames per
    example; no shrinking: the match lives on between examples)."""
    from hypothesis import HealthCheck, Phase, given, settings

    examples = max(1, -(-total // batch))

    @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(st.data())
    def batch_of_frames(data):
        # all of a batch is drawn first: what hypothesis draws never depends on the match
        batch_recipes = data.draw(st.lists(recipes(), min_size=batch, max_size=batch))
        for recipe in batch_recipes:
            if harness.stats.frames >= total:
                return
            harness.step(*realize(recipe, harness.context()))

    if seed is not None:
        from hypothesis import seed as hyp_seed

        batch_of_frames = hyp_seed(seed)(batch_of_frames)
    harness.start()
    batch_of_frames()
    while harness.stats.frames < total:  # hypothesis may stop early: go on
        batch_of_frames()
    harness.finish_match()
    return harness.stats


DB_THREADS = 4


def new_loop() -> asyncio.AbstractEventLoop:
    """An event loop whose thread pool (the consumers' ``thread_sensitive=False``
    database calls) has a known size, so ``close_loop`` can close every thread's
    database connection."""
    loop = asyncio.new_event_loop()
    loop.set_default_executor(ThreadPoolExecutor(max_workers=DB_THREADS))
    return loop


def close_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel what the in-process sockets left running, then close the loop."""
    pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
    for task in pending:
        task.cancel()
    if pending:
        loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
    loop.run_until_complete(loop.shutdown_asyncgens())
    # the database connections of the thread the consumers' thread-sensitive calls use
    SyncToAsync.single_thread_executor.submit(connections.close_all).result(timeout=30)
    barrier = threading.Barrier(DB_THREADS, timeout=30)

    def close_this_thread():  # one call per pool thread: each waits for the others
        barrier.wait()
        connections.close_all()

    calls = [loop.run_in_executor(None, close_this_thread) for _ in range(DB_THREADS)]
    loop.run_until_complete(asyncio.gather(*calls, return_exceptions=True))
    loop.run_until_complete(loop.shutdown_default_executor())
    loop.close()
