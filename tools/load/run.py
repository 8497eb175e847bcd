"""Load test of the production stack over real websockets.

    python -m tools.load.run --tables 50 --seconds 30 --mode paced --daphne 1 --baseline
    python -m tools.load.run --game kdvli|king|kastet|kelimeki|mix --tables 50 …

Starts PostgreSQL's ``kut_load`` database (created and migrated), N daphne processes,
a Celery worker and beat on Redis (``tools/load/stack.py``), creates T test tables of
the game (``manage.py load_setup``: humans, and ``--bots`` bot seats that the server
plays at their real pace; ``mix``: every game in a portal's proportions,
``tools.load.humans.MIX``) and drives the humans with scripted websocket clients
(``tools/load/clients.py``) for a fixed time, paced (about one human action per table
per second) or at saturation.  ``--baseline`` first measures a bare echo consumer on the
same daphne + Redis stack, driven the same way, and states our numbers as ratios to it.

Afterwards the action log (``manage.py load_check``) is compared with what the clients
saw: the exit status is 1 when any action was lost or duplicated, any version skipped,
or any error frame, disconnect or missing acknowledgement occurred.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from game.engine import registry
from tools.load import humans, report
from tools.load.stack import ECHO_APP, GAME_APP, ROOT, Config, ProcStats, Stack, manage


def _spread(tables: list[dict], urls: list[str], path: str) -> list[dict]:
    """Seat i of table t connects to daphne (4t + i) mod N: a table spans processes."""
    out = []
    for t, table in enumerate(tables):
        seats = []
        for seat in table["seats"]:
            url = urls[(4 * t + seat["seat"]) % len(urls)]
            seats.append({"seat": seat["seat"], "url": f"{url}{path.format(id=table['id'])}",
                          "cookie": seat.get("cookie")})  # fmt: skip
        out.append({"id": table["id"], "seats": seats, "game": table.get("game", "kut"),
                    "bots": table.get("bots", {})})  # fmt: skip
    return out


def _turned(levels: str, i: int) -> str:
    """The bot levels starting at the i-th (each game of a mix starts with another)."""
    parts = levels.split(",")
    i %= len(parts)
    return ",".join(parts[i:] + parts[:i])


def _setups(args) -> list[tuple[str, int, int, int]]:
    """(game, tables, seats, bots) of each ``load_setup`` call of the run."""
    counts = humans.mix_counts(args.tables) if args.game == "mix" else {args.game: args.tables}
    out = []
    for game, n in counts.items():
        bots = args.bots if args.bots is not None else (0 if game == "kut" else 1)
        if game == "kelimeki" and not args.seats:  # two and four seats, half each
            out += [(game, n - n // 2, 2, min(bots, 1)), (game, n // 2, 4, bots)]
        else:
            out.append((game, n, args.seats, bots))
    return [row for row in out if row[1] > 0]


def drive(args, kind: str, tables: list[dict], stack: Stack, cookie_name: str,
          workdir: Path) -> tuple[dict, dict]:  # fmt: skip
    """Run the client processes; returns (merged client results, server stats)."""
    procs = max(1, min(args.client_procs, len(tables)))
    go_path = workdir / f"{kind}-go"
    go_path.unlink(missing_ok=True)
    jobs = []
    for i in range(procs):
        spec = {
            "kind": kind, "mode": args.mode, "period": args.period, "level": args.level,
            "seed": args.seed + i, "seconds": args.seconds, "warmup": args.warmup,
            "cookie_name": cookie_name, "tables": tables[i::procs],
            "ready_path": str(workdir / f"{kind}-ready-{i}"), "go_path": str(go_path),
            "echo_pad": args.echo_pad, "connect_concurrency": 6 * args.daphne,
        }  # fmt: skip
        Path(spec["ready_path"]).unlink(missing_ok=True)
        spec_path = workdir / f"{kind}-spec-{i}.json"
        out_path = workdir / f"{kind}-out-{i}.json"
        out_path.unlink(missing_ok=True)
        spec_path.write_text(json.dumps(spec))
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        p = subprocess.Popen([sys.executable, "-m", "tools.load.clients", str(spec_path),
                              str(out_path)], cwd=ROOT, env=env)  # fmt: skip
        jobs.append((p, out_path, Path(spec["ready_path"])))
    try:
        return _measure(args, jobs, stack, go_path, len(tables))
    except BaseException:
        for p, _, _ in jobs:
            if p.poll() is None:
                p.kill()  # our own client processes
                p.wait(timeout=10)
        raise


def _measure(args, jobs, stack: Stack, go_path: Path, n_tables: int) -> tuple[dict, dict]:
    stats = ProcStats(stack.server_pids(), args.db_name)
    rss_idle = stats.rss("daphne")
    deadline = time.monotonic() + 300
    while not all(ready.exists() for _, _, ready in jobs):
        if any(p.poll() is not None for p, _, _ in jobs):
            break
        if time.monotonic() > deadline:
            raise RuntimeError("the clients did not connect within 300 s")
        time.sleep(0.1)
    time.sleep(1.0)  # presence broadcasts of the connects settle
    rss_connected = stats.rss("daphne")
    start = time.time() + 0.5
    window = (start + args.warmup, start + args.warmup + args.seconds)
    tmp = go_path.with_suffix(".tmp")
    tmp.write_text(repr(start))
    os.replace(tmp, go_path)  # atomic: a client never reads half of it
    time.sleep(max(0.0, start + args.warmup - time.time()))
    stats.begin()
    spies = stack.profile(args.seconds) if args.profile and stack.tag == "game" else []
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        stats.sample_pg()
        time.sleep(min(0.5, max(0.0, end - time.monotonic())))
    stats.end()
    for spy in spies:
        spy.wait(timeout=60)
    rss_end = stats.rss("daphne")
    parts = []
    for p, out_path, _ in jobs:
        p.wait(timeout=120)
        if p.returncode != 0 or not out_path.exists():
            raise RuntimeError(f"a client process failed (exit {p.returncode})")
        parts.append(json.loads(out_path.read_text()))
    server = stats.report()
    mem = {
        "daphne_rss_mb_idle": round(rss_idle / 2**20, 1),
        "daphne_rss_mb_connected": round(rss_connected / 2**20, 1),
        "daphne_rss_mb_end": round(rss_end / 2**20, 1),
        "memory_per_table_kb": round((rss_end - rss_idle) / 1024 / max(1, n_tables), 1),
    }
    return report.merge(parts), {"server": server, "window": window, **mem}


def _summary(args, stack: Stack, res: dict, extra: dict) -> dict:
    """The clients' merged results with the server's figures and log problems."""
    summary = report.summarise(res, args.seconds)
    summary.update(extra)
    summary["server_log"] = stack.log_problems()
    report.add_cpu_per_action(summary, args.seconds)
    return summary


def run_echo(args, cfg: Config, workdir: Path) -> dict:
    stack = Stack(cfg, app=ECHO_APP, celery=False, tag="echo")
    try:
        stack.start()
        rooms = [{"id": i + 1, "seats": [{"seat": s} for s in range(4)]}
                 for i in range(args.tables)]  # fmt: skip
        route = "echo-fanout" if args.echo_fanout else "echo"
        tables = _spread(rooms, stack.ws_urls(), f"/ws/{route}/{int(time.time())}{{id}}/")
        res, extra = drive(args, "echo", tables, stack, "", workdir)
    finally:
        stack.stop()
    return _summary(args, stack, res, extra)


def run_game(args, cfg: Config, workdir: Path) -> tuple[dict, dict]:
    stack = Stack(cfg, app=GAME_APP, celery=True, tag="game")
    try:
        stack.start()
        matches, first = [], 0
        for i, (game, n, seats, bots) in enumerate(_setups(args)):
            setup_args = ["load_setup", "--tables", str(n), "--tasks", str(args.tasks),
                          "--game", game, "--seats", str(seats), "--bots", str(bots),
                          "--bot-levels", _turned(args.bot_levels, i),
                          "--first-user", str(first)]  # fmt: skip
            if i == 0:
                setup_args.append("--close-running")
            if args.rated:
                setup_args.append("--rated")
            options = dict(registry.get(game).quick_options) if args.short else {}
            options.update(args.options.get(game) or {})
            if options:
                setup_args += ["--options", json.dumps(options)]
            setup = json.loads(manage(cfg, setup_args))
            matches += setup["matches"]
            first += n * 4
        # interleave the games, so that every client process and daphne gets each game
        matches.sort(key=lambda m: m["id"] % 7919)
        # issue 22: the clients take change frames, as the table scripts do
        tables = _spread(matches, stack.ws_urls(), "/ws/match/{id}/?frames=change")
        res, extra = drive(args, "game", tables, stack, setup["cookie_name"], workdir)
        dead = stack.dead()
        ids = ",".join(str(m["id"]) for m in matches)
        db = json.loads(manage(cfg, ["load_check", "--matches", ids, "--abort",
                                     "--wait-disconnected", "60"]))  # fmt: skip
    finally:
        stack.stop()
    summary = _summary(args, stack, res, extra)
    summary["bots"] = report.bot_cpu(stack.bot_log, extra["window"])
    report.add_games(summary, res, args.seconds)
    bot_tables = {str(m["id"]) for m in matches if m.get("bots")}
    check = report.verify(res["sends"], db, bot_tables, res.get("tops"))
    summary["disconnects_processed_seconds"] = db["disconnect_wait_seconds"]
    summary["seats_still_connected"] = db["still_connected"]
    if dead:
        check["problems"].insert(0, f"processes died during the run: {dead}")
        check["version_gaps"] += len(dead)
    return summary, check


def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv=None) -> int:
    signal.signal(signal.SIGTERM, _interrupt)  # stop the stack on SIGTERM too
    signal.signal(signal.SIGINT, _interrupt)  # even where a shell ignores it (background)
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--tables", type=int, default=10, help="concurrent tables (4 sockets each)")
    p.add_argument("--seconds", type=float, default=20.0, help="measured time")
    p.add_argument("--warmup", type=float, default=3.0, help="unmeasured start")
    p.add_argument("--mode", choices=("paced", "saturation"), default="paced")
    p.add_argument("--period", type=float, default=1.0, help="paced: seconds per table action")
    p.add_argument("--daphne", type=int, default=1, help="daphne processes")
    p.add_argument("--baseline", action="store_true", help="also measure the bare echo")
    p.add_argument("--no-game", action="store_true", help="only the echo baseline")
    p.add_argument("--game", choices=(*humans.GAMES, "mix"), default="kut",
                   help="the game of the tables; mix: every game (tools.load.humans.MIX)")  # fmt: skip
    p.add_argument("--seats", type=int, default=0,
                   help="seats per table (0: the game's most; Kelimeki 2 and 4, half each)")  # fmt: skip
    p.add_argument("--bots", type=int, default=None,
                   help="bot seats per table (default: 0 for KÜT, 1 for the others)")  # fmt: skip
    p.add_argument("--bot-levels", default="easy,normal,hard",
                   help="the bot seats' levels, in turn table by table")  # fmt: skip
    p.add_argument("--options", type=json.loads, default={},
                   help='the games\' options as JSON, e.g. {"king": {"length": 4}}')  # fmt: skip
    p.add_argument("--short", action="store_true",
                   help="short matches: each game's quick_options (KÜT 5 tasks, King 4 hands, "
                   "…), so that whole matches are played within a run")  # fmt: skip
    p.add_argument("--level", choices=("easy", "normal", "hard"), default=None,
                   help="how the scripted humans choose moves (their game's bot at this "
                   "level; default tools.load.humans.HUMAN_LEVEL: KÜT normal, else easy)")  # fmt: skip
    p.add_argument("--tasks", type=int, choices=(5, 8, 12), default=12)
    p.add_argument("--rated", action="store_true", help="rated tables (KUT_TURN_SECONDS=3600)")
    p.add_argument("--client-procs", type=int, default=1, help="client processes")
    p.add_argument("--db-name", default="kut_load", help="PostgreSQL database of the run")
    p.add_argument("--redis-db", type=int, default=9, help="Redis database number of the run")
    p.add_argument("--db-pool-max-size", type=int, default=10,
                   help="DB_POOL_MAX_SIZE of the site processes (connections per process)")  # fmt: skip
    p.add_argument("--asgi-threads", type=int, default=0,
                   help="ASGI_THREADS of daphne: its thread pool (0: Python's default, "
                   "cores + 4)")  # fmt: skip
    p.add_argument("--echo-pad", type=int, default=0, help="echo: bytes of padding")
    p.add_argument("--echo-fanout", action="store_true",
                   help="the echo fans out over kut_site.fanout (Redis pub/sub, the path of "
                   "the match frames) instead of a channel-layer group")  # fmt: skip
    p.add_argument("--profile", choices=("", "py-spy"), default="",
                   help="record daphne with py-spy (collapsed stacks in the log folder)")  # fmt: skip
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--log-dir", default=str(ROOT / "var" / "load"))
    p.add_argument("--json", help="also write the full report here")
    args = p.parse_args(argv)
    if args.tables < 1 or args.seconds <= 0 or args.daphne < 1:
        p.error("--tables, --seconds and --daphne must be positive")

    cfg = Config(daphnes=args.daphne, db_name=args.db_name, redis_db=args.redis_db,
                 db_pool_max_size=args.db_pool_max_size, log_dir=Path(args.log_dir),
                 asgi_threads=args.asgi_threads,
                 rated=args.rated, profile=args.profile)  # fmt: skip
    from tools.load.stack import prepare_database

    prepare_database(cfg)
    result: dict = {
        "game_key": args.game, "bots_per_table": args.bots,
        "mode": args.mode, "tables": args.tables, "daphne": args.daphne,
        "seconds": args.seconds, "warmup": args.warmup,
        "level": args.level or ("per game" if args.game == "mix" else humans.level_for(args.game, None)),
        "db_pool_max_size": args.db_pool_max_size, "asgi_threads": args.asgi_threads,
        "echo_kind": "fanout" if args.echo_fanout else "channel layer group",
        "loadavg_before": [round(x, 2) for x in os.getloadavg()],
    }  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="kut-load-") as tmp:
        workdir = Path(tmp)
        if args.baseline or args.no_game:
            result["echo"] = run_echo(args, cfg, workdir)
        if not args.no_game:
            result["game"], result["check"] = run_game(args, cfg, workdir)
    result["loadavg_after"] = [round(x, 2) for x in os.getloadavg()]
    g, e = result.get("game"), result.get("echo")
    if g and e and e["actions_per_second"] and e["rtt_ms"]["p99"] and g["rtt_ms"]["p99"]:
        result["ratios"] = {
            "throughput": round(g["actions_per_second"] / e["actions_per_second"], 2),
            "rtt_p99": round(g["rtt_ms"]["p99"] / e["rtt_ms"]["p99"], 2),
            "rtt_p50": round(g["rtt_ms"]["p50"] / e["rtt_ms"]["p50"], 2),
        }
        move = (g.get("cpu_ms_per_move") or {}).get("daphne")
        echo = (e.get("cpu_ms_per_action") or {}).get("daphne")
        if move and echo:  # issue 30: the move at most two echoes
            result["ratios"]["daphne_cpu_per_move"] = round(move / echo, 2)
    total = 0
    for name in ("echo", "game"):
        if result.get(name):
            total += report.error_count(result[name], result["check"] if name == "game" else None)
    result["error_total"] = total
    result["ok"] = total == 0
    print(report.text_report(result))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
