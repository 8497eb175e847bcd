"""The KDVli solver command (``kdvli-scenario.md``, "The solver command"), reached
through ``python -m game.engine.solve`` with ``"game": "kdvli"``."""

from __future__ import annotations

from game.engine.scenario_input import QueryError
from games.kdvli.engine.counting import MAX_TILES, count
from games.okey.engine.scenario import query_faces, query_indicator
from games.okey.engine.tiles import face_name, okey_face


def parse_query(data) -> tuple[list[int], int]:
    """Validate a query; return ``(faces, okey)``."""
    if not isinstance(data, dict):
        raise QueryError("the query must be a JSON object")
    if data.get("game") != "kdvli":
        raise QueryError(f"unknown game {data.get('game')!r}")
    indicator = query_indicator(data, "V-D1")
    if "tiles" not in data:
        raise QueryError("missing field 'tiles'")
    tiles = data["tiles"]
    if not isinstance(tiles, list):
        raise QueryError("'tiles' must be a list of tile names")
    if len(tiles) > MAX_TILES:
        raise QueryError(f"at most {MAX_TILES} tiles, got {len(tiles)}")
    # the indicator is one of its face's two copies (V-T2)
    return query_faces(tiles, indicator, "V-T1"), okey_face(indicator)


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
