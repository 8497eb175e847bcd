"""Small helpers for the Kastet engine tests."""

from __future__ import annotations

from games.kastet.engine.deal import hand_from_faces
from games.okey.engine.tiles import parse_face


def faces(*names: str) -> list[int]:
    return [parse_face(n) for n in names]


def position(racks, deck=(), table=(), pairs=(), indicator="R7", starter=0, partners=False):
    """A hand from a position written in notation."""
    return hand_from_faces(
        starter, parse_face(indicator), [faces(*r) for r in racks], faces(*deck),
        [faces(*g) for g in table], [faces(*p) for p in pairs], partners,
    )  # fmt: skip
