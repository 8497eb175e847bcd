"""Merging client results, checking them against the database, and printing the report."""

from __future__ import annotations

import math
from collections import Counter


def pct(values: list[float], p: float) -> float | None:
    """Nearest-rank percentile (``p`` in 0..100) of ``values``; None when empty."""
    if not values:
        return None
    s = sorted(values)
    k = max(1, math.ceil(p / 100.0 * len(s)))
    return s[min(k, len(s)) - 1]


def ms(x: float | None) -> float | None:
    return None if x is None else round(x * 1000.0, 1)


def merge(parts: list[dict]) -> dict:
    """Several client processes' results as one."""
    out: dict = {
        "rtt": [], "fanout": [], "loop_lag": [], "acked": {}, "sends": {},
        "connect_failures": [], "errors": Counter(),
    }  # fmt: skip
    sums = [
        "tables", "sockets", "actions_in_window", "frames", "frame_bytes", "state_frames",
        "state_bytes", "disconnects", "stale_frames", "missed_frames", "syncs", "late_syncs",
        "ack_timeouts", "change_frames", "change_misses",
        "unacked_at_end", "rate_waits", "client_cpu_seconds", "finished_tables", "hands",
        "stale_refusals", "choose_failures",
    ]  # fmt: skip
    for k in sums:
        out[k] = 0
    out["connect_seconds"] = 0.0
    out["by_game"] = {}
    for p in parts:
        for game, stats in p.get("by_game", {}).items():
            have = out["by_game"].setdefault(game, {})
            for k, v in stats.items():
                have[k] = have.get(k, [] if isinstance(v, list) else 0) + v
        for k in ("rtt", "fanout", "loop_lag", "connect_failures"):
            out[k].extend(p[k])
        out["acked"].update(p["acked"])
        out.setdefault("tops", {}).update(p.get("tops", {}))
        out["sends"].update(p["sends"])
        out["errors"].update(p["errors"])
        for k in sums:
            out[k] += p.get(k, 0)
        out["connect_seconds"] = max(out["connect_seconds"], p["connect_seconds"])
        out["seconds"] = p["seconds"]
        out["kind"], out["mode"] = p["kind"], p["mode"]
    out["errors"] = dict(out["errors"])
    return out


def verify(sends: dict[str, list], db: dict, bot_tables: set[str] = frozenset(),
           tops: dict[str, int] | None = None) -> dict:  # fmt: skip
    """Compare what the clients sent and saw acknowledged with the action log.

    * versions of every match's log run 1..n with no gap and no double, and the match's
      version is n;
    * every acknowledged action is in the log at its version, for its seat and kind
      (else **lost**);
    * every human row of the log is an action some client sent for that version and
      saw acknowledged (else **duplicated/unexplained**; one whose ack the client never
      saw is counted apart);
    * refused actions are not in the log; no bot acted at a table without bot seats
      (``bot_tables``: the ids of those with), and no timer acted anywhere — while the
      clients were there: a bot that took a seat after its socket closed (P-13, beyond
      the newest version the clients saw, ``tops``) is counted apart.
    """
    problems: list[str] = []
    lost = duplicated = ack_missing = refused_stored = gaps = other_actor = 0
    stored_human = bot_moves = after_run = 0
    tops = tops or {}
    by_id = {str(m["id"]): m for m in db["matches"]}
    for mid in db.get("missing", []):
        problems.append(f"match {mid} is missing from the database")
    for mid, m in by_id.items():
        versions = [row[0] for row in m["log"]]
        if versions != list(range(1, len(versions) + 1)):
            gaps += 1
            problems.append(f"match {mid}: log versions are not 1..{len(versions)}")
        if versions and m["version"] != versions[-1]:
            gaps += 1
            problems.append(f"match {mid}: version {m['version']} but last log row {versions[-1]}")
        human = {}
        for version, seat, kind, actor in m["log"]:
            if actor == "human":
                human[version] = (seat, kind)
            elif actor == "bot" and mid in bot_tables:
                bot_moves += 1
            elif actor == "bot" and mid in tops and version > tops[mid]:
                after_run += 1  # P-13: the socket had closed
            elif kind not in ("start", "next_hand"):
                other_actor += 1
                problems.append(f"match {mid} v{version}: {actor} {kind} at a human table")
        stored_human += len(human)
        sent = {}
        for version, seat, kind, status in sends.get(mid, []):
            sent.setdefault(version, []).append((seat, kind, status))
        for version, rows in sent.items():
            for seat, kind, status in rows:
                stored = human.get(version)
                if status == "acked" and stored != (seat, kind):
                    lost += 1
                    problems.append(f"match {mid} v{version}: acked {kind} of seat {seat} "
                                    f"but the log has {stored}")  # fmt: skip
                if (
                    status == "refused"
                    and stored == (seat, kind)
                    and not any(s != "refused" for _, _, s in rows)
                ):
                    refused_stored += 1
                    problems.append(f"match {mid} v{version}: refused {kind} was stored")
        for version, (seat, kind) in human.items():
            rows = [r for r in sent.get(version, []) if r[0] == seat and r[1] == kind]
            if any(r[2] == "acked" for r in rows):
                continue
            if rows:
                ack_missing += 1
                problems.append(f"match {mid} v{version}: stored, but its frame never came")
            else:
                duplicated += 1
                problems.append(f"match {mid} v{version}: {kind} of seat {seat} stored "
                                f"but never sent for that version")  # fmt: skip
    acked = sum(1 for rows in sends.values() for r in rows if r[3] == "acked")
    return {
        "acked_actions": acked,
        "stored_human_actions": stored_human,
        "lost": lost,
        "duplicated": duplicated,
        "ack_missing": ack_missing,
        "refused_but_stored": refused_stored,
        "version_gaps": gaps,
        "non_human_actions": other_actor,
        "bot_actions": bot_moves,
        "bot_actions_after_the_run": after_run,
        "problems": problems[:50],
    }


def summarise(res: dict, seconds: float) -> dict:
    frames = max(1, res["state_frames"])
    lag = res["loop_lag"]
    return {
        "actions_measured": res["actions_in_window"],
        "tables": res["tables"],
        "sockets": res["sockets"],
        "actions_per_second": round(res["actions_in_window"] / seconds, 1),
        "rtt_ms": {
            "p50": ms(pct(res["rtt"], 50)),
            "p95": ms(pct(res["rtt"], 95)),
            "p99": ms(pct(res["rtt"], 99)),
            "n": len(res["rtt"]),
        },  # fmt: skip
        "fanout_ms": {
            "p50": ms(pct(res["fanout"], 50)),
            "p99": ms(pct(res["fanout"], 99)),
            "n": len(res["fanout"]),
        },  # fmt: skip
        "bytes_per_frame": round(res["state_bytes"] / frames),
        "change_frames": res.get("change_frames", 0),
        "change_misses": res.get("change_misses", 0),
        "frames": res["frames"],
        "errors": res["errors"],
        "disconnects": res["disconnects"],
        "connect_failures": len(res["connect_failures"]),
        "connect_failure_samples": res["connect_failures"][:3],
        "ack_timeouts": res["ack_timeouts"],
        "unacked_at_end": res["unacked_at_end"],
        "stale_frames": res["stale_frames"],
        "missed_frames": res["missed_frames"],
        "syncs": res["syncs"],
        "late_syncs": res["late_syncs"],
        "rate_waits": res["rate_waits"],
        "connect_seconds": round(res["connect_seconds"], 1),
        "client_cpu_percent": round(100.0 * res["client_cpu_seconds"] / seconds, 1),
        "client_loop_lag_ms_p99": ms(pct(lag, 99)),
        "finished_tables": res["finished_tables"],
        "hands_dealt": res["hands"],
        "stale_refusals": res.get("stale_refusals", 0),
        "choose_failures": res.get("choose_failures", 0),
    }


def _ms_summary(values: list[float]) -> dict:
    """p50/p99/max in ms of values in seconds."""
    return {"p50": ms(pct(values, 50)), "p95": ms(pct(values, 95)), "p99": ms(pct(values, 99)),
            "max": ms(max(values)) if values else None, "n": len(values)}  # fmt: skip


def bot_cpu(path, window: tuple[float, float]) -> dict:
    """The bots' decision CPU per move inside the measured window, from the worker's
    ``tools.load.celery_bots`` lines: per game and per level, and per game overall."""
    rows: dict[str, dict[str, list[float]]] = {}
    try:
        lines = open(path).read().splitlines()
    except OSError:
        lines = []
    for line in lines:
        try:
            at, game, level, cpu = line.split()
            at_f, cpu_s = float(at), float(cpu) / 1000.0
        except ValueError:
            continue
        if window[0] <= at_f <= window[1]:
            rows.setdefault(game, {}).setdefault(level, []).append(cpu_s)
            rows[game].setdefault("all", []).append(cpu_s)
    return {g: {lv: _ms_summary(v) for lv, v in sorted(levels.items())}
            for g, levels in sorted(rows.items())}  # fmt: skip


def add_games(summary: dict, res: dict, seconds: float) -> None:
    """Per game: moves (every change: humans, bots, deals) and human actions per second,
    round trips, bytes per frame; and the server's CPU per move of the whole run."""
    games = {}
    moves = 0
    for game, st in sorted(res.get("by_game", {}).items()):
        moves += st["moves"]
        games[game] = {
            "tables": st["tables"],
            "moves_per_second": round(st["moves"] / seconds, 1),
            "human_actions_per_second": round(st["actions"] / seconds, 1),
            "rtt_ms": {k: ms(pct(st["rtt"], p)) for k, p in (("p50", 50), ("p95", 95), ("p99", 99))},
            "bytes_per_frame": round(st["state_bytes"] / max(1, st["state_frames"])),
            "finished_tables": st["finished_tables"],
            "hands_dealt": st["hands"],
            "bot_cpu_ms": (summary.get("bots", {}).get(game) or {}).get("all"),
        }  # fmt: skip
    summary["games"] = games
    summary["moves_measured"] = moves
    summary["moves_per_second"] = round(moves / seconds, 1)
    cpu = summary["server"]["cpu_percent_of_one_core"]
    summary["cpu_ms_per_move"] = {
        g: round(cpu[g] / 100.0 * seconds * 1000.0 / moves, 2) if moves else None
        for g in ("daphne", "celery", "redis", "postgres_load_db")
        if g in cpu
    }


def add_cpu_per_action(summary: dict, seconds: float) -> None:
    """Server CPU milliseconds per measured action (or echo message): less sensitive to
    what else the machine runs than the latencies are."""
    n = summary["actions_measured"]
    cpu = summary["server"]["cpu_percent_of_one_core"]
    summary["cpu_ms_per_action"] = {
        g: round(cpu[g] / 100.0 * seconds * 1000.0 / n, 2) if n else None
        for g in ("daphne", "celery", "redis", "postgres_load_db")
        if g in cpu
    }


def error_count(summary: dict, check: dict | None) -> int:
    n = sum(summary["errors"].values()) + summary["disconnects"] + summary["connect_failures"]
    n += summary["ack_timeouts"] + summary["unacked_at_end"]
    n += summary.get("server_log", {}).get("server_errors", 0)
    n += summary.get("choose_failures", 0)
    if check:
        n += check["lost"] + check["duplicated"] + check["ack_missing"]
        n += check["refused_but_stored"] + check["version_gaps"] + check["non_human_actions"]
    return n


def fmt(x, unit: str = "") -> str:
    return "–" if x is None else f"{x}{unit}"


def text_report(r: dict) -> str:
    title = "KÜT" if r.get("game_key", "kut") == "kut" else r["game_key"]
    lines = [
        f"{title} load run: {r['mode']}, {r['tables']} tables ({4 * r['tables']} sockets), "
        f"{r['daphne']} daphne, {r['seconds']} s measured after {r['warmup']} s warm-up",
        f"load average before/after: {r['loadavg_before']} / {r['loadavg_after']}",
    ]
    for name in ("echo", "game"):
        s = r.get(name)
        if not s:
            continue
        what = "messages/s" if name == "echo" else "actions/s"
        how = f" (over {r.get('echo_kind', 'channel layer group')})" if name == "echo" else ""
        lines += [
            "",
            f"[{name}{how}] {what}: {s['actions_per_second']}   round-trip p50/p95/p99: "
            f"{fmt(s['rtt_ms']['p50'])}/{fmt(s['rtt_ms']['p95'])}/{fmt(s['rtt_ms']['p99'])} ms   "
            f"fan-out p99: {fmt(s['fanout_ms']['p99'])} ms",
            f"  bytes/frame {s['bytes_per_frame']} (change frames {s.get('change_frames', 0)}, "
            f"not fitting {s.get('change_misses', 0)}), "
            f"frames {s['frames']}, errors {s['errors']}, "
            f"disconnects {s['disconnects']}, connect failures {s['connect_failures']}, "
            f"ack timeouts {s['ack_timeouts']}, unacked at end {s['unacked_at_end']}",
            f"  stale frames {s['stale_frames']}, missed frames {s['missed_frames']}, "
            f"syncs {s['syncs']} (for a late frame {s['late_syncs']}), rate-limit waits {s['rate_waits']}, "
            f"connect {s['connect_seconds']} s",
            f"  client CPU {s['client_cpu_percent']}% of a core, client loop lag p99 "
            f"{fmt(s['client_loop_lag_ms_p99'])} ms",
        ]
        lines += [f"  connect failure: {x}" for x in s.get("connect_failure_samples", [])]
        slog = s.get("server_log")
        if slog:
            lines.append(f"  server log: {slog['server_errors']} errors, "
                         f"{slog['server_warnings']} warnings")  # fmt: skip
            lines += [f"    {x}" for x in slog["samples"]]
        server = s.get("server")
        if server:
            lines.append(f"  server CPU (% of one core): {server['cpu_percent_of_one_core']}, "
                         f"machine busy {server['machine_busy_percent']}%")  # fmt: skip
            lines.append(f"  RSS MB peak: {server['rss_mb_peak']}")
            unit = "message" if name == "echo" else "action"
            lines.append(f"  server CPU ms per {unit}: {s.get('cpu_ms_per_action')}")
        if "memory_per_table_kb" in s:
            lines.append(f"  daphne memory per table: {s['memory_per_table_kb']} KB "
                         f"(idle {s['daphne_rss_mb_idle']} MB → "
                         f"{s['daphne_rss_mb_end']} MB)")  # fmt: skip
        if name == "game":
            lines.append(f"  after the clients closed: {s.get('disconnects_processed_seconds')} s "
                         f"until no seat was marked connected "
                         f"({s.get('seats_still_connected')} still were)")  # fmt: skip
            lines.append(f"  finished tables {s['finished_tables']}, hands dealt "
                         f"{s['hands_dealt']}, refused as stale (a bot acted first) "
                         f"{s.get('stale_refusals', 0)}")  # fmt: skip
            lines += game_lines(s)
    c = r.get("check")
    if c:
        lines += [
            "",
            f"[check] acked {c['acked_actions']}, stored (human) {c['stored_human_actions']}, "
            f"lost {c['lost']}, duplicated {c['duplicated']}, ack missing {c['ack_missing']}, "
            f"refused-but-stored {c['refused_but_stored']}, version gaps {c['version_gaps']}, "
            f"non-human actions {c['non_human_actions']} (bot moves {c.get('bot_actions', 0)})",
        ]
        lines += [f"  ! {p}" for p in c["problems"][:20]]
    ratios = r.get("ratios")
    if ratios:
        lines += [
            "",
            f"[vs echo] throughput {ratios['throughput']} of the echo's, round-trip p99 "
            f"{ratios['rtt_p99']}× the echo's, p50 {ratios['rtt_p50']}×"
            + (
                f", daphne CPU per move {ratios['daphne_cpu_per_move']}× the echo's per message"
                if "daphne_cpu_per_move" in ratios
                else ""
            ),
        ]
    lines.append("")
    lines.append(f"errors in total: {r['error_total']}  →  {'OK' if r['ok'] else 'FAILED'}")
    lines.append("")
    lines.append("markdown row: " + markdown_row(r))
    lines += [f"capacity row: {row}" for row in capacity_rows(r)]
    return "\n".join(lines)


def game_lines(s: dict) -> list[str]:
    """The per-game part of the game section (issue 30)."""
    if "games" not in s:
        return []
    per = s.get("cpu_ms_per_move") or {}
    lines = [
        f"  moves (humans, bots, deals) {s['moves_per_second']}/s; server CPU ms per move: "
        f"daphne {per.get('daphne')}, PostgreSQL {per.get('postgres_load_db')}, "
        f"Celery {per.get('celery')}, Redis {per.get('redis')}",
    ]
    for game, g in s["games"].items():
        b = g.get("bot_cpu_ms") or {}
        rtt = g["rtt_ms"]
        lines.append(
            f"  [{game}] {g['tables']} tables: moves/s {g['moves_per_second']} (human actions "
            f"{g['human_actions_per_second']}/s), RTT p50/p95/p99 {fmt(rtt['p50'])}/"
            f"{fmt(rtt['p95'])}/{fmt(rtt['p99'])} ms, bytes/frame {g['bytes_per_frame']}, "
            f"bot CPU/move p50/p99/max {fmt(b.get('p50'))}/{fmt(b.get('p99'))}/"
            f"{fmt(b.get('max'))} ms (n {b.get('n', 0)}), finished {g['finished_tables']}, "
            f"hands {g['hands_dealt']}"
        )
    for game, levels in (s.get("bots") or {}).items():
        cells = ", ".join(
            f"{lv} {fmt(v['p50'])}/{fmt(v['p99'])}/{fmt(v['max'])} (n {v['n']})"
            for lv, v in levels.items() if lv != "all"
        )  # fmt: skip
        lines.append(f"    bot CPU ms p50/p99/max by level, {game}: {cells}")
    return lines


CAPACITY_HEADER = (
    "| game | daphne | tables | moves/s | RTT p50 / p95 / p99 ms | echo p99 ms | p99 vs echo | "
    "daphne ms/move | echo daphne ms/msg | move vs echo | PostgreSQL ms/move | Celery ms/move | "
    "bot CPU p50 / p99 / max ms | bytes/frame | lost / dup / gaps | tables per server core | "
    "load avg |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
    "| --- |"
)


def capacity_rows(r: dict) -> list[str]:
    """Issue 30's rows: each game of the run (and the run as a whole when it held several)
    next to the same run's echo.  The server's CPU per move is the whole run's; *tables
    per server core* is the run's tables over the cores its daphne, Celery, PostgreSQL
    and Redis used (the whole run only)."""
    g, e, c = r.get("game") or {}, r.get("echo") or {}, r.get("check") or {}
    if "games" not in g:
        return []
    per = g.get("cpu_ms_per_move") or {}
    echo_cpu = (e.get("cpu_ms_per_action") or {}).get("daphne")
    echo_p99 = (e.get("rtt_ms") or {}).get("p99")
    check = f"{c.get('lost', '–')} / {c.get('duplicated', '–')} / {c.get('version_gaps', '–')}"

    def ratio(a, b):
        return round(a / b, 2) if a and b else "–"

    cpu = (g.get("server") or {}).get("cpu_percent_of_one_core") or {}
    cores = sum(cpu.get(k, 0.0) for k in ("daphne", "celery", "postgres_load_db", "redis")) / 100

    def row(name, tables, moves, rtt, bots, size, per_core="–"):
        return (
            f"| {name} | {r['daphne']} | {tables} | {moves} | {fmt(rtt.get('p50'))} / "
            f"{fmt(rtt.get('p95'))} / {fmt(rtt.get('p99'))} | {fmt(echo_p99)} | "
            f"{ratio(rtt.get('p99'), echo_p99)} | {fmt(per.get('daphne'))} | {fmt(echo_cpu)} | "
            f"{ratio(per.get('daphne'), echo_cpu)} | {fmt(per.get('postgres_load_db'))} | "
            f"{fmt(per.get('celery'))} | {fmt(bots.get('p50'))} / {fmt(bots.get('p99'))} / "
            f"{fmt(bots.get('max'))} | {size} | {check} | {per_core} | {r['loadavg_before'][0]} |"
        )

    whole = round(g["tables"] / cores) if cores else "–"
    single = whole if len(g["games"]) == 1 else "–"
    rows = [row(name, s["tables"], s["moves_per_second"], s["rtt_ms"], s.get("bot_cpu_ms") or {},
                s["bytes_per_frame"], single) for name, s in g["games"].items()]  # fmt: skip
    if len(rows) > 1:
        every = [levels["all"] for levels in (g.get("bots") or {}).values() if "all" in levels]
        worst = {k: max((v[k] for v in every if v[k] is not None), default=None)
                 for k in ("p50", "p99", "max")}  # fmt: skip
        rows.append(row(f"{r.get('game_key')} (all; bot CPU: the worst game)", g["tables"],
                        g["moves_per_second"], g["rtt_ms"], worst, g["bytes_per_frame"], whole))  # fmt: skip
    return rows


def markdown_row(r: dict) -> str:
    g = r.get("game") or {}
    e = r.get("echo") or {}
    ratios = r.get("ratios") or {}

    def cell(s, k):
        return fmt(s.get("rtt_ms", {}).get(k)) if s else "–"

    return (
        f"| {r['mode']} | {r['daphne']} | {r['tables']} | {g.get('actions_per_second', '–')} | "
        f"{cell(g, 'p50')} / {cell(g, 'p95')} / {cell(g, 'p99')} | "
        f"{fmt((g.get('fanout_ms') or {}).get('p99'))} | "
        f"{e.get('actions_per_second', '–')} | {cell(e, 'p99')} | "
        f"{ratios.get('throughput', '–')} | {ratios.get('rtt_p99', '–')} | "
        f"{r['error_total']} | {g.get('bytes_per_frame', '–')} | "
        f"{(g.get('server') or {}).get('cpu_percent_of_one_core', {}).get('daphne', '–')} | "
        f"{g.get('memory_per_table_kb', '–')} | "
        f"{r['loadavg_before'][0]} |"
    )


MARKDOWN_HEADER = (
    "| mode | daphne | tables | actions/s | RTT p50 / p95 / p99 ms | fan-out p99 ms | "
    "echo msg/s | echo p99 ms | throughput vs echo | p99 vs echo | errors | bytes/frame | "
    "daphne CPU % | KB/table | load avg |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
)
