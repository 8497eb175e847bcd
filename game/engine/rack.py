"""KÜT's rack module: the okey family's shared rack (``game/engine/okey/rack.py``), kept
importable under its old name."""

from __future__ import annotations

from .okey.rack import CELLS, ROW, VALID_SEPARATORS, Rack  # noqa: F401
