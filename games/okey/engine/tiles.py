"""Tiles, faces and notation of the okey family (kut.md section 1, kdvli.md V-T1…V-T7).

Shared by KÜT and KDVli Okey (``games/okey/engine/``); ``games.okey.engine.tiles`` re-exports it.

Two levels of identity are used throughout the engine:

* a **face** is a colour–number (or the fake okey): an ``int`` in ``0..52``.
  ``face = colour * 13 + (number - 1)`` for the 52 coloured faces, ``FAKE = 52``.
* a **tile** is one physical tile of the 106 (K-T1): an ``int`` in ``0..105``.
  Tiles ``2f`` and ``2f + 1`` are the two copies of face ``f`` (``f < 52``);
  tiles ``104`` and ``105`` are the two fake okeys.

Faces are public notation (``R7``, ``F``, K-T2).  Tile numbers are internal and
never leave the server: clients see per-hand opaque ids instead (K-T7).
"""

from __future__ import annotations

COLOURS = "RYBK"  # red, yellow, blue, blacK (K-T2)
COLOUR_NAMES = ("red", "yellow", "blue", "black")
FAKE = 52  # the fake okey's face
NUM_FACES = 53
NUM_TILES = 106
ALL_TILES = tuple(range(NUM_TILES))


class NotationError(ValueError):
    """A tile name that is not valid notation (K-T2)."""


def face_of(tile: int) -> int:
    """The face of a physical tile."""
    return FAKE if tile >= 104 else tile >> 1


def colour_of(face: int) -> int:
    """Colour index 0..3 of a coloured face."""
    return face // 13


def number_of(face: int) -> int:
    """Number 1..13 of a coloured face."""
    return face % 13 + 1


def make_face(colour: int, number: int) -> int:
    return colour * 13 + number - 1


def copies_of(face: int) -> tuple[int, int]:
    """The two physical tiles that show ``face``."""
    if face == FAKE:
        return (104, 105)
    return (2 * face, 2 * face + 1)


def okey_face(indicator_face: int) -> int:
    """The real okey's face for an indicator (K-T4): same colour, next number, 13 → 1."""
    if indicator_face == FAKE:
        raise NotationError("the indicator cannot be a fake okey")
    colour, number = colour_of(indicator_face), number_of(indicator_face)
    return make_face(colour, 1 if number == 13 else number + 1)


def face_name(face: int) -> str:
    """``R7`` / ``F`` notation (K-T2)."""
    if face == FAKE:
        return "F"
    return f"{COLOURS[colour_of(face)]}{number_of(face)}"


def tile_name(tile: int) -> str:
    return face_name(face_of(tile))


_NAME_TO_FACE = {face_name(f): f for f in range(NUM_FACES)}


def parse_face(name: object) -> int:
    """Parse ``R7`` / ``F`` into a face; raises NotationError.  Exactly K-T2's notation:
    capital colour letter and number, no spaces (``r7`` or `` R7`` is not notation, and a
    scenario holding it is malformed)."""
    if not isinstance(name, str):
        raise NotationError(f"a tile must be written as text like 'R7', not {name!r}"[:200])
    face = _NAME_TO_FACE.get(name)
    if face is None:
        raise NotationError(f"unknown tile {name[:40]!r}")
    return face


def face_sort_key(face: int) -> int:
    """Output order: by colour R, Y, B, K then F; then by number."""
    return face


def face_points(face: int, okey: int) -> int:
    """Points of a face left in hand (K-S3): its number; a fake okey counts the okey's
    fixed number (K-T6).  Real okeys are handled by the caller (K-S4)."""
    if face == FAKE:
        return number_of(okey)
    return number_of(face)
