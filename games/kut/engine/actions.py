"""Action types and their wire form.

An action is a JSON object with a ``type``.  Tiles may be named by face (``"R7"``: any
copy of that face in the seat's rack, as in scenario files) or by the per-hand opaque
id (``tile_id`` / ``group_ids``, as the browser sends them).

``parse_action`` checks the *shape* only (types, sizes) and returns a normalised dict;
whether the action is allowed now is decided by ``transitions.apply``.
"""

from __future__ import annotations

from game.engine.errors import ActionFormatError
from games.okey.engine.rack import CELLS, VALID_SEPARATORS
from games.okey.engine.tiles import NotationError, parse_face

TURN_TYPES = (
    "take_discard", "draw", "open", "new_groups", "lay_off", "auto_lay_off", "undo",
    "discard", "timeout",
)  # fmt: skip
OUT_OF_TURN_TYPES = ("claim",)
LAYOUT_TYPES = ("layout", "move", "separator", "arrange")
ACTION_TYPES = TURN_TYPES + OUT_OF_TURN_TYPES + LAYOUT_TYPES

MAX_GROUPS = 16
MAX_GROUP_LEN = 13


def _face(value, field):
    try:
        return parse_face(value)
    except NotationError as exc:
        raise ActionFormatError("bad_action", f"{field}: {exc}") from None


def _tile_id(value, field):
    if not isinstance(value, str) or not 0 < len(value) <= 32:
        raise ActionFormatError("bad_action", f"{field} must be a tile id")
    return value


def _tile_ref(a: dict, out: dict) -> None:
    if "tile_id" in a:
        out["tile_id"] = _tile_id(a["tile_id"], "tile_id")
    elif "tile" in a:
        out["tile"] = _face(a["tile"], "tile")
    else:
        raise ActionFormatError("bad_action", "name the tile ('tile' or 'tile_id')")


def _groups(a: dict, out: dict) -> None:
    if "group_ids" in a:
        key, conv = "group_ids", _tile_id
    elif "groups" in a and a["groups"] is not None:
        key, conv = "groups", _face
    else:
        return  # use the rack's segments (K-O5)
    groups = a[key]
    if not isinstance(groups, list) or not groups or len(groups) > MAX_GROUPS:
        raise ActionFormatError("bad_action", f"{key} must be a non-empty list of groups")
    parsed = []
    for g in groups:
        if not isinstance(g, list) or not g or len(g) > MAX_GROUP_LEN:
            raise ActionFormatError("bad_action", "each group must be a list of 1–13 tiles")
        parsed.append([conv(t, key) for t in g])
    out[key] = parsed


def _int(value, lo, hi, field):
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ActionFormatError("bad_action", f"{field} must be an integer {lo}..{hi}")
    return value


def parse_action(a: object) -> dict:
    """Validate an action's shape and return it normalised; raises ActionFormatError."""
    if not isinstance(a, dict):
        raise ActionFormatError("bad_action", "an action must be a JSON object")
    kind = a.get("type")
    if not isinstance(kind, str):
        raise ActionFormatError("bad_action", "the action has no type")
    if kind not in ACTION_TYPES:
        raise ActionFormatError("unknown_action", f"unknown action type {kind[:40]!r}")
    out: dict = {"type": kind}
    if kind in ("open", "new_groups"):
        _groups(a, out)
    elif kind == "discard":
        _tile_ref(a, out)
    elif kind == "lay_off":
        _tile_ref(a, out)
        out["group"] = _int(a.get("group"), 0, 10_000, "group")
        end = a.get("end")
        if end is not None and end not in ("left", "right"):
            raise ActionFormatError("bad_action", "end must be 'left' or 'right'")
        out["end"] = end
    elif kind == "layout":
        cells = a.get("cells")
        if not isinstance(cells, list) or len(cells) != CELLS:
            raise ActionFormatError("bad_action", f"cells must be a list of {CELLS}")
        out["cells"] = [None if c is None else _tile_id(c, "cells") for c in cells]
        out["separators"] = _separators(a.get("separators", []))
    elif kind == "move":
        out["tile_id"] = _tile_id(a.get("tile_id"), "tile_id")
        out["to"] = _int(a.get("to"), 0, CELLS - 1, "to")
    elif kind == "separator":
        at = _int(a.get("at"), 0, CELLS - 2, "at")
        if at not in VALID_SEPARATORS:
            raise ActionFormatError("bad_action", "a separator cannot stand at a row end")
        out["at"] = at
    return out


def _separators(value) -> list[int]:
    if not isinstance(value, list) or len(value) > CELLS:
        raise ActionFormatError("bad_action", "separators must be a list of positions")
    seps = []
    for v in value:
        v = _int(v, 0, CELLS - 2, "separators")
        if v not in VALID_SEPARATORS:
            raise ActionFormatError("bad_action", "a separator cannot stand at a row end")
        seps.append(v)
    return seps


# The keys ``parse_action`` reads, per type; of alternatives, the first present wins
# (as in ``_tile_ref`` and ``_groups``).
_READ_KEYS = {
    "discard": (("tile_id", "tile"),),
    "lay_off": (("tile_id", "tile"), ("group",), ("end",)),
    "open": (("group_ids", "groups"),),
    "new_groups": (("group_ids", "groups"),),
    "layout": (("cells",), ("separators",)),
    "move": (("tile_id",), ("to",)),
    "separator": (("at",),),
}


def logged_form(a: dict) -> dict:
    """An accepted action as a log keeps it: the keys ``parse_action`` reads, with the
    values as sent (``parse_action`` has checked them), and nothing else.  Whatever
    else a client put in the object (junk keys, NUL characters, NaN, 16 KiB of
    padding) is ignored by the rules and must not reach the log either (PostgreSQL's
    jsonb refuses ``\\u0000`` and NaN: the move would fail after it was accepted)."""
    out = {"type": a["type"]}
    for alternatives in _READ_KEYS.get(a["type"], ()):
        for key in alternatives:
            if key in a:
                out[key] = a[key]
                break
    return out
