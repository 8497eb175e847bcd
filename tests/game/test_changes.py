"""Change frames (issue 22, ``game.changes`` and ``static/js/frames.js``).

The property: a client that applies the change frames ends with exactly the snapshot's
view after every move of a recorded match — for every seat and for the watchers, for
KÜT, KDVli and King, in the Python mirror and in the real JavaScript (node).  The
matches are played through the one service path (``game.services``) and every frame is
the snapshot ``game.frames`` builds from the database at that moment; the change frames
are made by the server's own code (``changes.entry``, as ``MatchConsumer`` does)."""

from __future__ import annotations

import copy
import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import orjson
import pytest

from game import changes, services
from game.engine import registry
from game.frames import frame_parts, frame_text, match_frame
from game.models import Match, MatchAction

_TIME = re.compile(r'"server_time":\d+')
ROOT = Path(__file__).resolve().parents[2]
FRAMES_JS = ROOT / "static" / "js" / "frames.js"


def _timeless(frame: dict) -> bytes:
    match = {k: v for k, v in frame["match"].items() if k != "server_time"}
    return canon({**frame, "match": match})


def canon(frame) -> bytes:
    """Strict JSON equality (key order aside; 1, 1.0 and true differ)."""
    return orjson.dumps(frame, option=orjson.OPT_SORT_KEYS)


# --- the diff on its own ---------------------------------------------------------------


def _mutate(value, rng: random.Random, depth=0):
    """A random edit of a JSON value (what a move may do to a frame)."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        out = dict(value)
        k = rng.choice(list(out))
        r = rng.random()
        if r < 0.15:
            del out[k]
        elif r < 0.3:
            out[f"n{rng.randrange(5)}"] = rng.choice([None, 0, False, "x", [1], {"a": 1}])
        else:
            out[k] = _mutate(out[k], rng, depth + 1)
        return out
    if isinstance(value, list) and rng.random() < 0.8:
        out = list(value)
        r = rng.random()
        if r < 0.25:
            out.append(rng.choice([1, "y", {"b": None}]))
        elif r < 0.4 and out:
            out.pop()
        elif r < 0.5 and out:
            out.pop(0)
        elif out:
            i = rng.randrange(len(out))
            out[i] = _mutate(out[i], rng, depth + 1)
        return out
    return rng.choice([None, True, False, 0, 1, 1.5, "", "a", [], {}, [0, 1], {"z": [1, 2]}])


def test_diff_then_apply_gives_the_new_frame_and_leaves_the_old_one_alone():
    rng = random.Random(22)
    frame = {"type": "state", "version": 1, "layout": 0, "me": 0,
             "match": {"seats": [{"n": "a", "c": True}] * 4, "results": [], "t": 1},
             "hand": {"rack": [1, 2, 3], "turn": 0, "pile": [[1, 2], [3]]}}  # fmt: skip
    for step in range(3000):
        new = copy.deepcopy(frame)
        for _ in range(rng.randrange(1, 4)):
            key = rng.choice(["match", "hand", "me"])
            new[key] = _mutate(new.get(key, {}), rng)
        new["version"] = frame["version"] + rng.choice([0, 1])
        new["layout"] = frame["layout"] + (new["version"] == frame["version"])
        before = canon(frame)
        change = json.loads(orjson.dumps(changes.change_frame(frame, new)))
        out = changes.apply_frame(frame, change)
        assert canon(out) == canon(new), (step, change)
        assert canon(frame) == before, "the held frame was changed"
        # the server's way: the pieces of fan-out parts (``changes.entry``)
        memo: dict = {}
        changes.entry(memo, 0, _part(frame))
        text = changes.entry(memo, 0, _part(new)).change_text(memo)
        if text is not None:  # else the full frame goes out
            out = changes.apply_frame(frame, json.loads(text))
            assert canon(out) == canon(new), (step, text)
            assert canon(frame) == before, "the held frame was changed"
        frame = new


def _part(frame: dict) -> list:
    def text(v):
        return orjson.dumps(v).decode()

    return [frame["version"], frame["layout"], text(frame.get("me")),
            changes.pieces(frame.get("match")), changes.pieces(frame.get("hand"))]  # fmt: skip


def test_a_change_on_another_base_or_with_ops_that_do_not_fit_is_refused():
    a = {"type": "state", "version": 3, "layout": 1, "hand": {"rack": [1]}}
    b = {"type": "state", "version": 4, "layout": 1, "hand": {"rack": [1, 2]}}
    change = changes.change_frame(a, b)
    assert change["ops"] == [["a", ["hand", "rack"], [2]]]
    assert changes.apply_frame({**a, "version": 2}, change) is None  # a gap
    assert changes.apply_frame({**a, "layout": 0}, change) is None
    assert changes.apply_frame(None, change) is None  # nothing held (a reconnect)
    bad = {**change, "ops": [["s", ["hand", "nope", "x"], 1]]}
    assert changes.apply_frame(a, bad) is None
    stream = changes.FrameStream()
    assert stream.take(change) is None and stream.misses == 1
    assert canon(stream.take(a)) == canon(a)
    assert canon(stream.take(change)) == canon(b)
    assert stream.take({"type": "error", "code": "x"}) is None


# --- recorded matches through the service path -----------------------------------------


def _play(match: Match, rng: random.Random, on_change) -> int:
    """Play ``match`` to its end with the bots' choices on each seat's own view (the
    seats are humans), with a seat going away and coming back now and then (a frame of
    the same version with new seat labels).  ``on_change`` after every change."""
    spec = registry.get(match.game)
    steps = 0
    for _ in range(5000):
        match.refresh_from_db()
        if match.status in (Match.Status.FINISHED, Match.Status.ABANDONED):
            return steps
        if match.status == Match.Status.BETWEEN:
            services.match_next_hand(match.pk, force=True)
        else:
            st = spec.from_dict(match.state)
            seat = spec.to_act(st)[0]
            view = json.loads(orjson.dumps(spec.view_for(st, seat)))
            action = spec.bot_choose(view, "normal", rng) or {"type": "timeout"}
            services.match_apply_action(match.pk, seat, action, match.version,
                                        actor=MatchAction.Actor.BOT)  # fmt: skip
        steps += 1
        on_change()
        if steps % 23 == 0:  # presence: the same version, other seat labels
            seat = rng.randrange(4)
            services.match_seat_connected(match.pk, seat, steps % 46 != 0)
            on_change()
    raise AssertionError("the match did not end")


REPLAY_JS = """
import { frameStream } from FRAMES_JS;
import { readFileSync, writeFileSync } from "node:fs";
const all = JSON.parse(readFileSync(DATA, "utf8"));
const out = {};
for (const [part, msgs] of Object.entries(all)) {
  let asked = 0;
  const stream = frameStream(() => { asked += 1; });
  out[part] = msgs.map((text) => stream.take(JSON.parse(text)));
  if (asked) throw new Error(`part ${part}: ${asked} snapshots asked for`);
}
writeFileSync(OUT, JSON.stringify(out));
"""

GAMES = {
    "kut": {"options": {"tasks": 5}},
    "kdvli": {"options": {"hands": 3}},
    "king": {"options": {"length": 4}},
    "kastet": {"options": {"hands": 1}},
    "kelimeki": {"options": {}},
}
MIN_STEPS = {"kelimeki": 25}  # a whole 4-player word game with the bots is short


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(GAMES))
def test_change_frames_rebuild_every_snapshot_of_a_recorded_match(game, players, tmp_path):
    match = services.match_create(
        game=game, users=list(players), rated=False, watchers_allowed=True,
        seed=f"changes-{game}", **GAMES[game],
    )  # fmt: skip
    parts = [0, 1, 2, 3, None]  # the seats and the watchers
    memo: dict = {}  # the server's per-process memo of the topic (one process here)
    sent: dict = dict.fromkeys(range(5))  # what each socket got last
    streams = {i: changes.FrameStream() for i in range(5)}
    messages: dict = {i: [] for i in range(5)}  # what each socket received, for node
    snapshots: dict = {i: [] for i in range(5)}
    sizes = {"full": 0, "change": 0, "n_change": 0, "n_full": 0}

    def on_change():
        m = Match.objects.get(pk=match.pk)
        seats = list(m.seats.select_related("user").order_by("seat"))
        published = frame_parts(m, seats, watchers=True)  # what game.broadcast publishes
        for i, seat in enumerate(parts):
            snapshot = frame_text(match_frame(m, seat, seats))
            text = changes.part_text(published[i])  # the same frame, a moment later
            assert _TIME.sub("", text) == _TIME.sub("", snapshot)
            entry = changes.entry(memo, i, published[i])
            assert entry is not None
            change = entry.change_text(memo) if entry.base is sent[i] and sent[i] else None
            sent[i] = entry
            out = change or text
            messages[i].append(out)
            snapshots[i].append(text)
            if change:
                sizes["change"] += len(change.encode())
                sizes["n_change"] += 1
            else:
                sizes["full"] += len(text.encode())
                sizes["n_full"] += 1
            full = streams[i].take(json.loads(out))
            assert full is not None, f"part {i}: a change did not fit"
            assert canon(full) == canon(json.loads(text)), f"part {i}, message {len(messages[i])}"
            if seat is not None:  # P-1: a change never carries another seat's view
                assert json.loads(out).get("me", seat) == seat

    on_change()  # the first snapshot
    steps = _play(match, random.Random(7), on_change)
    assert steps > MIN_STEPS.get(game, 40)
    assert sizes["n_full"] <= 5 * 3, sizes  # the first frames and rare big changes only
    mean_change = sizes["change"] / sizes["n_change"]
    mean_full = sizes["full"] / sizes["n_full"]
    print(f"\n[changes] {game}: {steps} changes, change frame {mean_change:.0f} B on average, "
          f"snapshot {mean_full:.0f} B")  # fmt: skip
    assert mean_change < mean_full / 3

    # the same messages through the real JavaScript (static/js/frames.js) in node
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed to check static/js/frames.js")
    data = tmp_path / "messages.json"
    data.write_text(json.dumps({str(i): messages[i] for i in range(5)}))
    script = tmp_path / "replay.mjs"
    script.write_text(REPLAY_JS.replace("FRAMES_JS", json.dumps(FRAMES_JS.as_uri()))
                      .replace("DATA", json.dumps(str(data)))
                      .replace("OUT", json.dumps(str(tmp_path / "out.json"))))  # fmt: skip
    subprocess.run([node, str(script)], check=True, timeout=120)
    out = json.loads((tmp_path / "out.json").read_text())
    for i in range(5):
        assert len(out[str(i)]) == len(snapshots[i])
        for n, (got, want) in enumerate(zip(out[str(i)], snapshots[i], strict=True)):
            assert canon(got) == canon(json.loads(want)), f"node, part {i}, message {n}"


# --- over the real socket ----------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_sockets_taking_change_frames_hold_the_snapshot_after_every_move(players):
    """Four seats and a watcher on ``/ws/match/<id>/?frames=change`` (the consumer's own
    change frames, ``MatchConsumer.fanout_deliver``): after every move of a hand each
    socket's frame is exactly the snapshot of that version (``server_time`` aside: the
    moment it was read), and most frames were change frames."""
    from asgiref.sync import sync_to_async

    from games.kut.engine import bots
    from tests.game.conftest import connect, receive, session_cookie

    @sync_to_async
    def setup():
        m = services.match_create(game="kut", options={"tasks": 5}, users=list(players), rated=False,
                                  watchers_allowed=True, seed="changes-socket")  # fmt: skip
        return m.pk, [session_cookie(u) for u in players]

    @sync_to_async
    def snapshots(mid):
        m = Match.objects.get(pk=mid)
        seats = list(m.seats.select_related("user").order_by("seat"))
        return m, [json.loads(frame_text(match_frame(m, s, seats))) for s in (0, 1, 2, 3, None)]

    from django.contrib.auth import get_user_model

    mid, cookies = await setup()
    watcher = await sync_to_async(get_user_model().objects.create_user)(
        username="izleyici", password="kirmizi-yedi-okey-42")  # fmt: skip
    cookies.append(await sync_to_async(session_cookie)(watcher))
    comms, streams, counts = [], [changes.FrameStream() for _ in range(5)], [0, 0]
    for c in cookies:
        comm, ok, _ = await connect(mid, c, query="frames=change")
        assert ok
        comms.append(comm)
    frames: list = [None] * 5

    async def drain(version):
        for i, comm in enumerate(comms):
            while frames[i] is None or frames[i]["version"] < version:
                msg = await receive(comm)
                assert msg["type"] in ("state", "change"), msg
                counts[msg["type"] == "change"] += 1
                full = streams[i].take(msg)
                assert full is not None, f"part {i}: a change that does not fit"
                frames[i] = full

    rng = random.Random(5)
    moves = 0
    m, snaps = await snapshots(mid)
    await drain(m.version)
    for i, comm in enumerate(comms):  # the seats' presence frames (same version) settle
        while not await comm.receive_nothing(timeout=0.5):
            msg = json.loads(await comm.receive_from())
            frames[i] = streams[i].take(msg) or frames[i]
    m, snaps = await snapshots(mid)
    while m.status == Match.Status.PLAYING and moves < 120:
        for i in range(5):
            assert _timeless(frames[i]) == _timeless(snaps[i]), f"part {i}, move {moves}"
        seat = frames[0]["hand"]["turn"]
        action = bots.choose(frames[seat]["hand"], "normal", rng)
        await comms[seat].send_to(text_data=json.dumps(
            {"type": "action", "action": action, "version": m.version}))  # fmt: skip
        await drain(m.version + 1)
        m, snaps = await snapshots(mid)
        moves += 1
    assert moves >= 40 and counts[1] > 4 * counts[0], counts
    for comm in comms:
        await comm.disconnect()
