"""The KDVli solver command (``kdvli-scenario.md``, "The solver command"), reached
through ``python -m game.engine.solve`` with ``"game": "kdvli"``."""

from __future__ import annotations

from collections import Counter

from ..okey.tiles import FAKE, NotationError, face_name, okey_face, parse_face
from ..protocol import InputError
from .counting import MAX_TILES, count


class QueryError(InputError):
    pass


def parse_query(data) -> tuple[list[int], int]:
    """Validate a query; return ``(faces, okey)``."""
    if not isinstance(data, dict):
        raise QueryError("the query must be a JSON object")
    if data.get("game") != "kdvli":
        raise QueryError(f"unknown game {data.get('game')!r}")
    if "indicator" not in data:
        raise QueryError("missing field 'indicator'")
    try:
        indicator = parse_face(data["indicator"])
    except NotationError as exc:
        raise QueryError(f"indicator: {exc}") from None
    if indicator == FAKE:
        raise QueryError("the indicator cannot be a fake okey (V-D1)")
    if "tiles" not in data:
        raise QueryError("missing field 'tiles'")
    tiles = data["tiles"]
    if not isinstance(tiles, list):
        raise QueryError("'tiles' must be a list of tile names")
    if len(tiles) > MAX_TILES:
        raise QueryError(f"at most {MAX_TILES} tiles, got {len(tiles)}")
    faces = []
    for name in tiles:
        try:
            faces.append(parse_face(name))
        except NotationError as exc:
            raise QueryError(str(exc)) from None
    counts = Counter(faces)
    counts[indicator] += 1  # the indicator is one of its face's two copies (V-T2)
    for face, n in counts.items():
        if n > 2:
            extra = " counting the indicator" if face == indicator else ""
            raise QueryError(f"{face_name(face)} appears {n} times{extra}; at most 2 exist (V-T1)")
    return faces, okey_face(indicator)


def _names(faces) -> list[str]:
    return [face_name(f) for f in faces]


def answer(faces: list[int], okey: int) -> dict:
    c = count(faces, okey)
    return {
        "points": c.points,
        "runs_points": c.runs_points,
        "groups": [_names(g) for g in c.groups],
        "left": sorted(_names(c.left)),
        "pairs_points": c.pairs_points,
        "pairs": [_names(p) for p in c.pairs],
        "pairs_left": sorted(_names(c.pairs_left)),
        "counted": c.counted,
    }


def run_query(data) -> dict:
    return answer(*parse_query(data))
