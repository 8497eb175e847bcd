"""K-C5 across processes: the two eligible players claim the same thrown tile at the
same instant, each through a different daphne process.  PostgreSQL decides (row lock
plus version): exactly one claim wins, the other gets an error frame, all 106 tiles
are still there — every time.

The same races against deliberately broken variants of the service (the row lock
removed) go wrong, which shows that the claims really overlap and that these checks
catch a missing lock.
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter

import pytest
from django.db import connection

from game import rows, services
from game.models import Match, MatchAction
from games.kut.engine.match import MatchState
from games.kut.engine.views import can_claim
from games.okey.engine.tiles import NUM_TILES
from tests.game.conftest import session_cookie
from tests.game.races import in_threads
from tests.games.kut.engine.test_properties import all_tiles

# The fixtures come from livestack as a plugin; its asserts are rewritten like a test's.
pytest.register_assert_rewrite("tests.game.livestack")
from tests.game.livestack import (  # noqa: E402 (after the rewrite registration)
    Daphne,
    Player,
    close_all,
    live_database_url,
    open_players,
    requires_services,
    site_env,
    wait_all,
)

pytest_plugins = ["tests.game.livestack"]  # daphne_stack, daphnes, private_layer
pytestmark = [requires_services, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

TRIALS = 100  # the real service, two processes: every race must be clean
UNLOCKED_PROCESS_TRIALS = 8  # A against a process without the row lock (stops at 2 bad)
# Two threads in this process: at most this many races per broken variant, stopping
# once ENOUGH of them went wrong the way the variant predicts.
THREAD_TRIALS = 20
ENOUGH = 3
CLAIM = {"type": "claim"}
PING = {"type": "ping"}


def _stored(match_id: int):
    m = Match.objects.get(pk=match_id)
    return m, MatchState.from_dict(m.state).hand


def _first_tile(hand, seat: int) -> str:
    return hand.ids[hand.racks[seat].tiles()[0]]


def next_position(match_id: int, act):
    """Play on to the next claim race: the seat whose turn it is (in its play phase)
    discards, the next seat T draws instead of taking that tile, which is then
    claimable by T+1 and T+2 (K-C1, K-C2).  ``act(seat, action, version)`` sends one
    action.  Returns (version, claimants, hand), or None when the deck or a rack no
    longer allows a claim."""
    m, hand = _stored(match_id)
    if hand.over or hand.phase != "play" or len(hand.deck) < 2:
        return None
    thrower = hand.turn
    act(thrower, {"type": "discard", "tile_id": _first_tile(hand, thrower)}, m.version)
    turn = (thrower + 1) % 4
    act(turn, {"type": "draw"}, m.version + 1)
    m2, hand = _stored(match_id)
    assert m2.version == m.version + 2
    assert hand.turn == turn and hand.claimable and hand.thrower() == thrower
    claimants = ((turn + 1) % 4, (turn + 2) % 4)
    assert not can_claim(hand, thrower) and not can_claim(hand, turn)
    if not all(can_claim(hand, s) for s in claimants):
        return None
    return m2.version, claimants, hand


def judge(match_id: int, version: int, before, claimants, outcome: dict, refusal: str,
          check_log: bool = True) -> str:  # fmt: skip
    """``outcome``: seat -> None (accepted) or the error code it got.  "ok" when exactly
    one claim won, the other was refused with ``refusal``, the winner holds the thrown
    tile and one penalty tile, the log has the one claim and all 106 tiles are there;
    otherwise what went wrong."""
    m, hand = _stored(match_id)
    if sorted(all_tiles(hand)) != list(range(NUM_TILES)):
        return "tiles_not_conserved"
    accepted = [s for s in claimants if outcome[s] is None]
    if len(accepted) != 1:
        return "double_winner" if accepted else "no_winner"
    winner = accepted[0]
    loser = next(s for s in claimants if s != winner)
    if outcome[loser] != refusal:
        return f"loser_got_{outcome[loser]}"
    logged = list(MatchAction.objects.filter(match_id=match_id, version__gt=version))
    if check_log and [(r.version, r.kind, r.seat) for r in logged] != [
        (version + 1, "claim", winner)
    ]:
        return "log_mismatch"
    if (
        m.version != version + 1
        or hand.claimable
        or before.thrown not in hand.racks[winner].tiles()
        or hand.racks[winner].count() != before.racks[winner].count() + 2
        or hand.racks[loser].count() != before.racks[loser].count()
        or len(hand.deck) != len(before.deck) - 1
    ):
        return "state_mismatch"
    return "ok"


# --- across two daphne processes ---------------------------------------------------------

# Adjacent seats sit on different processes (0 and 2 on the first, 1 and 3 on the
# second): the claimants T+1 and T+2 always race from different processes, the first
# process's seat first or second in turn.


async def race(pa: Player, pb: Player, version: int, send_version: bool) -> dict:
    """Both claims leave together; a ping behind each claim marks the end of that
    socket's reply (a consumer handles one message at a time)."""
    errors = {p: len(p.errors) for p in (pa, pb)}
    pongs = {p: p.pongs for p in (pa, pb)}
    v = version if send_version else None
    await asyncio.gather(pa.act(CLAIM, v), pb.act(CLAIM, v))
    await asyncio.gather(pa.send(PING), pb.send(PING))
    await asyncio.gather(pa.until_pong(pongs[pa] + 1), pb.until_pong(pongs[pb] + 1))
    outcome = {}
    for p in (pa, pb):
        new = p.errors[errors[p] :]
        assert len(new) <= 1 and all(e["message"] for e in new), new
        outcome[p.seat] = new[0]["code"] if new else None
    return outcome


class Budget:
    """Trials shared by the worker threads (each plays its own matches)."""

    def __init__(self, trials: int, stop_after_failures: int | None):
        self.left = trials
        self.failures = 0
        self.stop_after = stop_after_failures
        self.lock = threading.Lock()

    def take(self) -> bool:
        with self.lock:
            if self.left <= 0 or (self.stop_after and self.failures >= self.stop_after):
                return False
            self.left -= 1
            return True

    def record(self, verdict: str) -> None:
        with self.lock:
            self.failures += verdict != "ok"


def _table_races(servers, players, cookies, seed: str, budget: Budget) -> list:
    """One match, all four seats connected through their processes for the whole
    match, races until the deck runs low (about nine) or the budget is spent.  Runs in
    a worker thread with its own event loop and database connection."""
    loop = asyncio.new_event_loop()
    run = loop.run_until_complete
    results = []
    conns: dict = {}
    try:
        m = services.match_create(
            game="kut", options={"tasks": 5}, users=players, rated=False, seed=seed
        )
        conns = run(open_players(m.pk, cookies, servers))

        def act(seat, action, version):
            run(conns[seat].act(action, version))
            run(wait_all(conns.values(), version + 1))

        while (position := next_position(m.pk, act)) is not None and budget.take():
            version, claimants, before = position
            # half the claims carry the client's version (the loser then gets
            # stale_version and a snapshot), half none (the loser: claim_not_open)
            send_version = len(results) % 2 == 1
            pa, pb = conns[claimants[0]], conns[claimants[1]]
            outcome = run(race(pa, pb, version, send_version))
            verdict = judge(m.pk, version, before, claimants, outcome,
                            "stale_version" if send_version else "claim_not_open")  # fmt: skip
            budget.record(verdict)
            winner = pa if outcome[pa.seat] is None else pb
            results.append((verdict, winner.server.name))
            if Match.objects.get(pk=m.pk).version == version + 1:
                run(wait_all(conns.values(), version + 1))  # everyone sees the claim
    finally:
        run(close_all(conns.values()))
        loop.close()
        connection.close()
    return results


def run_races(pair, players, trials: int, tag: str, workers: int = 4,
              stop_after_failures: int | None = None):  # fmt: skip
    """``trials`` races, ``workers`` matches at a time (each race is still two claims on
    one match; the other tables only add load).  Returns (verdicts, wins by process)."""
    cookies = [session_cookie(u) for u in players]
    servers = [pair[0], pair[1], pair[0], pair[1]]
    budget = Budget(trials, stop_after_failures)
    results: list = []
    lock = threading.Lock()
    errors: list = []

    def worker(w: int):
        table = 0
        try:
            while budget.left > 0 and not (
                stop_after_failures and budget.failures >= stop_after_failures
            ):
                found = _table_races(servers, players, cookies, f"{tag}-{w}-{table}", budget)
                table += 1
                with lock:
                    results.extend(found)
        except BaseException as exc:  # re-raised in the test's thread
            errors.append(exc)
            with budget.lock:
                budget.left = 0

    threads = [threading.Thread(target=worker, args=(w,)) for w in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(600)
    if errors:
        raise errors[0]
    verdicts = Counter(v for v, _ in results)
    wins = Counter(name for v, name in results if v == "ok")
    return verdicts, wins


def test_claim_race_across_two_processes_has_exactly_one_winner(daphnes, players):
    verdicts, wins = run_races((daphnes.a, daphnes.b), players, TRIALS, "race")
    print(f"\nclaim race, two processes: {dict(verdicts)}; won through: {dict(wins)}")
    assert verdicts == {"ok": TRIALS}, daphnes.logs()
    # a real race: claims through either process win (a fixed order would test nothing)
    assert wins["A"] > 0 and wins["B"] > 0


@pytest.fixture
def unlocked_daphne(daphnes, tmp_path_factory):
    """A third daphne process whose ``_locked`` reads the row without
    ``select_for_update``."""
    d = Daphne("U-unlocked", site_env(live_database_url()),
               tmp_path_factory.mktemp("daphne-unlocked"), unlocked=True)  # fmt: skip
    try:
        d.start()
        yield d
    finally:
        d.stop()


def test_the_race_catches_a_process_without_the_row_lock(daphnes, unlocked_daphne, players):
    """The same races between process A and a process without the row lock go wrong:
    both claims pass the checks, and the log's unique version turns the second into a
    server error (or PostgreSQL breaks a deadlock) — never a clean refusal."""
    verdicts, _ = run_races((daphnes.a, unlocked_daphne), players, UNLOCKED_PROCESS_TRIALS,
                            "nolock", workers=1, stop_after_failures=2)  # fmt: skip
    print(f"\nclaim race, one process without the row lock: {dict(verdicts)}")
    assert verdicts["ok"] < sum(verdicts.values()), "the unlocked races never overlapped"


# --- two threads, real PostgreSQL transactions -------------------------------------------


def _unlocked_get(match_id):
    """``rows.lock_match`` without ``select_for_update`` (the services read the row
    through ``game.rows``, so the patch reaches every caller)."""
    return Match.objects.filter(pk=match_id).first()


def _claim_in_threads(match_id: int, claimants) -> dict:
    """Both claims in two threads with their own connections and transactions, released
    together by a barrier."""
    return in_threads({
        seat: (lambda s=seat: services.match_apply_action(match_id, s, CLAIM, None))
        for seat in claimants
    })  # fmt: skip


def _thread_races(players, tag: str, check_log: bool, expect: str, patch=None) -> Counter:
    """Up to THREAD_TRIALS races without the row lock (and whatever ``patch`` removes),
    until ENOUGH verdicts are ``expect``."""

    def act(seat, action, version):
        services.match_apply_action(mid, seat, action, version)

    verdicts: Counter = Counter()
    done = tables = 0

    def more():
        return done < THREAD_TRIALS and verdicts[expect] < ENOUGH

    while more():
        mid = services.match_create(game="kut", options={"tasks": 5}, users=players, rated=False,
                                    seed=f"{tag}-{tables}").pk  # fmt: skip
        tables += 1
        while more() and (position := next_position(mid, act)) is not None:
            version, claimants, before = position
            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(rows, "lock_match", _unlocked_get)
                mp.setattr(rows, "lock_match_with_seats", lambda m: (_unlocked_get(m), None))
                if patch:
                    patch(mp)
                outcome = _claim_in_threads(mid, claimants)
            verdicts[judge(mid, version, before, claimants, outcome, "claim_not_open",
                           check_log=check_log)] += 1  # fmt: skip
            done += 1
    return verdicts


def test_without_the_lock_threads_race_and_a_naive_save_has_double_winners(players, private_layer):
    """Without the row lock both claims read a claimable tile; the log's unique (match,
    version) still refuses the second one, as an IntegrityError (a server error to the
    player).  Without that too — a naive read-check-save — both claims win."""
    no_lock = _thread_races(players, "thr-nolock", check_log=True,
                            expect="loser_got_integrity_error")  # fmt: skip
    save = rows.save_match

    def no_log(match, log):
        save(match, None)  # the match row only: no log row with its unique version

    naive = _thread_races(players, "thr-naive", check_log=False, expect="double_winner",
                          patch=lambda mp: mp.setattr(rows, "save_match", no_log))  # fmt: skip
    print(f"\nclaim race in threads without the row lock: {dict(no_lock)}; "
          f"naive read-check-save: {dict(naive)}")  # fmt: skip
    assert no_lock["loser_got_integrity_error"] >= 1
    assert no_lock["double_winner"] == 0  # the unique log version is a second line
    assert naive["double_winner"] >= 1
