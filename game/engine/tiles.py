"""KÜT's tile module: the okey family's shared tiles (``game/engine/okey/tiles.py``),
kept importable under its old name."""

from __future__ import annotations

from .okey.tiles import (  # noqa: F401
    _NAME_TO_FACE,
    ALL_TILES,
    COLOUR_NAMES,
    COLOURS,
    FAKE,
    NUM_FACES,
    NUM_TILES,
    NotationError,
    colour_of,
    copies_of,
    face_name,
    face_of,
    face_points,
    face_sort_key,
    make_face,
    number_of,
    okey_face,
    parse_face,
    tile_name,
)
