"""Summarise a py-spy profile (``--format raw`` collapsed stacks) of a daphne process::

    python -m tools.load.profile_summary var/load/game-daphne-0.pyspy.txt [--top 30]
        [--focus match_apply_action] [--actions 546 --rate 250]

Prints the share of on-CPU samples per thread, then the functions with the most
inclusive samples (the function or anything it calls) and the most self samples
(the function's own code), with file:line trimmed to the project or package path.
``--focus NAME`` restricts everything to stacks that pass through a function NAME.
``--actions N`` (the run's measured actions) and ``--rate`` (py-spy's samples per second,
250 in ``tools.load.run --profile py-spy``) add a table of milliseconds per action
spent in the parts of the hot path (``CATEGORIES``; a sample counts in every part
its stack passes through).
"""

from __future__ import annotations

import argparse
import re
from collections import Counter

_FRAME = re.compile(r"^(?P<func>.*?) \((?P<file>[^()]*?)(?::(?P<line>\d+))?\)$")


def _short(path: str) -> str:
    for marker in ("site-packages/", "/lib/python3.11/", "/work/main/"):
        if marker in path:
            return path.split(marker, 1)[1]
    return path


def _key(frame: str) -> str:
    m = _FRAME.match(frame.strip())
    if not m:
        return frame.strip()
    return f"{m['func']} ({_short(m['file'])})"


CATEGORIES = [
    ("match_apply_action (whole sync side)", ("match_apply_action ",)),
    ("  ORM queries (compile + execute)", ("SQLCompiler.execute_sql ",)),
    ("  SQL of game.rows (lock, seats, save)", ("lock_match ", "seats_of ", "save_match ")),
    ("  rules engine (apply)", ("apply (games/kut/engine/transitions.py)",)),
    ("  state (de)serialisation", ("MatchState.from_dict ", "MatchState.to_dict ")),
    ("  broadcast: frames + JSON", ("match_frame ", "frame_text", "JSONEncoder.encode ")),
    ("  broadcast: fan-out publish (Redis)", ("publish (kut_site/fanout.py)",)),
    ("per-user rate counter", ("user_request_allowed ",)),
    ("channel layer group_send (before the fan-out)", ("RedisChannelLayer.group_send ",)),
    ("channel layer receive (before the fan-out)", ("RedisChannelLayer.receive ",)),
    ("fan-out: subscription read + delivery", ("Hub._read ",)),
    ("close_old_connections hop per message", ("aclose_old_connections ",)),
    (
        "consumer frame -> socket send",
        (
            "MatchConsumer.match_frame",
            "MatchConsumer.fanout_deliver ",
            "WebSocketProtocol.serverSend ",
        ),
    ),
    ("websocket input -> consumer", ("WebSocketAdapterProtocol.dataReceived ",)),
    ("thread hand-offs (submit/notify)", ("ThreadPoolExecutor.submit ", "Condition.notify ")),
]


def categories(stacks, actions: int, rate: float) -> str:
    total = sum(n for _, n in stacks)
    out = [f"\nms per action ({actions} actions, {rate:g} samples/s, all threads; "
           f"total {1000 * total / rate / max(1, actions):.1f}):"]  # fmt: skip
    for label, names in CATEGORIES:
        n = 0
        for frames, count in stacks:
            keys = [_key(f) for f in frames]
            if any(k.startswith(names) for k in keys):
                n += count
        out.append(f"  {1000 * n / rate / max(1, actions):6.2f}  {label}")
    return "\n".join(out)


def load(path: str):
    stacks = []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or " " not in line:
                continue
            stack, _, count = line.rpartition(" ")
            try:
                n = int(count)
            except ValueError:
                continue
            frames = stack.split(";")
            stacks.append((frames, n))
    return stacks


def summarise(stacks, top: int, focus: str | None) -> str:
    total = 0
    threads: Counter = Counter()
    incl: Counter = Counter()
    self_: Counter = Counter()
    for frames, n in stacks:
        keys = [_key(f) for f in frames]
        if focus and not any(k.startswith(focus + " ") for k in keys):
            continue
        total += n
        thread = frames[0] if frames and frames[0].startswith(("thread", "process")) else "?"
        threads[thread.split(" ")[0] + " " + thread.split(" ")[-1]] += n
        for k in set(keys):
            incl[k] += n
        self_[keys[-1]] += n
    out = [f"{total} samples" + (f" through {focus}" if focus else "")]
    out.append("\nthreads:")
    out += [f"  {100 * n / total:5.1f}%  {t}" for t, n in threads.most_common(8)]
    out.append("\ninclusive:")
    out += [f"  {100 * n / total:5.1f}%  {k}" for k, n in incl.most_common(top)]
    out.append("\nself:")
    out += [f"  {100 * n / total:5.1f}%  {k}" for k, n in self_.most_common(top)]
    return "\n".join(out)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("path")
    p.add_argument("--top", type=int, default=30)
    p.add_argument("--focus")
    p.add_argument("--actions", type=int, help="measured actions of the run")
    p.add_argument("--rate", type=float, default=250.0, help="py-spy samples per second")
    args = p.parse_args(argv)
    stacks = load(args.path)
    print(summarise(stacks, args.top, args.focus))
    if args.actions:
        print(categories(stacks, args.actions, args.rate))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
