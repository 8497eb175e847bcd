"""The scaling table: ``tools.load.run`` over daphne counts × table counts::

    python -m tools.load.matrix --daphne 1,2 --paced 10,50,100,250 --saturation 50 \\
        --seconds 30 --out var/load/matrix.md

Every run includes the echo baseline (``--baseline``) at the same size.  Paced mode goes
on past the largest size (doubling) while the action round-trip p99 stays under
``--p99-limit`` ms.  Each row carries the load average at its start (this machine is
shared); the full reports are kept next to ``--out`` as JSON.
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
from pathlib import Path

from tools.load.report import MARKDOWN_HEADER, markdown_row
from tools.load.stack import ROOT


def run_one(args, mode: str, daphne: int, tables: int, out_dir: Path) -> dict | None:
    path = out_dir / f"{mode}-d{daphne}-t{tables}.json"
    cmd = [
        sys.executable, "-m", "tools.load.run", "--mode", mode, "--daphne", str(daphne),
        "--tables", str(tables), "--seconds", str(args.seconds), "--baseline",
        "--json", str(path), *args.extra,
    ]  # fmt: skip
    print("$", " ".join(cmd[1:]), flush=True)
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)  # fmt: skip
    try:
        stdout, stderr = proc.communicate()
    except BaseException:
        proc.terminate()  # the run stops its stack on SIGTERM
        proc.wait(timeout=120)
        raise
    print(stdout[-2500:], flush=True)
    if not path.exists():
        print(stderr[-3000:], flush=True)
        return None
    return json.loads(path.read_text())


def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv=None) -> int:
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--daphne", default="1,2")
    p.add_argument("--paced", default="10,50,100,250")
    p.add_argument("--saturation", default="50")
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--p99-limit", type=float, default=100.0)
    p.add_argument("--max-tables", type=int, default=2000)
    p.add_argument("--out", default=str(ROOT / "var" / "load" / "matrix.md"))
    p.add_argument("extra", nargs="*", help="more tools.load.run options, after --")
    args = p.parse_args(argv)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = [MARKDOWN_HEADER]

    def emit(result):
        if result is not None:
            rows.append(markdown_row(result))
            out.write_text("\n".join(rows) + "\n")

    for daphne in [int(x) for x in args.daphne.split(",") if x]:
        sizes = [int(x) for x in args.paced.split(",") if x]
        last = None
        for tables in sizes:
            last = run_one(args, "paced", daphne, tables, out.parent)
            emit(last)
        tables = sizes[-1] if sizes else 0
        while last is not None and tables < args.max_tables:
            p99 = (last.get("game") or {}).get("rtt_ms", {}).get("p99")
            if p99 is None or p99 >= args.p99_limit:
                break
            tables *= 2
            last = run_one(args, "paced", daphne, tables, out.parent)
            emit(last)
        for tables in [int(x) for x in args.saturation.split(",") if x]:
            emit(run_one(args, "saturation", daphne, tables, out.parent))
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
