"""Versioned change frames: what changed since the frame a socket got last (issue 22).

A table's socket first gets a full snapshot (``{"type": "state", …}``, ``game.frames``);
after that, where the client asked for them (``/ws/match/<id>/?frames=change``), each
change of the match comes as ::

    {"type": "change", "base": [version, layout], "version": v, "layout": l,
     "ops": [[op, path, value?], …]}

``base`` names the frame the ops apply to (its shared ``version`` and the seat's own
``layout`` count); a client whose current frame is not exactly that one asks for a
snapshot (``{"type": "sync"}``) instead: the full snapshot stays the fallback on any gap,
reconnect or doubt.  The ops (deterministic, in the new frame's key order, deletions
last) are, with ``path`` a list of object keys and array indices from the frame's top:

* ``["s", path, value]`` — set (replace) the value at ``path``;
* ``["d", path]`` — delete the object key at ``path``;
* ``["a", path, items]`` — append ``items`` to the array at ``path``;
* ``["t", path, n]`` — truncate the array at ``path`` to its first ``n`` items.

Arrays of the same length are compared item by item; an array that grew by appending
(a finished hand's score lines) gets ``a``; any other change of an array replaces it.
``type``, ``version`` and ``layout`` are never in the ops (the change frame carries them).

Nothing here knows a game: every registered game's frames go through it.  The server
side is ``Entry``/``entry`` (``game.consumers.MatchConsumer.fanout_deliver``: each
process computes a part's change once, against the previous frame of that part it
delivered); the client side is ``FrameStream`` here (the load clients, the tests) and
its JavaScript twin ``static/js/frames.js`` (the table scripts).  Pure Python: no Django.
"""

from __future__ import annotations

import orjson

FRAME_KEYS = ("type", "version", "layout")  # carried by the change frame itself
_MISSING = object()


# --- the diff ---------------------------------------------------------------------------


def _same(a, b) -> bool:
    """JSON equality: Python's ``==`` (C speed) and, for equal containers, their JSON
    texts too (``==`` takes 0 for false and 1 for 1.0; the texts do not)."""
    if type(a) is not type(b) or a != b:
        return False
    if type(a) is dict or type(a) is list:
        return a is b or orjson.dumps(a) == orjson.dumps(b)
    return True


def _diff_dict(old: dict, new: dict, path: list, ops: list) -> None:
    get = old.get
    for k, v in new.items():
        ov = get(k, _MISSING)
        if ov is v:
            continue
        kind = v.__class__
        if ov.__class__ is kind and ov == v:  # _same, inlined: the hot loop
            if (kind is not dict and kind is not list) or orjson.dumps(ov) == orjson.dumps(v):
                continue
        elif ov is _MISSING:
            ops.append(["s", [*path, k], v])
            continue
        _diff_value(ov, v, [*path, k], ops)
    if old.keys() != new.keys():
        for k in old:
            if k not in new:
                ops.append(["d", [*path, k]])


def _diff_value(old, new, path: list, ops: list) -> None:
    if type(old) is dict and type(new) is dict:
        _diff_dict(old, new, path, ops)
    elif type(old) is list and type(new) is list:
        n, m = len(old), len(new)
        if m == n:
            for i in range(n):
                if not _same(old[i], new[i]):
                    _diff_value(old[i], new[i], [*path, i], ops)
        elif m > n and _same(old, new[:n]):
            ops.append(["a", path, new[n:]])
        elif m < n and _same(old[:m], new):
            ops.append(["t", path, m])
        else:
            ops.append(["s", path, new])
    else:
        ops.append(["s", path, new])


def diff(old: dict, new: dict) -> list:
    """The ops that turn frame ``old`` into frame ``new`` (without ``FRAME_KEYS``)."""
    ops: list = []
    for k, v in new.items():
        if k in FRAME_KEYS:
            continue
        ov = old.get(k, _MISSING)
        if ov is _MISSING:
            ops.append(["s", [k], v])
        elif not _same(ov, v):
            _diff_value(ov, v, [k], ops)
    for k in old:
        if k not in new and k not in FRAME_KEYS:
            ops.append(["d", [k]])
    return ops


def key_of(frame: dict) -> tuple[int, int]:
    """A frame's place in the order of a socket's frames: (version, layout)."""
    return (frame.get("version", -1), frame.get("layout") or 0)


def change_frame(old: dict, new: dict) -> dict:
    """The change frame from ``old`` (the frame the client holds) to ``new``."""
    return {
        "type": "change",
        "base": list(key_of(old)),
        "version": new.get("version"),
        "layout": new.get("layout") or 0,
        "ops": diff(old, new),
    }


# --- applying ---------------------------------------------------------------------------


def apply_ops(frame: dict, ops: list) -> dict:
    """A new frame: ``frame`` with ``ops`` applied.  ``frame`` itself is not changed
    (every container on a changed path is copied, the rest is shared).  Raises
    ``ValueError`` on ops that do not fit the frame."""
    root = dict(frame)
    owned = {id(root): root}  # containers copied for the new frame (kept alive here)

    def own(parent, key):
        child = parent[key]
        if id(child) in owned:
            return child
        if type(child) is dict:
            child = dict(child)
        elif type(child) is list:
            child = list(child)
        else:
            raise ValueError(f"not a container at {key!r}")
        parent[key] = child
        owned[id(child)] = child
        return child

    try:
        for op in ops:
            kind, path = op[0], op[1]
            if not path:
                raise ValueError("empty path")
            parent = root
            for key in path[:-1]:
                parent = own(parent, key)
            last = path[-1]
            if kind == "s":
                if type(parent) is list and not 0 <= last < len(parent):
                    raise ValueError("index out of range")
                parent[last] = op[2]
            elif kind == "d":
                del parent[last]
            elif kind == "a":
                own(parent, last).extend(op[2])
            elif kind == "t":
                del own(parent, last)[op[2] :]
            else:
                raise ValueError(f"unknown op {kind!r}")
    except (KeyError, IndexError, TypeError) as exc:
        raise ValueError(f"op does not fit the frame: {exc}") from None
    return root


def apply_frame(current: dict | None, frame: dict) -> dict | None:
    """The full frame after receiving ``frame``: a snapshot as it is; a change applied
    to ``current`` when ``current`` is exactly its base; None when it is not (the client
    then asks for a snapshot) or when ``frame`` is no state frame at all."""
    kind = frame.get("type")
    if kind == "state":
        return frame
    if kind != "change" or current is None:
        return None
    if list(key_of(current)) != list(frame.get("base") or ()):
        return None
    try:
        out = apply_ops(current, frame.get("ops") or [])
    except ValueError:
        return None
    out["type"] = "state"
    out["version"] = frame["version"]
    out["layout"] = frame["layout"]
    return out


class FrameStream:
    """One socket's frames on the client side: ``take`` turns every state or change
    frame into the full frame (None for a change that does not fit: ask for a
    snapshot).  ``current`` is the last frame received, whether or not the table used it
    (the server diffs against exactly what it sent this socket last)."""

    def __init__(self):
        self.current: dict | None = None
        self.misses = 0

    def take(self, frame: dict) -> dict | None:
        kind = frame.get("type")
        if kind not in ("state", "change"):
            return None
        full = apply_frame(self.current, frame)
        if full is None:
            self.misses += 1
        self.current = full  # after a miss nothing fits until the next snapshot
        return full


# --- the server side: one change per part and process ----------------------------------
#
# A fan-out part (``game.frames.frame_parts``) is ``[version, layout, me, match, hand]``:
# ``me`` as JSON text, ``match`` and ``hand`` as *pieces* (``pieces``: an object's values
# one JSON text per key, or the value's whole text when it is no object).  A process
# compares the pieces with the part's previous ones as strings — no parsing — and parses
# and diffs only a large piece that changed; the ops carry the new texts as they are.
# ``part_text`` joins the pieces into the frame's text.  The match's public part is the
# same in every part of a change: its ops are made once per change and process.

DEEP_BYTES = 200  # a changed piece longer than this is diffed inside (else sent whole)
_QUOTED: dict = {}


def _quoted(key: str) -> str:
    found = _QUOTED.get(key)
    if found is None:
        found = orjson.dumps(key).decode()
        if len(_QUOTED) < 10_000:
            _QUOTED[key] = found
    return found


def _dumps(value) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def pieces(value, memo: dict | None = None):
    """An object as ``{key: JSON text of its value}``; anything else as its JSON text.
    ``memo`` (id of a value -> its text) serialises a value shared by several objects
    once: the views of one move share their public part (``game.frames``)."""
    if type(value) is dict and all(type(k) is str for k in value):
        if memo is None:
            return {k: _dumps(v) for k, v in value.items()}
        out = {}
        for k, v in value.items():
            if type(v) in (dict, list):  # shared containers; scalars are cheap anyway
                found = memo.get(id(v))
                if found is None or found[0] is not v:
                    found = memo[id(v)] = (v, _dumps(v))
                out[k] = found[1]
            else:
                out[k] = _dumps(v)
        return out
    return _dumps(value)


def pieces_text(p) -> str:
    """The JSON text of ``pieces``."""
    if type(p) is str:
        return p
    return "{" + ",".join([f"{_quoted(k)}:{t}" for k, t in p.items()]) + "}"


def part_text(part) -> str:
    """The full frame text of a fan-out part."""
    return (f'{{"type":"state","version":{part[0]},"layout":{part[1]},'
            f'"match":{pieces_text(part[3])},"me":{part[2]},"hand":{pieces_text(part[4])}}}')  # fmt: skip


def _pieces_ops(old, new, top: str, ops: list) -> None:
    """Op texts from the pieces ``old`` to ``new`` of the frame's key ``top``."""
    if type(old) is str or type(new) is str:
        if old != new:
            ops.append(f'["s",["{top}"],{pieces_text(new)}]')
        return
    for k, t in new.items():
        ot = old.get(k)
        if ot is None:
            ops.append(f'["s",{_dumps([top, k])},{t}]')
        elif ot is t or ot == t:
            continue
        elif len(t) > DEEP_BYTES and len(ot) > DEEP_BYTES:
            sub: list = []
            _diff_value(orjson.loads(ot), orjson.loads(t), [top, k], sub)
            ops.extend(_dumps(op) for op in sub)
        else:
            ops.append(f'["s",{_dumps([top, k])},{t}]')
    if old.keys() != new.keys():
        for k in old:
            if k not in new:
                ops.append(f'["d",{_dumps([top, k])}]')


def _match_ops(memo: dict, old, new) -> list:
    """The op texts from one match's pieces to the next, once per change and process."""
    found = memo.get("match-ops")
    if found is not None and found[1] == new and found[0] == old:
        return found[2]
    ops: list = []
    _pieces_ops(old, new, "match", ops)
    memo["match-ops"] = (old, new, ops)
    return ops


class Entry:
    """The frame of one part of a topic (a seat, the watchers) as delivered last in this
    process, with the change from the one before (``base``), made on first demand."""

    __slots__ = ("key", "part", "base", "_text", "_change")

    def __init__(self, key, part: list, base: Entry | None):
        self.key = key
        self.part = part
        self.base = base
        self._text: str | None = None
        self._change: str | None | bool = False  # False: not made yet

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = part_text(self.part)
        return self._text

    def change_text(self, memo: dict) -> str | None:
        """The change frame's text from ``base``; None when there is no base or the
        change would be no smaller than the full frame."""
        if self._change is False:
            self._change = None
            base = self.base
            if base is not None:
                old, new = base.part, self.part
                ops = list(_match_ops(memo, old[3], new[3]))
                if old[2] != new[2]:
                    ops.append(f'["s",["me"],{new[2]}]')
                _pieces_ops(old[4], new[4], "hand", ops)
                text = (f'{{"type":"change","base":[{base.key[0]},{base.key[1]}],'
                        f'"version":{self.key[0]},"layout":{self.key[1]},"ops":[{",".join(ops)}]}}')  # fmt: skip
                if len(text) < 1000 or len(text) < len(self.text):
                    self._change = text
        return self._change


def entry(memo: dict, index, part: list) -> Entry | None:
    """The entry of ``part``, the new frame of part ``index`` (``memo``: this process's
    entries of the topic).  None when a newer frame of that part was delivered here
    already (this one came late)."""
    last = memo.get(index)
    if last is not None and last.part is part:
        return last  # another socket of the same part, the same message
    key = (part[0], part[1])
    if last is not None and key < last.key:
        return None
    if last is not None:
        last.base = None  # keep one step of history, not a chain
    new = Entry(key, part, last)
    memo[index] = new
    return new
