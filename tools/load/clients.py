"""The scripted websocket clients of the load harness (asyncio + ``websockets``).

One process drives a list of tables; each table is four sockets (one per seat).  Two
kinds of table:

* **game**: ``/ws/match/<id>/`` with a seat's session cookie, one socket per human seat
  of the table's game (its bot seats are played by the server at their real pace).  The
  seat whose turn it is picks its move with its game's bot on its own latest view
  (``tools.load.humans``; bots are pure functions of the view) and sends
  ``{"type": "action", "action": …, "version": v}``.  The action is acknowledged when
  the sender receives a state frame with a version above ``v`` (only the seat on turn
  acts: claims are skipped).  At a table with bots a bot may act out of turn (KÜT's
  claims): an action refused as ``stale_version`` then is a refusal, not an error, and
  the seat looks at the next frame.
* **echo**: ``/ws/echo/<room>/`` on ``tools.load.echo_app``: a message is group-sent to
  the room's four sockets; the seat after the sender sends the next one.  The same
  pacing, the same round-trip and fan-out measures: the bare cost of the stack.

Pacing: **paced** (each table about one action per ``period`` seconds; a table held up
by a slow server catches up at most twice as fast) or
**saturation** (every client acts as soon as it may; game clients keep under the
server's per-socket rate limit, 10 messages/s with a burst of 30, as a human must).

Run by ``tools.load.run`` as ``python -m tools.load.clients SPEC.json OUT.json``: the
spec holds the tables and the timing; the output holds raw latencies and counters, so
that several client processes can be merged.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import sys
import time
from collections import Counter

import orjson
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from game.changes import FrameStream  # pure Python, no Django

# mirrors game.consumers (RATE_PER_SECOND 10, RATE_BURST 30) with a safety margin
RATE_PER_SECOND = 9.0
RATE_BURST = 24.0
ACK_TIMEOUT = 60.0  # an action without its frame for this long is an error
RESYNC_AFTER = 5.0  # an action without its frame for this long: ask for a snapshot
STALL_SYNC = 20.0  # a table with no frame for this long while playing: ask for snapshots
_VERSION = re.compile(r'"version":\s*(\d+)')


class Seat:
    def __init__(self, table: Table, seat: int, url: str, cookie: str | None):
        self.table = table
        self.seat = seat
        self.url = url
        self.cookie = cookie
        self.ws = None
        self.version = -1  # newest version seen
        self.view: dict | None = None  # newest state frame (game)
        self.changed = asyncio.Event()
        self.inflight: tuple[int, float, str, list] | None = None  # (version, t, kind, send)
        self.tokens = RATE_BURST
        self.stamp = time.monotonic()
        self.versions: set[int] = set()
        self.top = -1  # fan-out bookkeeping: newest version counted
        self.planned: tuple[int, dict | None] | None = None  # (version, chosen action)
        self.synced = None  # the in-flight action a sync was sent for
        self.refused_at = -1  # the version at which the server refused our last action
        self.first_version: int | None = None
        self.stream = FrameStream()  # snapshots and change frames -> full frames
        self.stream_waiting = False  # a snapshot was asked for after a change did not fit

    # -- rate limit (saturation mode, game tables) ------------------------------------
    def rate_wait(self) -> float:
        now = time.monotonic()
        self.tokens = min(RATE_BURST, self.tokens + (now - self.stamp) * RATE_PER_SECOND)
        self.stamp = now
        if self.tokens >= 1:
            return 0.0
        return (1 - self.tokens) / RATE_PER_SECOND


class Table:
    def __init__(self, run: Run, spec: dict, index: int):
        self.run = run
        self.id = spec["id"]
        self.index = index
        self.seats = [Seat(self, s["seat"], s["url"], s.get("cookie")) for s in spec["seats"]]
        self.game = spec.get("game", "kut")
        self.has_bots = bool(spec.get("bots"))
        self.top = -1  # the newest version any seat has seen (moves in the window)
        self.rng = random.Random(f"{run.seed}:{self.id}")
        self.next_at = 0.0  # paced: the earliest time of the table's next action
        self.sent: dict[int, float] = {}  # version an action will make -> send time
        self.have: Counter = Counter()  # version -> seats that have it
        self.last_frame = time.monotonic()
        self.status = "playing"
        self.hands_seen: set[int] = set()


class Run:
    def __init__(self, spec: dict):
        self.spec = spec
        self.kind = spec["kind"]  # game | echo
        self.mode = spec["mode"]  # paced | saturation
        self.period = float(spec.get("period", 1.0))
        self.level = spec.get("level", "normal")
        self.seed = spec.get("seed", 1)
        self.echo_pad = "x" * int(spec.get("echo_pad", 0))
        self.tables = [Table(self, t, i) for i, t in enumerate(spec["tables"])]
        self.stop = False  # no new actions
        self.done = False  # the in-flight ones are settled too
        self.window: tuple[float, float] | None = None  # measured interval (monotonic)
        self.rtt: list[float] = []
        self.fanout: list[float] = []
        self.acked: dict[int, list] = {t.id: [] for t in self.tables}
        self.sends: dict[int, list] = {t.id: [] for t in self.tables}  # all sends
        self.actions_in_window = 0
        self.frames = 0
        self.frame_bytes = 0
        self.state_frames = 0
        self.state_bytes = 0
        self.errors: Counter = Counter()
        self.disconnects = 0
        self.connect_failures: list[str] = []
        self.stale_frames = 0
        self.syncs = 0
        self.late_syncs = 0
        self.ack_timeouts = 0
        self.rate_waits = 0
        self.change_frames = 0  # of the state frames, change frames (issue 22)
        self.change_misses = 0  # change frames that did not fit (a snapshot was asked for)
        self.lag: list[float] = []
        self.stale_refusals = 0  # stale_version at tables with bots (expected there)
        self.choose_failures = 0
        self.by_game: dict[str, dict] = {}  # per game: rtt, moves, frames, bytes
        self.choosers: dict = {}
        if self.kind == "game":
            from tools.load import humans

            for game in {t.game for t in self.tables}:
                self.choosers[game] = humans.chooser(game)
            self.levels = {g: humans.level_for(g, spec.get("level")) for g in self.choosers}

    def game_stats(self, game: str) -> dict:
        stats = self.by_game.get(game)
        if stats is None:
            stats = self.by_game[game] = {
                "rtt": [], "moves": 0, "actions": 0, "state_frames": 0, "state_bytes": 0,
                "tables": 0, "finished_tables": 0, "hands": 0,
            }  # fmt: skip
        return stats

    def in_window(self, t: float) -> bool:
        return self.window is not None and self.window[0] <= t <= self.window[1]


# --- receiving --------------------------------------------------------------------------


def _on_version(run: Run, table: Table, seat: Seat, version: int, now: float) -> None:
    """Bookkeeping of a state frame (or echo) of ``version`` received by ``seat``."""
    if seat.first_version is None:
        seat.first_version = version
    if version > table.top:  # every change of the table: human, bot and system moves
        if table.top >= 0 and run.in_window(now) and run.kind == "game":
            run.game_stats(table.game)["moves"] += version - table.top
        table.top = version
    if version in seat.versions:
        return  # the same version again (presence updates, snapshots)
    seat.versions.add(version)
    if version > seat.top:  # the seat now has every state up to ``version``
        for v in range(max(seat.top + 1, version - 64), version + 1):
            sent = table.sent.get(v)
            if sent is None:
                continue
            table.have[v] += 1
            if table.have[v] == len(table.seats):
                if run.in_window(sent):
                    run.fanout.append(now - sent)
                del table.sent[v]
                del table.have[v]
        seat.top = version
    if seat.inflight is not None and version > seat.inflight[0]:
        expected, t0, kind, record = seat.inflight
        record[3] = "acked"
        seat.inflight = None
        run.acked[table.id].append([expected + 1, seat.seat, kind])
        if run.in_window(t0):
            run.rtt.append(now - t0)
            run.actions_in_window += 1
            stats = run.game_stats(table.game)
            stats["rtt"].append(now - t0)
            stats["actions"] += 1


async def reader(run: Run, seat: Seat) -> None:
    table = seat.table
    try:
        async for text in seat.ws:
            now = time.monotonic()
            run.frames += 1
            size = len(text.encode()) if isinstance(text, str) else len(text)
            run.frame_bytes += size
            table.last_frame = now
            if run.kind == "echo":
                m = _VERSION.search(text)
                version = int(m.group(1))
                run.state_frames += 1
                run.state_bytes += size
                if version < seat.version:
                    run.stale_frames += 1
                else:
                    seat.version = version
                _on_version(run, table, seat, version, now)
                seat.changed.set()
                continue
            frame = orjson.loads(text)  # the clients share the machine: parse cheaply
            kind = frame.get("type")
            if kind == "change":  # issue 22: what changed since this socket's last frame
                run.change_frames += 1
                full = seat.stream.take(frame)
                if full is None:  # does not fit: a snapshot instead (once per miss)
                    run.change_misses += 1
                    if not seat.stream_waiting:
                        seat.stream_waiting = True
                        await _send(seat, {"type": "sync"})
                    run.state_frames += 1
                    run.state_bytes += size
                    continue
                frame, kind = full, "state"
            elif kind == "state":
                seat.stream.take(frame)
                seat.stream_waiting = False
            if kind == "state":
                run.state_frames += 1
                run.state_bytes += size
                stats = run.game_stats(table.game)
                stats["state_frames"] += 1
                stats["state_bytes"] += size
                version = frame["version"]
                if frame.get("me") != seat.seat:
                    run.errors["wrong_seat_frame"] += 1
                if version < seat.version:
                    run.stale_frames += 1  # older than what we have: ignored (protocol)
                else:
                    seat.version = version
                    seat.view = frame
                    table.status = frame["match"]["status"]
                    table.hands_seen.add(frame["match"]["hand_no"])
                _on_version(run, table, seat, version, now)
                seat.changed.set()
            elif kind == "error":
                code = frame.get("code", "?")
                if code == "stale_version" and table.has_bots:
                    run.stale_refusals += 1  # a bot acted first (a claim): look again
                else:
                    run.errors[code] += 1
                seat.refused_at = seat.version
                if seat.inflight is not None:
                    seat.inflight[3][3] = "refused"  # nothing of it is stored
                    seat.inflight = None
                seat.changed.set()
    except ConnectionClosed:
        pass
    if not run.stop:
        run.disconnects += 1


# --- acting -----------------------------------------------------------------------------


def _next_game_action(run: Run, table: Table, seat: Seat) -> dict | None:
    """The seat's move chosen by its game's bot on its latest view (once per version)."""
    from tools.load.humans import my_turn

    frame = seat.view
    if frame is None or frame["match"]["status"] != "playing":
        return None
    hand = frame.get("hand")
    if not my_turn(hand, seat.seat) or seat.refused_at == frame["version"]:
        return None
    if seat.planned is None or seat.planned[0] != frame["version"]:
        try:
            action = run.choosers[table.game](hand, run.levels[table.game], table.rng)
        except Exception:  # noqa: BLE001 - a client's bot failing is counted, not fatal
            run.choose_failures += 1
            action = None
        seat.planned = (frame["version"], action)
    return seat.planned[1]


async def actor(run: Run, seat: Seat) -> None:
    table = seat.table
    n = len(table.seats)
    while not run.stop:
        await seat.changed.wait()
        seat.changed.clear()
        while not run.stop and seat.inflight is None:
            version = seat.version
            if run.kind == "echo":
                if (version + 1) % n != seat.seat:
                    break
            elif _next_game_action(run, table, seat) is None:
                break
            if run.mode == "paced":
                delay = table.next_at - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
            elif run.kind == "game":
                wait = seat.rate_wait()
                if wait > 0:
                    run.rate_waits += 1
                    await asyncio.sleep(wait)
                    continue
            if run.stop or seat.version != version:
                continue  # something changed while we waited: look again
            if run.kind == "echo":
                kind = "echo"
                text = json.dumps({"version": version + 1, "seat": seat.seat, "pad": run.echo_pad})
            else:
                action = _next_game_action(run, table, seat)
                if action is None:
                    break
                kind = action.get("type", "?")
                text = json.dumps({"type": "action", "action": action, "version": version})
            now = time.monotonic()
            table.next_at = max(table.next_at + run.period, now + run.period * 0.5)
            seat.tokens -= 1
            record = [version + 1, seat.seat, kind, "sent"]
            run.sends[table.id].append(record)
            seat.inflight = (version, now, kind, record)
            table.sent[version + 1] = now
            try:
                await seat.ws.send(text)
            except ConnectionClosed:
                return


async def watchdog(run: Run) -> None:
    """What a real client does when frames go missing (channel layers may drop them):
    an action whose frame has not come after ``RESYNC_AFTER`` gets one ``sync`` (the
    snapshot acknowledges it if it was applied; the echo sends its message again); a table
    silent for ``STALL_SYNC`` while playing asks for snapshots.  An action unacknowledged
    after ``ACK_TIMEOUT`` is an error.  Runs until the end, in-flight actions included."""
    while not run.done:
        await asyncio.sleep(0.5)
        now = time.monotonic()
        for table in run.tables:
            for seat in table.seats:
                flight = seat.inflight
                if flight is None:
                    continue
                if now - flight[1] > ACK_TIMEOUT:
                    run.ack_timeouts += 1
                    flight[3][3] = "timed_out"
                    seat.inflight = None
                    seat.changed.set()
                elif now - flight[1] > RESYNC_AFTER and seat.synced is not flight:
                    seat.synced = flight
                    run.late_syncs += 1
                    if run.kind == "game":
                        await _send(seat, {"type": "sync"})
                    else:  # the echo has no snapshot: send the message again
                        again = {"version": flight[0] + 1, "seat": seat.seat, "pad": run.echo_pad}
                        await _send(seat, again)
            if (
                not run.stop
                and run.kind == "game"
                and table.status == "playing"
                and now - table.last_frame > STALL_SYNC
            ):
                table.last_frame = now
                for seat in table.seats:
                    run.syncs += 1
                    await _send(seat, {"type": "sync"})


async def _send(seat: Seat, msg: dict) -> None:
    try:
        await seat.ws.send(json.dumps(msg))
    except ConnectionClosed:
        pass


async def lag_probe(run: Run) -> None:
    """How late this client's event loop runs a 50 ms timer (client saturation)."""
    while not run.stop:
        t = time.monotonic()
        await asyncio.sleep(0.05)
        late = time.monotonic() - t - 0.05
        if run.in_window(t):
            run.lag.append(late)


# --- the run ----------------------------------------------------------------------------


async def _open(run: Run, seat: Seat, sem: asyncio.Semaphore) -> None:
    headers = {}
    if seat.cookie:
        headers["Cookie"] = f"{run.spec.get('cookie_name', 'sessionid')}={seat.cookie}"
    async with sem:
        for attempt in range(5):
            try:
                seat.ws = await ws_connect(
                    seat.url, origin="http://127.0.0.1", additional_headers=headers,
                    proxy=None, open_timeout=60, close_timeout=5, compression=None,
                    max_queue=None, ping_interval=None,
                )  # fmt: skip
                return
            except (OSError, TimeoutError, ConnectionClosed, Exception) as exc:  # noqa: BLE001
                if attempt == 4:
                    run.connect_failures.append(f"{seat.url}: {exc!r}")
                    return
                await asyncio.sleep(1.0 * (attempt + 1))


async def drive(spec: dict) -> dict:
    run = Run(spec)
    seats = [s for t in run.tables for s in t.seats]
    sem = asyncio.Semaphore(int(spec.get("connect_concurrency", 8)))
    t_connect = time.monotonic()
    await asyncio.gather(*(_open(run, s, sem) for s in seats))
    connect_seconds = time.monotonic() - t_connect
    live = [s for s in seats if s.ws is not None]
    readers = [asyncio.create_task(reader(run, s)) for s in live]
    if run.kind == "echo":
        await asyncio.sleep(0.5)  # group_add done before the first message
    # every seat has its first snapshot (game), then wait for the common start time
    deadline = time.monotonic() + 60
    while run.kind == "game" and any(s.version < 0 for s in live):
        if time.monotonic() > deadline:
            break
        await asyncio.sleep(0.05)
    # tell the harness we are connected, then wait for its common start time
    if spec.get("ready_path"):
        with open(spec["ready_path"], "w") as f:
            f.write("ready")
    if spec.get("go_path"):
        while not os.path.exists(spec["go_path"]):
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.01)
        with open(spec["go_path"]) as f:
            start_at = float(f.read().strip() or 0)
        await asyncio.sleep(max(0.0, start_at - time.time()))
    t0 = time.monotonic()
    warmup = float(spec.get("warmup", 2.0))
    seconds = float(spec["seconds"])
    run.window = (t0 + warmup, t0 + warmup + seconds)
    for table in run.tables:
        table.next_at = t0 + table.rng.random() * run.period  # spread the tables
        table.last_frame = t0
    actors = [asyncio.create_task(actor(run, s)) for s in live]
    helpers = [asyncio.create_task(watchdog(run)), asyncio.create_task(lag_probe(run))]
    if run.kind == "echo":
        for table in run.tables:  # seat 0 sends message 0 ((-1 + 1) % 4 == 0)
            table.seats[0].changed.set()
    else:
        for s in live:
            s.changed.set()
    cpu0 = os.times()
    await asyncio.sleep(max(0.0, run.window[1] - time.monotonic()))
    cpu1 = os.times()
    run.stop = True
    for s in live:
        s.changed.set()
    # let in-flight actions come back (they count for the lost/duplicate check)
    end = time.monotonic() + ACK_TIMEOUT
    while any(s.inflight for s in live) and time.monotonic() < end:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)
    unacked = sum(1 for s in live if s.inflight)
    run.done = True
    for task in actors + helpers:
        task.cancel()
    await asyncio.gather(*(s.ws.close() for s in live), return_exceptions=True)
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, *actors, *helpers, return_exceptions=True)
    missed = 0
    for t in run.tables:
        if run.kind == "game":
            stats = run.game_stats(t.game)
            stats["tables"] += 1
            stats["finished_tables"] += t.status not in ("playing", "between")
            stats["hands"] += max(0, len(t.hands_seen) - 1)
        for s in t.seats:
            if s.first_version is not None and s.versions:
                top = max(s.versions)
                missed += sum(1 for v in range(s.first_version, top + 1) if v not in s.versions)
    return {
        "kind": run.kind,
        "mode": run.mode,
        "tables": len(run.tables),
        "sockets": len(live),
        "connect_seconds": connect_seconds,
        "connect_failures": run.connect_failures,
        "seconds": seconds,
        "rtt": run.rtt,
        "fanout": run.fanout,
        "actions_in_window": run.actions_in_window,
        "acked": {str(k): v for k, v in run.acked.items()},
        "sends": {str(k): v for k, v in run.sends.items()},
        "frames": run.frames,
        "frame_bytes": run.frame_bytes,
        "state_frames": run.state_frames,
        "state_bytes": run.state_bytes,
        "errors": dict(run.errors),
        "disconnects": run.disconnects,
        "stale_frames": run.stale_frames,
        "missed_frames": missed,
        "syncs": run.syncs,
        "late_syncs": run.late_syncs,
        "ack_timeouts": run.ack_timeouts,
        "unacked_at_end": unacked,
        "rate_waits": run.rate_waits,
        "change_frames": run.change_frames,
        "change_misses": run.change_misses,
        "loop_lag": run.lag,
        "client_cpu_seconds": (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system),
        "finished_tables": sum(1 for t in run.tables if t.status not in ("playing", "between")),
        "hands": sum(max(0, len(t.hands_seen) - 1) for t in run.tables),
        "stale_refusals": run.stale_refusals,
        "choose_failures": run.choose_failures,
        "by_game": run.by_game,
        "tops": {str(t.id): t.top for t in run.tables},  # the newest version seen
    }


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        print("usage: python -m tools.load.clients SPEC.json OUT.json", file=sys.stderr)
        return 2
    with open(argv[0]) as f:
        spec = json.load(f)
    result = asyncio.run(drive(spec))
    with open(argv[1], "w") as f:
        json.dump(result, f)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
